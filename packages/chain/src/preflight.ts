import { chainError } from './chain-error.js';
import type { ChainError } from './chain-error.js';
import type { MetagraphSnapshot } from './metagraph-snapshot.js';
import { exemptsSubnetOwner } from './owner-exemption.js';
import { epochAtBlock } from './reveal-window.js';

/** The most commit-reveal v2 commits a hotkey may have queued (Subtensor `internal_commit_weights`). */
const MAX_UNREVEALED_COMMITS = 10;

/** What is about to be submitted. */
export interface PreflightInput {
  /** The snapshot, read at the head the extrinsic will be built on. */
  readonly snapshot: MetagraphSnapshot;
  /** The signing hotkey (SS58). */
  readonly hotkey: string;
  /** uids as submitted (after u16 conversion). */
  readonly uids: readonly number[];
  /** u16 values as submitted. */
  readonly values: readonly number[];
  readonly versionKey: bigint;
  /**
   * `set` (direct set_weights), `commit` (CR v2 commit: registration, rate limit as
   * CommittingWeightsTooFast, and the checks the later reveal will run) or `reveal` (no rate limit).
   */
  readonly kind: 'set' | 'commit' | 'reveal';
  /**
   * `error` (default): stake below `StakeThreshold` fails the preflight; `warn`: it is reported in `warnings`
   * and the submission goes ahead (the chain decides; an operator's override when the stake weight is
   * computed differently from the chain's).
   */
  readonly stakeCheck?: 'error' | 'warn';
  /**
   * For a commit-reveal v2 `commit`: the commit epochs of the hotkey's queued commits (`WeightCommits[(netuid_index,
   * hotkey)]`, oldest first, as `readWeightCommits` gives them). The chain drops expired commits from the front of
   * the queue and refuses the commit when 10 remain (`TooManyUnrevealedCommits`); without this list that check is
   * not run.
   */
  readonly queuedCommitEpochs?: readonly bigint[];
  /**
   * For a timelocked `commit`: how many commits of the hotkey the `TimelockedWeightCommits` queue the commit joins
   * already holds (`readTimelockedCommitCount`). The chain refuses the commit when there are 10
   * (`TooManyUnrevealedCommits`); without the count that check is not run.
   */
  readonly timelockedCommitCount?: number;
}

/** The preflight verdict: every failing check, in the chain's order; the first is what the chain would raise. */
export interface PreflightResult {
  readonly ok: boolean;
  readonly errors: readonly ChainError[];
  /** Checks turned into warnings (`stakeCheck: 'warn'`): they do not block the submission. */
  readonly warnings: readonly ChainError[];
  /** The signer's uid, or null when not registered. */
  readonly uid: number | null;
  /** First block at which the rate limit lets this hotkey set (or commit) again; 0n when not limited. */
  readonly nextAllowedBlock: bigint;
}

/**
 * The block from which the chain's rate limit lets `uid` set weights again on the snapshot's
 * mechanism: `LastUpdate[netuid_index][uid] + WeightsSetRateLimit`, or 0 when it never set weights (`check_rate_limit`:
 * `last == 0 || now - last >= WeightsSetRateLimit[netuid]`, opentensor/subtensor 14bc6f9f9
 * `pallets/subtensor/src/subnets/weights.rs:1104-1124`, `:1106-1126` at ab0cb2e52).
 *
 * @param snapshot - metagraph snapshot
 * @param uid - the validator's uid
 * @returns the first allowed block (the extrinsic's block, i.e. head + 1, must be >= it)
 * @example nextAllowedBlockFor(snapshot, 3) // 1200n
 */
export function nextAllowedBlockFor(snapshot: MetagraphSnapshot, uid: number): bigint {
  const last = snapshot.lastUpdate[uid] ?? 0n;
  if (last === 0n) return 0n;
  return last + snapshot.hyperparameters.weightsRateLimit;
}

/**
 * Replays every check `internal_set_weights` (Subtensor `weights.rs`, README 2.2) runs, in the chain's
 * order, against a snapshot, so that nothing is signed that the chain would reject. Pure: no I/O.
 * The extrinsic is assumed to execute at `snapshot.block + 1`.
 *
 * @param input - snapshot, signer, uids, values, version key and kind
 * @returns the verdict with every failing check in order (`errors[0]` is what the chain reports)
 * @throws SubnetError `CHAIN_INVALID_INPUT` naming `stakeCheck`, `queuedCommitEpochs` or `timelockedCommitCount` when
 *   it is malformed, or `snapshot.runtimeVersion` when the signer is the owner hotkey and the snapshot has no runtime
 *   version to decide its exemption by (a snapshot built by hand; {@link exemptsSubnetOwner})
 * @example
 * const r = preflight({ snapshot, hotkey, uids: [0, 1], values: [65535, 100], versionKey: 0n, kind: 'set' });
 * if (!r.ok) throw r.errors[0];
 */
