import { taskIdSchema, taskTypeSchema } from '@subnet/consensus';
import { BITTENSOR_SS58_PREFIX, checkInputShape, DEFAULT_INPUT_LIMITS, describeValue, findStringifiedNumber, isSubnetError } from '@subnet/core';
import type { InputLimits } from '@subnet/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

import { answerMessage } from './answer-message.js';
import { noteLimit } from './access-log.js';
import { hotkeySpellingProblem, quotedValue } from './hotkey-spelling.js';
import { inputLimitKey } from './input-limits.js';
import { limitSetting } from './limit-setting.js';
import type { ValidatorMetrics } from './metrics.js';
import type { RecordKind } from './storage.js';
import type { RegisteredTask } from './task-registry.js';

/**
 * The HTTP error codes of the ingest checks (docs/spec.md G.3, G.6). Codes are append-only; the input
 * shape codes are `@subnet/core`'s (`CORE_INPUT_TOO_DEEP`, `CORE_INPUT_TOO_LARGE`, `CORE_INPUT_NOT_JSON`).
 *
 * @example if (body.error.code === INGEST_ERROR_CODES.notInGroup) askForAnotherTask()
 */
export const INGEST_ERROR_CODES = Object.freeze({
  /** 404: an SSSA names a task that was never registered with this validator. */
  unknownTask: 'UNKNOWN_TASK',
  /** 403: the signing miner is not in the task's drawn verification group. */
  notInGroup: 'NOT_IN_GROUP',
  /** 409: the miner already sent a different SSSA for this task. */
  duplicateSssa: 'DUPLICATE_SSSA',
  /** 409: the task was registered in an epoch that has ended; its SSSAs are no longer taken. */
  taskEpochOver: 'TASK_EPOCH_OVER',
  /** 409: a task id registered before (with another type or block hash). */
  taskAlreadyRegistered: 'TASK_ALREADY_REGISTERED',
  /** 503: the epoch's candidate snapshot is not taken yet (the previous epoch is closing). */
  tasksNotReady: 'TASKS_NOT_READY',
  /** 403: a peer-score document signed with this validator's own hotkey (SPEC C.4). */
  selfSignedPeerScores: 'SELF_SIGNED_PEER_SCORES',
  /**
   * 400: a number canonical JSON writes as a decimal string (an integer beyond 2^53 in magnitude): stored,
   * it would come back to the close as a string, so the record would not be the one accepted.
   */
  unsafeNumber: 'UNSAFE_NUMBER',
  /**
   * 400: a peer-score document with more scores than the metagraph has neurons (docs/spec.md G.4): no
   * honest peer scores more miners than the subnet holds, and each score is carried into the bundle.
   */
  peerScoresExceedMetagraph: 'PEER_SCORES_EXCEED_METAGRAPH',
  /**
   * 503: the task belongs to an epoch this instance has not reached yet (HA: the leader registered it after
   * a head this instance has not read). Sent again after `Retry-After`, it is taken.
   */
  taskEpochNotStarted: 'TASK_EPOCH_NOT_STARTED',
  /**
   * 400: a hotkey (the signing header, or a hotkey field of the body) is a valid SS58 address of a key, but not in
   * its one spelling, prefix 42 in the one-byte form; the message names the prefix found and the address to send
   * (docs/spec.md G.6 "A hotkey in an ingest body has the same one spelling").
   */
  wrongSs58Prefix: 'WRONG_SS58_PREFIX',
});

/**
 * The refusal of a hotkey field of an ingest body that is not the one spelling of a key (docs/spec.md G.6 "A hotkey
 * in an ingest body has the same one spelling"), else undefined: 400 `WRONG_SS58_PREFIX` for the same key in another spelling (prefix 0 or 2,
 * the two-byte form of 42), naming the field, the value, the prefix found and the address to send; 400
 * `INVALID_RECORD` for a value that is no SS58 address of a 32-byte key. Run before the metagraph is asked, so
 * another spelling of a registered key is not answered "not registered", and no record or bundle holds a second
 * spelling of one key.
 *
 * @param value - the field's text as sent
 * @param path - the field's path, as `body.scores[3].miner_hotkey`
 * @returns undefined when `value` is the key's SS58 address with prefix 42, else the 400 reply
 * @example const refused = checkBodyHotkey(body.miner_hotkey, 'body.miner_hotkey')
 */
export function checkBodyHotkey(value: string, path: string): IngestError | undefined {
  const problem = hotkeySpellingProblem(value);
  if (problem === undefined) return undefined;
  if (problem.kind === 'not_ss58')
    return {
      status: 400,
      code: 'INVALID_RECORD',
      message: `${path} ${quotedValue(value)} is not an SS58 address of a 32-byte key (${problem.why}); send the hotkey's SS58 address with prefix ${BITTENSOR_SS58_PREFIX}`,
      path,
    };
  return {
    status: 400,
    code: INGEST_ERROR_CODES.wrongSs58Prefix,
    message: `${path} ${quotedValue(value)} is an SS58 address with ${problem.found}; this API takes prefix ${BITTENSOR_SS58_PREFIX} (Bittensor's, as the metagraph spells hotkeys): send ${problem.canonical}, the same key`,
    path,
  };
}

