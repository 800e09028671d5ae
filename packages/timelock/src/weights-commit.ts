import type { BeaconConfig } from './beacon.js';
import type { BytesLike } from './bytes.js';
import { equalBytes, toBytes } from './bytes.js';
import { CIPHERTEXT_OVERHEAD_BYTES, parseCiphertext } from './ciphertext.js';
import type { TimelockCiphertext } from './ciphertext.js';
import { decryptWithSignature } from './decrypt.js';
import type { EncryptionRandomness } from './encrypt.js';
import { encryptForRound } from './encrypt.js';
import { timelockError } from './errors.js';
import type { RoundLike } from './round.js';
import { toRound } from './round.js';
import { ScaleReader } from './scale.js';
import type { AccountIdLike } from './weights-payload.js';
import { encodeWeightsPayload, readWeightsPayload, toAccountId } from './weights-payload.js';
import { isSubnetError } from '@subnet/core';

/**
 * The chain's commit size limit: `MAX_CRV3_COMMIT_SIZE_BYTES = 5000` (`BoundedVec<u8, ConstU32<5000>>`;
 * opentensor/subtensor 14bc6f9f9 `pallets/subtensor/src/lib.rs:60`, `:61` at ab0cb2e52).
 */
export const MAX_COMMIT_BYTES = 5000;

/**
 * The most uids one commit can carry with a 32-byte hotkey: `244 + 45 + 4n <= 5000`, so n <= 1177.
 */
export const MAX_COMMIT_UIDS = 1177;

/** Input of {@link encryptWeightsCommit}. */
export interface EncryptWeightsCommitInput {
  /** The committing hotkey (the extrinsic's signer): 32-byte public key, 0x-hex, or SS58. */
  readonly hotkeyPublicKey: AccountIdLike;
  /** Neuron uids, integers 0..65535. */
  readonly uids: readonly number[];
  /** Weight values, integers 0..65535, one per uid. */
  readonly values: readonly number[];
  /** The subnet's `WeightsVersionKey` as it will be at reveal time. */
  readonly versionKey: bigint | number;
  /** The reveal round (see `revealRoundStateful` / `revealRoundLegacy`). */
  readonly round: RoundLike;
  /** The beacon (quicknet on finney; the dev chain's own key on a devnet). */
  readonly beacon: Pick<BeaconConfig, 'publicKey'>;
  /** Fixed randomness for reproducible output; omit in production. */
  readonly randomness?: EncryptionRandomness;
}

/** The result of {@link encryptWeightsCommit}. */
export interface WeightsCommit {
  /** The `commit` argument of `commit_timelocked_mechanism_weights`. */
  readonly commit: Uint8Array;
  /** The `reveal_round` argument. */
  readonly round: bigint;
  /** The SCALE payload that was encrypted. */
  readonly payload: Uint8Array;
  /** `commit.length` (<= {@link MAX_COMMIT_BYTES}). */
  readonly size: number;
}

/**
 * Builds the encrypted commit of `commit_timelocked_mechanism_weights`: SCALE-encodes the
 * `WeightsTlockPayload` and timelock-encrypts it to `round`. The 5000-byte limit is checked before
 * encrypting (from the payload size) and again on the result.
 *
 * @param input - hotkey, uids, values, version key, round, beacon
 * @returns the frozen commit, round, payload and size
 * @throws SubnetError `TIMELOCK_INVALID_PAYLOAD` (bad uids/values/hotkey/version key), `TIMELOCK_COMMIT_TOO_LARGE`
 *   (context `size`, `limit`), `TIMELOCK_INVALID_INPUT` (round), `TIMELOCK_INVALID_BEACON`
 * @example encryptWeightsCommit({ hotkeyPublicKey: hotkey, uids, values, versionKey: 4n, round, beacon: QUICKNET })
 */
export function encryptWeightsCommit(input: EncryptWeightsCommitInput): WeightsCommit {
  if (typeof input !== 'object' || (input as unknown) === null) {
    throw timelockError('TIMELOCK_INVALID_INPUT', 'expected an input object', { path: 'input', value: input });
  }
  const payload = encodeWeightsPayload({
    hotkey: input.hotkeyPublicKey,
    uids: input.uids,
    values: input.values,
    versionKey: input.versionKey,
  });
  const round = toRound(input.round);
  const tooLarge = (size: number): never => {
    throw timelockError('TIMELOCK_COMMIT_TOO_LARGE', `the commit would be ${size} bytes, over the chain's ${MAX_COMMIT_BYTES}-byte limit`, {
      path: 'uids',
      value: input.uids.length,
      size,
      limit: MAX_COMMIT_BYTES,
      maxUids: MAX_COMMIT_UIDS,
    });
  };
  const predicted = CIPHERTEXT_OVERHEAD_BYTES + payload.length;
  if (predicted > MAX_COMMIT_BYTES) tooLarge(predicted);
  const commit = encryptForRound(
    input.randomness === undefined
      ? { message: payload, round, beacon: input.beacon }
      : { message: payload, round, beacon: input.beacon, randomness: input.randomness },
  );
  if (commit.length > MAX_COMMIT_BYTES) tooLarge(commit.length);
  return Object.freeze({ commit, round, payload, size: commit.length });
}

/** Why the chain drops a commit at reveal (it logs at `trace` level only and emits nothing). */
export type RevealDropReason = 'invalid_ciphertext' | 'invalid_signature' | 'decryption_failed' | 'invalid_payload' | 'hotkey_mismatch';

