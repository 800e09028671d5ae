import { compareCodePoints, isSubnetError } from '@subnet/core';

/** The record lists of a bundle's inputs. */
export type RecordList = 'workflow_runs' | 'tasks' | 'sssa_submissions' | 'term_results' | 'bounty_records' | 'peer_scores';

/**
 * A record that was accepted but not scored (SPEC 0 "Isolation"): which list, its id (`task_id` for tasks),
 * arrival sequence, miner (null when the record names none), a stable code and one sentence.
 */
export interface ExcludedRecord {
  readonly list: RecordList;
  readonly record_id: string;
  readonly seq: number | null;
  readonly miner_hotkey: string | null;
  readonly code: string;
  readonly reason: string;
}

/** Collects exclusions while an epoch is computed (internal). */
export interface Exclusions {
  add(list: RecordList, raw: unknown, code: string, reason: string): void;
  /** Excludes a record because a scoring package refused it: the error's code and message. */
  addError(list: RecordList, raw: unknown, error: unknown): void;
  /** Every exclusion in canonical order: by seq (nulls last), then list, then record id. */
  sorted(): ExcludedRecord[];
}

function field(raw: unknown, name: string): unknown {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) && Object.hasOwn(raw, name) ? (raw as Record<string, unknown>)[name] : undefined;
}

/** A short printable id for a record whose id field is missing or malformed. */
function idOf(list: RecordList, raw: unknown, index: number): string {
  const id = field(raw, list === 'tasks' ? 'task_id' : 'record_id');
  return typeof id === 'string' && id.length > 0 && id.length <= 256 ? id : `#${index}`;
}

/**
 * Creates an exclusion collector (internal). Record identity is read defensively: a record may be
 * anything, so missing fields become `#<index>`, `null`.
 *
 * @returns the collector
 */
export function createExclusions(): Exclusions & { addAt(list: RecordList, raw: unknown, index: number, code: string, reason: string): void } {
  const out: ExcludedRecord[] = [];
  const add = (list: RecordList, raw: unknown, index: number, code: string, reason: string): void => {
    const s = field(raw, 'seq');
    const miner = field(raw, 'miner_hotkey') ?? field(raw, 'validator_hotkey');
    out.push({
      list,
      record_id: idOf(list, raw, index),
      seq: typeof s === 'number' && Number.isSafeInteger(s) && s >= 0 ? s : null,
      miner_hotkey: typeof miner === 'string' && miner.length <= 64 ? miner : null,
      code,
      reason,
    });
  };
  return {
    addAt: add,
    add: (list, raw, code, reason) => {
      add(list, raw, -1, code, reason);
    },
    addError: (list, raw, error) => {
      if (!isSubnetError(error)) throw error;
      add(list, raw, -1, error.code, sentence(error.code, error.message));
    },
    sorted: () =>
      [...out].sort(
        (a, b) =>
          (a.seq ?? Number.MAX_SAFE_INTEGER) - (b.seq ?? Number.MAX_SAFE_INTEGER) ||
          compareCodePoints(a.list, b.list) ||
          compareCodePoints(a.record_id, b.record_id) ||
          compareCodePoints(a.code, b.code),
      ),
  };
}

/**
 * The error's message without its `[CODE] ` prefix (the code is a field of its own), at most 300 characters
 * (internal).
 *
 * @param code - the error code
 * @param message - the error message
 * @returns the sentence
 */
export function sentence(code: string, message: string): string {
  const text = message.startsWith(`[${code}] `) ? message.slice(code.length + 3) : message;
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}
