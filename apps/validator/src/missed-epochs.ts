import type { CloseOptions, EpochOutcome, EpochRunnerDeps } from './epoch-runner.js';
import { closeEpoch } from './epoch-runner.js';

/** Options of {@link closeEndedEpochs}. */
export interface CatchUpOptions {
  /** How many epochs back to look for records without a closed epoch (default 100). */
  readonly lookback?: number;
  /**
   * Close the epoch right before the head's even without records (the normal close at an epoch boundary,
   * which advances the carried state); at start-up it is closed only when it has records.
   */
  readonly lastWithoutRecords: boolean;
}

/**
 * Closes every ended epoch that has no row yet, oldest first (so the carried state chains): the epoch
 * right before the head's (`headEpoch - 1`) normally (computed and submitted), and every older one that
 * has records with status `missed` (computed and published, nothing sent: too late to submit), each with
 * a warning and `validator_missed_epochs_total`. Ended epochs without records get no bundle.
 *
 * @param deps - the epoch runner's dependencies
 * @param headEpoch - the epoch the chain head is in
 * @param options - lookback, and whether the last ended epoch is closed without records
 * @returns the outcomes, oldest first
 * @throws SubnetError `VALIDATOR_STORAGE` when storage fails (the caller retries on the next tick)
 * @example for (const outcome of await closeEndedEpochs(deps, 42, { lastWithoutRecords: true })) emit(outcome)
 */
export async function closeEndedEpochs(deps: EpochRunnerDeps, headEpoch: number, options: CatchUpOptions): Promise<readonly EpochOutcome[]> {
  const last = headEpoch - 1;
  if (last < 0) return [];
  const lookback = options.lookback ?? 100;
  const epochs = new Set(await deps.storage.epochsWithRecords(Math.max(0, headEpoch - lookback), headEpoch));
  if (options.lastWithoutRecords) epochs.add(last);
  const outcomes: EpochOutcome[] = [];
  for (const epoch of [...epochs].sort((a, b) => a - b)) {
    // A head: whether the epoch was closed, without its megabyte of bundle (docs/spec.md G.25).
    if ((await deps.storage.getEpochHead(epoch)) !== undefined) continue;
    const close: CloseOptions = epoch < last ? { missedAtEpoch: headEpoch } : {};
    outcomes.push(await closeEpoch(deps, epoch, close));
  }
  return outcomes;
}
