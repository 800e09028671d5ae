import { u8aToHex } from '@polkadot/util';
import { beaconKeyFromSeed, signRound } from '@subnet/timelock';
import type { BeaconKeyPair, Pulse } from '@subnet/timelock';
import { sha256AsU8a } from '@polkadot/util-crypto';

import type { BeaconConfigState, ChainState } from './chain-state.js';

/** drand's scheme for quicknet-style beacons (unchained, signatures on G1). */
export const DEVNET_BEACON_SCHEME = 'bls-unchained-g1-rfc9380';

/** What the devnet's beacon publishes, as a client takes it: public key, genesis and period. */
export interface DevnetBeaconInfo {
  /** 96-byte compressed G2 public key, 0x hex (`Drand.BeaconConfig.public_key`). */
  readonly publicKey: string;
  /** Unix seconds of round 1. */
  readonly genesisTime: number;
  /** Seconds between rounds. */
  readonly period: number;
  /** `beacon_id` in `Drand.BeaconConfig.metadata`. */
  readonly beaconId: string;
}

/** The devnet's own drand beacon: a BLS key from the devnet seed, and a round schedule on block timestamps. */
export interface DevnetBeacon extends DevnetBeaconInfo {
  /** Pulses kept in `Drand.Pulses` (older ones are pruned and `OldestStoredRound` moves up). */
  readonly keepRounds: number;
  /** The latest round emitted at a block timestamp (ms): `floor((t/1000 - genesis) / period) + 1`, 0 before genesis. */
  roundAt(timestampMs: bigint): bigint;
  /** The pulse of a round, signed with the beacon's secret key (memoised; the key itself is never exposed). */
  pulse(round: bigint): Pulse;
  /** `Drand.BeaconConfig` as the devnet stores it. */
  config(): BeaconConfigState;
}

/** Options of {@link createDevnetBeacon}. */
export interface DevnetBeaconOptions {
  readonly seed: string;
  readonly genesisTime: number;
  readonly period: number;
  readonly keepRounds: number;
}

const keyCache = new Map<string, BeaconKeyPair>();
const pulseCache = new Map<string, Pulse>();
const PULSE_CACHE_LIMIT = 50_000;

/** The seed string the beacon key is derived from: `//subnet//<seed>//drand` (UTF-8, see `beaconKeyFromSeed`). */
export function beaconSeed(seed: string): string {
  return `//subnet//${seed}//drand`;
}

function keyFor(seed: string): BeaconKeyPair {
  const cached = keyCache.get(seed);
  if (cached !== undefined) return cached;
  const key = beaconKeyFromSeed(beaconSeed(seed));
  keyCache.set(seed, key);
  return key;
}

/**
 * Creates the devnet's drand beacon: `sk = beaconKeyFromSeed('//subnet//<seed>//drand')`, round r emitted at
 * `genesisTime + (r - 1) * period` seconds of block time (never the wall clock).
 *
 * @param options - devnet seed, genesis time (s), period (s), pulses kept
 * @returns the beacon
 * @example
 * const beacon = createDevnetBeacon({ seed: 'devnet', genesisTime: 1735689600, period: 3, keepRounds: 1024 });
 * beacon.roundAt(1735689612000n); // 5n
 */
export function createDevnetBeacon(options: DevnetBeaconOptions): DevnetBeacon {
  const key = keyFor(options.seed);
  const publicKey = u8aToHex(key.publicKey);
  const genesis = BigInt(options.genesisTime);
  const period = BigInt(options.period);
  const beaconId = `devnet-${options.seed}`;
  return Object.freeze({
    publicKey,
    genesisTime: options.genesisTime,
    period: options.period,
    beaconId,
    keepRounds: options.keepRounds,
    roundAt(timestampMs: bigint): bigint {
      const t = timestampMs / 1000n;
      return t < genesis ? 0n : (t - genesis) / period + 1n;
    },
    pulse(round: bigint): Pulse {
      const id = `${publicKey}:${round}`;
      const cached = pulseCache.get(id);
      if (cached !== undefined) return cached;
      const pulse = signRound(key.secretKey, round);
      if (pulseCache.size >= PULSE_CACHE_LIMIT) pulseCache.clear();
      pulseCache.set(id, pulse);
      return pulse;
    },
    config(): BeaconConfigState {
      const hash = u8aToHex(sha256AsU8a(key.publicKey));
      return {
        publicKey,
        period: options.period,
        genesisTime: options.genesisTime,
        hash,
        groupHash: hash,
        schemeId: DEVNET_BEACON_SCHEME,
        beaconId,
      };
    },
  });
}

/**
 * Publishes the beacon's pulses into the block being built, as the drand pallet's `write_pulse` would:
 * every round from `LastStoredRound + 1` up to the round of the block's timestamp (a fresh chain starts at
 * most `keepRounds` back), then prunes below `OldestStoredRound`.
 *
 * @param state - the state being built (its `timestamp` is the block's)
 * @param beacon - the devnet beacon
 * @returns the rounds published, in order
 * @example
 * publishPulses(state, beacon); // [5n, 6n, 7n, 8n]
 */
export function publishPulses(state: ChainState, beacon: DevnetBeacon): bigint[] {
  const current = beacon.roundAt(state.timestamp);
  const keep = BigInt(beacon.keepRounds);
  let from = state.lastStoredRound + 1n;
  if (current - from + 1n > keep) from = current - keep + 1n;
  const published: bigint[] = [];
  for (let round = from; round <= current; round += 1n) {
    if (round < 1n) continue;
    const p = beacon.pulse(round);
    state.pulses.set(round, { signature: u8aToHex(p.signature), randomness: u8aToHex(p.randomness) });
    published.push(round);
  }
  if (published.length > 0) state.lastStoredRound = current;
  const oldest = current - keep + 1n;
  if (oldest > state.oldestStoredRound) {
    for (const round of state.pulses.keys()) if (round < oldest) state.pulses.delete(round);
    state.oldestStoredRound = oldest;
  }
  return published;
}
