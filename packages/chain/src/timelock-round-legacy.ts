import { REVEAL_SECURITY_BLOCKS } from '@subnet/timelock';
import type { BeaconConfig, RevealRoundPrediction } from '@subnet/timelock';

import { chainError } from './chain-error.js';
import { legacyEpochFirstBlock, legacyEpochIndex, legacyShouldRunEpoch } from './epoch-schedule.js';

/** What the legacy reveal-round prediction needs, all read at the block `head`. */
export interface LegacyRevealRoundInput {
  /** The block the state was read at; the commit lands in `head + 1`. */
  readonly head: bigint;
  /** The PLAIN netuid: the legacy epoch of every mechanism is the subnet's (`reveal_commits.rs:42, 47` at ab0cb2e52). */
  readonly netuid: number;
  readonly tempo: number;
  readonly revealPeriod: bigint;
  readonly nowSeconds: number;
  readonly blockTimeSeconds: number;
  readonly beacon: Pick<BeaconConfig, 'genesisTime' | 'period'>;
  readonly lastStoredRound: bigint;
}

/**
 * Predicts the drand round of a timelocked commit on the legacy runtime (finney spec 393, opentensor/subtensor
 * ab0cb2e52), from the chain's own formulas:
 *
 * 1. The commit lands in `c = head + 1` and is stored under `commit_epoch = get_epoch_index(c) +
 *    (should_run_epoch(c) ? 1 : 0)` (`subnets/weights.rs:342`), with `get_epoch_index(b) = (b + netuid + 1) /
 *    (tempo + 1)` on the PLAIN netuid for every mechanism (`weights.rs:1254`).
 * 2. `reveal_crv3_commits_for_subnet` runs in `on_initialize` of every block and takes the queue of
 *    `get_epoch_index(now) - RevealPeriodEpochs` (`coinbase/reveal_commits.rs:39-66`), so the chain first tries
 *    in the first block of epoch `commit_epoch + RevealPeriodEpochs`: `reveal_epoch * (tempo + 1) - (netuid + 1)`.
 * 3. The round is the one emitted at that block's expected time plus {@link REVEAL_SECURITY_BLOCKS} blocks:
 *    `floor((now + (reveal_block + 3 - head) * blockTime - genesis) / period)`, at least 1; it must be
 *    `>= Drand.LastStoredRound`.
 *
 * @param input - head, netuid, tempo, reveal period, clock and beacon schedule
 * @returns the prediction, with its arithmetic in `explanation`
 * @throws SubnetError `CHAIN_INVALID_REVEAL_ROUND` (stage preflight) when the round is below `LastStoredRound`
 * @example predictLegacyRevealRound({ head: 5n, netuid: 1, tempo: 10, revealPeriod: 1n, nowSeconds: 1000, blockTimeSeconds: 12, beacon, lastStoredRound: 0n }).revealBlock // 9n
 */
export function predictLegacyRevealRound(input: LegacyRevealRoundInput): RevealRoundPrediction {
  const { head, netuid, tempo, revealPeriod } = input;
  const commitBlock = head + 1n;
  const fires = legacyShouldRunEpoch(netuid, tempo, commitBlock);
  const commitEpoch = legacyEpochIndex(netuid, tempo, commitBlock) + (fires ? 1n : 0n);
  const revealEpoch = commitEpoch + revealPeriod;
  const span = BigInt(tempo) + 1n;
  const offset = BigInt(netuid) + 1n;
  const revealBlock = legacyEpochFirstBlock(netuid, tempo, revealEpoch);
  const targetBlock = revealBlock + REVEAL_SECURITY_BLOCKS;
  const blocksUntilTarget = targetBlock > head ? targetBlock - head : 0n;
  const targetTime = input.nowSeconds + Number(blocksUntilTarget) * input.blockTimeSeconds;
  const raw = Math.floor((targetTime - input.beacon.genesisTime) / input.beacon.period);
  const round = raw < 1 ? 1n : BigInt(raw);
  const explanation = [
    `legacy epochs: epoch(b) = floor((b + ${offset}) / ${span}) on netuid ${netuid} (every mechanism)`,
    `commit lands in block ${commitBlock}; the epoch ${fires ? 'runs' : 'does not run'} there, so commit epoch = ${commitEpoch}`,
    `reveal epoch = ${commitEpoch} + ${revealPeriod} = ${revealEpoch}; first reveal block = ${revealEpoch} * ${span} - ${offset} = ${revealBlock}`,
    `target block = ${revealBlock} + ${REVEAL_SECURITY_BLOCKS} = ${targetBlock}, ${blocksUntilTarget} blocks after head ${head}`,
    `target time = ${input.nowSeconds} + ${blocksUntilTarget} * ${input.blockTimeSeconds} = ${targetTime} s`,
    `round = floor((${targetTime} - ${input.beacon.genesisTime}) / ${input.beacon.period}) = ${raw}${raw < 1 ? ', raised to the minimum 1' : ''}`,
  ];
  if (round < input.lastStoredRound) {
    throw chainError(
      'InvalidRevealRound',
      `reveal round ${round} is below Drand.LastStoredRound ${input.lastStoredRound}; the chain would reject it; nothing was signed`,
      {
        source: 'module',
        stage: 'preflight',
        path: 'round',
        value: round,
        lastStoredRound: input.lastStoredRound,
        netuid,
        block: head,
      },
    );
  }
  return Object.freeze({
    schedule: 'legacy',
    round,
    commitEpoch,
    revealEpoch,
    revealBlock,
    targetBlock,
    blocksUntilTarget,
    targetTimeSeconds: targetTime,
    epochBlocks: Object.freeze([]),
    explanation: Object.freeze(explanation),
  });
}
