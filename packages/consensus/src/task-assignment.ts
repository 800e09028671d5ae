import type { Hotkey, Uid } from '@subnet/core';
import { compareCodePoints, findLoneSurrogate, parseInput } from '@subnet/core';
import { z } from 'zod';

import type { Role } from './consensus-types.js';
import { CONSENSUS_ERROR_CODES } from './errors.js';
import { deepFreeze } from './freeze.js';
import type { ReputationSettings, ReputationTable } from './reputation.js';
import { DEFAULT_REPUTATION_SETTINGS, parseReputationTable } from './reputation.js';
import { selectVerificationGroup } from './select-verification-group.js';
import { isBlank } from './text-rules.js';

/**
 * Text of 1..max UTF-16 code units, well-formed, not blank. Blank is SPEC 0's: empty once ASCII white space (U+0009 to
 * U+000D and U+0020) is trimmed, as `computeTaskConsensus`, `selectVerificationGroup` and `verificationSeed` judge a task
 * id, so a no-break space (U+00A0), U+FEFF or U+2028 is a character (docs/spec.md G.46 (d)). The message is the one
 * bundles already carry in an exclusion reason.
 */
const wellFormed = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((s) => findLoneSurrogate(s) < 0, 'a lone UTF-16 surrogate is not text')
    .refine((s) => !isBlank(s), 'must not be blank');

/** A task id on the wire: 1-256 characters, well-formed, not blank (empty once ASCII-trimmed, SPEC 0). */
export const taskIdSchema = wellFormed(256);
/** A task type on the wire: 1-128 characters, well-formed, not blank (empty once ASCII-trimmed; `__proto__` is an ordinary type). */
export const taskTypeSchema = wellFormed(128);

/** Input of {@link assignTask}. */
export interface TaskAssignmentInput {
  /** The registered task id. */
  readonly taskId: string;
  /** The registered task type (the type of every SSSA for the task). */
  readonly taskType: string;
  /** The block hash the validator recorded for the task: `0x` and 64 lowercase hex digits. */
  readonly blockHash: string;
  /** The epoch's candidates (miners of its metagraph snapshot), any order. */
  readonly candidates: readonly { readonly uid: number; readonly hotkey: string }[];
  /** The per-type reputation table that stood before the epoch (wire list, parsed table, or null). */
  readonly reputations: unknown;
  /** Reputation settings (initial reputation and eligibility threshold); defaults of {@link DEFAULT_REPUTATION_SETTINGS}. */
  readonly settings?: Partial<ReputationSettings>;
  /** How many primaries (default 3) and auditors (default 2). */
  readonly primaries?: number;
  readonly auditors?: number;
}

/** One candidate of a task with its reputation for the task's type and whether it was eligible. */
export interface AssignmentCandidate {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  readonly reputation: number;
  readonly eligible: boolean;
}

/** An assigned member: uid, hotkey, reputation and the role the draw gave it. */
export interface AssignedMember {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  readonly reputation: number;
  readonly role: Role;
}

/** A registered task with its drawn verification group (frozen). */
export interface TaskAssignment {
  readonly taskId: string;
  readonly taskType: string;
  readonly blockHash: string;
  /** sha256(`blockHash|taskId`), the seed of the auditor draw. */
  readonly seed: string;
  /** Every candidate with its reputation and eligibility, sorted by hotkey. */
  readonly candidates: readonly AssignmentCandidate[];
  /** The primaries in rank order, then the auditors in draw order. */
  readonly members: readonly AssignedMember[];
  /** Primaries and auditors asked for but not filled (too few eligible candidates). */
  readonly shortfall: { readonly primaries: number; readonly auditors: number };
}

const isReputationTable = (value: unknown): value is ReputationTable =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { get?: unknown }).get === 'function';

/**
 * Assigns a registered task its verification group (SPEC B, docs/spec.md G.3): each candidate's reputation
 * for the task's type comes from the table (a hotkey absent from it has the initial reputation), eligible
 * iff >= the minimum reputation; the group is `selectVerificationGroup` over the candidates, seeded by
 * sha256(`blockHash|taskId`). Roles come from this draw, never from a miner.
 *
 * @param input - task id and type, block hash, candidates, the reputation table and settings
 * @returns the frozen {@link TaskAssignment}
 * @throws SubnetError `CONSENSUS_INVALID_SELECTION` naming the field (`taskType`, `blockHash`,
 *   `candidates[2].hotkey`, `reputations[0].reputation`)
 * @example
 * const task = assignTask({ taskId: 't-1', taskType: 'mcp_server', blockHash, candidates, reputations: null });
 * task.members.map((m) => `${m.role} ${m.uid}`)
 */
export function assignTask(input: TaskAssignmentInput): TaskAssignment {
  const taskId = parseInput(taskIdSchema, input.taskId, CONSENSUS_ERROR_CODES.invalidSelection, 'taskId');
  const taskType = parseInput(taskTypeSchema, input.taskType, CONSENSUS_ERROR_CODES.invalidSelection, 'taskType');
  const table = isReputationTable(input.reputations) ? input.reputations : parseReputationTable(input.reputations);
  const settings = { ...DEFAULT_REPUTATION_SETTINGS, ...input.settings };
  if (!Array.isArray(input.candidates)) parseInput(z.array(z.unknown()), input.candidates, CONSENSUS_ERROR_CODES.invalidSelection, 'candidates');
  // Hotkeys are SS58 (checked by selectVerificationGroup), so a null-prototype record is safe and exact.
  const reputations: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const c of input.candidates as readonly unknown[]) {
    const hotkey = typeof c === 'object' && c !== null ? (c as { hotkey?: unknown }).hotkey : undefined;
    if (typeof hotkey === 'string') reputations[hotkey] = table.get(taskType, hotkey) ?? settings.initialReputation;
  }
  const group = selectVerificationGroup({
    candidates: input.candidates,
    reputations,
    blockHash: input.blockHash,
    taskId,
    ...(input.primaries === undefined ? {} : { primaries: input.primaries }),
    ...(input.auditors === undefined ? {} : { auditors: input.auditors }),
    filters: { minReputation: settings.minReputation },
  });
  const ineligible = new Set(group.excluded.map((e) => e.hotkey as string));
  const candidates = input.candidates
    .map((c) => ({
      uid: c.uid as Uid,
      hotkey: c.hotkey as Hotkey,
      reputation: reputations[c.hotkey] ?? settings.initialReputation,
      eligible: !ineligible.has(c.hotkey),
    }))
    .sort((a, b) => compareCodePoints(a.hotkey, b.hotkey));
  const members = [...group.primaries, ...group.auditors].map((m) => ({ uid: m.uid, hotkey: m.hotkey, reputation: m.reputation, role: m.role }));
  return deepFreeze({ taskId, taskType, blockHash: group.blockHash, seed: group.seed, candidates, members, shortfall: { ...group.shortfall } });
}

/**
 * The role a hotkey holds in a task's group, or `undefined` when it is not a member.
 *
 * @param assignment - the task's assignment
 * @param hotkey - the miner's hotkey
 * @returns `primary`, `auditor` or `undefined`
 * @example memberRole(task, hotkey) // 'auditor'
 */
export function memberRole(assignment: TaskAssignment, hotkey: string): Role | undefined {
  return assignment.members.find((m) => m.hotkey === hotkey)?.role;
}
