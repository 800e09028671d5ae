import { MAX_VALID_ISSUES, MAX_VALID_ISSUES_MESSAGE } from '@subnet/aggregation';
import { hotkeySchema, isHotkey, parseInput, uidSchema, unitIntervalSchema } from '@subnet/core';
import { reputationTableSchema, taskIdSchema, taskTypeSchema } from '@subnet/consensus';
import { z } from 'zod';

import { BUNDLE_ERROR_CODES } from './errors.js';
import { isPlainList, isPlainObject, keyCount } from './plain-shapes.js';
import { deepFreeze } from './wire.js';

const recordId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'a record id is 1-128 of A-Z a-z 0-9 . _ : -');
const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * One executed workflow from the validator's executor (SPEC A): `task`, `plan` and execution `record` as
 * `@subnet/composite` reads them, the miner, and `seq`, the validator's arrival sequence number.
 */
export const workflowRunSchema = z.strictObject({
  record_id: recordId,
  seq,
  miner_uid: uidSchema,
  miner_hotkey: hotkeySchema,
  task: z.unknown(),
  plan: z.unknown(),
  record: z.unknown(),
});
/** A workflow run on the wire. */
export type WorkflowRunRecord = z.output<typeof workflowRunSchema>;

/**
 * A task registered with the validator by its executor (SPEC B, docs/spec.md G.3): its id and type, the
 * block hash its group is drawn from, and `seq` (the arrival sequence of the registration).
 */
export const taskRecordSchema = z.strictObject({
  task_id: taskIdSchema,
  task_type: taskTypeSchema,
  block_hash: z.string().regex(/^0x[0-9a-f]{64}$/, 'a block hash is 0x followed by 64 lowercase hex digits'),
  seq,
});
/** A registered task on the wire. */
export type TaskRecord = z.output<typeof taskRecordSchema>;

/**
 * One miner's SSSA for one registered task (SPEC B), as accepted from the signed `POST /v1/sssa`. The task
 * type and the role are not the miner's to say: they come from the task's registration and its draw.
 */
export const sssaSubmissionSchema = z.strictObject({
  record_id: recordId,
  seq,
  task_id: taskIdSchema,
  miner_uid: uidSchema,
  miner_hotkey: hotkeySchema,
  sssa: z.unknown(),
});
/** An SSSA submission on the wire. */
export type SssaSubmissionRecord = z.output<typeof sssaSubmissionSchema>;

/**
 * One task's result in a term (benchmark) evaluation (SPEC C.1): `timed_out` defaults to false. The one
 * schema the validator's ingest and `miner-check term` read.
 */
export const termTaskResultSchema = z.strictObject({
  task_id: z.string().min(1).max(256),
  tests_passed: count,
  tests_total: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  timed_out: z.boolean().default(false),
});

/** A term results file: the list of task results (what `miner-check term --results` reads). */
export const termResultsSchema = z.array(termTaskResultSchema).max(1_000_000);

/** One term (benchmark) evaluation of one miner: its task results (SPEC C.1). */
export const termResultSchema = z.strictObject({
  record_id: recordId,
  seq,
  miner_hotkey: hotkeySchema,
  results: termResultsSchema,
});
/** A term result record on the wire. */
export type TermResultRecord = z.output<typeof termResultSchema>;

/** One bounty hunter's counts for the epoch (SPEC C.8). */
export const bountyInputSchema = z.strictObject({
  record_id: recordId,
  seq,
  miner_hotkey: hotkeySchema,
  valid_issues: count.max(MAX_VALID_ISSUES, MAX_VALID_ISSUES_MESSAGE),
  invalid_issues: count,
  starred_repos: count,
});
/** A bounty record on the wire. */
export type BountyInputRecord = z.output<typeof bountyInputSchema>;

/**
 * Another validator's score of one miner in one challenge for this epoch (SPEC C.2), already verified:
 * `record_id` and `seq` are those of the signed document it came from.
 */
export const peerScoreSchema = z.strictObject({
  record_id: recordId,
  seq,
  validator_hotkey: hotkeySchema,
  challenge_id: z.string().min(1).max(64),
  miner_hotkey: hotkeySchema,
  score: unitIntervalSchema,
});
/** A peer score on the wire. */
export type PeerScoreRecord = z.output<typeof peerScoreSchema>;

/** A challenge's reward-decay state carried from the previous epoch (SPEC C.6). */
export const decayStateEntrySchema = z.strictObject({
  challenge_id: z.string().min(1),
  state: z.strictObject({ top_score: unitIntervalSchema, top_epoch: count, top_hotkey: hotkeySchema }).nullable(),
});