export function preflight(input: PreflightInput): PreflightResult {
  const { snapshot, hotkey, uids, values, versionKey, kind } = input;
  const stakeCheck: unknown = input.stakeCheck ?? 'error';
  if (stakeCheck !== 'error' && stakeCheck !== 'warn') {
    throw chainError('InvalidInput', "stakeCheck is 'error' or 'warn'", { source: 'client', path: 'stakeCheck', value: stakeCheck });
  }
  const warnings: ChainError[] = [];
  const hp = snapshot.hyperparameters;
  const errors: ChainError[] = [];
  const base = { stage: 'preflight' as const, netuid: snapshot.netuid, mecid: snapshot.mecid, block: snapshot.block };
  const fail = (name: string, summary: string, extra: Record<string, unknown>): void => {
    errors.push(chainError(name, summary, { ...base, ...extra }));
  };
  const uidIndex = snapshot.hotkeys.indexOf(hotkey);
  const uid = uidIndex >= 0 && uidIndex < snapshot.n ? uidIndex : null;
  const now = snapshot.block + 1n;

  if (kind === 'set' && hp.commitRevealEnabled) {
    fail('CommitRevealEnabled', 'the subnet has commit-reveal enabled: weights must be committed', { path: 'commitRevealEnabled', value: true });
  }
  if (kind !== 'set' && !hp.commitRevealEnabled) {
    fail('CommitRevealDisabled', 'the subnet has commit-reveal disabled', { path: 'commitRevealEnabled', value: false });
  }
  if (snapshot.netuid === 0) fail('CanNotSetRootNetworkWeights', 'netuid 0 is the root network', { path: 'netuid', value: 0 });
  if (uids.length !== values.length) {
    fail('WeightVecNotEqualSize', `${uids.length} uids but ${values.length} values`, { path: 'values.length', value: values.length });
  }
  if (snapshot.mecid >= hp.mechanismCount) {
    fail('MechanismDoesNotExist', `the subnet has ${hp.mechanismCount} mechanism(s)`, { path: 'mecid', value: snapshot.mecid });
  }
  if (uids.length > snapshot.n) {
    fail('UidsLengthExceedUidsInSubNet', `${uids.length} weights for a subnet of ${snapshot.n} neurons`, { path: 'uids.length', value: uids.length });
  }
  if (uid === null) {
    fail('HotKeyNotRegisteredInSubNet', `hotkey ${hotkey} is not registered on netuid ${snapshot.netuid}`, { path: 'hotkey', value: hotkey });
  }
  // the owner hotkey passes the stake and permit checks where the runtime read with the snapshot exempts it: stateful
  // epochs, or node-subtensor spec 397 on (e7f05a051: lib.rs:2521-2526, subnets/weights.rs:1165-1170; G.33)
  const isOwner = snapshot.ownerHotkey !== null && snapshot.ownerHotkey === hotkey && exemptsSubnetOwner(snapshot);
  if (uid !== null && !isOwner) {
    const stake = snapshot.stakes[uid] ?? 0n;
    if (stake < hp.stakeThreshold) {
      const parts = snapshot.stakeWeights[uid];
      const error = chainError('NotEnoughStakeToSetWeights', `stake weight ${stake} is below StakeThreshold ${hp.stakeThreshold}`, {
        ...base,
        path: 'stake',
        value: stake,
        stakeThreshold: hp.stakeThreshold,
        stakeSource: snapshot.stakeSource,
        ...(parts === undefined ? {} : { stakeWeight: parts }),
      });
      if (stakeCheck === 'warn') warnings.push(error);
      else errors.push(error);
    }
  }
  if (hp.weightsVersionKey !== 0n && versionKey < hp.weightsVersionKey) {
    fail('IncorrectWeightVersionKey', `version key ${versionKey} is below the subnet's WeightsVersionKey ${hp.weightsVersionKey}`, {
      path: 'versionKey',
      value: versionKey,
      required: hp.weightsVersionKey,
    });
  }
  let nextAllowed = 0n;
  if (uid !== null) {
    nextAllowed = nextAllowedBlockFor(snapshot, uid);
    if (kind !== 'reveal' && now < nextAllowed) {
      const name = kind === 'commit' ? 'CommittingWeightsTooFast' : 'SettingWeightsTooFast';
      fail(name, `last update at block ${snapshot.lastUpdate[uid] ?? 0n}; rate limit ${hp.weightsRateLimit} blocks; next allowed block ${nextAllowed}`, {
        path: 'block',
        value: now,
        nextAllowedBlock: nextAllowed,
      });
    }
  }
  const queued = input.queuedCommitEpochs;
  if (queued !== undefined && (!Array.isArray(queued) || !queued.every((e) => typeof e === 'bigint' && e >= 0n))) {
    throw chainError('InvalidInput', 'queuedCommitEpochs is a list of epochs (bigint >= 0)', { source: 'client', path: 'queuedCommitEpochs', value: queued });
  }
  if (kind === 'commit' && uid !== null && queued !== undefined) {
    // internal_commit_weights pops expired commits (current epoch > commit epoch + RevealPeriodEpochs) from the
    // front of the queue, then requires fewer than 10 to remain (weights.rs:121 at 14bc6f9f9, :117 at ab0cb2e52)
    const current = epochAtBlock({ netuid: snapshot.netuid, tempo: hp.tempo, head: snapshot.block, epoch: snapshot.epoch }, now);
    let expired = 0;
    while (expired < queued.length && current > (queued[expired] as bigint) + hp.revealPeriodEpochs) expired += 1;
    const remaining = queued.length - expired;
    if (remaining >= MAX_UNREVEALED_COMMITS) {
      fail('TooManyUnrevealedCommits', `${remaining} unrevealed commits are queued (at most ${MAX_UNREVEALED_COMMITS - 1} before a new one)`, {
        path: 'queuedCommitEpochs.length',
        value: remaining,
      });
    }
  }
  const timelocked = input.timelockedCommitCount;
  if (timelocked !== undefined && !(typeof timelocked === 'number' && Number.isSafeInteger(timelocked) && timelocked >= 0)) {
    throw chainError('InvalidInput', 'timelockedCommitCount is an integer >= 0', { source: 'client', path: 'timelockedCommitCount', value: timelocked });
  }
  if (kind === 'commit' && uid !== null && timelocked !== undefined && timelocked >= MAX_UNREVEALED_COMMITS) {
    // internal_commit_timelocked_weights counts the hotkey's commits in the epoch's queue (weights.rs:357, both runtimes)
    fail(
      'TooManyUnrevealedCommits',
      `${timelocked} timelocked commits of this hotkey are queued for this epoch (at most ${MAX_UNREVEALED_COMMITS - 1} before a new one)`,
      {
        path: 'timelockedCommitCount',
        value: timelocked,
      },
    );
  }
  const selfWeightOnly = uid !== null && uids.length === 1 && uids[0] === uid;
  if (uid !== null && !selfWeightOnly && !isOwner && snapshot.validatorPermit[uid] !== true) {
    fail('NeuronNoValidatorPermit', `uid ${uid} has no validator permit`, { path: 'validatorPermit', value: uid });
  }
  const seen = new Set<number>();
  for (let i = 0; i < uids.length; i += 1) {
    const u = uids[i] ?? -1;
    if (seen.has(u)) {
      fail('DuplicateUids', `uid ${u} appears more than once`, { path: `uids[${i}]`, value: u });
      break;
    }
    seen.add(u);
  }
  for (let i = 0; i < uids.length; i += 1) {
    const u = uids[i] ?? -1;
    if (!Number.isInteger(u) || u < 0 || u >= snapshot.n) {
      fail('UidVecContainInvalidOne', `uid ${u} is not below the subnet size ${snapshot.n}`, { path: `uids[${i}]`, value: u });
      break;
    }
  }
  const minLength = Math.min(snapshot.n, hp.minAllowedWeights);
  if (!selfWeightOnly && uids.length < minLength) {
    fail('WeightVecLengthIsLow', `${uids.length} non-zero weights; the subnet requires at least ${minLength}`, {
      path: 'uids.length',
      value: uids.length,
      minAllowedWeights: hp.minAllowedWeights,
    });
  }
  return Object.freeze({ ok: errors.length === 0, errors: Object.freeze(errors), warnings: Object.freeze(warnings), uid, nextAllowedBlock: nextAllowed });
}
