import type { ApiPromise } from '@polkadot/api';
import { isSubnetError } from '@subnet/core';
import { QUICKNET } from '@subnet/timelock';
import type { BeaconConfig } from '@subnet/timelock';

import { chainError } from './chain-error.js';
import type { ChainConnection } from './connection.js';
import { toBig } from './metagraph.js';

/** The commit-reveal version this client speaks (`CommitRevealWeightsVersion` 4: payload with hotkey). */
export const TIMELOCK_COMMIT_REVEAL_VERSION = 4;

/** Options of the timelocked (commit-reveal v4) path of `setWeights`. */
export interface TimelockOptions {
  /**
   * The drand beacon commits are encrypted to. `auto` (default): the chain's `Drand.BeaconConfig`, or
   * quicknet when the runtime has no such item. `chain`: the chain's, else `CHAIN_TIMELOCK_BEACON_UNKNOWN`.
   * A config: that beacon (checked against the chain's `BeaconConfig` when there is one).
   */
  readonly beacon?: 'auto' | 'chain' | BeaconConfig;
  /**
   * Time the round prediction starts from. `chain` (default): `Timestamp.Now` of the block the state is read
   * at (the head's own time, so `head time + n x blockTime` estimates block head + n); `wall`: the local clock,
   * as the Python SDK does.
   */
  readonly clock?: 'chain' | 'wall';
  /**
   * Seconds per block for the prediction. Default: the connected runtime's slot, `Aura.SlotDuration`, else
   * `2 x Timestamp.MinimumPeriod` (12 s on finney, 0.25 s on a node built with `fast-runtime`), else 12.
   */
  readonly blockTimeSeconds?: number;
  /** Wait after the commit until the chain revealed it (default true); false returns after the commit. */
  readonly waitForReveal?: boolean;
  /** Longest wait for the reveal in ms (default: 2 x (blocks to the predicted reveal block + 400) block times, at least `inclusionTimeoutMs`). */
  readonly revealTimeoutMs?: number;
}

/** Where the beacon came from. */
export type BeaconSource = 'option' | 'chain' | 'quicknet-default';

/** Chain state the timelocked commit needs, read at one block. */
export interface TimelockContext {
  readonly beacon: BeaconConfig;
  readonly beaconSource: BeaconSource;
  /** `Drand.LastStoredRound` (0 when the runtime has no drand pallet). */
  readonly lastStoredRound: bigint;
  /** Seconds the prediction starts from. */
  readonly nowSeconds: number;
  readonly clock: 'chain' | 'wall';
  readonly blockTimeSeconds: number;
}

type Entry = (...args: unknown[]) => Promise<unknown>;
type ApiAt = Awaited<ReturnType<ApiPromise['at']>>;

function entry(at: ApiAt, pallet: string, item: string): Entry | undefined {
  return (at.query as unknown as Record<string, Record<string, Entry | undefined> | undefined>)[pallet]?.[item];
}