/** One neuron of the metagraph: `{ hotkey, uid }`. */
export const neuronEntrySchema = z.strictObject({ hotkey: hotkeySchema, uid: uidSchema });

/**
 * A refinement of a list of neurons that names every entry whose hotkey or uid an earlier entry holds
 * (internal: the metagraph and the candidates).
 *
 * @param messages - the issue's sentence for a repeated hotkey and for a repeated uid
 * @returns the `superRefine` callback
 * @example z.array(neuronEntrySchema).superRefine(eachNeuronOnce({ hotkey: 'a hotkey appears twice', uid: 'a uid appears twice' }))
 */
export function eachNeuronOnce(messages: { readonly hotkey: string; readonly uid: string }) {
  return (list: readonly { readonly hotkey: string; readonly uid: number }[], ctx: z.RefinementCtx): void => {
    const hotkeys = new Set<string>();
    const uids = new Set<number>();
    list.forEach((n, i) => {
      if (hotkeys.has(n.hotkey)) ctx.addIssue({ code: 'custom', path: [i, 'hotkey'], message: messages.hotkey });
      if (uids.has(n.uid)) ctx.addIssue({ code: 'custom', path: [i, 'uid'], message: messages.uid });
      hotkeys.add(n.hotkey);
      uids.add(n.uid);
    });
  };
}

const records = z.array(z.unknown()).max(10_000_000).default([]);

/**
 * Every input of one epoch: the records per kind (each list may hold anything: a record that does not
 * match its schema is excluded with a reason at the close, never a failed epoch), the tasks registered this
 * epoch, the candidates their groups were drawn from (each hotkey and uid once), and the state carried from
 * the previous epoch (`window_state`, `decay_states` with each challenge once, `reputations`, the per-type
 * reputation table before this epoch).
 */
export const epochInputsSchema = z.strictObject({
  workflow_runs: records,
  tasks: records,
  sssa_submissions: records,
  term_results: records,
  bounty_records: records,
  peer_scores: records,
  candidates: z
    .array(neuronEntrySchema)
    .superRefine(eachNeuronOnce({ hotkey: 'a candidate hotkey appears twice', uid: 'a candidate uid appears twice' }))
    .default([]),
  window_state: z.unknown().default(null),
  decay_states: z
    .array(decayStateEntrySchema)
    .superRefine((list, ctx) => {
      const ids = new Set<string>();
      list.forEach((d, i) => {
        if (ids.has(d.challenge_id)) ctx.addIssue({ code: 'custom', path: [i, 'challenge_id'], message: 'a challenge has two carried decay states' });
        ids.add(d.challenge_id);
      });
    })
    .default([]),
  reputations: reputationTableSchema.nullable().default(null),
});
/** Parsed epoch inputs (record lists still unparsed: see `screenRecords`). */
export type EpochInputs = z.output<typeof epochInputsSchema>;

/** The validator set with stakes: `{ validator_hotkey, stake }` (stake a number, or a decimal string of rao). */
export const stakeEntrySchema = z.strictObject({
  validator_hotkey: hotkeySchema,
  stake: z.union([z.number().min(0), z.string().regex(/^(0|[1-9][0-9]*)$/, 'a stake string is decimal digits')]),
});

/**
 * Parses an epoch's inputs: the carried state and candidates strictly (they come from the validator, not
 * from a miner), the record lists only as lists.
 *
 * @param input - untrusted JSON value
 * @returns the parsed, frozen inputs with empty lists filled in
 * @throws SubnetError `BUNDLE_INVALID_INPUT` naming the first bad field (`inputs.decay_states[0].state`)
 * @example parseEpochInputs({}).workflow_runs // []
 */
export function parseEpochInputs(input: unknown): EpochInputs {
  return deepFreeze(readEpochInputs(input));
}

/**
 * {@link parseEpochInputs} without the deep freeze (internal): `computeEpoch` only reads the records, copies
 * what it keeps and freezes its own result, so the caller's record objects are left as they were given
 * instead of being frozen in place (thousands of objects in a 256-miner epoch).
 *
 * @param input - untrusted JSON value
 * @returns the parsed inputs, empty lists filled in, records as given
 * @throws SubnetError `BUNDLE_INVALID_INPUT` naming the first bad field
 */
