import { checkInputShape, compareCodePoints, findLoneSurrogate, formatPath, isSubnetError } from '@subnet/core';
import type { z } from 'zod';

import type { EpochInputs } from './epoch-inputs.js';
import { bountyInputSchema, peerScoreSchema, sssaSubmissionSchema, taskRecordSchema, termResultSchema, workflowRunSchema } from './epoch-inputs.js';
import type { BountyInputRecord, PeerScoreRecord, SssaSubmissionRecord, TaskRecord, TermResultRecord, WorkflowRunRecord } from './epoch-inputs.js';
import { BUNDLE_ERROR_CODES } from './errors.js';
import { FAST_RECORDS } from './fast-records.js';
import type { createExclusions, RecordList } from './exclusion.js';
import { sentence } from './exclusion.js';

/** Any surrogate code unit (paired or not): text without one orders by code units as by code points. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** The depth every record may nest (SPEC 0: 64), counted from the record itself. */
export const RECORD_MAX_DEPTH = 64;

/** The records of an epoch that passed their schema, each list sorted by (seq, id). */
export interface ScreenedRecords {
  readonly workflowRuns: readonly WorkflowRunRecord[];
  readonly tasks: readonly TaskRecord[];
  readonly sssaSubmissions: readonly SssaSubmissionRecord[];
  readonly termResults: readonly TermResultRecord[];
  readonly bountyRecords: readonly BountyInputRecord[];
  readonly peerScores: readonly PeerScoreRecord[];
}

/**
 * Screens every record of the inputs (SPEC 0 "Hostile shapes" and "Isolation"): the record's shape
 * (depth <= 64, sizes, well-formed text: `checkInputShape`), then its list's schema, then the uniqueness
 * of its id within the list (the earliest by seq keeps it). A record that fails is excluded with the code
 * of the check and a sentence; nothing here throws because of a record.
 *
 * @param inputs - the parsed inputs
 * @param excluded - where exclusions go
 * @returns the records that passed, each list by (seq, id)
 */
export function screenRecords(inputs: EpochInputs, excluded: ReturnType<typeof createExclusions>): ScreenedRecords {
  return {
    workflowRuns: screen('workflow_runs', inputs.workflow_runs, workflowRunSchema, (r) => r.record_id, excluded),
    tasks: screen('tasks', inputs.tasks, taskRecordSchema, (r) => r.task_id, excluded),
    sssaSubmissions: screen('sssa_submissions', inputs.sssa_submissions, sssaSubmissionSchema, (r) => r.record_id, excluded),
    termResults: screen('term_results', inputs.term_results, termResultSchema, (r) => r.record_id, excluded),
    bountyRecords: screen('bounty_records', inputs.bounty_records, bountyInputSchema, (r) => r.record_id, excluded),
    // A signed peer document expands into one entry per miner, all under the document's record id: its id is
    // (record id, challenge, miner), ordered as the text `${record_id}\0${challenge_id}\0${miner_hotkey}`.
    peerScores: screen('peer_scores', inputs.peer_scores, peerScoreSchema, null, excluded),
  };
}

function screen<S extends z.ZodType<{ seq: number }>>(
  list: RecordList,
  raw: readonly unknown[],
  schema: S,
  id: ((record: z.output<S>) => string) | null,
  excluded: ReturnType<typeof createExclusions>,
): z.output<S>[] {
  const valid: { record: z.output<S>; index: number; raw: unknown; key: string; plain: boolean }[] = [];
  const fast = FAST_RECORDS[list];
  for (let index = 0; index < raw.length; index += 1) {
    const item = raw[index];
    // The hand-written acceptor first (`fast-records.ts`): it returns the schema's output for a record
    // that passes the shape check and the schema, and declines anything else, which then takes the
    // checks below in their order, so a refused record gets the same code and field path as before.
    const accepted = fast.shapeFirst ? undefined : (fast.accept(item) as z.output<S> | undefined);
    if (accepted !== undefined) {
      const key = id === null ? '' : id(accepted);
      valid.push({ record: accepted, index, raw: item, key, plain: id === null || !SURROGATE.test(key) });
      continue;
    }
    const withheld = withheldOf(item) ?? shapeFailure(list, item);
    if (withheld !== undefined) {
      excluded.addAt(list, item, index, withheld.withheld.code, withheld.withheld.reason);
      continue;
    }
    const shaped = fast.shapeFirst ? (fast.accept(item) as z.output<S> | undefined) : undefined;
    if (shaped !== undefined) {
      const key = id === null ? '' : id(shaped);
      valid.push({ record: shaped, index, raw: item, key, plain: id === null || !SURROGATE.test(key) });
      continue;
    }
    const parsed = schema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = formatPath(issue?.path ?? [], formatPath([index], list));
      excluded.addAt(
        list,
        item,
        index,
        BUNDLE_ERROR_CODES.invalidRecord,
        `the record does not match the ${list} schema: ${issue?.message ?? 'invalid'} at ${path}`,
      );
      continue;
    }
    // The id is built once per record, not once per comparison: a peer document's entries share seq and
    // record id, so the sort compares them by the built id thousands of times.
    const key = id === null ? '' : id(parsed.data);
    valid.push({ record: parsed.data, index, raw: item, key, plain: id === null || !SURROGATE.test(key) });
  }
  // Two keys without surrogate code units compare natively: their code units are their code points.
  if (id === null) valid.sort((a, b) => a.record.seq - b.record.seq || comparePeerIds(a.record as PeerScoreRecord, b.record as PeerScoreRecord));
  else
    valid.sort((a, b) => a.record.seq - b.record.seq || (a.plain && b.plain ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : compareCodePoints(a.key, b.key)));
  const seen = new Set<string>();
  const peers = new PeerIds();
  const out: z.output<S>[] = [];
  for (const v of valid) {
    const key = v.key;
    if (id === null ? peers.seen(v.record as PeerScoreRecord) : seen.has(key)) {
      excluded.addAt(list, v.raw, v.index, BUNDLE_ERROR_CODES.duplicateRecord, `an earlier record of ${list} already has this id`);
      continue;
    }
    if (id !== null) seen.add(key);
    out.push(v.record);
  }
  return out;
}

