import { decodeSs58, isSubnetError } from '@subnet/core';

import { concatBytes, toBytes, toUint, u64Bytes } from './bytes.js';
import { timelockError } from './errors.js';
import { encodeCompactU32, ScaleDecodeError, ScaleReader } from './scale.js';

/**
 * A 32-byte account id: a `Uint8Array`, a `0x`-prefixed hex string, or an SS58 address (checksum verified).
 */
export type AccountIdLike = Uint8Array | string;

/**
 * The decrypted commit: Subtensor's `WeightsTlockPayload` (opentensor/subtensor 14bc6f9f9
 * `pallets/subtensor/src/coinbase/reveal_commits.rs:21-26`; the hotkey-less legacy form at `:31-35`).
 */
export interface WeightsPayload {
  /** The committing hotkey's 32-byte public key (AccountId32). */
  readonly hotkey: Uint8Array;
  /** Neuron uids (u16). */
  readonly uids: readonly number[];
  /** Weight values (u16), one per uid. */
  readonly values: readonly number[];
  /** The subnet's weights version key (u64). */
  readonly versionKey: bigint;
}

/** Input of {@link encodeWeightsPayload}. */
export interface WeightsPayloadInput {
  /** The committing hotkey (32-byte public key, 0x-hex, or SS58). */
  readonly hotkey: AccountIdLike;
  /** Neuron uids, integers 0..65535. */
  readonly uids: readonly number[];
  /** Weight values, integers 0..65535, same length as `uids`. */
  readonly values: readonly number[];
  /** The weights version key, 0..u64::MAX. */
  readonly versionKey: bigint | number;
}

/** Options of {@link decodeWeightsPayload}. */
export interface DecodeWeightsPayloadOptions {
  /** Ignore bytes after `version_key`, as the chain's `Decode::decode` does. Default false (strict). */
  readonly allowTrailingBytes?: boolean;
}

/** Internal: parses an account id to its 32 bytes. */
export function toAccountId(value: unknown, path: string, code: 'TIMELOCK_INVALID_PAYLOAD' | 'TIMELOCK_INVALID_INPUT'): Uint8Array {
  if (typeof value === 'string' && !value.startsWith('0x')) {
    try {
      return decodeSs58(value).publicKey;
    } catch (cause) {
      const why = isSubnetError(cause) ? cause.message : 'invalid SS58 address';
      throw timelockError(code, `expected a 32-byte public key or an SS58 address (${why})`, { path, value }, cause);
    }
  }
  return toBytes(value, path, code, 32);
}

function u16List(value: unknown, path: string): number[] {
  if (!Array.isArray(value)) throw timelockError('TIMELOCK_INVALID_PAYLOAD', 'expected an array of u16 integers', { path, value });
  return value.map((item: unknown, index) => {
    if (typeof item !== 'number' || !Number.isInteger(item) || item < 0 || item > 0xffff) {
      throw timelockError('TIMELOCK_INVALID_PAYLOAD', 'expected an integer in [0, 65535]', { path: `${path}[${index}]`, value: item });
    }
    return item;
  });
}

function encodeU16Vec(values: readonly number[]): Uint8Array {
  const out = new Uint8Array(values.length * 2);
  values.forEach((value, index) => {
    out[2 * index] = value & 0xff;
    out[2 * index + 1] = value >>> 8;
  });
  return concatBytes(encodeCompactU32(values.length), out);
}

/**
 * SCALE-encodes a `WeightsTlockPayload {hotkey: Vec<u8>, uids: Vec<u16>, values: Vec<u16>, version_key: u64}`:
 * `compact(32) hotkey | compact(n) u16le* | compact(n) u16le* | u64le`. Uids and values must have equal
 * length (the chain would drop a mismatched commit silently with `WeightVecNotEqualSize`).
 *
 * @param input - hotkey, uids, values, version key
 * @returns the payload bytes (45 + 4n bytes for n >= 64 uids, 41 + 4n below)
 * @throws SubnetError `TIMELOCK_INVALID_PAYLOAD` naming the offending field (`payload.uids[3]`, ...)
 * @example encodeWeightsPayload({ hotkey: alice, uids: [0, 1], values: [65535, 0], versionKey: 4n })
 */
export function encodeWeightsPayload(input: WeightsPayloadInput): Uint8Array {
  if (typeof input !== 'object' || (input as unknown) === null) {
    throw timelockError('TIMELOCK_INVALID_PAYLOAD', 'expected a payload object', { path: 'payload', value: input });
  }
  const hotkey = toAccountId(input.hotkey, 'payload.hotkey', 'TIMELOCK_INVALID_PAYLOAD');
  const uids = u16List(input.uids, 'payload.uids');
  const values = u16List(input.values, 'payload.values');
  if (uids.length !== values.length) {
    throw timelockError('TIMELOCK_INVALID_PAYLOAD', `uids and values differ in length (${uids.length} vs ${values.length})`, {
      path: 'payload.values',
      value: values.length,
      uidsLength: uids.length,
    });
  }
  const versionKey = toUint(input.versionKey, 'payload.versionKey', 'TIMELOCK_INVALID_PAYLOAD');
  return concatBytes(encodeCompactU32(hotkey.length), hotkey, encodeU16Vec(uids), encodeU16Vec(values), u64Bytes(versionKey, true));
}

function decodeError(error: unknown, bytes: Uint8Array): never {
  if (error instanceof ScaleDecodeError) {
    throw timelockError(
      'TIMELOCK_INVALID_PAYLOAD',
      `cannot decode WeightsTlockPayload: ${error.message}`,
      {
        path: error.path,
        value: bytes.length,
        offset: error.offset,
      },
      error,
    );
  }
  throw error;
}

/** Internal: decodes a payload the way parity-scale-codec `Decode::decode` does (trailing bytes ignored). */
export function readWeightsPayload(reader: ScaleReader): WeightsPayload {
  const hotkey = reader.bytesVec('payload.hotkey');
  const uids = reader.u16Vec('payload.uids');
  const values = reader.u16Vec('payload.values');
  const versionKey = reader.u64('payload.versionKey');
  return Object.freeze({ hotkey, uids: Object.freeze(uids), values: Object.freeze(values), versionKey });
}

/**
 * Decodes a SCALE `WeightsTlockPayload`. Strict by default: every byte must be used.
 *
 * @param bytes - the payload (for instance a decrypted commit)
 * @param options - `allowTrailingBytes` to ignore what follows `version_key`, as the chain does
 * @returns the frozen payload (hotkey may have any length here; the chain then decodes 32 bytes of it)
 * @throws SubnetError `TIMELOCK_INVALID_PAYLOAD` naming the field and byte offset
 * @example decodeWeightsPayload(decryptWithSignature(commit, sig)).uids
 */
export function decodeWeightsPayload(bytes: Uint8Array, options: DecodeWeightsPayloadOptions = {}): WeightsPayload {
  const data = toBytes(bytes, 'payload', 'TIMELOCK_INVALID_PAYLOAD');
  const reader = new ScaleReader(data);
  let payload: WeightsPayload;
  try {
    payload = readWeightsPayload(reader);
  } catch (error) {
    decodeError(error, data);
  }
  if (options.allowTrailingBytes !== true && reader.remaining !== 0) {
    throw timelockError('TIMELOCK_INVALID_PAYLOAD', `${reader.remaining} unexpected bytes after version_key`, {
      path: 'payload',
      value: data.length,
      offset: reader.offset,
    });
  }
  return payload;
}
