import type { Hotkey } from '@subnet/core';

import { checkArray, checkHotkey, checkNonNegative, checkObject, checkUid } from './checks.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
import type { HotkeyWeight } from './order.js';
import { compareHotkeys, deepFreeze } from './order.js';

/** Tolerance on "weights sum to at most 1" for values that come out of double arithmetic. */
export const SUM_TOLERANCE = 1e-9;

/** Options of {@link applyWeightCap}. */
export interface WeightCapOptions {
  /** Largest weight any one miner may hold, in (0, 1] (default 0.50; 0.15 for the composite subnet). */
  readonly cap: number;
  /** Where weight that cannot be placed goes (default 0). */
  readonly burnUid?: number;
}

/** The outcome of {@link applyWeightCap}. */
export interface WeightCapResult {
  /** Capped weights by hotkey (same hotkeys as the input, in hotkey order). */
  readonly weights: readonly HotkeyWeight[];
  /** Weight this stage sent to the burn uid (positive only when n·cap < the mass to place). */
  readonly burn: number;
  readonly burnUid: number;
  readonly explanation: {
    readonly cap: number;
    /** Σ of the input weights (the mass the cap redistributes). */
    readonly mass: number;
    /** Number of rounds of redistribution. */
    readonly rounds: number;
    /** Hotkeys held at the cap, by hotkey. */
    readonly capped: readonly Hotkey[];
    /** Σ of the uncapped weights in the last round (the divisor). */
    readonly freeSum: number;
    /** mass − cap·|capped|: what the uncapped miners share, each (w / freeSum)·remaining. */
    readonly remaining: number;
    /** True when the positive-weight miners cannot absorb the mass at the cap (n·cap < mass). */
    readonly infeasible: boolean;
  };
}

/** Validates hotkey weights: unique hotkeys, finite >= 0, sum <= 1; returns them sorted (internal). */
export function checkHotkeyWeights(weights: readonly HotkeyWeight[], path: string): readonly HotkeyWeight[] {
  checkArray(weights, path);
  const out: HotkeyWeight[] = [];
  for (let i = 0; i < weights.length; i += 1) {
    const w = checkObject(weights[i], `${path}[${i}]`) as unknown as HotkeyWeight;
    out.push({ hotkey: checkHotkey(w.hotkey, `${path}[${i}].hotkey`), weight: checkNonNegative(w.weight, `${path}[${i}].weight`) });
  }
  out.sort((a, b) => compareHotkeys(a.hotkey, b.hotkey));
  let total = 0;
  for (let i = 0; i < out.length; i += 1) {
    const w = out[i] as HotkeyWeight;
    if (i > 0 && w.hotkey === (out[i - 1] as HotkeyWeight).hotkey) {
      fail(AGGREGATION_ERROR_CODES.duplicateHotkey, 'a miner appears twice', path, w.hotkey);
    }
    total += w.weight;
  }
  if (!(total <= 1 + SUM_TOLERANCE)) fail(AGGREGATION_ERROR_CODES.weightsExceedOne, 'miner weights must sum to at most 1', path, total);
  return out;
}

/**
 * Caps every miner's weight at `cap` by iterative proportional redistribution (water-filling, SPEC C.5).
 * Each round: F = miners not yet capped, R = mass − cap·|capped|, S = Σ_{F} w (summed in hotkey order);
 * every positive miner of F with (w / S)·R > cap becomes capped (before any is capped, a miner's value is
 * its own w). When no miner exceeds, the uncapped get (w / S)·R and the capped get cap. Mass moves only towards smaller weights, so the order of two
 * miners never inverts. When every positive miner is capped (n·cap < mass), each keeps `cap` and the
 * remainder goes to the burn uid. Zero weights stay zero.
 *
 * @param weights - miner weights by hotkey (unique, finite, >= 0, summing to at most 1)
 * @param options - `cap` in (0, 1] and the burn uid
 * @returns capped weights, the burned share and which miners were capped
 * @throws SubnetError `AGGREGATION_INVALID_INPUT`, `AGGREGATION_DUPLICATE_HOTKEY`, `AGGREGATION_WEIGHTS_EXCEED_ONE`
 * @example applyWeightCap([{ hotkey: a, weight: 0.7 }, { hotkey: b, weight: 0.2 }, { hotkey: c, weight: 0.1 }], { cap: 0.5 })
 * // a 0.5, b 0.2·(0.5/0.3), c 0.1·(0.5/0.3), burn 0
 */
export function applyWeightCap(weights: readonly HotkeyWeight[], options: WeightCapOptions): WeightCapResult {
  checkObject(options, 'options');
  checkCap(options.cap, 'options.cap');
  const burnUid = options.burnUid === undefined ? 0 : checkUid(options.burnUid, 'options.burnUid');
  return deepFreeze(capUnchecked(checkHotkeyWeights(weights, 'weights'), options.cap, burnUid));
}

/** Validates a cap (internal). */
export function checkCap(cap: unknown, path: string): number {
  if (typeof cap !== 'number' || !Number.isFinite(cap) || cap <= 0 || cap > 1) {
    fail(AGGREGATION_ERROR_CODES.invalidInput, 'a weight cap is a number in (0, 1]', path, cap);
  }
  return cap;
}

/** {@link applyWeightCap} on validated weights sorted by hotkey (internal). */
export function capUnchecked(sorted: readonly HotkeyWeight[], cap: number, burnUid: number): WeightCapResult {
  const n = sorted.length;
  let mass = 0;
  for (const w of sorted) mass += w.weight;
  const capped = new Uint8Array(n);
  let cappedCount = 0;
  let rounds = 0;
  let free = 0;
  for (const w of sorted) if (w.weight > 0) free += 1;
  let freeSum = mass;
  let remaining = mass;
  // v_i = (w_i / freeSum)·remaining: dividing first keeps tiny (even subnormal) weights from overflowing.
  const share = (w: number): number => (cappedCount === 0 ? w : (w / freeSum) * remaining);
  for (;;) {
    freeSum = 0;
    for (let i = 0; i < n; i += 1) if (capped[i] === 0) freeSum += (sorted[i] as HotkeyWeight).weight;
    remaining = mass - cap * cappedCount;
    if (free === 0 || !(freeSum > 0)) break;
    rounds += 1;
    let newly = 0;
    for (let i = 0; i < n; i += 1) {
      const w = (sorted[i] as HotkeyWeight).weight;
      if (capped[i] === 0 && w > 0 && share(w) > cap) {
        capped[i] = 1;
        newly += 1;
      }
    }
    if (newly === 0) break;
    cappedCount += newly;
    free -= newly;
  }
  const out: HotkeyWeight[] = [];
  const cappedKeys: Hotkey[] = [];
  let placed = 0;
  for (let i = 0; i < n; i += 1) {
    const w = sorted[i] as HotkeyWeight;
    const weight = capped[i] === 1 ? cap : w.weight === 0 ? 0 : share(w.weight);
    if (capped[i] === 1) cappedKeys.push(w.hotkey);
    placed += weight;
    out.push({ hotkey: w.hotkey, weight });
  }
  const infeasible = cappedCount > 0 && free === 0;
  const burn = infeasible ? Math.max(0, mass - placed) : 0;
  return {
    weights: out,
    burn,
    burnUid,
    explanation: { cap, mass, rounds, capped: cappedKeys, freeSum, remaining, infeasible },
  };
}
