import { compactToU8a, hexToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';
import { decodeSs58 } from '@subnet/core';

import { chainError } from './chain-error.js';

/** Number of netuids per mechanism in the storage index (`GLOBAL_MAX_SUBNET_COUNT`). */
export const GLOBAL_MAX_SUBNET_COUNT = 4096;

/**
 * The mechanism storage index the chain keys weights, `LastUpdate` and commits by: `mecid * 4096 + netuid`
 * (`get_mechanism_storage_index`, opentensor/subtensor 14bc6f9f9 `pallets/subtensor/src/subnets/mechanism.rs:35-40`).
 *
 * @param netuid - subnet id (u16)
 * @param mecid - mechanism id (u8), default 0
 * @returns the storage index
 * @throws SubnetError `CHAIN_INVALID_INPUT` when netuid is not below 4096 or mecid not a u8
 * @example mechanismStorageIndex(1, 1) // 4097
 */
export function mechanismStorageIndex(netuid: number, mecid = 0): number {
  if (!Number.isInteger(netuid) || netuid < 0 || netuid >= GLOBAL_MAX_SUBNET_COUNT) {
    throw chainError('InvalidInput', 'netuid must be an integer in [0, 4096)', { source: 'client', path: 'netuid', value: netuid });
  }
  if (!Number.isInteger(mecid) || mecid < 0 || mecid > 255) {
    throw chainError('InvalidInput', 'mecid must be an integer in [0, 255]', { source: 'client', path: 'mecid', value: mecid });
  }
  return mecid * GLOBAL_MAX_SUBNET_COUNT + netuid;
}

/** The inputs of a commit-reveal v2 commit hash. */
export interface CommitHashInput {
  /** The hotkey: SS58 address, 0x-hex public key or 32 raw bytes. */
  readonly hotkey: string | Uint8Array;
  /** The mechanism storage index ({@link mechanismStorageIndex}), not the bare netuid. */
  readonly netuidIndex: number;
  readonly uids: readonly number[];
  readonly values: readonly number[];
  readonly salt: readonly number[];
  readonly versionKey: bigint | number;
}

function u16le(value: number, path: string): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff) {
    throw chainError('InvalidInput', 'expected a u16', { source: 'client', path, value });
  }
  return Uint8Array.of(value & 0xff, value >> 8);
}

function vecU16(values: readonly number[], path: string): Uint8Array {
  return u8aConcat(compactToU8a(values.length), ...values.map((v, i) => u16le(v, `${path}[${i}]`)));
}

function u64le(value: bigint | number): Uint8Array {
  const big = BigInt(value);
  if (big < 0n || big >= 2n ** 64n) {
    throw chainError('InvalidInput', 'versionKey must be a u64', { source: 'client', path: 'versionKey', value });
  }
  const out = new Uint8Array(8);
  for (let i = 0; i < 8; i += 1) out[i] = Number((big >> BigInt(8 * i)) & 0xffn);
  return out;
}

function publicKeyOf(hotkey: string | Uint8Array): Uint8Array {
  if (hotkey instanceof Uint8Array) return hotkey;
  if (/^0x[0-9a-fA-F]{64}$/.test(hotkey)) return hexToU8a(hotkey);
  return decodeSs58(hotkey).publicKey;
}

/**
 * The SCALE preimage of the commit hash: `pubkey(32) ‖ u16_le(netuid_index) ‖ Vec<u16> uids ‖
 * Vec<u16> values ‖ Vec<u16> salt ‖ u64_le(version_key)`: the chain's `get_commit_hash`, `BlakeTwo256::hash_of` of
 * that tuple (opentensor/subtensor 14bc6f9f9 `pallets/subtensor/src/subnets/weights.rs:1328-1337`, `:1318-1327` at
 * ab0cb2e52), and the SDK's `generate_weight_hash` (opentensor/bittensor bb526e6 `bittensor/utils/weight_utils.py:387-437`).
 *
 * @param input - hotkey, storage index, uids, values, salt and version key
 * @returns the bytes
 * @throws SubnetError `CHAIN_INVALID_INPUT` for out-of-range numbers, `CORE_INVALID_SS58` for a bad address
 * @example commitPreimage({ hotkey, netuidIndex: 1, uids: [0], values: [65535], salt: [1], versionKey: 0 })
 */
export function commitPreimage(input: CommitHashInput): Uint8Array {
  const key = publicKeyOf(input.hotkey);
  if (key.length !== 32) throw chainError('InvalidInput', 'a hotkey public key is 32 bytes', { source: 'client', path: 'hotkey', value: key.length });
  if (input.uids.length !== input.values.length) {
    throw chainError('WeightVecNotEqualSize', 'uids and values differ in length', { source: 'client', path: 'values.length', value: input.values.length });
  }
  return u8aConcat(
    key,
    u16le(input.netuidIndex, 'netuidIndex'),
    vecU16(input.uids, 'uids'),
    vecU16(input.values, 'values'),
    vecU16(input.salt, 'salt'),
    u64le(input.versionKey),
  );
}

/**
 * The commit-reveal v2 commit hash: blake2b-256 of {@link commitPreimage}, as 0x-hex.
 *
 * @param input - hotkey, storage index, uids, values, salt and version key
 * @returns `0x` + 64 hex digits
 * @throws SubnetError `CHAIN_INVALID_INPUT` for out-of-range numbers
 * @example weightCommitHash({ hotkey: alice, netuidIndex: 1, uids: [0, 1, 2], values: [65535, 32768, 1], salt: [1, 2, 3, 4, 5, 6, 7, 8], versionKey: 10002000 })
 */
export function weightCommitHash(input: CommitHashInput): `0x${string}` {
  return u8aToHex(blake2AsU8a(commitPreimage(input), 256));
}
