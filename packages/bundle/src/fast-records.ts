import { MAX_VALID_ISSUES } from '@subnet/aggregation';
import { asciiTrim, findLoneSurrogate, isHotkey } from '@subnet/core';

import type { BountyInputRecord, PeerScoreRecord, SssaSubmissionRecord, TaskRecord, TermResultRecord, WorkflowRunRecord } from './epoch-inputs.js';
import type { RecordList } from './exclusion.js';
import { isPlainObject, keyCount } from './plain-shapes.js';

/**
 * Hand-written acceptors for the record lists (internal): each returns exactly what the list's zod schema
 * would return for a record that passes both the shape check (`checkInputShape`, SPEC 0) and the schema,
 * and undefined for anything else, including records it is merely unsure about. It never rejects for a
 * reason of its own: a record it declines goes through the shape check and the zod schema as before, so
 * an invalid record is excluded with the same code and the same field path; a valid one pays no zod cost.
 * `fast-records.test.ts` checks the agreement with the schemas on valid and hostile records.
 *
 * Keys are read as zod reads them (`for...in`, `record[key]`): an unknown key (`__proto__`, `constructor`,
 * an extra field) makes the acceptor decline. Only plain objects (`Object.prototype`) are accepted.
 */
export type FastRecord<T> = (item: unknown) => T | undefined;

const RECORD_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const BLOCK_HASH = /^0x[0-9a-f]{64}$/;
/** checkInputShape's default list limit: every list inside a record must fit it (the schema allows more). */
const MAX_LIST_LENGTH = 100_000;

function isRecordId(v: unknown): v is string {
  return typeof v === 'string' && RECORD_ID.test(v);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isUid(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 65535;
}

/** Well-formed text of 1..max UTF-16 code units (no lone surrogate: the shape check refuses it). */
function isText(v: unknown, max: number): v is string {
  return typeof v === 'string' && v.length >= 1 && v.length <= max && findLoneSurrogate(v) < 0;
}

/** `@subnet/consensus`'s task id (256) and task type (128): well-formed, not blank once ASCII-trimmed (SPEC 0, docs/spec.md G.46 (d)). */
function isTaskText(v: unknown, max: number): v is string {
  return isText(v, max) && asciiTrim(v) !== '';
}

const BOUNTY_KEYS = new Set(['record_id', 'seq', 'miner_hotkey', 'valid_issues', 'invalid_issues', 'starred_repos']);

/** `bountyInputSchema`. */
export const fastBountyRecord: FastRecord<BountyInputRecord> = (item) => {
  if (!isPlainObject(item) || keyCount(item, BOUNTY_KEYS) !== 6) return undefined;
  const { record_id, seq, miner_hotkey, valid_issues, invalid_issues, starred_repos } = item;
  if (
    !isRecordId(record_id) ||
    !isCount(seq) ||
    !isHotkey(miner_hotkey) ||
    !isCount(valid_issues) ||
    valid_issues > MAX_VALID_ISSUES ||
    !isCount(invalid_issues) ||
    !isCount(starred_repos)
  )
    return undefined;
  return { record_id, seq, miner_hotkey, valid_issues, invalid_issues, starred_repos };
};

const PEER_KEYS = new Set(['record_id', 'seq', 'validator_hotkey', 'challenge_id', 'miner_hotkey', 'score']);

/**
 * The last validator hotkey a peer score was accepted with: a peer document expands into one entry per
 * miner, all signed by one validator, so its text is asked of isHotkey once, not once per entry. Only ever
 * a string isHotkey accepted.
 */
let acceptedPeer: string | undefined;

/** `peerScoreSchema`. */
export const fastPeerScore: FastRecord<PeerScoreRecord> = (item) => {
  if (!isPlainObject(item) || keyCount(item, PEER_KEYS) !== 6) return undefined;
  const { record_id, seq, validator_hotkey, challenge_id, miner_hotkey, score } = item;
  if (!isRecordId(record_id) || !isCount(seq) || !isText(challenge_id, 64) || !isHotkey(miner_hotkey)) return undefined;
  if (validator_hotkey !== acceptedPeer) {
    if (!isHotkey(validator_hotkey)) return undefined;
    acceptedPeer = validator_hotkey;
  }
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) return undefined;
  return { record_id, seq, validator_hotkey, challenge_id, miner_hotkey, score } as PeerScoreRecord;
};

const TERM_KEYS = new Set(['record_id', 'seq', 'miner_hotkey', 'results']);

