import type { BeaconSchedule } from './beacon.js';
import { parseSchedule } from './beacon.js';
import { toFinite, toSmallUint, toUint } from './bytes.js';
import { timelockError } from './errors.js';

/**
 * Blocks after the first block of the reveal epoch whose time selects the round (bittensor-drand
 * `SECURITY_BLOCK_OFFSET`, opentensor/bittensor-drand 3ff0eac `src/drand.rs:222`): the pulse is then emitted a little after the reveal epoch opens, and the chain
 * retries every block of that epoch until it is stored.
 */
export const REVEAL_SECURITY_BLOCKS = 3n;

/** Default `BlocksSinceLastStep` safety net of the stateful scheduler (README 2.5: `> 50400` forces an epoch). */
export const DEFAULT_OVERDUE_AFTER_BLOCKS = 50400n;

const MAX_SIMULATED_EPOCHS = 1_000_000n;

/** A predicted reveal round, with every intermediate value. */
export interface RevealRoundPrediction {
  /** Which formula produced it. */
  readonly schedule: 'legacy' | 'stateful';
  /** The `reveal_round` argument of the commit. */
  readonly round: bigint;
  /** The epoch the commit is stored under. */
  readonly commitEpoch: bigint;
  /** `commitEpoch + revealPeriod`: the epoch in which the chain reveals it. */
  readonly revealEpoch: bigint;
  /** The first block of the reveal epoch (the chain first tries to reveal here). */
  readonly revealBlock: bigint;
  /** `revealBlock + 3`: the block whose expected time selects the round. */
  readonly targetBlock: bigint;
  /** `targetBlock - current block` (never negative). */
  readonly blocksUntilTarget: bigint;
  /** `now + blocksUntilTarget * blockTime`, seconds. */
  readonly targetTimeSeconds: number;
  /** Stateful only: the simulated epoch blocks from the head up to the reveal block. */
  readonly epochBlocks: readonly bigint[];
  /** The arithmetic in words. */
  readonly explanation: readonly string[];
}

/** Input of {@link revealRoundLegacy}: chain state at one block (legacy `(block + netuid + 1) % (tempo + 1)` epochs). */
export interface LegacyRevealRoundInput {
  /** The current block number. */
  readonly block: bigint | number;
  /** The subnet id (u16). bittensor-drand passes the mechanism storage index; for mecid 0 they are equal. */
  readonly netuid: number;
  /** `Tempo(netuid)` (u16). */
  readonly tempo: number;
  /** `RevealPeriodEpochs(netuid)`. */
  readonly revealPeriod: bigint | number;
  /** Current Unix time, seconds. */
  readonly nowSeconds: number;
  /** Expected seconds per block (12 on finney). */
  readonly blockTimeSeconds: number;
  /** The beacon schedule (genesis, period). */
  readonly beacon: BeaconSchedule;
  /** `Drand.LastStoredRound`; when given, a prediction below it throws (the chain would reject the commit). */
  readonly lastStoredRound?: bigint | number;
}

/** Input of {@link revealRoundStateful}: chain state read at block `head` (stateful `SubnetEpochIndex` schedule). */
export interface StatefulRevealRoundInput {
  /** The block the state was read at; the commit is assumed to land in `head + 1`. */
  readonly head: bigint | number;
  /** `LastEpochBlock(netuid)`. */
  readonly lastEpochBlock: bigint | number;
  /** `PendingEpochAt(netuid)` (0 = none). */
  readonly pendingEpochAt: bigint | number;
  /** `SubnetEpochIndex(netuid)`. */
  readonly subnetEpochIndex: bigint | number;
  /** `Tempo(netuid)` (u16). */
  readonly tempo: number;
  /** `BlocksSinceLastStep(netuid)`. */
  readonly blocksSinceLastStep: bigint | number;
  /** `RevealPeriodEpochs(netuid)`. */
  readonly revealPeriod: bigint | number;
  /** Current Unix time, seconds. */
  readonly nowSeconds: number;
  /** Expected seconds per block. */
  readonly blockTimeSeconds: number;
  /** The beacon schedule (genesis, period). */
  readonly beacon: BeaconSchedule;
  /** `Drand.LastStoredRound`; when given, a prediction below it throws. */
  readonly lastStoredRound?: bigint | number;
  /** The `BlocksSinceLastStep > N` safety net of the runtime; default 50400 (some runtimes use `tempo`). */
  readonly overdueAfterBlocks?: bigint | number;
}

