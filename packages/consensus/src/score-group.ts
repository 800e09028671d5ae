import type { Hotkey, Uid } from '@subnet/core';
import { compareCodePoints } from '@subnet/core';

import type { ConsensusExplanation, ConsensusResult, MemberConsensus, Role } from './consensus-types.js';
import type { DocumentSets } from './document-sets.js';
import { decode, encode2 } from './document-sets.js';
import { explainMember } from './explain-member.js';
import type { GroupView, MemberView } from './explain-member.js';
import type { FreshGroup, FreshIds } from './fresh-sets.js';
import type { Tally } from './group-tally.js';
import { coverage, groupItems, intersectionSize, jaccard, majorityMask, memberSize, tally, tallyIds } from './group-tally.js';
import { compareKeys, keyPrefix } from './key-order.js';
import { MIN_GROUP_SIZE, majorityThreshold } from './majority.js';
import { sortSmall } from './small-sort.js';
import type { Verdict } from './sssa-schema.js';

/**
 * The weights of the seven components (seed B, SPEC section B). They sum to 1; the consensus is
 * `0.30·recall + 0.15·precision + 0.15·verdict + 0.15·capabilities + 0.10·risk + 0.10·dependencies +
 * 0.05·policy`, evaluated left to right and clamped to [0, 1].
 *
 * @example CONSENSUS_WEIGHTS.findingsRecall // 0.3
 */
export const CONSENSUS_WEIGHTS = Object.freeze({
  findingsRecall: 0.3,
  findingsPrecision: 0.15,
  verdictAgreement: 0.15,
  capabilitiesAgreement: 0.15,
  riskAgreement: 0.1,
  dependenciesAgreement: 0.1,
  policyAgreement: 0.05,
});

/** Internal: a valid member, its document reduced to sets. */
export interface PreparedMember {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  readonly role: Role;
  readonly sets: DocumentSets;
}

