import type { Hotkey, Uid } from '@subnet/core';
import { compareCodePoints, parseInput, uidSchema } from '@subnet/core';
import { z } from 'zod';

import { CONSENSUS_ERROR_CODES } from './errors.js';
import { keyOfPreimage, preimageOfParsed } from './finding-key.js';
import { memoHotkeySchema } from './hotkey.js';
import { deepFreeze } from './freeze.js';
import { MIN_GROUP_SIZE, majoritySet, majorityThreshold } from './majority.js';
import type { Sssa, Verdict } from './sssa-schema.js';
import { sssaSchema } from './sssa-schema.js';

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

interface Prepared {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  readonly role: Role;
  readonly verdict: Verdict;
  readonly risk: number;
  readonly keys: ReadonlySet<string>;
  readonly capabilities: ReadonlySet<string>;
  readonly dependencies: ReadonlySet<string>;
  readonly cves: ReadonlySet<string>;
  readonly rules: ReadonlySet<string>;
}

/**
 * Tuples are encoded by length-prefixing every element (`3:abc5:1.0.0`): unambiguous whatever characters
 * the strings hold, and cheaper than JSON. Only group-set members are ever decoded.
 */
function encode2(a: string, b: string): string {
  return `${a.length}:${a}${b.length}:${b}`;
}
function encode3(a: string, b: string, c: string): string {
  return `${a.length}:${a}${b.length}:${b}${c.length}:${c}`;
}
function decode(encoded: string): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < encoded.length) {
    const colon = encoded.indexOf(':', at);
    const length = Number(encoded.slice(at, colon));
    out.push(encoded.slice(colon + 1, colon + 1 + length));
    at = colon + 1 + length;
  }
  return out;
}

function prepare(uid: Uid, hotkey: Hotkey, role: Role, sssa: Sssa): Prepared {
  const keys = new Set<string>();
  for (const finding of sssa.findings) keys.add(keyOfPreimage(preimageOfParsed(finding)));
  const capabilities = new Set<string>();
  for (const capability of sssa.capabilities) capabilities.add(capability.trim().toLowerCase());
  const dependencies = new Set<string>();
  const cves = new Set<string>();
  for (const dependency of sssa.dependencies) {
    const name = dependency.package.trim().toLowerCase();
    const version = dependency.version.trim();
    dependencies.add(encode2(name, version));
    for (const cve of dependency.cves) cves.add(encode3(name, version, cve.trim().toUpperCase()));
  }
  const rules = new Set<string>();
  for (const rule of sssa.policy.rules) {
    rules.add(encode3(rule.resource.trim().toLowerCase(), rule.action.trim().toLowerCase(), rule.pattern.trim()));
  }
  return { uid, hotkey, role, verdict: sssa.verdict, risk: sssa.risk_score, keys, capabilities, dependencies, cves, rules };
}

