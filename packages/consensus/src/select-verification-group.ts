import type { Hotkey, Uid } from '@subnet/core';
import { compareCodePoints, formatPath, parseInput, SubnetError, uidSchema, unitIntervalSchema } from '@subnet/core';
import { z } from 'zod';

import { taskTextSchema } from './compute-consensus.js';
import type { Role } from './consensus-types.js';
import { createDrawStream, verificationSeed } from './draw-stream.js';
import { CONSENSUS_ERROR_CODES } from './errors.js';
import { deepFreeze } from './freeze.js';
import { memoHotkeySchema } from './hotkey.js';

/** Eligibility filters of {@link selectVerificationGroup} (configuration; the older spelling of `minReputation` / `excludeHotkeys`). */
export interface EligibilityFilters {
  /** Candidates whose reputation is below this are not eligible (default 0.2). */
  readonly minReputation?: number;
  /** Hotkeys never eligible for this task (for example the task's author). Default none. */
  readonly excludeHotkeys?: readonly string[];
}

/**
 * The default eligibility filters: reputation below 0.2 is excluded (docs/spec.md G.3, `min_reputation`),
 * nobody is excluded by hotkey.
 *
 * @example selectVerificationGroup({ ..., minReputation: DEFAULT_ELIGIBILITY_FILTERS.minReputation })
 */
export const DEFAULT_ELIGIBILITY_FILTERS: Required<EligibilityFilters> = Object.freeze({
  minReputation: 0.2,
  excludeHotkeys: Object.freeze([]),
});

/** A miner that may serve in a verification group: uid, hotkey and its reputation for the task's type. */
export interface SelectionCandidate {
  readonly uid: number;
  readonly hotkey: string;
  /** The candidate's per-type reputation in [0, 1] (docs/spec.md G.3). Give it here or in `reputations`. */
  readonly reputation?: number;
}

/**
 * Input of {@link selectVerificationGroup}, as docs/spec.md G.3 describes the draw: the eligible candidates
 * with their reputation, the block hash, the task id, k, m and min_reputation. The older spelling
 * (`reputations` by hotkey, `primaries`, `auditors`, `filters`) is still accepted; giving one value both
 * ways is an error.
 */
export interface SelectionInput {
  /** The miners that could serve (any order; uids and hotkeys unique). */
  readonly candidates: readonly SelectionCandidate[];
  /** The block hash the draw is seeded from: `0x` followed by 64 lowercase hex digits. */
  readonly blockHash: string;
  /** The task id the draw is seeded from (not blank). */
  readonly taskId: string;
  /** k: how many primaries (default 3). */
  readonly k?: number;
  /** m: how many auditors (default 2). */
  readonly m?: number;
  /** Candidates whose reputation is below this are not eligible (default 0.2). */
  readonly minReputation?: number;
  /** Hotkeys never eligible for this task. Default none. */
  readonly excludeHotkeys?: readonly string[];
  /** Older spelling: per-type reputation by hotkey (own keys only); every candidate must have one. */
  readonly reputations?: Readonly<Record<string, number>>;
  /** Older spelling of `k`. */
  readonly primaries?: number;
  /** Older spelling of `m`. */
  readonly auditors?: number;
  /** Older spelling of `minReputation` / `excludeHotkeys`. */
  readonly filters?: EligibilityFilters;
}

/** A selected member and the role the draw gave it. */
export interface SelectedMember {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  readonly reputation: number;
  readonly role: Role;
}

/** A candidate that was not eligible, and why. */
export interface ExcludedCandidate {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  readonly reputation: number;
  readonly reason: 'excluded_hotkey' | 'reputation_below_minimum';
}

/** The result of {@link selectVerificationGroup} (frozen). */
export interface VerificationGroup {
  readonly taskId: string;
  readonly blockHash: string;
  /** sha256(`blockHash|taskId`) as lowercase hex: the PRNG seed. */
  readonly seed: string;
  /** The primaries in rank order (reputation descending, then hotkey ascending). */
  readonly primaries: readonly SelectedMember[];
  /** The auditors in draw order. */
  readonly auditors: readonly SelectedMember[];
  /** Every selected member with its role: the primaries, then the auditors. */
  readonly members: readonly SelectedMember[];
  /** How many candidates were eligible. */
  readonly eligible: number;
  /** The candidates that were not eligible, sorted by hotkey. */
  readonly excluded: readonly ExcludedCandidate[];
  /** How many primaries and auditors were asked for but could not be filled (too few eligible). */
  readonly shortfall: { readonly primaries: number; readonly auditors: number };
}

const countSchema = z.number().int().min(0).max(65536);

