import { compareTiedMiners } from '@subnet/aggregation';

import { compareHotkeys } from './hotkey-order.js';

/**
 * Per miner hotkey, the smallest seq among the records of one challenge the epoch used (internal; docs/spec.md
 * G.4 "A miner's submission in an epoch"). Adds `seq` under `hotkey` unless a smaller one is there.
 *
 * @param seqs - the map being built
 * @param hotkey - the miner's hotkey
 * @param seq - the seq of one record the epoch used for the miner
 */
export function noteSeq(seqs: Map<string, number>, hotkey: string, seq: number): void {
  const current = seqs.get(hotkey);
  if (current === undefined || seq < current) seqs.set(hotkey, seq);
}

/**
 * The `submissions` of an evaluation challenge on the aggregation's wire (`{ hotkey, submitted_at }`, by
 * hotkey), from each miner's smallest seq (internal).
 *
 * @param seqs - per miner hotkey, its submission seq
 * @returns the wire list, by hotkey
 */
export function submissionsWire(seqs: ReadonlyMap<string, number>): { hotkey: string; submitted_at: number }[] {
  return [...seqs.keys()].sort(compareHotkeys).map((hotkey) => ({ hotkey, submitted_at: seqs.get(hotkey) as number }));
}

/** How an exact tie at the top of a `winner_takes_all` challenge was decided (the bundle's `winner_tie`). */
export interface WinnerTie {
  /** The tied top score. */
  readonly score: number;
  /** The miner that took the challenge. */
  readonly winner: string;
  /** `earlier_submission` when the winner's seq is below every other tied miner's, else `hotkey`. */
  readonly broken_by: 'earlier_submission' | 'hotkey';
  /** Every miner at the top score in the order the rule ranks them: seq ascending (none last), then hotkey. */
  readonly tied: readonly { readonly miner_hotkey: string; readonly submitted_seq: number | null }[];
}

interface NormalisationWire {
  readonly strategy: string;
  readonly all_zero: boolean;
  readonly miners: readonly { readonly hotkey: string; readonly score: number }[];
  readonly winner: string | null;
}

/**
 * The `winner_tie` of an evaluation challenge (internal): null unless its normalisation is `winner_takes_all`,
 * some score is above 0 and two or more miners share the top score exactly. Read from the aggregation's
 * normalisation explanation (the miners that entered normalisation) and the seqs that were passed to it.
 *
 * @param normalisation - the challenge's normalisation explanation (wire form), or null (bounty)
 * @param seqs - per miner hotkey, its submission seq
 * @returns the tie and how it was decided, or null
 */
export function winnerTie(normalisation: NormalisationWire | null, seqs: ReadonlyMap<string, number>): WinnerTie | null {
  if (normalisation === null || normalisation.strategy !== 'winner_takes_all' || normalisation.all_zero || normalisation.winner === null) return null;
  let top = 0;
  for (const m of normalisation.miners) if (m.score > top) top = m.score;
  const tied = normalisation.miners
    .filter((m) => m.score === top)
    .map((m) => ({ miner_hotkey: m.hotkey, submitted_seq: seqs.get(m.hotkey) ?? null }))
    // SPEC C.5's tie rule, the one comparison the aggregation's winner and decay top use (docs/spec.md G.9).
    .sort((a, b) => compareTiedMiners({ hotkey: a.miner_hotkey, submittedAt: a.submitted_seq }, { hotkey: b.miner_hotkey, submittedAt: b.submitted_seq }));
  if (tied.length < 2) return null;
  const [first, second] = tied as [WinnerTie['tied'][number], WinnerTie['tied'][number]];
  return {
    score: top,
    winner: normalisation.winner,
    broken_by: first.submitted_seq !== null && first.submitted_seq !== second.submitted_seq ? 'earlier_submission' : 'hotkey',
    tied,
  };
}
