import type { Hotkey, Uid } from '@subnet/core';
import { compareCodePoints, parseInput, uidSchema, unitIntervalSchema } from '@subnet/core';
import { z } from 'zod';

import type { Role } from './consensus-types.js';
import { createDrawStream, verificationSeed } from './draw-stream.js';
import { CONSENSUS_ERROR_CODES } from './errors.js';
import { deepFreeze } from './freeze.js';
import { memoHotkeySchema } from './hotkey.js';

/** Eligibility filters of {@link selectVerificationGroup} (configuration). */
export interface EligibilityFilters {
  /** Candidates whose reputation is below this are not eligible (default 0.2). */
  readonly minReputation?: number;
  /** Hotkeys never eligible for this task (for example the task's author). Default none. */
  readonly excludeHotkeys?: readonly string[];
}

/**
 * The default eligibility filters: reputation below 0.2 is excluded (the example of SPEC section B),
 * nobody is excluded by hotkey.
 *
 * @example selectVerificationGroup({ ..., filters: { ...DEFAULT_ELIGIBILITY_FILTERS, minReputation: 0.3 } })
 */
export const DEFAULT_ELIGIBILITY_FILTERS: Required<EligibilityFilters> = Object.freeze({
  minReputation: 0.2,
  excludeHotkeys: Object.freeze([]),
});

/** A miner that may serve in a verification group. */
export interface SelectionCandidate {
  readonly uid: number;
  readonly hotkey: string;
}

/** Input of {@link selectVerificationGroup}. */
export interface SelectionInput {
  /** The miners that could serve (any order; uids and hotkeys unique). */
  readonly candidates: readonly SelectionCandidate[];
  /** Per-type reputation in [0, 1] by hotkey; every candidate must have one (extra entries are ignored). */
  readonly reputations: Readonly<Record<string, number>>;
  /** The block hash the draw is seeded from: `0x` followed by 64 lowercase hex digits. */
  readonly blockHash: string;
  /** The task id the draw is seeded from (not blank). */
  readonly taskId: string;
  /** How many primaries (default 3). */
  readonly primaries?: number;
  /** How many auditors (default 2). */
  readonly auditors?: number;
  /** Eligibility filters; missing fields take {@link DEFAULT_ELIGIBILITY_FILTERS}. */
  readonly filters?: EligibilityFilters;
}

/** A selected member. */
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
  /** How many candidates were eligible. */
  readonly eligible: number;
  /** The candidates that were not eligible, sorted by hotkey. */
  readonly excluded: readonly ExcludedCandidate[];
  /** How many primaries and auditors were asked for but could not be filled (too few eligible). */
  readonly shortfall: { readonly primaries: number; readonly auditors: number };
}

const countSchema = z.number().int().min(0).max(65536);

const selectionSchema = z
  .object({
    candidates: z.array(z.object({ uid: uidSchema, hotkey: memoHotkeySchema })),
    reputations: z.record(z.string(), unitIntervalSchema),
    blockHash: z.string().regex(/^0x[0-9a-f]{64}$/, 'a block hash is 0x followed by 64 lowercase hex digits'),
    taskId: z.string().refine((s) => s.trim() !== '', 'taskId must not be empty or blank'),
    primaries: countSchema.default(3),
    auditors: countSchema.default(2),
    filters: z
      .strictObject({
        minReputation: unitIntervalSchema.optional(),
        excludeHotkeys: z.array(memoHotkeySchema).optional(),
      })
      .default({}),
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
      if (!Object.hasOwn(input.reputations, candidate.hotkey)) {
        ctx.addIssue({ code: 'custom', message: 'candidate has no reputation', path: ['reputations', candidate.hotkey] });
      }
    });
  });

/**
 * Picks a task's verification group so that anyone can recompute it (SPEC section B). Eligible = every
 * candidate not in `filters.excludeHotkeys` whose reputation is at least `filters.minReputation`.
 * Primaries = the top `primaries` eligible by reputation (descending), ties by hotkey (ascending code
 * point). Auditors = `auditors` drawn without replacement from the remaining eligible, sorted by hotkey,
 * by a partial Fisher-Yates shuffle driven by the PRNG seeded with sha256(`blockHash|taskId`): for
 * j = 0, 1, ...: swap position j with position j + uniformIndex(len - j), and position j is the next
 * auditor (the README specifies the stream bit for bit). With too few eligible, all are taken and the
 * shortfall is reported.
 *
 * @param input - candidates, reputations, blockHash, taskId, primaries (3), auditors (2), filters
 * @returns the frozen {@link VerificationGroup}
 * @throws SubnetError `CONSENSUS_INVALID_SELECTION` naming the field (`candidates[2].hotkey`,
 *   `reputations["5F..."]`, `blockHash`) for malformed input, a duplicate or a candidate without reputation
 * @example
 * const group = selectVerificationGroup({ candidates, reputations, blockHash, taskId: 'task-1' });
 * group.primaries.map((m) => m.uid); group.auditors.map((m) => m.uid);
 */
export function selectVerificationGroup(input: SelectionInput): VerificationGroup {
  const parsed = parseInput(selectionSchema, input, CONSENSUS_ERROR_CODES.invalidSelection, '');
  const minReputation = parsed.filters.minReputation ?? DEFAULT_ELIGIBILITY_FILTERS.minReputation;
  const excludeHotkeys = new Set<string>(parsed.filters.excludeHotkeys ?? DEFAULT_ELIGIBILITY_FILTERS.excludeHotkeys);

  const eligible: { uid: Uid; hotkey: Hotkey; reputation: number }[] = [];
  const excluded: ExcludedCandidate[] = [];
  for (const { uid, hotkey } of parsed.candidates) {
    const reputation = parsed.reputations[hotkey] ?? 0;
    if (excludeHotkeys.has(hotkey)) excluded.push({ uid, hotkey, reputation, reason: 'excluded_hotkey' });
    else if (reputation < minReputation) excluded.push({ uid, hotkey, reputation, reason: 'reputation_below_minimum' });
    else eligible.push({ uid, hotkey, reputation });
  }
  excluded.sort((a, b) => compareCodePoints(a.hotkey, b.hotkey));

  const ranked = [...eligible].sort((a, b) => b.reputation - a.reputation || compareCodePoints(a.hotkey, b.hotkey));
  const primaries = ranked.slice(0, parsed.primaries).map((m) => ({ ...m, role: 'primary' as const }));
  const pool = ranked.slice(primaries.length).sort((a, b) => compareCodePoints(a.hotkey, b.hotkey));

  const seed = verificationSeed(parsed.blockHash, parsed.taskId);
  const stream = createDrawStream(seed);
  const take = Math.min(parsed.auditors, pool.length);
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
    eligible: eligible.length,
    excluded,
    shortfall: { primaries: parsed.primaries - primaries.length, auditors: parsed.auditors - auditors.length },
  });
}