const filtersSchema = z.strictObject({
  minReputation: unitIntervalSchema.optional(),
  excludeHotkeys: z.array(memoHotkeySchema).optional(),
});

const selectionSchema = z
  .strictObject({
    candidates: z.array(z.strictObject({ uid: uidSchema, hotkey: memoHotkeySchema, reputation: unitIntervalSchema })),
    blockHash: z.string().regex(/^0x[0-9a-f]{64}$/, 'a block hash is 0x followed by 64 lowercase hex digits'),
    taskId: taskTextSchema('taskId'),
    k: countSchema.default(3),
    m: countSchema.default(2),
    minReputation: unitIntervalSchema.optional(),
    excludeHotkeys: z.array(memoHotkeySchema).default([]),
  })
  .superRefine((input, ctx) => {
    const uids = new Set<number>();
    const hotkeys = new Set<string>();
    input.candidates.forEach((candidate, i) => {
      if (uids.has(candidate.uid)) ctx.addIssue({ code: 'custom', message: 'duplicate candidate uid', path: ['candidates', i, 'uid'] });
      if (hotkeys.has(candidate.hotkey)) {
        ctx.addIssue({ code: 'custom', message: 'duplicate candidate hotkey', path: ['candidates', i, 'hotkey'] });
      }
      uids.add(candidate.uid);
      hotkeys.add(candidate.hotkey);
    });
  });

function selectionError(message: string, path: readonly PropertyKey[], value: unknown): SubnetError {
  return new SubnetError(CONSENSUS_ERROR_CODES.invalidSelection, message, { context: { path: formatPath(path), value } });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One value given in its G.3 spelling or its older one, never both. */
function either(input: Record<string, unknown>, name: string, older: unknown, olderPath: readonly PropertyKey[]): unknown {
  const value = input[name];
  if (value !== undefined && older !== undefined) throw selectionError(`give ${name} once (not also as ${formatPath(olderPath)})`, olderPath, older);
  return value ?? older;
}

/** The input in its G.3 spelling: reputations on the candidates, k, m, minReputation, excludeHotkeys. */
function canonicalInput(input: unknown): unknown {
  if (!isPlainObject(input)) return input;
  const { reputations, filters } = input;
  let candidates: unknown = input.candidates;
  if (reputations !== undefined) {
    if (!isPlainObject(reputations)) throw selectionError('reputations must be an object of reputation by hotkey', ['reputations'], reputations);
    if (Array.isArray(candidates)) {
      candidates = candidates.map((candidate: unknown, i) => {
        if (!isPlainObject(candidate) || typeof candidate.hotkey !== 'string') return candidate;
        const hotkey = candidate.hotkey;
        if (candidate.reputation !== undefined)
          throw selectionError('give reputations once: on the candidates or in reputations', ['candidates', i, 'reputation'], candidate.reputation);
        if (!Object.hasOwn(reputations, hotkey)) throw selectionError('candidate has no reputation', ['reputations', hotkey], undefined);
        const reputation = reputations[hotkey];
        const check = unitIntervalSchema.safeParse(reputation);
        if (!check.success) throw selectionError(check.error.issues[0]?.message ?? 'a reputation is in [0, 1]', ['reputations', hotkey], reputation);
        return { ...candidate, reputation };
      });
    }
  }
  if (filters !== undefined) parseInput(filtersSchema, filters, CONSENSUS_ERROR_CODES.invalidSelection, 'filters');
  const f = isPlainObject(filters) ? filters : {};
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (key === 'reputations' || key === 'filters' || key === 'primaries' || key === 'auditors') continue;
    Object.defineProperty(out, key, { value: input[key], enumerable: true, writable: true, configurable: true });
  }
  out.candidates = candidates;
  const k = either(input, 'k', input.primaries, ['primaries']);
  const m = either(input, 'm', input.auditors, ['auditors']);
  const minReputation = either(input, 'minReputation', f.minReputation, ['filters', 'minReputation']);
  const excludeHotkeys = either(input, 'excludeHotkeys', f.excludeHotkeys, ['filters', 'excludeHotkeys']);
  if (k !== undefined) out.k = k;
  if (m !== undefined) out.m = m;
  if (minReputation !== undefined) out.minReputation = minReputation;
  if (excludeHotkeys !== undefined) out.excludeHotkeys = excludeHotkeys;
  return out;
}

/** Maps a path of the G.3 spelling back to the field the caller wrote (`k` → `primaries` when given so). */
function callerPath(input: unknown, path: string): string {
  if (!isPlainObject(input)) return path;
  if (path === 'k' && input.k === undefined && input.primaries !== undefined) return 'primaries';
  if (path === 'm' && input.m === undefined && input.auditors !== undefined) return 'auditors';
  if (input.filters !== undefined && (path === 'minReputation' || path.startsWith('excludeHotkeys'))) return `filters.${path}`;
  return path;
}

