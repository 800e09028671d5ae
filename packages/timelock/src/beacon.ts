import type { BytesLike } from './bytes.js';
import { toBytes, toSmallUint } from './bytes.js';
import { decodeG2 } from './curve.js';
import type { G2Point } from './curve.js';
import { timelockError } from './errors.js';
import { toRound } from './round.js';

/**
 * What a client needs to know about a drand beacon (`bls-unchained-g1-rfc9380`): the 96-byte compressed
 * G2 public key (the only cryptographic input to encryption) and the schedule that turns time into rounds.
 * On Subtensor these are `Drand.BeaconConfig.{public_key, genesis_time, period}`.
 */
export interface BeaconConfig {
  /** Compressed G2 public key, 96 bytes (Uint8Array or hex). */
  readonly publicKey: BytesLike;
  /** Unix time (seconds) of round 1. */
  readonly genesisTime: number;
  /** Seconds between rounds. */
  readonly period: number;
}

/** The schedule part of a {@link BeaconConfig}: enough to turn time into rounds. */
export type BeaconSchedule = Pick<BeaconConfig, 'genesisTime' | 'period'>;

/**
 * drand quicknet, the beacon Subtensor uses (`Drand.BeaconConfig` default). Sources: opentensor/subtensor 14bc6f9f9
 * `pallets/drand/src/lib.rs:189-217` (`DefaultBeaconConfig`), opentensor/bittensor-drand 3ff0eac (v1.2.0)
 * `src/drand.rs:17-23`.
 *
 * @example encryptForRound({ message, round: 1000n, beacon: QUICKNET })
 */
export const QUICKNET = Object.freeze({
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  genesisTime: 1692803367,
  period: 3,
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  groupHash: 'f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e',
  schemeId: 'bls-unchained-g1-rfc9380',
  beaconId: 'quicknet',
} as const);

/** Internal: validates the schedule fields (u32 on chain; period >= 1). */
export function parseSchedule(beacon: unknown, path = 'beacon'): { genesisTime: number; period: number } {
  if (typeof beacon !== 'object' || beacon === null) {
    throw timelockError('TIMELOCK_INVALID_BEACON', 'expected a beacon config object', { path, value: beacon });
  }
  const { genesisTime, period } = beacon as Record<string, unknown>;
  return {
    genesisTime: toSmallUint(genesisTime, `${path}.genesisTime`, 'TIMELOCK_INVALID_BEACON', 0, 0xffff_ffff),
    period: toSmallUint(period, `${path}.period`, 'TIMELOCK_INVALID_BEACON', 1, 0xffff_ffff),
  };
}

/** Internal: decodes and checks the beacon public key (valid G2 point in the subgroup, not the identity). */
export function beaconPublicKeyPoint(beacon: unknown, path = 'beacon'): G2Point {
  if (typeof beacon !== 'object' || beacon === null) {
    throw timelockError('TIMELOCK_INVALID_BEACON', 'expected a beacon config object', { path, value: beacon });
  }
  const bytes = toBytes((beacon as Record<string, unknown>).publicKey, `${path}.publicKey`, 'TIMELOCK_INVALID_BEACON', 96);
  return decodeG2(bytes, 'TIMELOCK_INVALID_BEACON', `${path}.publicKey`);
}

/**
 * The latest round a beacon has emitted at a given time, drand's formula `floor((t - genesis) / period) + 1`
 * (round 1 is emitted at genesis). Before genesis there is no round: 0 is returned.
 *
 * @param timeSeconds - Unix time in seconds (finite, may be fractional)
 * @param beacon - the beacon schedule
 * @returns the round as a bigint (0n before genesis)
 * @throws SubnetError `TIMELOCK_INVALID_INPUT` for a non-finite time, `TIMELOCK_INVALID_BEACON` for a bad schedule
 * @example roundAtTime(1692803367 + 3, QUICKNET) // 2n
 */
export function roundAtTime(timeSeconds: number, beacon: BeaconSchedule): bigint {
  const { genesisTime, period } = parseSchedule(beacon);
  if (typeof timeSeconds !== 'number' || !Number.isFinite(timeSeconds)) {
    throw timelockError('TIMELOCK_INVALID_INPUT', 'expected a finite time in seconds', { path: 'timeSeconds', value: timeSeconds });
  }
  if (timeSeconds < genesisTime) return 0n;
  return BigInt(Math.floor((timeSeconds - genesisTime) / period)) + 1n;
}

/**
 * The Unix time (seconds) at which a beacon emits a round: `genesis + (round - 1) * period`.
 *
 * @param round - the round, 1..u64::MAX (number or bigint)
 * @param beacon - the beacon schedule
 * @returns the emission time in seconds, as a bigint
 * @throws SubnetError `TIMELOCK_INVALID_INPUT` for a bad round, `TIMELOCK_INVALID_BEACON` for a bad schedule
 * @example timeOfRound(1000n, QUICKNET) // 1692806364n
 */
export function timeOfRound(round: number | bigint, beacon: BeaconSchedule): bigint {
  const { genesisTime, period } = parseSchedule(beacon);
  return BigInt(genesisTime) + (toRound(round) - 1n) * BigInt(period);
}
