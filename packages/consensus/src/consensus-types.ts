import type { Hotkey, Uid } from '@subnet/core';

import type { Verdict } from './sssa-schema.js';

/** The role a miner plays in a verification group. */
export type Role = 'primary' | 'auditor';

/** One member of a group, as given to {@link computeConsensus} and {@link computeTaskConsensus}. */
export interface ConsensusMemberInput {
  /** The miner's uid (0..65535). */
  readonly uid: number;
  /** The miner's SS58 hotkey (checksum verified). */
  readonly hotkey: string;
  /** `primary` or `auditor`, from the verification group draw: both count alike in consensus; the role matters for emission only. */
  readonly role: Role;
  /** The miner's SSSA document (wire format, validated here unless `parseSssa` returned it). */
  readonly sssa: unknown;
  /** The caller's id of the record that carried the document (echoed in `excluded`); optional. */
  readonly recordId?: string;
}

/** Input of {@link computeConsensus}. */
export interface ConsensusInput {
  /** The task the group attested (echoed in the result). */
  readonly taskId: string;
  /**
   * The task's type as the validator registered it (SPEC B: the task type of an SSSA is the task's,
   * whatever the document says). Optional; echoed in the result (`null` when not given).
   */
  readonly taskType?: string;
  /** The SSSAs gathered for the task, one per miner, in any order. */
  readonly members: readonly ConsensusMemberInput[];
  /**
   * Whether to give one sentence per component for every member (default `true`; the sentences are
   * written when first read). `false` leaves each `explanation` `null`; numbers are identical.
   */
  readonly explain?: boolean;
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

/** One sentence per component, saying what the member matched and missed (same keys as the components). */
export type ConsensusExplanation = { readonly [K in keyof ConsensusComponents]: string };

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

/** A canonical finding key with the text it is the sha256 of. */
export interface FindingKeyPreimage {
  /** Lowercase hex sha256 of `preimage`. */
  readonly key: string;
  /** `category|severity|normalised(evidence_ref)|sorted_cve_ids|target_pattern`. */
  readonly preimage: string;
}

/** The group's majority sets and shared values (every set sorted, see the README). */
export interface ConsensusGroup {
  /** Number of members. */
  readonly n: number;
  /** How many members must report an item for it to be in a group set (`floor(n/2) + 1`). */
  readonly majority: number;
  /** Canonical finding keys reported by a majority, sorted. */
  readonly findingKeys: readonly string[];
  /** The same keys with their preimages, in the same order, so anyone can read what was agreed. */
  readonly findings: readonly FindingKeyPreimage[];
  /** The most frequent verdict; REVIEW on a tie for most frequent. */
  readonly verdict: Verdict;
  /** How many members gave each verdict. */
  readonly verdictCounts: Readonly<Record<Verdict, number>>;
  /** Capabilities (trimmed, lowercased) reported by a majority, sorted by code point. */
  readonly capabilities: readonly string[];
  /** Mean risk_score of all members, summed in ascending hotkey order (code points), then divided by n. */
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
  /**
   * One sentence per component, or `null` when the group has fewer than 3 members or `explain` was
   * `false`. Written when first read (an enumerable accessor that returns the same frozen object every
   * time), so callers that never read it never pay for it.
   */
  readonly explanation: ConsensusExplanation | null;
  /** This member's distinct canonical finding keys, sorted. */
  readonly keys: readonly string[];
}

/** The result of {@link computeConsensus} (frozen). */
export interface ConsensusResult {
  readonly taskId: string;
  /** The task type given with the input, or `null`. */
  readonly taskType: string | null;
  /** Number of members scored. */
  readonly n: number;
  /** The group sets, or `null` when n < 3 (no consensus is computed). */
  readonly group: ConsensusGroup | null;
  /** One entry per scored member, sorted by uid. */
  readonly members: readonly MemberConsensus[];
}

/** A member left out of its group by {@link computeTaskConsensus}, and why. */
export interface ExcludedMember {
  /** Position of the member in the input list. */
  readonly index: number;
  /** The uid as given (`null` when it was not a number). */
  readonly uid: number | null;
  /** The hotkey as given (`null` when it was not a string). */
  readonly hotkey: string | null;
  /** The record id as given, or `null`. */
  readonly recordId: string | null;
  /** A stable code: `CONSENSUS_INVALID_SSSA`, `CONSENSUS_INVALID_GROUP` (uid, hotkey, role or record id) or `CONSENSUS_DUPLICATE_MEMBER`. */
  readonly code: string;
  /** One sentence naming the field and the value. */
  readonly reason: string;
  /** The field path (`members[2].sssa.findings[0].severity`). */
  readonly path: string;
}

/** The result of {@link computeTaskConsensus} (frozen): the consensus of the valid members, and the others. */
export interface TaskConsensusResult extends ConsensusResult {
  /** Members excluded from the group, in input order. */
  readonly excluded: readonly ExcludedMember[];
}
