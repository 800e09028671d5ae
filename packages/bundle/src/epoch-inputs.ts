import { hotkeySchema, parseInput, uidSchema, unitIntervalSchema } from '@subnet/core';
import { z } from 'zod';

import { BUNDLE_ERROR_CODES } from './errors.js';
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

/** One miner's SSSA for one task (SPEC B), as accepted from the signed `POST /v1/sssa`. */
export const sssaSubmissionSchema = z.strictObject({
  record_id: recordId,
  seq,
  task_id: z.string().min(1).max(256),
  task_type: z.string().min(1).max(128),
  miner_uid: uidSchema,
  miner_hotkey: hotkeySchema,
  role: z.enum(['primary', 'auditor']),
  sssa: z.unknown(),
});
/** An SSSA submission on the wire. */
export type SssaSubmissionRecord = z.output<typeof sssaSubmissionSchema>;

/** One term (benchmark) evaluation of one miner: its task results (SPEC C.1). */
export const termResultSchema = z.strictObject({
  record_id: recordId,
  seq,
  miner_hotkey: hotkeySchema,
  results: z
    .array(
      z.strictObject({
        task_id: z.string().min(1).max(256),
        tests_passed: count,
        tests_total: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
        timed_out: z.boolean(),
      }),
    )
    .max(1_000_000),
});
/** A term result record on the wire. */
export type TermResultRecord = z.output<typeof termResultSchema>;

/** One bounty hunter's counts for the epoch (SPEC C.8). */
export const bountyInputSchema = z.strictObject({
  record_id: recordId,
  seq,
  miner_hotkey: hotkeySchema,
  valid_issues: count,
  invalid_issues: count,
  starred_repos: count,
});
/** A bounty record on the wire. */
export type BountyInputRecord = z.output<typeof bountyInputSchema>;

/** Another validator's score of one miner in one challenge for this epoch (SPEC C.2), already verified. */
export const peerScoreSchema = z.strictObject({
  validator_hotkey: hotkeySchema,
  challenge_id: z.string().min(1),
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

function uniqueIds(list: readonly { record_id: string }[], ctx: z.RefinementCtx, name: string): void {
  const seen = new Set<string>();
  list.forEach((r, i) => {
    if (seen.has(r.record_id)) ctx.addIssue({ code: 'custom', path: [name, i, 'record_id'], message: 'duplicate record id' });
    seen.add(r.record_id);
  });
}

/**
 * Every input record of one epoch: the records of the epoch per challenge kind, the peer scores, and the
 * state carried from the previous epoch (`window_state` of the workflow challenge, `decay_states`).
 * Lists may come in any order; record ids are unique within each list.
 */
export const epochInputsSchema = z
  .strictObject({
    workflow_runs: z.array(workflowRunSchema).default([]),
    sssa_submissions: z.array(sssaSubmissionSchema).default([]),
    term_results: z.array(termResultSchema).default([]),
    bounty_records: z.array(bountyInputSchema).default([]),
    peer_scores: z.array(peerScoreSchema).default([]),
    window_state: z.unknown().default(null),
    decay_states: z.array(decayStateEntrySchema).default([]),
  })
  .superRefine((inputs, ctx) => {
    uniqueIds(inputs.workflow_runs, ctx, 'workflow_runs');
    uniqueIds(inputs.sssa_submissions, ctx, 'sssa_submissions');
    uniqueIds(inputs.term_results, ctx, 'term_results');
    uniqueIds(inputs.bounty_records, ctx, 'bounty_records');
    const pairs = new Set<string>();
    inputs.sssa_submissions.forEach((s, i) => {
      const key = `${s.task_id}\u0000${s.miner_hotkey}`;
      if (pairs.has(key)) ctx.addIssue({ code: 'custom', path: ['sssa_submissions', i, 'miner_hotkey'], message: 'a miner submitted two SSSAs for one task' });
      pairs.add(key);
    });
  });
/** Parsed epoch inputs. */
export type EpochInputs = z.output<typeof epochInputsSchema>;

/** The validator set with stakes: `{ validator_hotkey, stake }` (stake a number, or a decimal string of rao). */
export const stakeEntrySchema = z.strictObject({
  validator_hotkey: hotkeySchema,
  stake: z.union([z.number().min(0), z.string().regex(/^(0|[1-9][0-9]*)$/, 'a stake string is decimal digits')]),
});
/** One neuron of the metagraph: `{ hotkey, uid }`. */
export const neuronEntrySchema = z.strictObject({ hotkey: hotkeySchema, uid: uidSchema });

/**
 * Parses an epoch's input records.
 *
 * @param input - untrusted JSON value
 * @returns the parsed, frozen inputs with empty lists filled in
 * @throws SubnetError `BUNDLE_INVALID_INPUT` naming the first bad field (`inputs.workflow_runs[2].miner_uid`)
 * @example parseEpochInputs({}).workflow_runs // []
 */
export function parseEpochInputs(input: unknown): EpochInputs {
  return deepFreeze(parseInput(epochInputsSchema, input, BUNDLE_ERROR_CODES.invalidInput, 'inputs'));
}