function constantMs(api: ApiPromise, pallet: string, item: string): number | undefined {
  const value = (api.consts as unknown as Record<string, Record<string, unknown> | undefined>)[pallet]?.[item];
  if (value === undefined || value === null) return undefined;
  const ms = Number(toBig(value));
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/**
 * The connected runtime's block time in seconds, from its constants: `Aura.SlotDuration`, else
 * `2 x Timestamp.MinimumPeriod` (Subtensor: `SlotDuration = MinimumPeriodTimesTwo`, `MinimumPeriod = SLOT_DURATION
 * / 2`, `SLOT_DURATION = MILLISECS_PER_BLOCK = prod_or_fast!(12000, 250)`; opentensor/subtensor 14bc6f9f9
 * `runtime/src/lib.rs:367`, `:412`, `common/src/lib.rs:358`; `:394`, `:439`, `:280` at ab0cb2e52). Finney's
 * metadata has `SlotDuration` 12000 and `MinimumPeriod` 6000; a node built with `fast-runtime` (the default of
 * Subtensor's `scripts/localnet.sh`) 250 and 125.
 *
 * @param api - the connected api (its metadata's constants)
 * @returns seconds per block, or undefined when the runtime declares neither constant
 * @example runtimeBlockTimeSeconds(api) // 12 on finney
 */
export function runtimeBlockTimeSeconds(api: ApiPromise): number | undefined {
  const slot = constantMs(api, 'aura', 'slotDuration');
  if (slot !== undefined) return slot / 1000;
  const minimumPeriod = constantMs(api, 'timestamp', 'minimumPeriod');
  return minimumPeriod === undefined ? undefined : (2 * minimumPeriod) / 1000;
}

function hexOf(bytes: unknown): string {
  if (typeof bytes === 'string') return bytes.replace(/^0x/, '').toLowerCase();
  let out = '';
  for (const b of bytes as Uint8Array) out += b.toString(16).padStart(2, '0');
  return out;
}

/**
 * Reads, at one block, what a timelocked commit depends on besides the metagraph: `Drand.BeaconConfig`,
 * `Drand.LastStoredRound` and `Timestamp.Now`, and resolves the beacon (option > chain > quicknet) and the block
 * time (option > the runtime's slot, {@link runtimeBlockTimeSeconds} > 12 s).
 *
 * @param connection - the chain connection
 * @param blockHash - the block the metagraph snapshot was read at
 * @param options - beacon, clock and block time
 * @returns the context
 * @throws SubnetError `CHAIN_TIMELOCK_BEACON_UNKNOWN` (`beacon: 'chain'` and none on chain, or an unusable
 *   config), `CHAIN_TIMELOCK_BEACON_MISMATCH` (a configured key that differs from the chain's)
 * @example const ctx = await readTimelockContext(conn, snapshot.blockHash, { clock: 'chain' });
 */
export async function readTimelockContext(connection: ChainConnection, blockHash: string, options: TimelockOptions = {}): Promise<TimelockContext> {
  const requestedBlockTime: unknown = options.blockTimeSeconds;
  if (requestedBlockTime !== undefined && (typeof requestedBlockTime !== 'number' || !Number.isFinite(requestedBlockTime) || requestedBlockTime <= 0)) {
    throw chainError('InvalidInput', 'timelock.blockTimeSeconds must be a positive number', {
      source: 'client',
      path: 'timelock.blockTimeSeconds',
      value: requestedBlockTime,
    });
  }
  const clock: unknown = options.clock ?? 'chain';
  if (clock !== 'chain' && clock !== 'wall') {
    throw chainError('InvalidInput', "timelock.clock is 'chain' or 'wall'", { source: 'client', path: 'timelock.clock', value: clock });
  }
  return connection.request('timelock context', async (api) => {
    const blockTimeSeconds = options.blockTimeSeconds ?? runtimeBlockTimeSeconds(api) ?? 12;
    const at = await api.at(blockHash);
    const configFn = entry(at, 'drand', 'beaconConfig');
    const lastFn = entry(at, 'drand', 'lastStoredRound');
    const nowFn = entry(at, 'timestamp', 'now');
    const [rawConfig, rawLast, rawNow] = await Promise.all([configFn?.(), lastFn?.(), nowFn?.()]);
    const onChain =
      rawConfig === undefined
        ? null
        : (() => {
            const c = (rawConfig as { toJSON(): Record<string, unknown> }).toJSON();
            return { publicKey: hexOf(c['publicKey']), genesisTime: Number(c['genesisTime']), period: Number(c['period']) };
          })();
    let beacon: BeaconConfig;
    let beaconSource: BeaconSource;
    const requested = options.beacon ?? 'auto';
    if (requested === 'auto' || requested === 'chain') {
      if (onChain !== null) {
        beacon = onChain;
        beaconSource = 'chain';
      } else if (requested === 'auto') {
        beacon = QUICKNET;
        beaconSource = 'quicknet-default';
      } else {
        throw chainError('TimelockBeaconUnknown', 'the runtime has no Drand.BeaconConfig and timelock.beacon is "chain": nothing was signed', {
          source: 'client',
          stage: 'preflight',
          path: 'timelock.beacon',
          value: 'chain',
        });
      }
    } else if (typeof requested === 'object') {
      beacon = requested;
      beaconSource = 'option';
      if (onChain !== null && onChain.publicKey !== hexOf(requested.publicKey)) {
        throw chainError(
          'TimelockBeaconMismatch',
          "the configured beacon public key is not the chain's Drand.BeaconConfig key: the chain could never decrypt the commit; nothing was signed",
          {
            source: 'client',
            stage: 'preflight',
            path: 'timelock.beacon.publicKey',
            value: `0x${hexOf(requested.publicKey).slice(0, 16)}…`,
            chainPublicKey: `0x${onChain.publicKey}`,
          },
        );
      }
    } else {
      throw chainError('InvalidInput', "timelock.beacon is 'auto', 'chain' or a beacon config", {
        source: 'client',
        path: 'timelock.beacon',
        value: requested,
      });
    }
    const nowSeconds = clock === 'chain' && rawNow !== undefined ? Number(toBig(rawNow)) / 1000 : Date.now() / 1000;
    return Object.freeze({
      beacon: Object.freeze({ publicKey: beacon.publicKey, genesisTime: beacon.genesisTime, period: beacon.period }),
      beaconSource,
      lastStoredRound: rawLast === undefined ? 0n : toBig(rawLast),
      nowSeconds,
      clock: clock === 'chain' && rawNow !== undefined ? 'chain' : 'wall',
      blockTimeSeconds,
    } satisfies TimelockContext);
  });
}

/**
 * Re-throws a `@subnet/timelock` error as this package's typed error (`CHAIN_*`), keeping it as `cause`.
 *
 * @param error - what a timelock function threw
 * @param extra - context to add
 * @returns never
 * @throws SubnetError `CHAIN_INVALID_REVEAL_ROUND` (stale round), `CHAIN_TIMELOCK_COMMIT_TOO_LARGE`,
 *   `CHAIN_TIMELOCK_NO_REVEAL_EPOCH`, `CHAIN_TIMELOCK_BEACON_UNKNOWN` (unusable beacon), `CHAIN_INVALID_INPUT`
 * @example try { encryptWeightsCommit(x) } catch (e) { rethrowTimelockError(e, {}) }
 */
export function rethrowTimelockError(error: unknown, extra: Record<string, unknown>): never {
  if (!isSubnetError(error) || !error.code.startsWith('TIMELOCK_')) throw error;
  const context = error.context as Record<string, unknown>;
  const base = {
    source: 'client' as const,
    stage: 'preflight' as const,
    ...extra,
    path: context['path'] as string | undefined,
    value: context['value'],
    cause: error,
  };
  switch (error.code) {
    case 'TIMELOCK_REVEAL_ROUND_STALE':
      throw chainError('InvalidRevealRound', `${error.message}; nothing was signed`, {
        ...base,
        source: 'module',
        lastStoredRound: context['lastStoredRound'],
      });
    case 'TIMELOCK_COMMIT_TOO_LARGE':
      throw chainError('TimelockCommitTooLarge', `${error.message}; nothing was signed`, {
        ...base,
        size: context['size'],
        limit: context['limit'],
        maxUids: context['maxUids'],
      });
    case 'TIMELOCK_NO_REVEAL_EPOCH':
      throw chainError('TimelockNoRevealEpoch', `${error.message}; nothing was signed`, base);
    case 'TIMELOCK_INVALID_BEACON':
      throw chainError('TimelockBeaconUnknown', `the beacon config is unusable (${error.message}); nothing was signed`, base);
    default:
      throw chainError('InvalidInput', error.message, { ...base, path: base.path ?? 'commit' });
  }
}
