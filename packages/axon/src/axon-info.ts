import { u8aToHex } from '@polkadot/util';
import { blake2AsU8a, decodeAddress, xxhashAsU8a } from '@polkadot/util-crypto';

import { AXON_ERROR_CODES, axonError } from './errors.js';

/** `SubtensorModule.Axons` value (opentensor/subtensor 14bc6f9f9 `pallets/subtensor/src/lib.rs:150-167`). */
export interface AxonInfo {
  readonly block: bigint;
  readonly version: number;
  /** u128: IPv4 or IPv6 as an integer. */
  readonly ip: bigint;
  readonly port: number;
  readonly ipType: number;
  readonly protocol: number;
  readonly placeholder1: number;
  readonly placeholder2: number;
}

function le(bytes: Uint8Array, from: number, size: number): bigint {
  let n = 0n;
  for (let i = size - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[from + i] ?? 0);
  return n;
}

/**
 * Decodes the 34-byte SCALE `AxonInfo` (`block u64, version u32, ip u128, port u16, ip_type u8, protocol u8,
 * placeholder1 u8, placeholder2 u8`, little-endian).
 *
 * @param bytes - the storage value
 * @returns the axon info
 * @throws SubnetError `AXON_INVALID_AXON_INFO` when it is not 34 bytes
 * @example decodeAxonInfo(hexToU8a(value)).port
 */
export function decodeAxonInfo(bytes: Uint8Array): AxonInfo {
  if (bytes.length !== 34) throw axonError(AXON_ERROR_CODES.invalidAxonInfo, 'a SCALE AxonInfo is 34 bytes', 'axonInfo', bytes.length);
  return Object.freeze({
    block: le(bytes, 0, 8),
    version: Number(le(bytes, 8, 4)),
    ip: le(bytes, 12, 16),
    port: Number(le(bytes, 28, 2)),
    ipType: bytes[30] ?? 0,
    protocol: bytes[31] ?? 0,
    placeholder1: bytes[32] ?? 0,
    placeholder2: bytes[33] ?? 0,
  });
}

/**
 * The storage key of `SubtensorModule.Axons(netuid, hotkey)`: `twox128("SubtensorModule") ++ twox128("Axons") ++
 * u16_le(netuid) ++ blake2_128(pubkey) ++ pubkey`.
 *
 * @param netuid - the subnet
 * @param hotkey - SS58 address
 * @returns the key, 0x-hex
 * @example axonsStorageKey(1, '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY')
 */
export function axonsStorageKey(netuid: number, hotkey: string): `0x${string}` {
  const pubkey = decodeAddress(hotkey);
  const key = new Uint8Array(16 + 16 + 2 + 16 + 32);
  key.set(xxhashAsU8a('SubtensorModule', 128), 0);
  key.set(xxhashAsU8a('Axons', 128), 16);
  key.set([netuid & 0xff, (netuid >> 8) & 0xff], 32);
  key.set(blake2AsU8a(pubkey, 128), 34);
  key.set(pubkey, 50);
  return u8aToHex(key);
}