/**
 * Picks a task's verification group so that anyone can recompute it (SPEC section B, docs/spec.md G.3).
 * Takes the candidates with their per-type reputation, the block hash, the task id, k (primaries, default
 * 3), m (auditors, default 2) and min_reputation (default 0.2), and returns each selected member's role.
 * Eligible = every candidate not in `excludeHotkeys` whose reputation is at least `minReputation`.
 * Primaries = the top k eligible by reputation (descending), ties by hotkey (ascending code point).
 * Auditors = m drawn without replacement from the remaining eligible, sorted by hotkey, by a partial
 * Fisher-Yates shuffle driven by the PRNG seeded with sha256(`blockHash|taskId`): for j = 0, 1, ...:
 * swap position j with position j + uniformIndex(len - j), and position j is the next auditor (the README
 * specifies the stream bit for bit). With too few eligible, all are taken and the shortfall is reported.
 *
 * @param input - `{ candidates: [{ uid, hotkey, reputation }], blockHash, taskId, k?, m?, minReputation?, excludeHotkeys? }`
 *   (or the older `reputations` / `primaries` / `auditors` / `filters`)
 * @returns the frozen {@link VerificationGroup}: primaries, auditors and `members` with their roles
 * @throws SubnetError `CONSENSUS_INVALID_SELECTION` naming the field (`candidates[2].hotkey`,
 *   `reputations["5F..."]`, `blockHash`, an unknown key) for malformed input, a duplicate, a candidate
 *   without reputation, or a value given in both spellings
 * @example
 * const group = selectVerificationGroup({ candidates: [{ uid: 1, hotkey, reputation: 0.7 }, ...], blockHash, taskId: 'task-1' });
 * group.members.map((m) => [m.uid, m.role]);
 */
export function selectVerificationGroup(input: SelectionInput): VerificationGroup {
  const canonical = canonicalInput(input);
  const result = selectionSchema.safeParse(canonical);
  if (!result.success) {
    const issue = result.error.issues[0];
    const segments = issue?.path ?? [];
    let value: unknown = canonical;
    for (const segment of segments) value = isPlainObject(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[segment] : undefined;
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidSelection, `invalid selection: ${issue?.message ?? 'invalid input'}`, {
      context: { path: callerPath(input, formatPath(segments)), value },
      cause: result.error,
    });
  }
  const parsed = result.data;
  const minReputation = parsed.minReputation ?? DEFAULT_ELIGIBILITY_FILTERS.minReputation;
  const excludeHotkeys = new Set<string>(parsed.excludeHotkeys);

  const eligible: { uid: Uid; hotkey: Hotkey; reputation: number }[] = [];
  const excluded: ExcludedCandidate[] = [];
  for (const { uid, hotkey, reputation } of parsed.candidates) {
    if (excludeHotkeys.has(hotkey)) excluded.push({ uid, hotkey, reputation, reason: 'excluded_hotkey' });
    else if (reputation < minReputation) excluded.push({ uid, hotkey, reputation, reason: 'reputation_below_minimum' });
    else eligible.push({ uid, hotkey, reputation });
  }
  excluded.sort((a, b) => compareCodePoints(a.hotkey, b.hotkey));

  const ranked = [...eligible].sort((a, b) => b.reputation - a.reputation || compareCodePoints(a.hotkey, b.hotkey));
  const primaries = ranked.slice(0, parsed.k).map((m) => ({ ...m, role: 'primary' as const }));
  const pool = ranked.slice(primaries.length).sort((a, b) => compareCodePoints(a.hotkey, b.hotkey));

  const seed = verificationSeed(parsed.blockHash, parsed.taskId);
  const stream = createDrawStream(seed);
  const take = Math.min(parsed.m, pool.length);
  const auditors: SelectedMember[] = [];
  for (let j = 0; j < take; j++) {
    const pick = j + stream.uniformIndex(pool.length - j);
    const chosen = pool[pick];
    const current = pool[j];
    if (chosen === undefined || current === undefined) break; // unreachable: pick and j are in range
    pool[j] = chosen;
    pool[pick] = current;
    auditors.push({ ...chosen, role: 'auditor' });
  }

  return deepFreeze({
    taskId: parsed.taskId,
    blockHash: parsed.blockHash,
    seed,
    primaries,
    auditors,
    members: [...primaries, ...auditors],
    eligible: eligible.length,
    excluded,
    shortfall: { primaries: parsed.k - primaries.length, auditors: parsed.m - auditors.length },
  });
}
