import type { Hotkey, Uid } from '@subnet/core';
import { compareCodePoints, DEFAULT_INPUT_LIMITS, parseInput, uidSchema } from '@subnet/core';
import { z } from 'zod';

import { CONSENSUS_ERROR_CODES } from './errors.js';
import type { DocumentSets } from './document-sets.js';
import { computeDocumentSets, decode, encode2, trustedDocumentSets } from './document-sets.js';
import { isValidHotkey, memoHotkeySchema } from './hotkey.js';
import { MIN_GROUP_SIZE, majorityThreshold } from './majority.js';
import type { Verdict } from './sssa-schema.js';
import { validateSssa } from './parse-sssa.js';

/** The role a miner plays in a verification group. */
export type Role = 'primary' | 'auditor';

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

/** One member of a group, as given to {@link computeConsensus}. */
export interface ConsensusMemberInput {
  /** The miner's uid (0..65535). */
  readonly uid: number;
  /** The miner's SS58 hotkey (checksum verified). */
  readonly hotkey: string;
  /** `primary` or `auditor`: both count alike in consensus; the role matters for emission only. */
  readonly role: Role;
  /** The miner's SSSA document (wire format, validated here). */
  readonly sssa: unknown;
}

/** Input of {@link computeConsensus}. */
export interface ConsensusInput {
  /** The task the group attested (echoed in the result). */
  readonly taskId: string;
  /** The valid SSSAs gathered for the task, one per miner, in any order. */
  readonly members: readonly ConsensusMemberInput[];
}

/** The seven agreement components of one member, each in [0, 1]. */
export interface ConsensusComponents {
  readonly findingsRecall: number;
  readonly findingsPrecision: number;
  readonly verdictAgreement: number;
  readonly capabilitiesAgreement: number;
  readonly riskAgreement: number;
  readonly dependenciesAgreement: number;
  readonly policyAgreement: number;
}

/** A (package, version) dependency key: package trimmed and lowercased, version trimmed. */
export interface DependencyKey {
  readonly package: string;
  readonly version: string;
}

/** A CVE key: the dependency key plus the CVE id trimmed and uppercased. */
export interface CveKey {
  readonly package: string;
  readonly version: string;
  readonly cve: string;
}

/** A policy rule key: resource and action trimmed and lowercased, pattern trimmed. */
export interface PolicyRuleKey {
  readonly resource: string;
  readonly action: string;
  readonly pattern: string;
}

/** The group's majority sets and shared values (every set sorted, see the README). */
export interface ConsensusGroup {
  /** Number of members. */
  readonly n: number;
  /** How many members must report an item for it to be in a group set (`floor(n/2) + 1`). */
  readonly majority: number;
  /** Canonical finding keys reported by a majority, sorted. */
  readonly findingKeys: readonly string[];
  /** The most frequent verdict; REVIEW on a tie for most frequent. */
  readonly verdict: Verdict;
  /** How many members gave each verdict. */
  readonly verdictCounts: Readonly<Record<Verdict, number>>;
  /** Capabilities (trimmed, lowercased) reported by a majority, sorted by code point. */
  readonly capabilities: readonly string[];
  /** Mean risk_score of all members, summed in ascending uid order. */
  readonly riskMean: number;
  /** Dependency keys reported by a majority, sorted by package then version. */
  readonly dependencies: readonly DependencyKey[];
  /** CVE keys reported by a majority whose dependency is in `dependencies`, sorted by package, version, cve. */
  readonly cves: readonly CveKey[];
  /** Policy rule keys reported by a majority, sorted by resource, action, pattern. */
  readonly policyRules: readonly PolicyRuleKey[];
}

/** One member's outcome. */
export interface MemberConsensus {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  readonly role: Role;
  /** The consensus score in [0, 1], or `null` when the group has fewer than 3 members. */
  readonly consensus: number | null;
  /** The seven components, or `null` when the group has fewer than 3 members. */
  readonly components: ConsensusComponents | null;
  /** This member's distinct canonical finding keys, sorted. */
  readonly keys: readonly string[];
}

/** The result of {@link computeConsensus} (frozen). */
export interface ConsensusResult {
  readonly taskId: string;
  /** Number of members. */
  readonly n: number;
  /** The group sets, or `null` when n < 3 (no consensus is computed). */
  readonly group: ConsensusGroup | null;
  /** One entry per member, sorted by uid. */
  readonly members: readonly MemberConsensus[];
}

const memberShellSchema = z.object({
  uid: uidSchema,
  hotkey: memoHotkeySchema,
  role: z.enum(['primary', 'auditor']),
  sssa: z.unknown(),
});