function compareTuples(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const c = compareCodePoints(a[i] ?? '', b[i] ?? '');
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

function sortedTuples(set: ReadonlySet<string>): string[][] {
  return [...set].map(decode).sort(compareTuples);
}

function intersectionSize(member: ReadonlySet<string>, group: ReadonlySet<string>): number {
  let count = 0;
  for (const item of member) if (group.has(item)) count++;
  return count;
}

/** |M ∩ G| / |G|, 1.0 when G is empty. */
function coverage(member: ReadonlySet<string>, group: ReadonlySet<string>): number {
  return group.size === 0 ? 1 : intersectionSize(member, group) / group.size;
}

/** Jaccard |M ∩ G| / |M ∪ G|, 1.0 when both are empty. */
function jaccard(member: ReadonlySet<string>, group: ReadonlySet<string>): number {
  const inter = intersectionSize(member, group);
  const union = member.size + group.size - inter;
  return union === 0 ? 1 : inter / union;
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
  const shell = parseInput(groupShellSchema, input, CONSENSUS_ERROR_CODES.invalidGroup, '');
  const prepared = shell.members
    .map((member, i) =>
      prepare(
        member.uid,
        member.hotkey,
        member.role,
        parseInput(sssaSchema, member.sssa, CONSENSUS_ERROR_CODES.invalidSssa, `members[${i}].sssa`),
      ),
    )
    .sort((a, b) => a.uid - b.uid);
  const n = prepared.length;

  if (n < MIN_GROUP_SIZE) {
    return deepFreeze({
      taskId: shell.taskId,
      n,
      group: null,
      members: prepared.map((m) => ({
        uid: m.uid,
        hotkey: m.hotkey,
        role: m.role,
        consensus: null,
        components: null,
        keys: [...m.keys].sort(),
      })),
    });
  }

  const threshold = majorityThreshold(n);
  const groupKeys = majoritySet(
    prepared.map((m) => m.keys),
    threshold,
  );
  const groupCapabilities = majoritySet(
    prepared.map((m) => m.capabilities),
    threshold,
  );
  const groupDependencies = majoritySet(
    prepared.map((m) => m.dependencies),
    threshold,
  );
  const groupCves = new Set<string>();
  for (const cve of majoritySet(
    prepared.map((m) => m.cves),
    threshold,
  )) {
    const [name = '', version = ''] = decode(cve);
    if (groupDependencies.has(encode2(name, version))) groupCves.add(cve);
  }
  const groupRules = majoritySet(
    prepared.map((m) => m.rules),
    threshold,
  );
  const verdictCounts: Record<Verdict, number> = { ALLOW: 0, BLOCK: 0, REVIEW: 0 };
  let riskSum = 0;
  for (const m of prepared) {
    verdictCounts[m.verdict] += 1;
    riskSum += m.risk;
  }
  const verdict = groupVerdict(verdictCounts);
  const riskMean = riskSum / n;

  const members: MemberConsensus[] = prepared.map((m) => {
    const matched = intersectionSize(m.keys, groupKeys);
    const findingsRecall = groupKeys.size === 0 ? 1 : matched / groupKeys.size;
    const findingsPrecision = m.keys.size === 0 ? (groupKeys.size === 0 ? 1 : 0) : matched / m.keys.size;
    const verdictAgreement = m.verdict === verdict ? 1 : m.verdict === 'REVIEW' ? 0.5 : 0;
    const capabilitiesAgreement = jaccard(m.capabilities, groupCapabilities);
    const riskAgreement = Math.max(0, 1 - Math.abs(m.risk - riskMean));
    const dependenciesAgreement = 0.5 * coverage(m.dependencies, groupDependencies) + 0.5 * coverage(m.cves, groupCves);
    const policyAgreement = jaccard(m.rules, groupRules);
    const sum =
      CONSENSUS_WEIGHTS.findingsRecall * findingsRecall +
      CONSENSUS_WEIGHTS.findingsPrecision * findingsPrecision +
      CONSENSUS_WEIGHTS.verdictAgreement * verdictAgreement +
      CONSENSUS_WEIGHTS.capabilitiesAgreement * capabilitiesAgreement +
      CONSENSUS_WEIGHTS.riskAgreement * riskAgreement +
      CONSENSUS_WEIGHTS.dependenciesAgreement * dependenciesAgreement +
      CONSENSUS_WEIGHTS.policyAgreement * policyAgreement;
    return {
      uid: m.uid,
      hotkey: m.hotkey,
      role: m.role,
      consensus: Math.min(1, Math.max(0, sum)),
      components: {
        findingsRecall,
        findingsPrecision,
        verdictAgreement,
        capabilitiesAgreement,
        riskAgreement,
        dependenciesAgreement,
        policyAgreement,
      },
      keys: [...m.keys].sort(),
    };
  });

  return deepFreeze({
    taskId: shell.taskId,
    n,
    group: {
      n,
      majority: threshold,
      findingKeys: [...groupKeys].sort(),
      verdict,
      verdictCounts,
      capabilities: [...groupCapabilities].sort(compareCodePoints),
      riskMean,
      dependencies: sortedTuples(groupDependencies).map(([name = '', version = '']) => ({ package: name, version })),
      cves: sortedTuples(groupCves).map(([name = '', version = '', cve = '']) => ({ package: name, version, cve })),
      policyRules: sortedTuples(groupRules).map(([resource = '', action = '', pattern = '']) => ({ resource, action, pattern })),
    },
    members,
  });
}
