import { createHash } from 'node:crypto';

import type { QueryRecord } from '@subnet/bundle';
import { canonicalJson, digest } from '@subnet/core';

import type { NewRecord, StoredRecord } from '../storage.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A record of `kind` with the canonical JSON of `body` and its digest. */
export function newRecord(kind: NewRecord['kind'], recordId: string, epoch: number, body: unknown): NewRecord {
  const text = canonicalJson(body);
  return { kind, recordId, epoch, body: text, digest: sha256(text) };
}

/** The record id of a dispatched task (`<challenge>:<task id>`). */
export const dispatchTaskId = (challengeId: string, taskId: string): string => `${challengeId}:${taskId}`;

/** The record id of a miner's SSSA for a task: the same id `POST /v1/sssa` gives it, so either path finds the other. */
export const sssaRecordId = (taskId: string, hotkey: string): string => `sssa-${digest({ task_id: taskId, hotkey }).slice(0, 40)}`;

/** The record id of a miner's workflow plan for a task. */
export const planRecordId = (taskId: string, hotkey: string): string => `plan-${digest({ task_id: taskId, hotkey }).slice(0, 40)}`;

/** The record id of one query. */
export const queryRecordId = (challengeId: string, taskId: string, hotkey: string): string =>
  `query-${digest({ challenge_id: challengeId, task_id: taskId, hotkey }).slice(0, 40)}`;

/** A stored workflow plan: what the executor webhook receives (with the epoch). */
export interface PlanBody {
  readonly record_id: string;
  readonly challenge_id: string;
  readonly task_id: string;
  readonly task_type: string;
  readonly miner_hotkey: string;
  readonly miner_uid: number;
  /** The synapse input the miner received (the task's `input`, as the task source gave it). */
  readonly input: Record<string, unknown>;
  readonly plan: unknown;
}

/**
 * The epoch's query records in the bundle's form (`queryRecordSchema`): each stored `query` body with the
 * record's arrival `seq`.
 *
 * @param records - the epoch's stored records
 * @returns the query list (empty when nothing was dispatched)
 * @example queriesFromRecords(await storage.records(7))
 */
export function queriesFromRecords(records: readonly StoredRecord[]): QueryRecord[] {
  return records.filter((r) => r.kind === 'query').map((r) => ({ ...(JSON.parse(r.body) as Omit<QueryRecord, 'seq'>), seq: r.seq }));
}
