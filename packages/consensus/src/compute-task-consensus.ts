import type { Hotkey, InputLimits, Uid } from '@subnet/core';
import { isSubnetError, SubnetError } from '@subnet/core';

import { isTaskText } from './compute-consensus.js';
import type { ConsensusInput, ExcludedMember, TaskConsensusResult } from './consensus-types.js';
import { computeDocumentSets, trustedDocumentSets } from './document-sets.js';
import { CONSENSUS_ERROR_CODES } from './errors.js';
import { createFreshGroup, freshDocumentSets } from './fresh-sets.js';
import { isValidHotkey } from './hotkey.js';
import { resolveLimits, validateSssa } from './parse-sssa.js';
import type { PreparedMember } from './score-group.js';
import { scoreGroup } from './score-group.js';

/** Input of {@link computeTaskConsensus}. */
export interface TaskConsensusInput extends ConsensusInput {
  /**
   * Input limits for every document (default `DEFAULT_INPUT_LIMITS`: depth 64): a raw one, and one `parseSssa` returned
   * under a larger limit, which is then validated again (docs/spec.md G.46 (e)).
   */
  readonly limits?: Partial<InputLimits>;
}

function groupError(message: string, path: string, value: unknown): SubnetError {
  return new SubnetError(CONSENSUS_ERROR_CODES.invalidGroup, message, { context: { path, value } });
}

/** Records member `index` as excluded by `error` (its uid, hotkey and recordId when they have the right type). */
function exclude(excluded: ExcludedMember[], index: number, member: unknown, error: SubnetError): void {
  const fields = typeof member === 'object' && member !== null ? (member as Record<string, unknown>) : {};
  excluded.push(
    Object.freeze({
      index,
      uid: typeof fields.uid === 'number' ? fields.uid : null,
      hotkey: typeof fields.hotkey === 'string' ? fields.hotkey : null,
      recordId: typeof fields.recordId === 'string' ? fields.recordId : null,
      code: error.code,
      reason: sentence(error),
      path: error.context.path ?? '',
    }),
  );
}

/** The sentence of a coded error, without the `[CODE] ` prefix of its message. */
function sentence(error: SubnetError): string {
  const prefix = `[${error.code}] `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}

/**
 * Scores one task's group with isolation (SPEC 0 and B v1.1): every member whose identity or document is
 * invalid is excluded with a stable code and a sentence, and the others are scored as
 * {@link computeConsensus} scores them. Nothing a miner sends can make this throw; only a malformed
 * task (the validator's own input: task id, task type, the member list itself, limits) does.
 *
 * Exclusions, in input order: a member that is not an object, a bad uid (not 0..65535), hotkey (not a
 * valid SS58 address), role or `recordId` → `CONSENSUS_INVALID_GROUP`; a second member with a uid or
 * hotkey already seen (the first in input order keeps its place, valid or not) →
 * `CONSENSUS_DUPLICATE_MEMBER`; a document that fails the input limits or the schema →
 * `CONSENSUS_INVALID_SSSA`. The task type is the task's (`taskType`, echoed in the result); whatever
 * type the documents name plays no part.
 *
 * @param input - `{ taskId, taskType?, members: [{ uid, hotkey, role, sssa, recordId? }], limits?, explain? }`
 * @returns a frozen {@link TaskConsensusResult}: the consensus of the valid members and `excluded`
 * @throws SubnetError `CONSENSUS_INVALID_GROUP` for a missing or blank `taskId` / `taskType` or a
 *   `members` that is not a list, a non-boolean `explain`; `CONSENSUS_INVALID_ARGUMENT` for bad limits
 * @example
 * const result = computeTaskConsensus({ taskId: 'task-7', taskType: 'mcp_server', members });
 * for (const e of result.excluded) console.log(e.hotkey, e.code, e.reason);
 */
export function computeTaskConsensus(input: TaskConsensusInput): TaskConsensusResult {
  const given: unknown = input;
  if (typeof given !== 'object' || given === null) throw groupError('the task input must be an object', '', given);
  const { taskId, taskType, members } = input;
  if (!isTaskText(taskId)) throw groupError('taskId must be a well-formed, non-blank string', 'taskId', taskId);
  if (taskType !== undefined && !isTaskText(taskType)) throw groupError('taskType must be a well-formed, non-blank string', 'taskType', taskType);
  if (!Array.isArray(members)) throw groupError('members must be a list', 'members', members);
  const explain = input.explain ?? true;
  if (typeof explain !== 'boolean') throw groupError('explain must be a boolean', 'explain', input.explain);
  const limits = resolveLimits(input.limits, 'limits');

  const excluded: ExcludedMember[] = [];
  const prepared: PreparedMember[] = [];
  const uids = new Set<number>();
  const hotkeys = new Set<string>();
  // The general path's key memo, made only when a document takes that path.
  let keys: Map<string, string> | undefined;
  const fresh = createFreshGroup();
  for (let i = 0; i < members.length; i++) {
    const member: unknown = members[i];
    // The valid path builds no path string and no closure: both are made only for an exclusion.
    if (typeof member !== 'object' || member === null || Array.isArray(member)) {
      exclude(excluded, i, member, groupError('a member must be an object', `members[${i}]`, member));
      continue;
    }
    const fields = member as Record<string, unknown>;
    const uid = fields.uid;
    const hotkey = fields.hotkey;
    if (typeof uid !== 'number' || !Number.isSafeInteger(uid) || uid < 0 || uid > 65535) {
      exclude(excluded, i, member, groupError('a uid is an integer in 0..65535', `members[${i}].uid`, uid));
      continue;
    }
    if (typeof hotkey !== 'string' || !isValidHotkey(hotkey)) {
      exclude(excluded, i, member, groupError('a hotkey is a valid SS58 address', `members[${i}].hotkey`, hotkey));
      continue;
    }
    const role = fields.role;
    if (role !== 'primary' && role !== 'auditor') {
      exclude(excluded, i, member, groupError("a role is 'primary' or 'auditor'", `members[${i}].role`, role));
      continue;
    }
    const recordId = fields.recordId;
    if (recordId !== undefined && typeof recordId !== 'string') {
      exclude(excluded, i, member, groupError('a recordId is a string', `members[${i}].recordId`, recordId));
      continue;
    }
    if (uids.has(uid) || hotkeys.has(hotkey)) {
      const which = uids.has(uid) ? 'uid' : 'hotkey';
      exclude(
        excluded,
        i,
        member,
        new SubnetError(CONSENSUS_ERROR_CODES.duplicateMember, `a second document from this ${which} for the task (the first one keeps its place)`, {
          context: { path: `members[${i}].${which}`, value: which === 'uid' ? uid : hotkey },
        }),
      );
      continue;
    }
    uids.add(uid);
    hotkeys.add(hotkey);
    // A parsed document is held to `limits` too: walked again only when it was parsed under a larger one (G.46 (e)).
    let sets = trustedDocumentSets(fields.sssa, limits) ?? freshDocumentSets(fields.sssa, limits, fresh);
    if (sets === undefined) {
      try {
        const refs: string[] = [];
        sets = computeDocumentSets(validateSssa(fields.sssa, `members[${i}].sssa`, limits, refs), refs, (keys ??= new Map()));
      } catch (error) {
        if (!isSubnetError(error)) throw error;
        exclude(excluded, i, member, error);
        continue;
      }
    }
    prepared.push({ uid: uid as Uid, hotkey: hotkey as Hotkey, role, sets });
  }
  const result = scoreGroup(taskId, taskType ?? null, prepared, explain, fresh);
  return Object.freeze({ ...result, excluded: Object.freeze(excluded) });
}