function compareTuples(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const c = compareCodePoints(a[i] ?? '', b[i] ?? '');
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/** The parts of an item of a fresh group's table (a dependency `a, b`; a CVE or rule `a, b, c`). */
interface ItemParts {
  readonly a: string;
  readonly b: string;
  readonly c: string;
}

/**
 * The group set's items as tuples of `width` parts, sorted: read from the fresh group's table entries
 * (`parts`, by id) when given, else decoded from their encoded names.
 */
function sortedTuples(t: Tally, inGroup: Uint8Array, width: 2 | 3, parts: readonly ItemParts[] | undefined): string[][] {
  const out: string[][] = [];
  for (let id = 0; id < t.names.length; id++) {
    if (inGroup[id] !== 1) continue;
    const p = parts?.[id];
    out.push(p === undefined ? decode(t.names[id] ?? '') : width === 2 ? [p.a, p.b] : [p.a, p.b, p.c]);
  }
  return sortSmall(out, compareTuples);
}

function groupVerdict(counts: Readonly<Record<Verdict, number>>): Verdict {
  const top = Math.max(counts.ALLOW, counts.BLOCK, counts.REVIEW);
  const leaders = (['ALLOW', 'BLOCK', 'REVIEW'] as const).filter((v) => counts[v] === top);
  return leaders.length === 1 && leaders[0] !== undefined ? leaders[0] : 'REVIEW';
}

/** What the explanation of a member is written from, until it is first read; then the sentences. */
interface PendingExplanation {
  readonly view: GroupView;
  readonly member: MemberView;
  sentences: ConsensusExplanation | undefined;
}

/**
 * Where a member keeps its pending or written explanation: a non-enumerable property under a
 * module-private symbol, which JSON, `Object.keys`, spreads, `structuredClone` and deep equality skip.
 * (A WeakMap keyed by the member would do the same, but its entries outlive young-generation collections
 * and made every scavenge copy the pending sentences' groups: 20-40 ms scavenges.)
 */
const PENDING = Symbol('pending explanation');

/** The one getter every member's `explanation` shares: writes the sentences on first read, then returns the same frozen object. */
function readExplanation(this: unknown): ConsensusExplanation | null {
  // Read through a member (a spread, JSON, structuredClone and deep equality all do); an unbound call has none.
  if (typeof this !== 'object' || this === null) return null;
  const pending = (this as { [PENDING]?: PendingExplanation })[PENDING];
  if (pending === undefined) return null;
  return (pending.sentences ??= explainMember(pending.view, pending.member));
}

/**
 * `member.explanation` as an enumerable accessor that writes the sentences when first read and returns the
 * same frozen object after that (a validator that only needs the numbers never pays for the text). It
 * reads like a data property: `JSON.stringify`, spreads, `structuredClone` and deep equality see the
 * sentences. The accessor is added as a new property with one shared getter (its state under a symbol), so
 * every member keeps one hidden class in V8's fast mode; redefining a data property, or a getter closure
 * per member, sends each member to dictionary mode.
 */
const EXPLANATION_ACCESSOR: PropertyDescriptor = Object.freeze({ enumerable: true, configurable: false, get: readExplanation });

/** Group key sets up to this size are sorted by insertion (a group mostly agrees on a few dozen findings). */
const INSERTION_SORT_KEYS = 32;

/**
 * The ids of the group's finding keys, sorted by key as `Array.prototype.sort` orders strings: by their
 * first eight hex digits as numbers (`orders`, by id, when the fresh group has them), then as strings
 * (key-order.ts). Insertion sort for a few dozen keys; past {@link INSERTION_SORT_KEYS}, the native sort, so
 * that members who agree on tens of thousands of findings cost n log n, not n^2 (50,000 keys took 4.3 s by
 * insertion). The keys are distinct, so both give the one order.
 */
function sortedKeyIds(names: readonly string[], inGroup: Uint8Array, orders: readonly number[] | undefined): number[] {
  const ids: number[] = [];
  const prefix: number[] = [];
  for (let id = 0; id < names.length; id++) {
    if (inGroup[id] !== 1) continue;
    ids.push(id);
    prefix.push(orders?.[id] ?? keyPrefix(names[id] ?? ''));
  }
  if (ids.length > INSERTION_SORT_KEYS) {
    const prefixOf = new Float64Array(names.length);
    for (let k = 0; k < ids.length; k++) prefixOf[ids[k] ?? 0] = prefix[k] ?? 0;
    return ids.sort((a, b) => compareKeys(prefixOf[a] ?? 0, names[a] ?? '', prefixOf[b] ?? 0, names[b] ?? ''));
  }
  for (let i = 1; i < ids.length; i++) {
    const id = ids[i] ?? 0;
    const order = prefix[i] ?? 0;
    const name = names[id] ?? '';
    let j = i - 1;
    while (j >= 0 && compareKeys(prefix[j] ?? 0, names[ids[j] ?? 0] ?? '', order, name) > 0) {
      ids[j + 1] = ids[j] ?? 0;
      prefix[j + 1] = prefix[j] ?? 0;
      j--;
    }
    ids[j + 1] = id;
    prefix[j + 1] = order;
  }
  return ids;
}

const byUid = (a: PreparedMember, b: PreparedMember): number => a.uid - b.uid;
const byHotkeyOrder = (a: PreparedMember, b: PreparedMember): number => (a.hotkey < b.hotkey ? -1 : a.hotkey > b.hotkey ? 1 : 0);

/** SPEC B v1.1: the risk mean is summed in hotkey order (code points), then divided by n. */
function riskMeanInHotkeyOrder(members: readonly PreparedMember[]): number {
  // Hotkeys are SS58 text (base58 digits, ASCII): code-unit order is code-point order, so the native
  // comparison gives compareCodePoints' order without its per-character loop.
  const byHotkey = sortSmall([...members], byHotkeyOrder);
  let sum = 0;
  for (const m of byHotkey) sum += m.sets.risk;
  return sum / members.length;
}

/** The five tallies of a group, and the dependency id of each CVE id (`undefined`: no member lists it). */
interface GroupTallies {
  readonly keys: Tally;
  readonly capabilities: Tally;
  readonly dependencies: Tally;
  readonly cves: Tally;
  readonly rules: Tally;
  readonly dependencyOfCve: (cve: number) => number | undefined;
  /** A fresh group's table entries of dependencies, CVEs and rules, by id (their parts need no decoding). */
  readonly parts?: { readonly dependencies: readonly ItemParts[]; readonly cves: readonly ItemParts[]; readonly rules: readonly ItemParts[] };
  /** A fresh group's {@link keyPrefix} of each finding key, by id. */
  readonly keyOrders?: readonly number[];
}

/** Tallies of the members' sets by their text (any mix of parsed and raw documents). */
function textTallies(prepared: readonly PreparedMember[]): GroupTallies {
  const dependencyIndex = new Map<string, number>();
  const dependencies = tally(
    prepared.map((m) => m.sets.dependencies),
    undefined,
    dependencyIndex,
  );
  const cves = tally(prepared.map((m) => m.sets.cves));
  return {
    keys: tally(
      prepared.map((m) => m.sets.keys),
      prepared.map((m) => m.sets.preimages),
    ),
    capabilities: tally(prepared.map((m) => m.sets.capabilities)),
    dependencies,
    cves,
    rules: tally(prepared.map((m) => m.sets.rules)),
    dependencyOfCve: (id) => {
      const [name = '', version = ''] = decode(cves.names[id] ?? '');
      return dependencyIndex.get(encode2(name, version));
    },
  };
}

/**
 * Tallies by the ids of the group's fresh-document tables, when every member's sets came from `fresh`
 * (the items are already interned there: no text is hashed again); otherwise `undefined`.
 */
function freshTallies(prepared: readonly PreparedMember[], fresh: FreshGroup): GroupTallies | undefined {
  const ids: FreshIds[] = [];
  for (const m of prepared) {
    const found = fresh.documents.get(m.sets);
    if (found === undefined) return undefined;
    ids.push(found);
  }
  return {
    keys: tallyIds(
      fresh.findings.values,
      ids.map((d) => d.keys),
      fresh.preimages,
    ),
    capabilities: tallyIds(
      fresh.capabilities.values,
      ids.map((d) => d.capabilities),
    ),
    dependencies: tallyIds(
      fresh.dependencies.values,
      ids.map((d) => d.dependencies),
    ),
    cves: tallyIds(
      fresh.cves.values,
      ids.map((d) => d.cves),
    ),
    rules: tallyIds(
      fresh.rules.values,
      ids.map((d) => d.rules),
    ),
    dependencyOfCve: (id) => fresh.cveDependency[id],
    parts: { dependencies: fresh.dependencies.all, cves: fresh.cves.all, rules: fresh.rules.all },
    keyOrders: fresh.orders,
  };
}

/**
 * Internal: scores valid members against each other (SPEC section B). `members` hold distinct uids and
 * hotkeys; they are returned sorted by uid. `explain` false leaves every `explanation` null.
 */
export function scoreGroup(taskId: string, taskType: string | null, input: readonly PreparedMember[], explain: boolean, fresh?: FreshGroup): ConsensusResult {
  const prepared = sortSmall([...input], byUid);
  const n = prepared.length;

  if (n < MIN_GROUP_SIZE) {
    return Object.freeze({
      taskId,
      taskType,
      n,
      group: null,
      members: Object.freeze(
        prepared.map((m) =>
          Object.freeze({ uid: m.uid, hotkey: m.hotkey, role: m.role, consensus: null, components: null, explanation: null, keys: m.sets.keys }),
        ),
      ),
    });
  }

  const threshold = majorityThreshold(n);
  const { keys, capabilities, dependencies, cves, rules, dependencyOfCve, parts, keyOrders } =
    (fresh !== undefined ? freshTallies(prepared, fresh) : undefined) ?? textTallies(prepared);
  const groupKeys = majorityMask(keys, threshold);
  const groupCapabilities = majorityMask(capabilities, threshold);
  const groupDependencies = majorityMask(dependencies, threshold);
  const groupRules = majorityMask(rules, threshold);
  // G_cves: majority CVE keys whose dependency is in G_deps.
  const groupCves = majorityMask(cves, threshold);
  for (let id = 0; id < cves.names.length; id++) {
    if (groupCves.inGroup[id] !== 1) continue;
    const dependency = dependencyOfCve(id);
    if (dependency === undefined || groupDependencies.inGroup[dependency] !== 1) {
      groupCves.inGroup[id] = 0;
      groupCves.size--;
    }
  }
  const verdictCounts: Record<Verdict, number> = { ALLOW: 0, BLOCK: 0, REVIEW: 0 };
  for (const m of prepared) verdictCounts[m.sets.verdict] += 1;
  const verdict = groupVerdict(verdictCounts);
  const riskMean = riskMeanInHotkeyOrder(prepared);
  const groupKeyCount = groupKeys.size;
  const view: GroupView = {
    n,
    keys,
    groupKeys,
    capabilities,
    groupCapabilities,
    dependencies,
    groupDependencies,
    cves,
    groupCves,
    rules,
    groupRules,
    verdict,
    verdictCounts,
    riskMean,
  };

  const members: MemberConsensus[] = prepared.map((m, i) => {
    const ownKeys = memberSize(keys, i);
    const matched = intersectionSize(keys, groupKeys.inGroup, i);
    const findingsRecall = groupKeyCount === 0 ? 1 : matched / groupKeyCount;
    const findingsPrecision = ownKeys === 0 ? (groupKeyCount === 0 ? 1 : 0) : matched / ownKeys;
    const verdictAgreement = m.sets.verdict === verdict ? 1 : m.sets.verdict === 'REVIEW' ? 0.5 : 0;
    const capabilitiesAgreement = jaccard(capabilities, groupCapabilities, i);
    const riskAgreement = Math.max(0, 1 - Math.abs(m.sets.risk - riskMean));
    const dependenciesAgreement = 0.5 * coverage(dependencies, groupDependencies, i) + 0.5 * coverage(cves, groupCves, i);
    const policyAgreement = jaccard(rules, groupRules, i);
    const sum =
      CONSENSUS_WEIGHTS.findingsRecall * findingsRecall +
      CONSENSUS_WEIGHTS.findingsPrecision * findingsPrecision +
      CONSENSUS_WEIGHTS.verdictAgreement * verdictAgreement +
      CONSENSUS_WEIGHTS.capabilitiesAgreement * capabilitiesAgreement +
      CONSENSUS_WEIGHTS.riskAgreement * riskAgreement +
      CONSENSUS_WEIGHTS.dependenciesAgreement * dependenciesAgreement +
      CONSENSUS_WEIGHTS.policyAgreement * policyAgreement;
    const components = Object.freeze({
      findingsRecall,
      findingsPrecision,
      verdictAgreement,
      capabilitiesAgreement,
      riskAgreement,
      dependenciesAgreement,
      policyAgreement,
    });
    const consensus = Math.min(1, Math.max(0, sum));
    if (!explain) return Object.freeze({ uid: m.uid, hotkey: m.hotkey, role: m.role, consensus, components, explanation: null, keys: m.sets.keys });
    // The same key order as above: explanation between components and keys.
    const member = { uid: m.uid, hotkey: m.hotkey, role: m.role, consensus, components } as Record<string, unknown>;
    Object.defineProperty(member, 'explanation', EXPLANATION_ACCESSOR);
    member.keys = m.sets.keys;
    const pending: PendingExplanation = { view, member: { index: i, verdict: m.sets.verdict, risk: m.sets.risk, riskAgreement }, sentences: undefined };
    Object.defineProperty(member, PENDING, { value: pending, enumerable: false, writable: false, configurable: false });
    return Object.freeze(member) as unknown as MemberConsensus;
  });

  const findingIds = sortedKeyIds(keys.names, groupKeys.inGroup, keyOrders);

  return Object.freeze({
    taskId,
    taskType,
    n,
    group: Object.freeze({
      n,
      majority: threshold,
      findingKeys: Object.freeze(findingIds.map((id) => keys.names[id] ?? '')),
      findings: Object.freeze(findingIds.map((id) => Object.freeze({ key: keys.names[id] ?? '', preimage: keys.payloads[id] ?? '' }))),
      verdict,
      verdictCounts: Object.freeze(verdictCounts),
      capabilities: Object.freeze(sortSmall(groupItems(capabilities, groupCapabilities.inGroup), compareCodePoints)),
      riskMean,
      dependencies: Object.freeze(
        sortedTuples(dependencies, groupDependencies.inGroup, 2, parts?.dependencies).map(([name = '', version = '']) =>
          Object.freeze({ package: name, version }),
        ),
      ),
      cves: Object.freeze(
        sortedTuples(cves, groupCves.inGroup, 3, parts?.cves).map(([name = '', version = '', cve = '']) => Object.freeze({ package: name, version, cve })),
      ),
      policyRules: Object.freeze(
        sortedTuples(rules, groupRules.inGroup, 3, parts?.rules).map(([resource = '', action = '', pattern = '']) =>
          Object.freeze({ resource, action, pattern }),
        ),
      ),
    }),
    members: Object.freeze(members),
  });
}
