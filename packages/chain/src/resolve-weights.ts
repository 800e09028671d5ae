import { decodeSs58 } from '@subnet/core';

import { chainError } from './chain-error.js';
import type { MetagraphSnapshot } from './metagraph-snapshot.js';

/**
 * Weights as a validator holds them: keyed by uid (a number, or a decimal string in a plain object)
 * or by hotkey (SS58). Values are non-negative finite numbers; their scale does not matter.
 */
export type WeightsInput = ReadonlyMap<number | string, number> | Readonly<Record<string, number>>;

/**
 * Maps weights keyed by uid or hotkey to `[uid, weight]` pairs through the snapshot. A hotkey that is
 * not in the metagraph is an error (never silently dropped); two keys naming the same uid are
 * `DuplicateUids`.
 *
 * @param weights - weights keyed by uid or hotkey
 * @param snapshot - the metagraph the uids come from
 * @returns `[uid, weight]` pairs, uid ascending
 * @throws SubnetError `CHAIN_UNKNOWN_HOTKEY`, `CHAIN_DUPLICATE_UIDS`, `CHAIN_INVALID_INPUT`
 * @example resolveWeights({ '5Grw...': 1, '3': 0.5 }, snapshot) // [[0, 1], [3, 0.5]]
 */
export function resolveWeights(weights: WeightsInput, snapshot: MetagraphSnapshot): readonly (readonly [number, number])[] {
  const entries: [number | string, number][] =
    weights instanceof Map ? [...(weights as ReadonlyMap<number | string, number>).entries()] : Object.entries(weights as Record<string, number>);
  const byUid = new Map<number, number>();
  for (const [key, weight] of entries) {
    const path = `weights[${JSON.stringify(key)}]`;
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      throw chainError('InvalidInput', 'a weight is a finite number >= 0', { source: 'client', path, value: weight });
    }
    let uid: number;
    if (typeof key === 'number' || /^(0|[1-9][0-9]{0,4})$/.test(key)) {
      uid = Number(key);
      if (!Number.isInteger(uid) || uid < 0 || uid > 65535) {
        throw chainError('InvalidInput', 'a uid is an integer in [0, 65535]', { source: 'client', path, value: key });
      }
    } else {
      try {
        decodeSs58(key);
      } catch (cause) {
        throw chainError('InvalidInput', 'a weight key is a uid or an SS58 hotkey', { source: 'client', path, value: key, cause });
      }
      const index = snapshot.hotkeys.indexOf(key);
      if (index < 0) {
        throw chainError('UnknownHotkey', `hotkey ${key} is not registered on netuid ${snapshot.netuid} at block ${snapshot.block}`, {
          source: 'client',
          path,
          value: key,
        });
      }
      uid = index;
    }
    if (byUid.has(uid)) {
      throw chainError('DuplicateUids', `uid ${uid} is given twice (by uid and hotkey, or twice)`, { stage: 'preflight', path, value: uid });
    }
    byUid.set(uid, weight);
  }
  return Object.freeze([...byUid.entries()].sort((a, b) => a[0] - b[0]).map((e): readonly [number, number] => Object.freeze(e)));
}