export function readEpochInputs(input: unknown): EpochInputs {
  // Valid input is read by hand (fastEpochInputs); anything else by the schema, for its coded error.
  return fastEpochInputs(input) ?? parseInput(epochInputsSchema, input, BUNDLE_ERROR_CODES.invalidInput, 'inputs');
}

const RECORD_LISTS = ['workflow_runs', 'tasks', 'sssa_submissions', 'term_results', 'bounty_records', 'peer_scores'] as const;
const INPUT_KEYS = new Set<string>([...RECORD_LISTS, 'candidates', 'window_state', 'decay_states', 'reputations']);
const MAX_RECORDS = 10_000_000;

const NEURON_KEYS = new Set(['hotkey', 'uid']);
const DECAY_ENTRY_KEYS = new Set(['challenge_id', 'state']);
const DECAY_STATE_KEYS = new Set(['top_score', 'top_epoch', 'top_hotkey']);

/**
 * A copy of a record list as the schema gives it: a hole of a sparse list (not JSON) is an element that reads
 * `undefined`, so the record there is screened and excluded at its index like any value that is not JSON
 * (docs/spec.md G.44). A JSON list has no hole: the scan after the native copy only reads.
 */
function denseCopy(list: readonly unknown[]): unknown[] {
  const copy = list.slice();
  for (let i = 0; i < copy.length; i += 1) if (!(i in copy)) copy[i] = undefined;
  return copy;
}

/**
 * `epochInputsSchema`'s output for input it accepts (internal): fresh lists (records as given), defaults
 * filled in, the carried state copied as the schema copies it; undefined for anything else, including a
 * reputation table (the schema reads those). `epoch-inputs.test.ts` checks the agreement.
 */
function fastEpochInputs(input: unknown): EpochInputs | undefined {
  if (!isPlainObject(input) || keyCount(input, INPUT_KEYS) < 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const name of RECORD_LISTS) {
    const list = input[name];
    if (list === undefined) out[name] = [];
    else if (isPlainList(list) && list.length <= MAX_RECORDS) out[name] = denseCopy(list);
    else return undefined;
  }
  const candidates = input.candidates;
  if (candidates === undefined) out.candidates = [];
  else {
    if (!isPlainList(candidates)) return undefined;
    const copies = new Array<unknown>(candidates.length);
    const hotkeys = new Set<string>();
    const uids = new Set<number>();
    for (let i = 0; i < candidates.length; i += 1) {
      const n = candidates[i];
      if (!isPlainObject(n) || keyCount(n, NEURON_KEYS) !== 2) return undefined;
      const { hotkey, uid } = n;
      if (!isHotkey(hotkey) || typeof uid !== 'number' || !Number.isInteger(uid) || uid < 0 || uid > 65535) return undefined;
      // A hotkey or uid listed twice is the schema's to refuse, with its path.
      if (hotkeys.has(hotkey) || uids.has(uid)) return undefined;
      hotkeys.add(hotkey);
      uids.add(uid);
      copies[i] = { hotkey, uid };
    }
    out.candidates = copies;
  }
  out.window_state = input.window_state === undefined ? null : input.window_state;
  const decayStates = input.decay_states;
  if (decayStates === undefined) out.decay_states = [];
  else {
    if (!isPlainList(decayStates)) return undefined;
    const copies = new Array<unknown>(decayStates.length);
    const ids = new Set<string>();
    for (let i = 0; i < decayStates.length; i += 1) {
      const d = decayStates[i];
      if (!isPlainObject(d) || keyCount(d, DECAY_ENTRY_KEYS) !== 2) return undefined;
      const { challenge_id, state } = d;
      if (typeof challenge_id !== 'string' || challenge_id.length === 0 || ids.has(challenge_id)) return undefined;
      ids.add(challenge_id);
      if (state === null) copies[i] = { challenge_id, state: null };
      else {
        if (!isPlainObject(state) || keyCount(state, DECAY_STATE_KEYS) !== 3) return undefined;
        const { top_score, top_epoch, top_hotkey } = state;
        if (typeof top_score !== 'number' || !(top_score >= 0 && top_score <= 1)) return undefined;
        if (typeof top_epoch !== 'number' || !Number.isSafeInteger(top_epoch) || top_epoch < 0 || !isHotkey(top_hotkey)) return undefined;
        copies[i] = { challenge_id, state: { top_score, top_epoch, top_hotkey } };
      }
    }
    out.decay_states = copies;
  }
  if (input.reputations !== undefined && input.reputations !== null) return undefined;
  out.reputations = null;
  return out as EpochInputs;
}
