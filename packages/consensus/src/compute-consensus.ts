import type { Hotkey, Uid } from '@subnet/core';
import { DEFAULT_INPUT_LIMITS, parseInput, uidSchema } from '@subnet/core';
import { z } from 'zod';

import type { ConsensusInput, ConsensusResult, Role } from './consensus-types.js';
import { computeDocumentSets, trustedDocumentSets } from './document-sets.js';
import { CONSENSUS_ERROR_CODES } from './errors.js';
import { createFreshGroup, freshDocumentSets } from './fresh-sets.js';
import { isValidHotkey, memoHotkeySchema } from './hotkey.js';
import { validateSssa } from './parse-sssa.js';
import type { PreparedMember } from './score-group.js';
import { scoreGroup } from './score-group.js';
import { isBlank, isWellFormed } from './text-rules.js';

/** Internal: a task id or task type, as the validator gives it: well-formed and not blank. */
export const taskTextSchema = (what: string) =>
  z
    .string()
    .refine(isWellFormed, `${what} must not hold a lone UTF-16 surrogate`)
    .refine((s) => !isBlank(s), `${what} must not be empty or blank`);

const memberShellSchema = z.object({
  uid: uidSchema,
  hotkey: memoHotkeySchema,
  role: z.enum(['primary', 'auditor']),
  sssa: z.unknown(),
  recordId: z.string().optional(),
});

const groupShellSchema = z.object({
  taskId: taskTextSchema('taskId'),
  taskType: taskTextSchema('taskType').optional(),
  explain: z.boolean().optional(),
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
  readonly taskType?: string | undefined;
  readonly explain?: boolean | undefined;
  readonly members: readonly ShellMember[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Internal: whether a task id or type is a well-formed, non-blank string. */
export function isTaskText(value: unknown): value is string {
  return typeof value === 'string' && isWellFormed(value) && !isBlank(value);
}

/**
 * The group shell when it is plainly valid, checked without zod (the same rules as `groupShellSchema`,
 * the same memoised hotkey check); `undefined` on anything else, and `groupShellSchema` then decides and
 * names the error. It only ever accepts what the schema accepts.
 */
function plainShell(input: unknown): Shell | undefined {
  if (!isRecord(input)) return undefined;
  const { taskId, taskType, explain, members } = input;
  if (!isTaskText(taskId) || !Array.isArray(members)) return undefined;
  if (taskType !== undefined && !isTaskText(taskType)) return undefined;
  if (explain !== undefined && typeof explain !== 'boolean') return undefined;
  const out: ShellMember[] = [];
  const uids = new Set<number>();
  const hotkeys = new Set<string>();
  for (let i = 0; i < members.length; i++) {
    const member: unknown = members[i];
    if (!isRecord(member)) return undefined;
    const { uid, hotkey, role, sssa, recordId } = member;
    if (typeof uid !== 'number' || !Number.isSafeInteger(uid) || uid < 0 || uid > 65535) return undefined;
    if (typeof hotkey !== 'string' || !isValidHotkey(hotkey)) return undefined;
    if (role !== 'primary' && role !== 'auditor') return undefined;
    if (recordId !== undefined && typeof recordId !== 'string') return undefined;
    if (uids.has(uid) || hotkeys.has(hotkey)) return undefined;
    uids.add(uid);
    hotkeys.add(hotkey);
    out.push({ uid: uid as Uid, hotkey: hotkey as Hotkey, role, sssa });
  }
  return { taskId, taskType, explain, members: out };
}

/**
 * Scores every member's SSSA against its group (SPEC section B, seed B), strictly: any invalid member
 * or document throws (use {@link computeTaskConsensus} to exclude it and score the rest). For each of the
 * n members it returns the seven components, one sentence per component and
 * `consensus = clamp01(0.30·findings_recall + 0.15·findings_precision + 0.15·verdict_agreement +
 * 0.15·capabilities_agreement + 0.10·risk_agreement + 0.10·dependencies_agreement + 0.05·policy_agreement)`,
 * next to the group sets it was measured against (the group's finding keys with their preimages). An item
 * is in a group set when strictly more than n/2 members reported it. With fewer than 3 members nothing is
 * compared: `group`, every `components`, `explanation` and `consensus` are `null` (emission then uses the
 * neutral factor 1). Members are returned sorted by uid; the input order of members and of findings does
 * not matter.
 *
 * @param input - `{ taskId, taskType?, explain? (default true), members: [{ uid, hotkey, role, sssa, recordId? }] }`
 * @returns a frozen {@link ConsensusResult}
 * @throws SubnetError `CONSENSUS_INVALID_GROUP` for a blank taskId or taskType, a non-boolean `explain`, bad uid/hotkey/role or a
 *   duplicate uid or hotkey (path `members[3].hotkey`); `CONSENSUS_INVALID_SSSA` for an invalid document
 *   (path `members[1].sssa.findings[0].severity`)
 * @example
 * const result = computeConsensus({ taskId: 'task-1', taskType: 'mcp_server', members: [p1, p2, p3, a1, a2] });
 * result.members.map((m) => m.consensus); // [0.957, ...]
 */
export function computeConsensus(input: ConsensusInput): ConsensusResult {
  const shell: Shell = plainShell(input) ?? parseInput(groupShellSchema, input, CONSENSUS_ERROR_CODES.invalidGroup, '');
  const prepared: PreparedMember[] = [];
  const keys = new Map<string, string>();
  const fresh = createFreshGroup();
  for (let i = 0; i < shell.members.length; i++) {
    const member = shell.members[i];
    if (member === undefined) continue;
    let sets = trustedDocumentSets(member.sssa, DEFAULT_INPUT_LIMITS) ?? freshDocumentSets(member.sssa, DEFAULT_INPUT_LIMITS, fresh);
    if (sets === undefined) {
      const refs: string[] = [];
      sets = computeDocumentSets(validateSssa(member.sssa, `members[${i}].sssa`, DEFAULT_INPUT_LIMITS, refs), refs, keys);
    }
    prepared.push({ uid: member.uid, hotkey: member.hotkey, role: member.role, sets });
  }
  return scoreGroup(shell.taskId, shell.taskType ?? null, prepared, shell.explain ?? true, fresh);
}
