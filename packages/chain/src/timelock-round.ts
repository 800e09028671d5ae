import { revealRoundStateful } from '@subnet/timelock';
import type { RevealRoundPrediction } from '@subnet/timelock';

import type { MetagraphSnapshot } from './metagraph-snapshot.js';
import type { TimelockContext } from './timelock-context.js';
import { rethrowTimelockError } from './timelock-context.js';
import { predictLegacyRevealRound } from './timelock-round-legacy.js';

/**
 * Predicts the drand round a timelocked commit must be encrypted to, from chain state read at ONE block
 * (the snapshot's): the stateful epoch schedule (`SubnetEpochIndex`, `LastEpochBlock`, `PendingEpochAt`,
 * `BlocksSinceLastStep`, `Tempo`, `RevealPeriodEpochs`) when the runtime has that storage, else the legacy
 * epochs `(block + netuid + 1) / (tempo + 1)` on the plain netuid for every mechanism
 * (`predictLegacyRevealRound`; chain README "Epochs on the two runtimes"). The round is the one emitted at the
 * time of the reveal block + 3, and must be `>= Drand.LastStoredRound` (checked here, before signing).
 *
 * @param snapshot - the metagraph read at one block
 * @param context - beacon, LastStoredRound and clock read at the same block
 * @returns the prediction (round, epochs, reveal block, explanation)
 * @throws SubnetError `CHAIN_INVALID_REVEAL_ROUND` (round below LastStoredRound, stage preflight),
 *   `CHAIN_TIMELOCK_NO_REVEAL_EPOCH` (tempo 0)
 * @example const p = predictRevealRound(snapshot, context); p.round
 */
export function predictRevealRound(snapshot: MetagraphSnapshot, context: TimelockContext): RevealRoundPrediction {
  const { subnetEpochIndex, lastEpochBlock, pendingEpochAt, blocksSinceLastStep } = snapshot.epoch;
  const common = {
    tempo: snapshot.hyperparameters.tempo,
    revealPeriod: snapshot.hyperparameters.revealPeriodEpochs,
    nowSeconds: context.nowSeconds,
    blockTimeSeconds: context.blockTimeSeconds,
    beacon: context.beacon,
    lastStoredRound: context.lastStoredRound,
  };
  const extra = { netuid: snapshot.netuid, block: snapshot.block };
  try {
    if (subnetEpochIndex !== null && lastEpochBlock !== null && pendingEpochAt !== null) {
      return revealRoundStateful({
        ...common,
        head: snapshot.block,
        subnetEpochIndex,
        lastEpochBlock,
        pendingEpochAt,
        blocksSinceLastStep: blocksSinceLastStep ?? 0n,
      });
    }
    return predictLegacyRevealRound({ ...common, head: snapshot.block, netuid: snapshot.netuid });
  } catch (error) {
    return rethrowTimelockError(error, extra);
  }
}