/** `termResultSchema` (a task result without `timed_out` gets `false`, as the schema's default). */
export const fastTermResult: FastRecord<TermResultRecord> = (item) => {
  if (!isPlainObject(item) || keyCount(item, TERM_KEYS) !== 4) return undefined;
  const { record_id, seq, miner_hotkey, results } = item;
  if (!isRecordId(record_id) || !isCount(seq) || !isHotkey(miner_hotkey)) return undefined;
  if (!Array.isArray(results) || Object.getPrototypeOf(results) !== Array.prototype || results.length > MAX_LIST_LENGTH) return undefined;
  const out = new Array<TermResultRecord['results'][number]>(results.length);
  for (let i = 0; i < results.length; i++) {
    const r: unknown = results[i];
    if (!isPlainObject(r)) return undefined;
    let n = 0;
    for (const key in r) {
      // Compared directly: cheaper than a set lookup for four names, six times per record.
      if (key !== 'task_id' && key !== 'tests_passed' && key !== 'tests_total' && key !== 'timed_out') return undefined;
      n++;
    }
    const { task_id, tests_passed, tests_total, timed_out } = r;
    if (!isText(task_id, 256) || !isCount(tests_passed) || !isCount(tests_total) || tests_total < 1) return undefined;
    // The three fields above are present, so three keys mean `timed_out` is absent (the default: false)
    // and four that it is present, where it must be a boolean (present as undefined is not JSON).
    if (n === 3) out[i] = { task_id, tests_passed, tests_total, timed_out: false };
    else if (n === 4 && typeof timed_out === 'boolean') out[i] = { task_id, tests_passed, tests_total, timed_out };
    else return undefined;
  }
  return { record_id, seq, miner_hotkey, results: out };
};

const TASK_KEYS = new Set(['task_id', 'task_type', 'block_hash', 'seq']);

/** `taskRecordSchema`. */
export const fastTask: FastRecord<TaskRecord> = (item) => {
  if (!isPlainObject(item) || keyCount(item, TASK_KEYS) !== 4) return undefined;
  const { task_id, task_type, block_hash, seq } = item;
  if (!isTaskText(task_id, 256) || !isTaskText(task_type, 128) || typeof block_hash !== 'string' || !BLOCK_HASH.test(block_hash) || !isCount(seq))
    return undefined;
  return { task_id, task_type, block_hash, seq };
};

const WORKFLOW_KEYS = new Set(['record_id', 'seq', 'miner_uid', 'miner_hotkey', 'task', 'plan', 'record']);

/**
 * `workflowRunSchema`, for a record whose free-form fields (`task`, `plan`, `record`) already passed the
 * shape check: the caller runs `checkInputShape` first for these lists, this checks the typed fields.
 */
export const fastWorkflowRun: FastRecord<WorkflowRunRecord> = (item) => {
  if (!isPlainObject(item) || keyCount(item, WORKFLOW_KEYS) !== 7) return undefined;
  const { record_id, seq, miner_uid, miner_hotkey, task, plan, record } = item;
  if (!isRecordId(record_id) || !isCount(seq) || !isUid(miner_uid) || !isHotkey(miner_hotkey)) return undefined;
  // Zod leaves an `undefined` free-form field out of its output; such a record is not JSON anyway.
  if (task === undefined || plan === undefined || record === undefined) return undefined;
  return { record_id, seq, miner_uid, miner_hotkey, task, plan, record } as WorkflowRunRecord;
};

const SSSA_KEYS = new Set(['record_id', 'seq', 'task_id', 'miner_uid', 'miner_hotkey', 'sssa']);

/** `sssaSubmissionSchema`, for a record that already passed the shape check (see {@link fastWorkflowRun}). */
export const fastSssaSubmission: FastRecord<SssaSubmissionRecord> = (item) => {
  if (!isPlainObject(item) || keyCount(item, SSSA_KEYS) !== 6) return undefined;
  const { record_id, seq, task_id, miner_uid, miner_hotkey, sssa } = item;
  if (!isRecordId(record_id) || !isCount(seq) || !isTaskText(task_id, 256) || !isUid(miner_uid) || !isHotkey(miner_hotkey)) return undefined;
  if (sssa === undefined) return undefined;
  return { record_id, seq, task_id, miner_uid, miner_hotkey, sssa } as SssaSubmissionRecord;
};

/**
 * Per list: its acceptor, and whether the record's shape must be checked before it (lists with free-form
 * fields, whose depth and text the acceptor does not walk).
 */
export const FAST_RECORDS: { readonly [L in RecordList]: { readonly accept: FastRecord<unknown>; readonly shapeFirst: boolean } } = {
  workflow_runs: { accept: fastWorkflowRun, shapeFirst: true },
  tasks: { accept: fastTask, shapeFirst: false },
  sssa_submissions: { accept: fastSssaSubmission, shapeFirst: true },
  term_results: { accept: fastTermResult, shapeFirst: false },
  bounty_records: { accept: fastBountyRecord, shapeFirst: false },
  peer_scores: { accept: fastPeerScore, shapeFirst: false },
};