/**
 * The order of two screened peer scores' ids, exactly `compareCodePoints` of their id texts
 * `${record_id}\0${challenge_id}\0${miner_hotkey}`, without building them: a record id is ASCII without
 * `\0` (its schema), so two different ones order as their texts do (a shorter prefix first, as `\0` is
 * the smallest unit); hotkeys are base58 text. Only two different challenge ids (which may hold anything)
 * compare the rest of the texts as built.
 */
function comparePeerIds(a: PeerScoreRecord, b: PeerScoreRecord): number {
  if (a.record_id !== b.record_id) return a.record_id < b.record_id ? -1 : 1;
  if (a.challenge_id !== b.challenge_id) return compareCodePoints(`${a.challenge_id}\u0000${a.miner_hotkey}`, `${b.challenge_id}\u0000${b.miner_hotkey}`);
  return a.miner_hotkey < b.miner_hotkey ? -1 : a.miner_hotkey > b.miner_hotkey ? 1 : 0;
}

/** The peer-score ids seen so far, by record id, then challenge id, then miner hotkey (no concatenated text per score). */
class PeerIds {
  private readonly byRecord = new Map<string, Map<string, Set<string>>>();

  /** Whether this score's id was seen before; remembers it. */
  seen(p: PeerScoreRecord): boolean {
    let byChallenge = this.byRecord.get(p.record_id);
    if (byChallenge === undefined) this.byRecord.set(p.record_id, (byChallenge = new Map<string, Set<string>>()));
    let miners = byChallenge.get(p.challenge_id);
    if (miners === undefined) byChallenge.set(p.challenge_id, (miners = new Set<string>()));
    if (miners.has(p.miner_hotkey)) return true;
    miners.add(p.miner_hotkey);
    return false;
  }
}

/** A record withheld from a bundle: its identity fields and why it was excluded. */
export interface WithheldRecord {
  readonly [field: string]: unknown;
  readonly withheld: { readonly code: string; readonly reason: string };
}

/**
 * The stand-in a bundle stores for a record that fails its shape check (deeper than 64 levels, too large,
 * not JSON): its identity fields (`record_id`, `task_id`, `seq`, `miner_hotkey`, `validator_hotkey`, when
 * they are short strings or numbers) and `withheld: { code, reason }`. Such a record cannot be digested
 * (SPEC 0); its stand-in is excluded with the same code and sentence on recomputation. Undefined when the
 * record's shape is fine.
 *
 * @param list - the record's list
 * @param item - the record as given
 * @returns the stand-in, or undefined
 */
export function shapeFailure(list: RecordList, item: unknown): WithheldRecord | undefined {
  try {
    checkInputShape(item, { maxDepth: RECORD_MAX_DEPTH }, list);
    return undefined;
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    const out: Record<string, unknown> = {};
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      for (const name of ['record_id', 'task_id', 'seq', 'miner_hotkey', 'validator_hotkey']) {
        const v = Object.hasOwn(item, name) ? (item as Record<string, unknown>)[name] : undefined;
        if ((typeof v === 'string' && v.length <= 256 && findLoneSurrogate(v) < 0) || (typeof v === 'number' && Number.isSafeInteger(v))) out[name] = v;
      }
    }
    return { ...out, withheld: { code: error.code, reason: sentence(error.code, error.message) } };
  }
}

/** A stand-in stored by a bundle for a withheld record (see {@link shapeFailure}), else undefined. */
function withheldOf(item: unknown): WithheldRecord | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item) || !Object.hasOwn(item, 'withheld')) return undefined;
  const w = (item as { withheld: unknown }).withheld;
  if (typeof w !== 'object' || w === null) return undefined;
  const { code, reason } = w as { code?: unknown; reason?: unknown };
  return typeof code === 'string' && typeof reason === 'string' && code.length <= 64 && reason.length <= 400 ? (item as WithheldRecord) : undefined;
}