function common(input: { nowSeconds: unknown; blockTimeSeconds: unknown; beacon: unknown }): {
  now: number;
  blockTime: number;
  genesisTime: number;
  period: number;
} {
  const now = toFinite(input.nowSeconds, 'nowSeconds', 'TIMELOCK_INVALID_INPUT', 0);
  const blockTime = toFinite(input.blockTimeSeconds, 'blockTimeSeconds', 'TIMELOCK_INVALID_INPUT', 0, true);
  return { now, blockTime, ...parseSchedule(input.beacon) };
}

/**
 * The round formula shared by both schedules (bittensor-drand): `floor((now + blocks * blockTime - genesis) / period)`
 * in IEEE doubles, in that order, at least 1.
 */
function roundFor(blocksUntilTarget: bigint, c: ReturnType<typeof common>, explanation: string[]): { round: bigint; targetTime: number } {
  const targetTime = c.now + Number(blocksUntilTarget) * c.blockTime;
  const raw = Math.floor((targetTime - c.genesisTime) / c.period);
  const round = raw < 1 ? 1n : BigInt(raw);
  explanation.push(
    `target time = ${c.now} + ${blocksUntilTarget} * ${c.blockTime} = ${targetTime} s`,
    `round = floor((${targetTime} - ${c.genesisTime}) / ${c.period}) = ${raw}${raw < 1 ? ', raised to the minimum 1' : ''}`,
  );
  return { round, targetTime };
}

function checkStale(round: bigint, lastStoredRound: unknown): void {
  if (lastStoredRound === undefined) return;
  const last = toUint(lastStoredRound, 'lastStoredRound', 'TIMELOCK_INVALID_INPUT');
  if (round < last) {
    throw timelockError(
      'TIMELOCK_REVEAL_ROUND_STALE',
      `reveal round ${round} is below Drand.LastStoredRound ${last}; the chain would reject it (InvalidRevealRound)`,
      {
        path: 'round',
        value: round,
        lastStoredRound: last,
      },
    );
  }
}

/**
 * Predicts the reveal round with the legacy epoch formula (bittensor-drand 1.x `generate_commit`, opentensor/bittensor-drand
 * 3ff0eac `src/drand.rs:190-258`; README 2.5):
 * `epoch = (block + netuid + 1) / (tempo + 1)`, `first = (epoch + revealPeriod) * (tempo + 1) - (netuid + 1)`,
 * `target = first + 3`, `round = floor((now + (target - block) * blockTime - genesis) / period)`, at least 1.
 *
 * @param input - chain state at one block, the clock, block time and beacon schedule
 * @returns the frozen prediction with its arithmetic
 * @throws SubnetError `TIMELOCK_INVALID_INPUT` (a field out of range, naming it), `TIMELOCK_INVALID_BEACON`,
 *   `TIMELOCK_REVEAL_ROUND_STALE` (below `lastStoredRound`)
 * @example revealRoundLegacy({ block: 5_000_000n, netuid: 1, tempo: 360, revealPeriod: 1, nowSeconds: 1_750_000_000, blockTimeSeconds: 12, beacon: QUICKNET }).round // 19066392n
 */