/**
 * Whether a task id can key a stored row: a task is stored under its id as the row's key, and PostgreSQL's text cannot
 * hold U+0000 (NUL), so a task id holding one failed the write (503 `STORAGE_UNAVAILABLE` for every record of its
 * batch) or the read of an SSSA or `GET /v1/tasks/:id` (docs/spec.md G.40). Refused at the boundary on every backend.
 *
 * @param taskId - a task id as sent
 * @returns whether it holds no U+0000
 * @example storableTaskId('a\u0000') // false
 */
export function storableTaskId(taskId: string): boolean {
  return !taskId.includes('\u0000');
}

/**
 * The longest task id, in UTF-16 code units: `@subnet/consensus`'s `taskIdSchema` takes 1-256. `GET /v1/tasks/{id}`
 * takes a path parameter this long (fastify's default, 100, answered 414 for a registered task's longer id).
 */
export const MAX_TASK_ID_LENGTH = 256;

const ingestTaskId = taskIdSchema.refine(storableTaskId, 'a task id must not hold U+0000 (NUL): it keys a stored row, and PostgreSQL text cannot hold it');

/** The body of `POST /v1/sssa`: the task and the document; type and role come from the assignment. */
export const sssaIngestSchema = z.strictObject({ task_id: ingestTaskId, sssa: z.unknown() });

/** The body of `POST /v1/tasks` (executor): the task's id and type. */
export const taskIngestSchema = z.strictObject({ task_id: ingestTaskId, task_type: taskTypeSchema });

/** An error reply body. */
export interface IngestError {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly path?: string;
  /** For a refusal by a configured limit: its setting and value (`limitSetting`), for the access log line. */
  readonly setting?: string;
}

/**
 * The `error` object a refusal is answered with: its code, message and (when it has one) path.
 *
 * @param refused - the refusal
 * @returns `{ code, message, path? }`
 * @example reply.code(refused.status).send({ error: ingestErrorBody(refused) })
 */
export function ingestErrorBody(refused: IngestError): { code: string; message: string; path?: string } {
  return { code: refused.code, message: refused.message, ...(refused.path === undefined ? {} : { path: refused.path }) };
}

/**
 * Checks the shape of a parsed body (SPEC 0 "Hostile shapes"): at most `server.input_limits.max_depth`
 * (<= 64) levels deep, every list, string and object within the configured limits, well-formed text, JSON
 * values only; and no number that canonical JSON would store as a decimal string (an integer beyond 2^53
 * in magnitude), which would reach the close as a string. Run on every POST before anything reads the
 * body, so nothing downstream (signatures, digests, bundles) meets a hostile shape.
 *
 * @param body - the parsed JSON body
 * @param limits - the configured limits (default: core's, depth 64)
 * @returns undefined when the shape is fine, else the 400 reply (`CORE_INPUT_TOO_DEEP`, `CORE_INPUT_TOO_LARGE`,
 *   `CORE_INPUT_NOT_JSON` or `UNSAFE_NUMBER`, naming the path, the value and the limit; a `TOO_` refusal ends with the
 *   setting that holds the limit, `the limit is server.input_limits.max_list_length = 3 (environment variable …)`)
 * @example const refused = checkBodyShape(request.body, toInputLimits(config.server.input_limits))
 */
export function checkBodyShape(body: unknown, limits: Partial<InputLimits> = { maxDepth: 64 }): IngestError | undefined {
  try {
    checkInputShape(body, limits, 'body');
    return findUnsafeNumber(body);
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    const path = typeof error.context.path === 'string' ? { path: error.context.path } : {};
    const limitName = error.context.limitName;
    const limit = error.context.limit;
    // The answer's `code` holds the code: its message does not start with it (docs/spec.md G.46 (c)).
    const message = answerMessage(error);
    if (typeof limit !== 'number' || typeof limitName !== 'string' || !Object.hasOwn(DEFAULT_INPUT_LIMITS, limitName))
      return { status: 400, code: error.code, message, ...path };
    // The operator raises the limit in the configuration; the answer says which key, its value and how far it goes.
    const name = limitName as keyof InputLimits;
    const setting = limitSetting(inputLimitKey(name), limit, DEFAULT_INPUT_LIMITS[name]);
    return { status: 400, code: error.code, message: `${message}; the limit is ${setting}`, ...path, setting };
  }
}

/**
 * The refusal of the first number that a record stored as canonical JSON would not keep as a number (an
 * integer beyond 2^53 in magnitude), else undefined. Run after the shape check, which bounds the walk.
 */
