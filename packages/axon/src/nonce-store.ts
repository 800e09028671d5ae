import { AXON_ERROR_CODES, axonError } from './errors.js';
import { NONCE_RULES } from './nonce-window.js';

/**
 * The axon's memory of the last nonce accepted per `hotkey:uuid` (the SDK's `axon.nonces` dict,
 * `bittensor/core/axon.py:983`), bounded. The SDK's dict grows with every dendrite uuid it ever saw; this store
 * forgets a key idle for longer than the retention (default: the nonce window's 4 s plus 60 s of request timeout)
 * and keeps at most `maxEntries` keys, forgetting the least recently used first.
 *
 * Forgetting must not reopen replays: a replay of a forgotten key's request would be a first-seen key again,
 * and the SDK takes a first-seen key's nonce on its time window alone, whose `timeout` and `version` the replayer
 * chooses (neither is signed). So the store keeps the largest nonce it ever forgot (the floor) and a first-seen
 * key's nonce must be above it, besides the SDK's rules. An honest dendrite's nonces are its clock, far above
 * the floor of keys idle for a minute; only evictions forced by `maxEntries` (a caller minting uuids) can lift the
 * floor to the present, and then a new key's first request may be refused as stale once, like a replay.
 */
export interface NonceStore {
  /** The last nonce accepted for this key, else undefined. */
  last(key: string): bigint | undefined;
  /** The largest nonce of a forgotten key, else undefined: a first-seen key's nonce must be above it. */
  floor(): bigint | undefined;
  /** Records an accepted nonce for this key at axon time `nowNs`, forgetting idle and excess keys. */
  accept(key: string, nonce: bigint, nowNs: bigint): void;
  /** Keys remembered. */
  size(): number;
}

/** The defaults of {@link createNonceStore}. */
export const NONCE_STORE_DEFAULTS = Object.freeze({
  /** At most this many `hotkey:uuid` keys (about 100 bytes each: about 10 MB). */
  maxEntries: 100_000,
  /** A key idle for longer than this is forgotten: the nonce window (4 s) plus 60 s of request timeout. */
  retentionNs: NONCE_RULES.allowedDeltaNs + 60_000_000_000n,
});

/**
 * Creates a bounded nonce store (see {@link NonceStore}).
 *
 * @param options - `maxEntries` (integer >= 1) and `retentionNs` (> 0); defaults {@link NONCE_STORE_DEFAULTS}
 * @returns the store
 * @throws SubnetError `AXON_SERVER_START` naming `maxNonceEntries` or `nonceRetentionNs` when out of range
 * @example const nonces = createNonceStore({ maxEntries: 10_000 })
 */
export function createNonceStore(options: { readonly maxEntries?: number; readonly retentionNs?: bigint } = {}): NonceStore {
  const maxEntries = options.maxEntries ?? NONCE_STORE_DEFAULTS.maxEntries;
  const retentionNs = options.retentionNs ?? NONCE_STORE_DEFAULTS.retentionNs;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1)
    throw axonError(AXON_ERROR_CODES.serverStart, `maxNonceEntries must be an integer >= 1, got ${String(maxEntries)}`, 'maxNonceEntries', maxEntries);
  if (typeof retentionNs !== 'bigint' || retentionNs <= 0n)
    throw axonError(
      AXON_ERROR_CODES.serverStart,
      `the nonce retention must be a positive bigint of ns, got ${String(retentionNs)}`,
      'nonceRetentionNs',
      retentionNs,
    );
  // Insertion order is last-use order: a key is deleted and set again on every accept.
  const entries = new Map<string, { readonly nonce: bigint; readonly atNs: bigint }>();
  let floor: bigint | undefined;
  const forget = (key: string, nonce: bigint): void => {
    entries.delete(key);
    if (floor === undefined || nonce > floor) floor = nonce;
  };
  return {
    last: (key) => entries.get(key)?.nonce,
    floor: () => floor,
    accept: (key, nonce, nowNs) => {
      entries.delete(key);
      entries.set(key, { nonce, atNs: nowNs });
      for (const [oldest, entry] of entries) {
        if (entries.size <= maxEntries && entry.atNs >= nowNs - retentionNs) break;
        forget(oldest, entry.nonce);
      }
    },
    size: () => entries.size,
  };
}