export function revealRoundLegacy(input: LegacyRevealRoundInput): RevealRoundPrediction {
  const block = toUint(input.block, 'block', 'TIMELOCK_INVALID_INPUT');
  const netuid = BigInt(toSmallUint(input.netuid, 'netuid', 'TIMELOCK_INVALID_INPUT', 0, 0xffff));
  const tempo = BigInt(toSmallUint(input.tempo, 'tempo', 'TIMELOCK_INVALID_INPUT', 0, 0xffff));
  const revealPeriod = toUint(input.revealPeriod, 'revealPeriod', 'TIMELOCK_INVALID_INPUT');
  const c = common(input);
  const tempoPlusOne = tempo + 1n;
  const netuidPlusOne = netuid + 1n;
  const commitEpoch = (block + netuidPlusOne) / tempoPlusOne;
  const revealEpoch = commitEpoch + revealPeriod;
  const product = revealEpoch * tempoPlusOne;
  const revealBlock = product > netuidPlusOne ? product - netuidPlusOne : 0n;
  const targetBlock = revealBlock + REVEAL_SECURITY_BLOCKS;
  const blocksUntilTarget = targetBlock > block ? targetBlock - block : 0n;
  const explanation = [
    `epoch = floor((${block} + ${netuidPlusOne}) / ${tempoPlusOne}) = ${commitEpoch}`,
    `reveal epoch = ${commitEpoch} + ${revealPeriod} = ${revealEpoch}`,
    `first reveal block = ${revealEpoch} * ${tempoPlusOne} - ${netuidPlusOne} = ${revealBlock}`,
    `target block = ${revealBlock} + ${REVEAL_SECURITY_BLOCKS} = ${targetBlock}, ${blocksUntilTarget} blocks ahead`,
  ];
  const { round, targetTime } = roundFor(blocksUntilTarget, c, explanation);
  checkStale(round, input.lastStoredRound);
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

interface EpochState {
  last: bigint;
  pending: bigint;
  index: bigint;
  sinceStep: bigint;
}

/**
 * Predicts the reveal round with the stateful epoch schedule (Subtensor main; bittensor-drand 2.x; README 2.5).
 * The commit lands in `head + 1` and is keyed by `commitEpoch = SubnetEpochIndex + (should_run_epoch(head + 1) ? 1 : 0)`.
 * `run_coinbase` is then simulated: in block b `BlocksSinceLastStep += 1` first, then an epoch fires when tempo > 0 and
 * (`PendingEpochAt > 0 && b >= PendingEpochAt`, or `BlocksSinceLastStep > overdueAfterBlocks`, or `b - LastEpochBlock >= tempo`);
 * firing sets `LastEpochBlock = b`, `PendingEpochAt = 0`, `SubnetEpochIndex += 1`, `BlocksSinceLastStep = 0`.
 * The reveal block is the first block whose reveal step (the look-ahead epoch of the previous block's state, before
 * `run_coinbase`) equals `commitEpoch + revealPeriod`;
 * `round = floor((now + (revealBlock + 3 - head) * blockTime - genesis) / period)`, at least 1.
 * `MaxEpochsPerBlock` deferral is not modelled.
 *
 * @param input - chain state read at `head`, the clock, block time and beacon schedule
 * @returns the frozen prediction with the simulated epoch blocks and its arithmetic
 * @throws SubnetError `TIMELOCK_INVALID_INPUT` (a field out of range), `TIMELOCK_INVALID_BEACON`,
 *   `TIMELOCK_NO_REVEAL_EPOCH` (tempo 0: epochs never run), `TIMELOCK_REVEAL_ROUND_STALE`
 * @example revealRoundStateful({ head: 1000n, lastEpochBlock: 900n, pendingEpochAt: 0n, subnetEpochIndex: 7n, tempo: 360, blocksSinceLastStep: 100n, revealPeriod: 1, nowSeconds, blockTimeSeconds: 12, beacon: QUICKNET })
 */
export function revealRoundStateful(input: StatefulRevealRoundInput): RevealRoundPrediction {
  const head = toUint(input.head, 'head', 'TIMELOCK_INVALID_INPUT');
  const state: EpochState = {
    last: toUint(input.lastEpochBlock, 'lastEpochBlock', 'TIMELOCK_INVALID_INPUT'),
    pending: toUint(input.pendingEpochAt, 'pendingEpochAt', 'TIMELOCK_INVALID_INPUT'),
    index: toUint(input.subnetEpochIndex, 'subnetEpochIndex', 'TIMELOCK_INVALID_INPUT'),
    sinceStep: toUint(input.blocksSinceLastStep, 'blocksSinceLastStep', 'TIMELOCK_INVALID_INPUT'),
  };
  const tempo = BigInt(toSmallUint(input.tempo, 'tempo', 'TIMELOCK_INVALID_INPUT', 0, 0xffff));
  const revealPeriod = toUint(input.revealPeriod, 'revealPeriod', 'TIMELOCK_INVALID_INPUT', 0n, MAX_SIMULATED_EPOCHS);
  const overdue =
    input.overdueAfterBlocks === undefined ? DEFAULT_OVERDUE_AFTER_BLOCKS : toUint(input.overdueAfterBlocks, 'overdueAfterBlocks', 'TIMELOCK_INVALID_INPUT');
  const c = common(input);
  if (tempo === 0n) {
    throw timelockError('TIMELOCK_NO_REVEAL_EPOCH', 'tempo is 0: the subnet never runs an epoch, so a timelocked commit is never revealed', {
      path: 'tempo',
      value: 0,
    });
  }
  // `should_run_epoch(block)` on a state whose BlocksSinceLastStep is `since` (run_coinbase.rs:1085)
  const shouldRun = (block: bigint, s: EpochState, since: bigint): boolean =>
    (s.pending > 0n && block >= s.pending) || since > overdue || (block > s.last ? block - s.last : 0n) >= tempo;
  const fire = (s: EpochState, block: bigint): void => {
    s.last = block;
    s.pending = 0n;
    s.index += 1n;
    s.sinceStep = 0n;
  };

  // The commit block: run_coinbase's drain_pending raises BlocksSinceLastStep, then asks should_run_epoch
  // (run_coinbase.rs:363); the commit extrinsic then sees the look-ahead epoch of the state after that (which is
  // the index itself: a state that just fired, or did not fire, does not fire again in the same block).
  const s: EpochState = { ...state };
  const commitBlock = head + 1n;
  s.sinceStep += 1n;
  const firesAtCommit = shouldRun(commitBlock, s, s.sinceStep);
  const epochBlocks: bigint[] = [];
  if (firesAtCommit) {
    fire(s, commitBlock);
    epochBlocks.push(commitBlock);
  }
  const commitEpoch = s.index;
  const revealEpoch = commitEpoch + revealPeriod;
  const explanation = [
    `commit lands in block ${commitBlock}; an epoch ${firesAtCommit ? 'fires' : 'does not fire'} there, so commit epoch = ${state.index}${firesAtCommit ? ' + 1' : ''} = ${commitEpoch}`,
    `reveal epoch = ${commitEpoch} + ${revealPeriod} = ${revealEpoch}`,
  ];

  // Then epoch by epoch. `s.sinceStep` is BlocksSinceLastStep after block `from - 1`. An epoch fires in block f
  // (drain_pending) at the first of: LastEpochBlock + tempo, PendingEpochAt, and the block where the raised
  // BlocksSinceLastStep exceeds the safety net. The reveal step of a block runs before run_coinbase, on the
  // previous block's state (reveal_commits.rs:43): it sees the new epoch in f itself when tempo or PendingEpochAt
  // fire it (the same test holds on that state), but one block later, in f + 1, when only the safety net does.
  let from = commitBlock + 1n;
  let revealBlock = from;
  while (s.index < revealEpoch) {
    let f = s.last + tempo > from ? s.last + tempo : from;
    if (s.pending > 0n) f = bigMin(f, s.pending > from ? s.pending : from);
    const overdueAt = from + overdue - s.sinceStep;
    f = bigMin(f, overdueAt > from ? overdueAt : from);
    epochBlocks.push(f);
    const seenBy = shouldRun(f, s, s.sinceStep + (f - from)) ? f : f + 1n;
    fire(s, f);
    revealBlock = seenBy;
    from = f + 1n;
  }
  const targetBlock = revealBlock + REVEAL_SECURITY_BLOCKS;
  const blocksUntilTarget = targetBlock - head;
  explanation.push(
    `simulated epochs fire at blocks [${epochBlocks.join(', ')}]; epoch ${revealEpoch} opens at block ${revealBlock}`,
    `target block = ${revealBlock} + ${REVEAL_SECURITY_BLOCKS} = ${targetBlock}, ${blocksUntilTarget} blocks after head ${head}`,
  );
  const { round, targetTime } = roundFor(blocksUntilTarget, c, explanation);
  checkStale(round, input.lastStoredRound);
  return Object.freeze({
    schedule: 'stateful',
    round,
    commitEpoch,
    revealEpoch,
    revealBlock,
    targetBlock,
    blocksUntilTarget,
    targetTimeSeconds: targetTime,
    epochBlocks: Object.freeze(epochBlocks),
    explanation: Object.freeze(explanation),
  });
}

function bigMin(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
