import type { ApiPromise } from '@polkadot/api';
import type { SubmittableExtrinsic } from '@polkadot/api/types';
import { u8aToHex } from '@polkadot/util';
import { blake2AsHex } from '@polkadot/util-crypto';
import { encryptWeightsCommit } from '@subnet/timelock';
import type { RevealRoundPrediction, WeightsCommit } from '@subnet/timelock';

import { chainError } from './chain-error.js';
import type { MetagraphSnapshot } from './metagraph-snapshot.js';
import type { Inclusion } from './submit-extrinsic.js';
import type { TimelockContext } from './timelock-context.js';
import { rethrowTimelockError, TIMELOCK_COMMIT_REVEAL_VERSION } from './timelock-context.js';
import { predictRevealRound } from './timelock-round.js';

/** A confirmed timelocked commit: everything needed to confirm its reveal later (plain data, no secret). */
export interface TimelockedCommitRecord {
  /** SS58 hotkey that signed the commit. */
  readonly hotkey: string;
  readonly netuid: number;
  readonly mecid: number;
  readonly netuidIndex: number;
  /** Uid of the hotkey at commit time. */
  readonly uid: number;
  readonly uids: readonly number[];
  /** u16 values committed (the chain max-upscales them at reveal). */
  readonly values: readonly number[];
  readonly versionKey: bigint;
  /** `reveal_round` of the commit. */
  readonly revealRound: bigint;
  /** blake2_256 of the commit bytes, as in `TimelockedWeightsCommitted`. */
  readonly commitHash: string;
  readonly commitBlock: bigint;
  readonly commitBlockHash: string;
  readonly extrinsicHash: string;
  readonly nonce: bigint;
  /** The prediction made before signing (null for a commit built elsewhere). */
  readonly prediction: Pick<RevealRoundPrediction, 'schedule' | 'commitEpoch' | 'revealEpoch' | 'revealBlock' | 'targetBlock'> | null;
}

/** What `prepareTimelockedCommit` produced: the encrypted commit and the round prediction. */
export interface PreparedTimelockedCommit {
  readonly commit: WeightsCommit;
  readonly prediction: RevealRoundPrediction;
}

/**
 * Predicts the reveal round (state read at the snapshot block) and encrypts the SCALE weights payload
 * `{hotkey, uids, values, version_key}` to it under the beacon, checking `reveal_round >=
 * Drand.LastStoredRound` and the 5000-byte commit limit before anything is signed.
 *
 * @param input - snapshot, context, signer public key, u16 weights and version key
 * @returns the commit and the prediction
 * @throws SubnetError `CHAIN_INVALID_REVEAL_ROUND`, `CHAIN_TIMELOCK_COMMIT_TOO_LARGE`,
 *   `CHAIN_TIMELOCK_NO_REVEAL_EPOCH`, `CHAIN_TIMELOCK_BEACON_UNKNOWN` (all stage `preflight`)
 * @example const { commit, prediction } = prepareTimelockedCommit({ snapshot, context, hotkeyPublicKey, uids, values, versionKey });
 */
export function prepareTimelockedCommit(input: {
  readonly snapshot: MetagraphSnapshot;
  readonly context: TimelockContext;
  readonly hotkeyPublicKey: string;
  readonly uids: readonly number[];
  readonly values: readonly number[];
  readonly versionKey: bigint;
}): PreparedTimelockedCommit {
  const prediction = predictRevealRound(input.snapshot, input.context);
  try {
    const commit = encryptWeightsCommit({
      hotkeyPublicKey: input.hotkeyPublicKey,
      uids: input.uids,
      values: input.values,
      versionKey: input.versionKey,
      round: prediction.round,
      beacon: input.context.beacon,
    });
    return Object.freeze({ commit, prediction });
  } catch (error) {
    return rethrowTimelockError(error, { netuid: input.snapshot.netuid, block: input.snapshot.block, round: prediction.round });
  }
}

type TxFn = (...args: unknown[]) => SubmittableExtrinsic<'promise'>;

/**
 * The timelocked commit call the runtime offers: `commit_timelocked_mechanism_weights(netuid, mecid, commit,
 * reveal_round, commit_reveal_version)`, else (mecid 0) `commit_timelocked_weights(netuid, commit, ...)`.
 *
 * @param api - the metadata-decorated api
 * @param mecid - mechanism id
 * @returns the call name and a builder
 * @throws SubnetError `CHAIN_CALL_NOT_AVAILABLE`
 * @example const call = timelockedCommitCall(api, 0);
 */
export function timelockedCommitCall(
  api: ApiPromise,
  mecid: number,
): { name: string; build: (netuid: number, commit: Uint8Array, round: bigint) => SubmittableExtrinsic<'promise'> } {
  const pallet = (api.tx as unknown as Record<string, Record<string, TxFn | undefined> | undefined>)['subtensorModule'];
  const mech = pallet?.['commitTimelockedMechanismWeights'];
  if (mech)
    return {
      name: 'commit_timelocked_mechanism_weights',
      build: (netuid, commit, round) => mech(netuid, mecid, u8aToHex(commit), round, TIMELOCK_COMMIT_REVEAL_VERSION),
    };
  const plain = pallet?.['commitTimelockedWeights'];
  if (plain && mecid === 0)
    return { name: 'commit_timelocked_weights', build: (netuid, commit, round) => plain(netuid, u8aToHex(commit), round, TIMELOCK_COMMIT_REVEAL_VERSION) };
  throw chainError(
    'CallNotAvailable',
    'the runtime offers neither SubtensorModule.commit_timelocked_mechanism_weights nor (for mecid 0) commit_timelocked_weights',
    {
      source: 'client',
      path: 'mecid',
      value: mecid,
    },
  );
}

/**
 * Checks the inclusion of a timelocked commit (`TimelockedWeightsCommitted(who, netuid_index,
 * blake2_256(commit), reveal_round)`) and returns its record.
 *
 * @param inclusion - the included extrinsic
 * @param input - what was committed
 * @returns the record
 * @throws SubnetError `CHAIN_WEIGHTS_NOT_CONFIRMED` when the event is missing or differs
 * @example const record = timelockedCommitRecord(inclusion, { ... });
 */
export function timelockedCommitRecord(
  inclusion: Inclusion,
  input: Omit<TimelockedCommitRecord, 'commitHash' | 'commitBlock' | 'commitBlockHash' | 'extrinsicHash' | 'nonce'> & { readonly commit: Uint8Array },
): TimelockedCommitRecord {
  const commitHash = blake2AsHex(input.commit, 256);
  const seen = inclusion.events.some(
    (e) =>
      e.section === 'subtensorModule' &&
      e.method === 'TimelockedWeightsCommitted' &&
      String(e.data[0]) === input.hotkey &&
      Number(e.data[1]) === input.netuidIndex &&
      String(e.data[2]) === commitHash &&
      BigInt(String(e.data[3])) === input.revealRound,
  );
  if (!seen) {
    throw chainError('WeightsNotConfirmed', 'the timelocked commit was included without a matching TimelockedWeightsCommitted event', {
      source: 'client',
      stage: 'confirm',
      extrinsicHash: inclusion.extrinsicHash,
      blockHash: inclusion.blockHash,
      blockNumber: inclusion.blockNumber,
      commitHash,
    });
  }
  const { commit: _commit, ...rest } = input;
  return Object.freeze({
    ...rest,
    commitHash,
    commitBlock: inclusion.blockNumber,
    commitBlockHash: inclusion.blockHash,
    extrinsicHash: inclusion.extrinsicHash,
    nonce: inclusion.nonce,
  });
}