function findUnsafeNumber(body: unknown): IngestError | undefined {
  const found = findStringifiedNumber(body, 'body');
  if (found === undefined) return undefined;
  return {
    status: 400,
    code: INGEST_ERROR_CODES.unsafeNumber,
    message: found.message,
    path: found.path,
  };
}

/**
 * A fastify `preValidation` hook that refuses any POST body of a hostile shape with a coded 400.
 *
 * @param metrics - where refusals are counted
 * @param kindOf - the record kind of a URL (for the metric label)
 * @param limits - the configured limits (default: core's, depth 64)
 * @returns the hook
 * @example app.addHook('preValidation', shapeCheckHook(metrics, kindOf, limits))
 */
export function shapeCheckHook(metrics: ValidatorMetrics, kindOf: (url: string) => RecordKind | 'other', limits?: Partial<InputLimits>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.method !== 'POST' || request.body === undefined) return;
    const refused = checkBodyShape(request.body, limits);
    if (refused === undefined) return;
    metrics.recordsRejected.inc({ kind: kindOf(request.url), reason: 'input_shape' });
    if (refused.setting !== undefined) noteLimit(request, refused.setting);
    await reply.code(refused.status).send({ error: ingestErrorBody(refused) });
  };
}

/**
 * The assignment checks of an SSSA at ingest (SPEC B, docs/spec.md G.3): the task is registered, belongs
 * to the current epoch, and the signing miner is in its group. Returns the role the draw gave the miner. A task
 * of an epoch this instance has not reached (HA) is a retryable 503, one of an ended epoch a final 409.
 *
 * @param task - the registered task, or undefined
 * @param currentEpoch - the epoch records go to now
 * @param hotkey - the signing miner
 * @param taskId - the task id sent, quoted when no task has it
 * @returns `{ role }`, or the refusal
 * @example const checked = checkSssaAssignment(await tasks.lookup(body.task_id), epoch, hotkey)
 */
export function checkSssaAssignment(
  task: RegisteredTask | undefined,
  currentEpoch: number | undefined,
  hotkey: string,
  taskId?: string,
): { readonly role: 'primary' | 'auditor' } | IngestError {
  if (task === undefined)
    return {
      status: 404,
      code: INGEST_ERROR_CODES.unknownTask,
      message: `no task with this id was registered with this validator at body.task_id${taskId === undefined ? '' : ` (got ${describeValue(taskId)})`}`,
      path: 'body.task_id',
    };
  if (currentEpoch === undefined || task.epoch > currentEpoch) {
    // HA: the leader registered the task in an epoch whose head this instance has not read yet. The record
    // is the miner's honest answer; refusing it for good (409) would lose it, so it is asked again.
    return {
      status: 503,
      code: INGEST_ERROR_CODES.taskEpochNotStarted,
      message: `the task belongs to epoch ${task.epoch}, which has not begun on this instance (it is in ${currentEpoch === undefined ? 'no epoch yet' : `epoch ${currentEpoch}`}); send it again shortly`,
      path: 'body.task_id',
    };
  }
  if (task.epoch !== currentEpoch) {
    return {
      status: 409,
      code: INGEST_ERROR_CODES.taskEpochOver,
      message: `the task belongs to epoch ${task.epoch}, which is over (this validator is in epoch ${currentEpoch}); SSSAs are taken in the epoch the task was registered in`,
      path: 'body.task_id',
    };
  }
  const member = task.assignment.members.find((m) => m.hotkey === hotkey);
  if (member === undefined)
    return { status: 403, code: INGEST_ERROR_CODES.notInGroup, message: "the signing hotkey is not in the task's verification group", path: 'body.task_id' };
  return { role: member.role };
}

/**
 * The size check of a peer-score document (docs/spec.md G.4): an honest peer scores at most every neuron
 * of the subnet once, so a document with more scores than the metagraph has neurons is refused whole,
 * before anything of it is stored or carried into a bundle. `neuronCount` re-reads the metagraph when the
 * count it knows is below the one asked for (a registration this validator has not seen yet), so a peer
 * with a fresher view is not refused for it. Hotkeys unknown here are not refused one by one: views
 * differ around registrations, and the size bound already limits what one document adds.
 *
 * @param scores - how many scores the document holds (its hotkeys are distinct: the schema refuses a repeat)
 * @param neuronCount - the metagraph's size, re-read first when below the given count
 * @returns undefined when the document fits, else the 400 reply naming the count and the limit
 * @example const refused = await checkPeerScoreCount(body.scores.length, ctx.neuronCount)
 */
export async function checkPeerScoreCount(scores: number, neuronCount: (atLeast: number) => Promise<number>): Promise<IngestError | undefined> {
  const neurons = await neuronCount(scores);
  if (scores <= neurons) return undefined;
  return {
    status: 400,
    code: INGEST_ERROR_CODES.peerScoresExceedMetagraph,
    message: `the document holds ${scores} scores but the metagraph has ${neurons} neurons; a peer scores each neuron at most once`,
    path: 'body.scores',
  };
}