/** What the chain's reveal step makes of one commit, before `do_set_mechanism_weights`. */
export type RevealOutcome =
  | {
      readonly status: 'revealed';
      /** `hotkey`: a `WeightsTlockPayload` whose hotkey is the signer; `legacy`: the hotkey-less fallback. */
      readonly format: 'hotkey' | 'legacy';
      readonly uids: readonly number[];
      readonly values: readonly number[];
      readonly versionKey: bigint;
      readonly plaintext: Uint8Array;
    }
  | {
      readonly status: 'dropped';
      readonly reason: RevealDropReason;
      /** A human-readable cause (never contains secrets). */
      readonly detail: string;
    };

/** Input of {@link revealWeightsCommit}. */
export interface RevealWeightsCommitInput {
  /** The stored commit bytes (or an already parsed ciphertext). */
  readonly commit: BytesLike | TimelockCiphertext;
  /** `Drand.Pulses[reveal_round].signature` as stored (raw 48 bytes; a leading ASCII `0x` is stripped). */
  readonly signature: BytesLike;
  /** The account that signed the commit extrinsic. */
  readonly signer: AccountIdLike;
}

const ASCII_0X = Uint8Array.of(0x30, 0x78);

/**
 * Replays Subtensor's reveal of one timelocked commit (`reveal_crv3_commits_for_subnet`, steps before
 * `do_set_mechanism_weights`: opentensor/subtensor 14bc6f9f9 `pallets/subtensor/src/coinbase/reveal_commits.rs:91-176`)
 * so a dev chain can behave exactly like the real one:
 * 1. parse the commit as `TLECiphertext<TinyBLS381>` (trailing bytes and the suite label ignored);
 * 2. decode the pulse signature (ASCII `0x` prefix stripped, first 48 bytes);
 * 3. `tld` (IBE + AES-GCM);
 * 4. SCALE-decode `WeightsTlockPayload` (trailing bytes ignored) and require its 32-byte hotkey to be the
 *    signer; if the hotkey cannot be read as 32 bytes, or the new format does not decode, fall back to the
 *    legacy `{uids, values, version_key}` payload.
 * Every failure is a `dropped` outcome, never an exception: the chain drops silently.
 *
 * @param input - commit, pulse signature, signer
 * @returns the frozen outcome
 * @throws SubnetError `TIMELOCK_INVALID_INPUT` only when `signer` is not an account id (a caller bug)
 * @example const outcome = revealWeightsCommit({ commit, signature: pulse.signature, signer: hotkey })
 */
export function revealWeightsCommit(input: RevealWeightsCommitInput): RevealOutcome {
  const signer = toAccountId(input.signer, 'signer', 'TIMELOCK_INVALID_INPUT');
  const dropped = (reason: RevealDropReason, detail: string): RevealOutcome => Object.freeze({ status: 'dropped', reason, detail });

  let ciphertext: TimelockCiphertext;
  try {
    ciphertext =
      typeof input.commit === 'string' || input.commit instanceof Uint8Array ? parseCiphertext(input.commit, { chainCompatible: true }) : input.commit;
  } catch (error) {
    return dropped('invalid_ciphertext', errorText(error));
  }

  let signature: Uint8Array;
  try {
    signature = toBytes(input.signature, 'signature', 'TIMELOCK_INVALID_PULSE');
  } catch (error) {
    return dropped('invalid_signature', errorText(error));
  }
  if (signature.length >= 2 && equalBytes(signature.subarray(0, 2), ASCII_0X)) signature = signature.subarray(2);
  if (signature.length < 48) return dropped('invalid_signature', `signature has ${signature.length} bytes, needs 48`);

  let plaintext: Uint8Array;
  try {
    plaintext = decryptWithSignature(ciphertext, signature.subarray(0, 48), { chainCompatible: true });
  } catch (error) {
    if (isSubnetError(error, 'TIMELOCK_INVALID_PULSE')) return dropped('invalid_signature', errorText(error));
    if (isSubnetError(error, 'TIMELOCK_INVALID_CIPHERTEXT')) return dropped('invalid_ciphertext', errorText(error));
    return dropped('decryption_failed', errorText(error));
  }

  const revealed = (format: 'hotkey' | 'legacy', uids: readonly number[], values: readonly number[], versionKey: bigint): RevealOutcome =>
    Object.freeze({ status: 'revealed', format, uids, values, versionKey, plaintext });
  const legacy = (detail: string): RevealOutcome => {
    try {
      const reader = new ScaleReader(plaintext);
      const uids = Object.freeze(reader.u16Vec('payload.uids'));
      const values = Object.freeze(reader.u16Vec('payload.values'));
      return revealed('legacy', uids, values, reader.u64('payload.versionKey'));
    } catch (error) {
      return dropped('invalid_payload', `${detail}; legacy payload: ${errorText(error)}`);
    }
  };

  let payload;
  try {
    payload = readWeightsPayload(new ScaleReader(plaintext));
  } catch (error) {
    return legacy(`WeightsTlockPayload: ${errorText(error)}`);
  }
  if (payload.hotkey.length < 32) return legacy(`payload hotkey has ${payload.hotkey.length} bytes, not an AccountId32`);
  if (!equalBytes(payload.hotkey.subarray(0, 32), signer)) return dropped('hotkey_mismatch', 'the payload hotkey is not the signer');
  return revealed('hotkey', payload.uids, payload.values, payload.versionKey);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