const groupShellSchema = z.object({
  taskId: z.string().refine((s) => s.trim() !== '', 'taskId must not be empty or blank'),
  members: z.array(memberShellSchema).superRefine((members, ctx) => {
    const uids = new Set<number>();
    const hotkeys = new Set<string>();
    members.forEach((member, i) => {
      if (uids.has(member.uid)) ctx.addIssue({ code: 'custom', message: 'duplicate uid in the group', path: [i, 'uid'] });
      if (hotkeys.has(member.hotkey)) {
        ctx.addIssue({ code: 'custom', message: 'duplicate hotkey in the group', path: [i, 'hotkey'] });
      }
      uids.add(member.uid);
      hotkeys.add(member.hotkey);
    });
  }),
});

interface ShellMember {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  readonly role: Role;
  readonly sssa: unknown;
}

interface Shell {
  readonly taskId: string;
  readonly members: readonly ShellMember[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The group shell when it is plainly valid, checked without zod (the same rules as `groupShellSchema`,
 * the same memoised hotkey check); `undefined` on anything else, and `groupShellSchema` then decides and
 * names the error. It only ever accepts what the schema accepts.
 */
function plainShell(input: unknown): Shell | undefined {
  if (!isRecord(input)) return undefined;
  const { taskId, members } = input;
  if (typeof taskId !== 'string' || taskId.trim() === '' || !Array.isArray(members)) return undefined;
  const out: ShellMember[] = [];
  const uids = new Set<number>();
  const hotkeys = new Set<string>();
  for (let i = 0; i < members.length; i++) {
    const member: unknown = members[i];
    if (!isRecord(member)) return undefined;
    const { uid, hotkey, role, sssa } = member;
    if (typeof uid !== 'number' || !Number.isSafeInteger(uid) || uid < 0 || uid > 65535) return undefined;
    if (typeof hotkey !== 'string' || !isValidHotkey(hotkey)) return undefined;
    if (role !== 'primary' && role !== 'auditor') return undefined;
    if (uids.has(uid) || hotkeys.has(hotkey)) return undefined;
    uids.add(uid);
    hotkeys.add(hotkey);
    out.push({ uid: uid as Uid, hotkey: hotkey as Hotkey, role, sssa });
  }
  return { taskId, members: out };
}

interface Prepared {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  readonly role: Role;
  readonly sets: DocumentSets;
}

/**
 * One kind of item (finding keys, capabilities, ...) across a group, interned to small integers:
 * `ids[offsets[m] .. offsets[m + 1])` are member m's items, `counts[id]` how many members reported item
 * `id` (each member counts an item once: its list holds distinct items), `names[id]` the item.
 */
interface Tally {
  readonly index: Map<string, number>;
  readonly names: string[];
  readonly counts: number[];
  readonly ids: Int32Array;
  readonly offsets: Int32Array;
}

function tally(lists: readonly (readonly string[])[]): Tally {
  let total = 0;
  for (const list of lists) total += list.length;
  const index = new Map<string, number>();
  const names: string[] = [];
  const counts: number[] = [];
  const ids = new Int32Array(total);
  const offsets = new Int32Array(lists.length + 1);
  let at = 0;
  for (let m = 0; m < lists.length; m++) {
    offsets[m] = at;
    for (const item of lists[m] ?? []) {
      let id = index.get(item);
      if (id === undefined) {
        id = names.length;
        index.set(item, id);
        names.push(item);
        counts.push(1);
      } else {
        counts[id] = (counts[id] ?? 0) + 1;
      }
      ids[at++] = id;
    }
  }
  offsets[lists.length] = at;
  return { index, names, counts, ids, offsets };
}

/** `inGroup[id]` = 1 when item `id` is reported by at least `threshold` members; returns the group size too. */
function majorityMask(t: Tally, threshold: number): { readonly inGroup: Uint8Array; readonly size: number } {
  const inGroup = new Uint8Array(t.names.length);
  let size = 0;
  for (let id = 0; id < t.names.length; id++) {
    if ((t.counts[id] ?? 0) >= threshold) {
      inGroup[id] = 1;
      size++;
    }
  }
  return { inGroup, size };
}

/** |M ∩ G| for member m. */
function intersectionSize(t: Tally, inGroup: Uint8Array, m: number): number {
  let count = 0;
  const end = t.offsets[m + 1] ?? 0;
  for (let at = t.offsets[m] ?? 0; at < end; at++) count += inGroup[t.ids[at] ?? 0] ?? 0;
  return count;
}

/** |M| for member m. */
function memberSize(t: Tally, m: number): number {
  return (t.offsets[m + 1] ?? 0) - (t.offsets[m] ?? 0);
}

/** |M ∩ G| / |G|, 1.0 when G is empty. */
function coverage(t: Tally, inGroup: Uint8Array, groupSize: number, m: number): number {
  return groupSize === 0 ? 1 : intersectionSize(t, inGroup, m) / groupSize;
}

/** Jaccard |M ∩ G| / |M ∪ G|, 1.0 when both are empty. */
function jaccard(t: Tally, inGroup: Uint8Array, groupSize: number, m: number): number {
  const inter = intersectionSize(t, inGroup, m);
  const union = memberSize(t, m) + groupSize - inter;
  return union === 0 ? 1 : inter / union;
}

/** The group's items (names where `inGroup` is set), in first-seen order. */
function groupItems(t: Tally, inGroup: Uint8Array): string[] {
  const out: string[] = [];
  for (let id = 0; id < t.names.length; id++) if (inGroup[id] === 1) out.push(t.names[id] ?? '');
  return out;
}

function compareTuples(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const c = compareCodePoints(a[i] ?? '', b[i] ?? '');
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

function sortedTuples(items: readonly string[]): string[][] {
  return items.map(decode).sort(compareTuples);
}

function groupVerdict(counts: Readonly<Record<Verdict, number>>): Verdict {
  const top = Math.max(counts.ALLOW, counts.BLOCK, counts.REVIEW);
  const leaders = (['ALLOW', 'BLOCK', 'REVIEW'] as const).filter((v) => counts[v] === top);
  return leaders.length === 1 && leaders[0] !== undefined ? leaders[0] : 'REVIEW';
}

/**
 * Scores every member's SSSA against its group (SPEC section B, seed B). For each of the n members it
 * returns the seven components and
 * `consensus = clamp01(0.30·findings_recall + 0.15·findings_precision + 0.15·verdict_agreement +
 * 0.15·capabilities_agreement + 0.10·risk_agreement + 0.10·dependencies_agreement + 0.05·policy_agreement)`,
 * next to the group sets it was measured against. An item is in a group set when strictly more than n/2
 * members reported it. With fewer than 3 members nothing is compared: `group`, every `components` and every
 * `consensus` are `null` (emission then uses the neutral factor 1). Members are returned sorted by uid;
 * the input order of members and of findings does not matter.
 *
 * @param input - `{ taskId, members: [{ uid, hotkey, role, sssa }] }`
 * @returns a frozen {@link ConsensusResult}
 * @throws SubnetError `CONSENSUS_INVALID_GROUP` for a blank taskId, bad uid/hotkey/role or a duplicate uid
 *   or hotkey (path `members[3].hotkey`); `CONSENSUS_INVALID_SSSA` for an invalid document (path
 *   `members[1].sssa.findings[0].severity`)
 * @example
 * const result = computeConsensus({ taskId: 'task-1', members: [p1, p2, p3, a1, a2] });
 * result.members.map((m) => m.consensus); // [0.957, ...]
 */
export function computeConsensus(input: ConsensusInput): ConsensusResult {
  const shell = plainShell(input) ?? parseInput(groupShellSchema, input, CONSENSUS_ERROR_CODES.invalidGroup, '');
  const prepared: Prepared[] = [];
  for (let i = 0; i < shell.members.length; i++) {
    const member = shell.members[i];
    if (member === undefined) continue;
    const sets =
      trustedDocumentSets(member.sssa) ??
      computeDocumentSets(validateSssa(member.sssa, `members[${i}].sssa`, DEFAULT_INPUT_LIMITS));
    prepared.push({ uid: member.uid, hotkey: member.hotkey, role: member.role, sets });
  }
  prepared.sort((a, b) => a.uid - b.uid);
  const n = prepared.length;

  if (n < MIN_GROUP_SIZE) {
    return Object.freeze({
      taskId: shell.taskId,
      n,
      group: null,
      members: Object.freeze(
        prepared.map((m) =>
          Object.freeze({ uid: m.uid, hotkey: m.hotkey, role: m.role, consensus: null, components: null, keys: m.sets.keys }),
        ),
      ),
    });
  }

  const threshold = majorityThreshold(n);
  const keys = tally(prepared.map((m) => m.sets.keys));
  const capabilities = tally(prepared.map((m) => m.sets.capabilities));
  const dependencies = tally(prepared.map((m) => m.sets.dependencies));
  const cves = tally(prepared.map((m) => m.sets.cves));
  const rules = tally(prepared.map((m) => m.sets.rules));
  const groupKeys = majorityMask(keys, threshold);
  const groupCapabilities = majorityMask(capabilities, threshold);
  const groupDependencies = majorityMask(dependencies, threshold);
  const groupRules = majorityMask(rules, threshold);
  // G_cves: majority CVE keys whose dependency is in G_deps.
  const groupCves = majorityMask(cves, threshold);
  let groupCveCount = groupCves.size;
  for (let id = 0; id < cves.names.length; id++) {
    if (groupCves.inGroup[id] !== 1) continue;
    const [name = '', version = ''] = decode(cves.names[id] ?? '');
    const dependency = dependencies.index.get(encode2(name, version));
    if (dependency === undefined || groupDependencies.inGroup[dependency] !== 1) {
      groupCves.inGroup[id] = 0;
      groupCveCount--;
    }
  }
  const verdictCounts: Record<Verdict, number> = { ALLOW: 0, BLOCK: 0, REVIEW: 0 };
  let riskSum = 0;
  for (const m of prepared) {
    verdictCounts[m.sets.verdict] += 1;
    riskSum += m.sets.risk;
  }
  const verdict = groupVerdict(verdictCounts);
  const riskMean = riskSum / n;
  const groupKeyCount = groupKeys.size;

  const members: MemberConsensus[] = prepared.map((m, i) => {
    const ownKeys = memberSize(keys, i);
    const matched = intersectionSize(keys, groupKeys.inGroup, i);
    const findingsRecall = groupKeyCount === 0 ? 1 : matched / groupKeyCount;
    const findingsPrecision = ownKeys === 0 ? (groupKeyCount === 0 ? 1 : 0) : matched / ownKeys;
    const verdictAgreement = m.sets.verdict === verdict ? 1 : m.sets.verdict === 'REVIEW' ? 0.5 : 0;
    const capabilitiesAgreement = jaccard(capabilities, groupCapabilities.inGroup, groupCapabilities.size, i);
    const riskAgreement = Math.max(0, 1 - Math.abs(m.sets.risk - riskMean));
    const dependenciesAgreement =
      0.5 * coverage(dependencies, groupDependencies.inGroup, groupDependencies.size, i) +
      0.5 * coverage(cves, groupCves.inGroup, groupCveCount, i);
    const policyAgreement = jaccard(rules, groupRules.inGroup, groupRules.size, i);
    const sum =
      CONSENSUS_WEIGHTS.findingsRecall * findingsRecall +
      CONSENSUS_WEIGHTS.findingsPrecision * findingsPrecision +
      CONSENSUS_WEIGHTS.verdictAgreement * verdictAgreement +
      CONSENSUS_WEIGHTS.capabilitiesAgreement * capabilitiesAgreement +
      CONSENSUS_WEIGHTS.riskAgreement * riskAgreement +
      CONSENSUS_WEIGHTS.dependenciesAgreement * dependenciesAgreement +
      CONSENSUS_WEIGHTS.policyAgreement * policyAgreement;
    return Object.freeze({
      uid: m.uid,
      hotkey: m.hotkey,
      role: m.role,
      consensus: Math.min(1, Math.max(0, sum)),
      components: Object.freeze({
        findingsRecall,
        findingsPrecision,
        verdictAgreement,
        capabilitiesAgreement,
        riskAgreement,
        dependenciesAgreement,
        policyAgreement,
      }),
      keys: m.sets.keys,
    });
  });

  return Object.freeze({
    taskId: shell.taskId,
    n,
    group: Object.freeze({
      n,
      majority: threshold,
      findingKeys: Object.freeze(groupItems(keys, groupKeys.inGroup).sort()),
      verdict,
      verdictCounts: Object.freeze(verdictCounts),
      capabilities: Object.freeze(groupItems(capabilities, groupCapabilities.inGroup).sort(compareCodePoints)),
      riskMean,
      dependencies: Object.freeze(
        sortedTuples(groupItems(dependencies, groupDependencies.inGroup)).map(([name = '', version = '']) =>
          Object.freeze({ package: name, version }),
        ),
      ),
      cves: Object.freeze(
        sortedTuples(groupItems(cves, groupCves.inGroup)).map(([name = '', version = '', cve = '']) =>
          Object.freeze({ package: name, version, cve }),
        ),
      ),
      policyRules: Object.freeze(
        sortedTuples(groupItems(rules, groupRules.inGroup)).map(([resource = '', action = '', pattern = '']) =>
          Object.freeze({ resource, action, pattern }),
        ),
      ),
    }),
    members: Object.freeze(members),
  });
}
