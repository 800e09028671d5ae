import { isHotkey } from '@subnet/core';

import { compareHotkeys } from './hotkey-order.js';
import { isPlainList, isPlainObject, keyCount } from './plain-shapes.js';

/**
 * Hand-written readings of the epoch's validator set and metagraph (internal), as `computeEpoch`'s
 * `stakesSchema` and `metagraphSchema` give them for input they accept (fresh `{ validator_hotkey, stake }`
 * and `{ hotkey, uid }` objects, each hotkey once, sorted by hotkey), or undefined for anything else, which
 * the schemas then read for their coded error and field path. They never refuse for a reason of their own.
 * `fast-validator-set.test.ts` checks the agreement on valid and hostile input.
 */

/** The longest list either schema accepts. */
const MAX_ENTRIES = 65536;
const STAKE_TEXT = /^(0|[1-9][0-9]*)$/;

const STAKE_KEYS = new Set(['validator_hotkey', 'stake']);
const NEURON_KEYS = new Set(['hotkey', 'uid']);

/** Sorted by `key` (validated hotkeys: code-unit order is code-point order; each hotkey once, so the order is total). */
function sortedBy<T>(list: T[], key: (item: T) => string): T[] {
  for (let i = 1; i < list.length; i += 1) {
    if (compareHotkeys(key(list[i - 1] as T), key(list[i] as T)) > 0) return list.sort((a, b) => compareHotkeys(key(a), key(b)));
  }
  return list;
}

/** A stake entry of the validator set. */
export interface StakeEntry {
  readonly validator_hotkey: string;
  readonly stake: number | string;
}

/**
 * `stakesSchema` of `computeEpoch` for input it accepts, else undefined.
 *
 * @param list - the wire value
 * @returns the validator set by hotkey, or undefined
 */
export function fastStakes(list: unknown): StakeEntry[] | undefined {
  if (!isPlainList(list) || list.length > MAX_ENTRIES) return undefined;
  const out = new Array<StakeEntry>(list.length);
  const seen = new Set<string>();
  for (let i = 0; i < list.length; i += 1) {
    const s = list[i];
    if (!isPlainObject(s) || keyCount(s, STAKE_KEYS) !== 2) return undefined;
    const { validator_hotkey, stake } = s;
    if (!isHotkey(validator_hotkey) || seen.has(validator_hotkey)) return undefined;
    if (typeof stake === 'number' ? !(stake >= 0 && stake < Number.POSITIVE_INFINITY) : typeof stake !== 'string' || !STAKE_TEXT.test(stake)) return undefined;
    seen.add(validator_hotkey);
    out[i] = { validator_hotkey, stake: stake as number | string };
  }
  return sortedBy(out, (s) => s.validator_hotkey);
}

/** A neuron of the metagraph. */
export interface NeuronEntry {
  readonly hotkey: string;
  readonly uid: number;
}

/**
 * `metagraphSchema` of `computeEpoch` for input it accepts, else undefined.
 *
 * @param list - the wire value
 * @returns the metagraph by hotkey, or undefined
 */
export function fastMetagraph(list: unknown): NeuronEntry[] | undefined {
  if (!isPlainList(list) || list.length > MAX_ENTRIES) return undefined;
  const out = new Array<NeuronEntry>(list.length);
  const hotkeys = new Set<string>();
  const uids = new Uint8Array(65536);
  for (let i = 0; i < list.length; i += 1) {
    const n = list[i];
    if (!isPlainObject(n) || keyCount(n, NEURON_KEYS) !== 2) return undefined;
    const { hotkey, uid } = n;
    if (!isHotkey(hotkey) || hotkeys.has(hotkey)) return undefined;
    if (typeof uid !== 'number' || !Number.isInteger(uid) || uid < 0 || uid > 65535 || uids[uid] === 1) return undefined;
    hotkeys.add(hotkey);
    uids[uid] = 1;
    out[i] = { hotkey, uid };
  }
  return sortedBy(out, (n) => n.hotkey);
}
