import { hotkeySchema, uidSchema } from '@subnet/core';
import { taskIdSchema } from '@subnet/consensus';
import { z } from 'zod';

/**
 * What became of one query a validator sent to a miner's axon (docs/spec.md G.6 "Queries"). Codes are
 * append-only.
 *
 * - `answered`: the axon answered 200 with a usable answer, stored as the record `record_id`.
 * - `no_axon`: the miner has no axon on chain (never served, or served `0.0.0.0`); nothing was sent.
 * - `unreachable`: connection refused, reset or dropped (the dendrite's 503).
 * - `timeout`: no complete answer within the configured timeout (408).
 * - `refused`: the axon refused the validator: blacklisted (403) or not verified (401).
 * - `axon_error`: any other non-200 status from the axon (404 unknown synapse, 500, 429, ...).
 * - `too_large`: the answer exceeded the configured response size limit (the dendrite's 400).
 * - `garbage`: the answer is not a synapse of the declared class (not JSON, wrong field types: 422).
 * - `invalid_answer`: a well-formed synapse whose answer field is missing or fails the challenge's schema
 *   (an invalid SSSA document, an invalid workflow plan).
 * - `conflict`: a usable answer, but the miner had already sent a different one for the task (for example
 *   through `POST /v1/sssa`); the first stands.
 */
export const QUERY_OUTCOMES = Object.freeze([
  'answered',
  'no_axon',
  'unreachable',
  'timeout',
  'refused',
  'axon_error',
  'too_large',
  'garbage',
  'invalid_answer',
  'conflict',
] as const);
/** One of {@link QUERY_OUTCOMES}. */
export type QueryOutcome = (typeof QUERY_OUTCOMES)[number];

const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * One query of the epoch as the bundle shows it (docs/spec.md G.6): which challenge and task, the block
 * hash the task's group was drawn from, the miner and its role, the synapse class sent, the status code
 * the dendrite read (null when nothing was sent), the outcome with a one-sentence reason, the stored answer
 * record (null unless `answered`), the time it took and the arrival sequence of the query record.
 */
export const queryRecordSchema = z.strictObject({
  challenge_id: z.string().min(1).max(64),
  task_id: taskIdSchema,
  block_hash: z.string().regex(/^0x[0-9a-f]{64}$/, 'a block hash is 0x followed by 64 lowercase hex digits'),
  miner_hotkey: hotkeySchema,
  miner_uid: uidSchema,
  role: z.enum(['primary', 'auditor']),
  synapse: z.string().min(1).max(128),
  status_code: z.number().int().min(0).max(999).nullable(),
  outcome: z.enum(QUERY_OUTCOMES),
  reason: z.string().max(512).nullable(),
  record_id: z.string().min(1).max(128).nullable(),
  elapsed_ms: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  seq,
});
/** A query record on the wire. */
export type QueryRecord = z.output<typeof queryRecordSchema>;

/** The bundle's `queries` list: every query of the epoch, by `seq`. */
export const queryListSchema = z.array(queryRecordSchema).max(10_000_000);
