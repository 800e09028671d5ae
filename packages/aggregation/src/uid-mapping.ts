import type { Hotkey } from '@subnet/core';

import { checkArray, checkHotkey, checkNonNegative, checkObject, checkUid } from './checks.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
import type { HotkeyWeight } from './order.js';
import { deepFreeze } from './order.js';
import { checkHotkeyWeights } from './weight-cap.js';

/** One neuron of the metagraph: its hotkey and uid. */
export interface Neuron {
  readonly hotkey: Hotkey;
  readonly uid: number;
}

/** One uid's weight. */
export interface UidWeight {
  readonly uid: number;
  readonly weight: number;
}

/** The outcome of {@link mapHotkeysToUids}. */
export interface UidMappingResult {
  /** Weights by uid, ascending, the burn uid included when it has weight; they sum to 1 (or 0 given nothing). */
  readonly weights: readonly UidWeight[];
  readonly explanation: {
    /** Hotkeys with weight that the metagraph does not know, dropped (by hotkey). */
    readonly dropped: readonly { readonly hotkey: Hotkey; readonly weight: number }[];
    /** Σ of what remained (known miners + burn) before renormalising. */
    readonly keptMass: number;
    /** True when something was dropped and the rest was divided by keptMass. */
    readonly renormalised: boolean;
    /** True when nothing remained and everything went to the burn uid. */
    readonly allToBurn: boolean;
    readonly burnUid: number;
    /** Per mapped miner (by hotkey) its uid. */
    readonly uids: readonly { readonly hotkey: Hotkey; readonly uid: number }[];
  };
}

/** Validates a metagraph (unique hotkeys and uids) and indexes it by hotkey (internal). */
export function checkMetagraph(metagraph: readonly Neuron[], path: string): ReadonlyMap<string, number> {
  checkArray(metagraph, path);
  const byHotkey = new Map<string, number>();
  const uidTaken = new Uint8Array(65536);
  for (let i = 0; i < metagraph.length; i += 1) {
    // Hot loop: paths are only built when something is wrong.
    const n = metagraph[i] as Neuron | null | undefined;
    const hotkey = n?.hotkey;
    const uid = n?.uid;
    if (
      typeof n !== 'object' ||
      n === null ||
      Array.isArray(n) ||
      typeof hotkey !== 'string' ||
      hotkey.length === 0 ||
      typeof uid !== 'number' ||
      !Number.isInteger(uid) ||
      uid < 0 ||
      uid > 65535
    ) {
      checkObject(n, `${path}[${i}]`);
      checkHotkey(hotkey, `${path}[${i}].hotkey`);
      checkUid(uid, `${path}[${i}].uid`);
    }
    const u = uid as number;
    if (byHotkey.has(hotkey as string))
      fail(AGGREGATION_ERROR_CODES.duplicateHotkey, 'a hotkey appears twice in the metagraph', `${path}[${i}].hotkey`, hotkey);
    if (uidTaken[u] === 1) fail(AGGREGATION_ERROR_CODES.duplicateUid, 'a uid appears twice in the metagraph', `${path}[${i}].uid`, uid);
    byHotkey.set(hotkey as string, u);
    uidTaken[u] = 1;
  }
  return byHotkey;
}

/**
 * Maps hotkey weights to uids (SPEC C.9). Hotkeys the metagraph does not know are dropped and what remains
 * (known miners and the burn) is renormalised to sum to 1; if nothing remains, the burn uid gets 1. The burn
 * is added to the burn uid, also when that uid is a miner's.
 *
 * @param input.weights - miner weights by hotkey (unique, >= 0, Σ <= 1)
 * @param input.burn - the burn share (>= 0)
 * @param input.metagraph - hotkey to uid (unique both ways)
 * @param input.burnUid - the burn uid (default 0)
 * @returns weights by uid, ascending
 * @throws SubnetError `AGGREGATION_INVALID_INPUT`, `AGGREGATION_DUPLICATE_HOTKEY`, `AGGREGATION_DUPLICATE_UID`,
 *   `AGGREGATION_WEIGHTS_EXCEED_ONE`
 * @example mapHotkeysToUids({ weights: [{ hotkey: a, weight: 0.7 }], burn: 0.3, metagraph: [{ hotkey: a, uid: 5 }] })
 * // [{ uid: 0, weight: 0.3 }, { uid: 5, weight: 0.7 }]
 */
export function mapHotkeysToUids(input: {
  readonly weights: readonly HotkeyWeight[];
  readonly burn: number;
  readonly metagraph: readonly Neuron[];
  readonly burnUid?: number;
}): UidMappingResult {
  checkObject(input, 'input');
  const weights = checkHotkeyWeights(input.weights, 'input.weights');
  const burn = checkNonNegative(input.burn, 'input.burn');
  const burnUid = input.burnUid === undefined ? 0 : checkUid(input.burnUid, 'input.burnUid');
  return deepFreeze(mapUnchecked(weights, burn, checkMetagraph(input.metagraph, 'input.metagraph'), burnUid));
}

/** {@link mapHotkeysToUids} on validated input, weights sorted by hotkey (internal). */
export function mapUnchecked(sorted: readonly HotkeyWeight[], burn: number, byHotkey: ReadonlyMap<string, number>, burnUid: number): UidMappingResult {
  const dropped: { hotkey: Hotkey; weight: number }[] = [];
  const kept: { hotkey: Hotkey; uid: number; weight: number }[] = [];
  for (const w of sorted) {
    const uid = byHotkey.get(w.hotkey);
    if (uid === undefined) {
      if (w.weight > 0) dropped.push({ hotkey: w.hotkey, weight: w.weight });
    } else kept.push({ hotkey: w.hotkey, uid, weight: w.weight });
  }
  let keptMass = 0;
  for (const k of kept) keptMass += k.weight;
  keptMass += burn;
  const renormalised = dropped.length > 0 && keptMass > 0;
  const allToBurn = !(keptMass > 0);
  // Weights by uid, ascending: the kept miners' uids are u16 and unique, so uid·65536 + position is a
  // unique key that a typed-array sort orders by uid (no table of 65,536 entries, no comparator calls);
  // the burn is added to its uid's entry, or placed at its uid.
  const weights: UidWeight[] = [];
  if (allToBurn) weights.push({ uid: burnUid, weight: 1 });
  else {
    const order = new Float64Array(kept.length);
    for (let i = 0; i < kept.length; i += 1) order[i] = (kept[i] as { uid: number }).uid * 65536 + i;
    order.sort();
    const burnShare = renormalised ? burn / keptMass : burn;
    let burnPlaced = !(burnShare > 0);
    for (let j = 0; j < order.length; j += 1) {
      const k = kept[(order[j] as number) % 65536] as { uid: number; weight: number };
      if (!burnPlaced && burnUid < k.uid) {
        weights.push({ uid: burnUid, weight: 0 + burnShare });
        burnPlaced = true;
      }
      const weight = renormalised ? k.weight / keptMass : k.weight;
      if (!burnPlaced && burnUid === k.uid) {
        weights.push({ uid: k.uid, weight: weight + burnShare });
        burnPlaced = true;
      } else weights.push({ uid: k.uid, weight });
    }
    if (!burnPlaced) weights.push({ uid: burnUid, weight: 0 + burnShare });
  }
  return {
    weights,
    explanation: {
      dropped,
      keptMass,
      renormalised,
      allToBurn,
      burnUid,
      uids: kept.map((k) => ({ hotkey: k.hotkey, uid: k.uid })),
    },
  };
}
