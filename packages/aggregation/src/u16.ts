import { checkArray, checkNonNegative, checkObject, checkOneOf, checkUid } from './checks.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
import { deepFreeze } from './order.js';
import type { UidWeight } from './uid-mapping.js';

/** The largest u16, the chain's weight scale. */
export const U16_MAX = 65535;

/** How {@link toU16} scales. */
export type U16Mode = 'sum' | 'max';

/** A uid-keyed weight vector: entries, or the SDK's two parallel arrays. */
export type UidWeightVector = readonly UidWeight[] | { readonly uids: readonly number[]; readonly weights: readonly number[] };

/** The outcome of {@link toU16}. */
export interface U16Result {
  /** Uids with a non-zero u16 weight, ascending. */
  readonly uids: readonly number[];
  /** Their u16 weights (integers 1..65535); Σ = 65535 exactly in `sum` mode. */
  readonly weights: readonly number[];
  readonly explanation: {
    readonly mode: U16Mode;
    /** The largest input weight (the divisor in `max` mode). */
    readonly maxWeight: number;
    /** `sum` mode: Σ of the floors before the remainder units were handed out (null in `max` mode). */
    readonly floorSum: number | null;
    /** `sum` mode: uids that got one extra unit for their large remainder, in the order given (null in `max`). */
    readonly remainderUnits: readonly number[] | null;
    /** Uids with a positive weight that scaled to 0 and were dropped. */
    readonly droppedZeros: readonly number[];
    /** True when every input weight was 0: nothing to set (both vectors empty). */
    readonly allZero: boolean;
  };
}

/** Largest |x| for which `x − floor(x)` is exact, so half-even rounding is exact (2^52). */
const EXACT_ROUNDING_LIMIT = 2 ** 52;

/**
 * Rounds a double to the nearest integer, ties to even, exactly as Python's `round(x)` does on a float:
 * the comparison with one half is exact because `x − floor(x)` is exact for |x| < 2^52.
 *
 * @param x - a finite double, |x| < 2^52
 * @returns the nearest integer, ties to the even one
 * @throws SubnetError `AGGREGATION_INVALID_INPUT` for a non-number, NaN, ±Infinity or |x| >= 2^52
 * @example roundHalfEven(10922.5) // 10922
 */
export function roundHalfEven(x: number): number {
  if (typeof x !== 'number' || !(Math.abs(x) < EXACT_ROUNDING_LIMIT)) {
    fail(AGGREGATION_ERROR_CODES.invalidInput, 'expected a finite number with |x| < 2^52', 'x', x);
  }
  return roundHalfEvenUnchecked(x);
}

/** {@link roundHalfEven} on a checked double (internal). */
export function roundHalfEvenUnchecked(x: number): number {
  const floor = Math.floor(x);
  const fraction = x - floor;
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

function normaliseVector(vector: UidWeightVector): { uid: number; weight: number }[] {
  const out: { uid: number; weight: number }[] = [];
  if (Array.isArray(vector)) {
    const entries = vector as readonly UidWeight[];
    for (let i = 0; i < entries.length; i += 1) {
      const e = checkObject(entries[i], `weights[${i}]`) as unknown as UidWeight;
      out.push({ uid: checkUid(e.uid, `weights[${i}].uid`), weight: checkNonNegative(e.weight, `weights[${i}].weight`) });
    }
  } else {
    const pair = checkObject(vector, 'weights') as unknown as { uids: readonly number[]; weights: readonly number[] };
    checkArray(pair.uids, 'weights.uids');
    checkArray(pair.weights, 'weights.weights');
    if (pair.uids.length !== pair.weights.length) {
      fail(AGGREGATION_ERROR_CODES.invalidInput, `uids and weights differ in length (${pair.uids.length} uids)`, 'weights.weights.length', pair.weights.length);
    }
    for (let i = 0; i < pair.uids.length; i += 1) {
      out.push({ uid: checkUid(pair.uids[i], `weights.uids[${i}]`), weight: checkNonNegative(pair.weights[i], `weights.weights[${i}]`) });
    }
  }
  out.sort((a, b) => a.uid - b.uid);
  for (let i = 1; i < out.length; i += 1) {
    if ((out[i] as UidWeight).uid === (out[i - 1] as UidWeight).uid) {
      fail(AGGREGATION_ERROR_CODES.duplicateUid, 'a uid appears twice', 'weights', (out[i] as UidWeight).uid);
    }
  }
  return out;
}

const VIEW = (): DataView => new DataView(new ArrayBuffer(8));

/** Splits a finite double x >= 0 into an integer mantissa and a binary exponent: x = m·2^e exactly. */
function decompose(view: DataView, x: number): { m: bigint; e: number } {
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const fraction = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased === 0) return { m: fraction, e: -1074 };
  return { m: fraction | (1n << 52n), e: biased - 1075 };
}

/**
 * Converts a uid-keyed weight vector to the chain's u16 weights (SPEC C.10).
 *
 * `sum` (default): integers that sum to exactly 65535, by largest remainder computed in exact rational
 * arithmetic on the doubles given (each quota is 65535·w_i / Σ w, floors first, then one unit each to the
 * largest remainders; ties: lower uid first). `max`: the Python SDK's `convert_weights_and_uids_for_emit`,
 * `round_half_even((w / max) · 65535)` in doubles. In both modes entries that come out 0 are dropped,
 * output is sorted by uid, and an all-zero vector gives empty vectors (the SDK's "nothing to set").
 * Nothing exceeds 65535 and nothing wraps.
 *
 * @param weights - `{ uid, weight }[]` or `{ uids, weights }` (uids unique u16, weights finite >= 0)
 * @param options - `{ mode: 'sum' | 'max' }`
 * @returns uids and u16 weights, ascending by uid
 * @throws SubnetError `AGGREGATION_INVALID_INPUT`, `AGGREGATION_DUPLICATE_UID`
 * @example toU16({ uids: [0, 1], weights: [1, 6] }, { mode: 'max' }) // { uids: [0, 1], weights: [10922, 65535] }
 */
export function toU16(weights: UidWeightVector, options: { readonly mode: U16Mode } = { mode: 'sum' }): U16Result {
  checkObject(options, 'options');
  checkOneOf(options.mode, ['sum', 'max'], 'options.mode');
  return deepFreeze(toU16Unchecked(normaliseVector(weights), options.mode));
}

/** {@link toU16} on validated entries sorted by uid (internal). */
export function toU16Unchecked(entries: readonly UidWeight[], mode: U16Mode): U16Result {
  let maxWeight = 0;
  for (const e of entries) if (e.weight > maxWeight) maxWeight = e.weight;
  const empty = (allZero: boolean): U16Result => ({
    uids: [],
    weights: [],
    explanation: { mode, maxWeight, floorSum: mode === 'sum' ? 0 : null, remainderUnits: mode === 'sum' ? [] : null, droppedZeros: [], allZero },
  });
  if (maxWeight === 0) return empty(true);
  const uids: number[] = [];
  const values: number[] = [];
  const droppedZeros: number[] = [];
  if (mode === 'max') {
    for (const e of entries) {
      const value = roundHalfEvenUnchecked((e.weight / maxWeight) * U16_MAX);
      if (value !== 0) {
        uids.push(e.uid);
        values.push(value);
      } else if (e.weight > 0) droppedZeros.push(e.uid);
    }
    return { uids, weights: values, explanation: { mode, maxWeight, floorSum: null, remainderUnits: null, droppedZeros, allZero: false } };
  }
  const fast = largestRemainderByDoubles(entries);
  if (fast !== undefined) {
    for (let i = 0; i < entries.length; i += 1) {
      const value = fast.floors[i] as number;
      const e = entries[i] as UidWeight;
      if (value !== 0) {
        uids.push(e.uid);
        values.push(value);
      } else if (e.weight > 0) droppedZeros.push(e.uid);
    }
    return {
      uids,
      weights: values,
      explanation: { mode, maxWeight, floorSum: fast.floorSum, remainderUnits: fast.remainderUnits, droppedZeros, allZero: false },
    };
  }
  // Exact largest remainder: every double is m·2^e; bring all to the smallest exponent.
  const view = VIEW();
  const parts = entries.map((e) => (e.weight > 0 ? decompose(view, e.weight) : { m: 0n, e: 0 }));
  let minExponent = Number.POSITIVE_INFINITY;
  for (const p of parts) if (p.m > 0n && p.e < minExponent) minExponent = p.e;
  const scaled = parts.map((p) => (p.m > 0n ? p.m << BigInt(p.e - minExponent) : 0n));
  let total = 0n;
  for (const s of scaled) total += s;
  const units = BigInt(U16_MAX);
  const floors: number[] = [];
  const remainders: bigint[] = [];
  let floorSum = 0;
  for (const s of scaled) {
    const numerator = units * s;
    const floor = Number(numerator / total);
    floors.push(floor);
    remainders.push(numerator % total);
    floorSum += floor;
  }
  const left = U16_MAX - floorSum;
  // Largest remainder first, ties by uid. Number(r) is monotone in r (never inverts two remainders), so
  // comparing the doubles first and the exact bigints only when the doubles are equal gives the same order.
  const approx = new Float64Array(remainders.length);
  for (let i = 0; i < remainders.length; i += 1) approx[i] = Number(remainders[i]);
  const order = entries.map((_, i) => i);
  order.sort((a, b) => {
    const da = approx[a] as number;
    const db = approx[b] as number;
    if (da !== db) return da > db ? -1 : 1;
    const ra = remainders[a] as bigint;
    const rb = remainders[b] as bigint;
    if (ra !== rb) return ra > rb ? -1 : 1;
    return (entries[a] as UidWeight).uid - (entries[b] as UidWeight).uid;
  });
  const remainderUnits: number[] = [];
  for (let k = 0; k < left; k += 1) {
    const i = order[k] as number;
    floors[i] = (floors[i] as number) + 1;
    remainderUnits.push((entries[i] as UidWeight).uid);
  }
  entries.forEach((e, i) => {
    const value = floors[i] as number;
    if (value !== 0) {
      uids.push(e.uid);
      values.push(value);
    } else if (e.weight > 0) droppedZeros.push(e.uid);
  });
  return { uids, weights: values, explanation: { mode, maxWeight, floorSum, remainderUnits, droppedZeros, allZero: false } };
}

/** Below this a positive weight takes the exact path (far above the subnormals, whose rounding is absolute). */
const SMALLEST_FAST_WEIGHT = 2 ** -900;

/**
 * The `sum` mode's largest-remainder floors and remainder units in doubles, when doubles decide them
 * exactly, else undefined (the exact path then runs). With q_i = 65535·w_i / Σw computed in doubles, each
 * q_i is within E = 65535·(n + 2)·2^-52 of the exact quotient (the sum of n doubles is off by at most
 * (n - 1)·2^-53 of itself, the product and the quotient by 2^-53 each; E doubles that). So floor(q_i) is the
 * exact floor when q_i's fraction is more than E from 0 and from 1, and the fractions order the exact
 * remainders (all over the same Σ) when any two neighbours in that order either have the same weight (the
 * same exact remainder: ties by uid, as the exact path) or fractions more than 2E apart. Anything closer,
 * a weight near the subnormals, an overflow, or fractions that do not add up to the units left, gives
 * undefined. `u16.test.ts` pins it against the exact path.
 */
function largestRemainderByDoubles(entries: readonly UidWeight[]): { floors: number[]; floorSum: number; remainderUnits: number[] } | undefined {
  const n = entries.length;
  let total = 0;
  for (let i = 0; i < n; i += 1) {
    const w = (entries[i] as UidWeight).weight;
    if (w > 0 && w < SMALLEST_FAST_WEIGHT) return undefined;
    total += w;
  }
  if (!(total > 0 && total < Number.POSITIVE_INFINITY)) return undefined;
  const margin = U16_MAX * (n + 2) * 2 ** -52;
  const floors = new Array<number>(n);
  const fractions = new Float64Array(n);
  let floorSum = 0;
  let fractionSum = 0;
  for (let i = 0; i < n; i += 1) {
    const w = (entries[i] as UidWeight).weight;
    if (w > 0) {
      const q = (U16_MAX * w) / total;
      const floor = Math.floor(q);
      const fraction = q - floor;
      if (!(fraction > margin && fraction < 1 - margin)) return undefined;
      floors[i] = floor;
      fractions[i] = fraction;
      floorSum += floor;
      fractionSum += fraction;
    } else {
      floors[i] = 0;
      fractions[i] = 0;
    }
  }
  const left = U16_MAX - floorSum;
  // The exact fractions add up to `left` (the exact quotients add up to 65535).
  if (!(left >= 0 && left <= n && Math.abs(fractionSum - left) < 0.5)) return undefined;
  const order = new Array<number>(n);
  for (let i = 0; i < n; i += 1) order[i] = i;
  order.sort((a, b) => {
    const fa = fractions[a] as number;
    const fb = fractions[b] as number;
    if (fa !== fb) return fa > fb ? -1 : 1;
    return (entries[a] as UidWeight).uid - (entries[b] as UidWeight).uid;
  });
  for (let k = 1; k < n; k += 1) {
    const a = order[k - 1] as number;
    const b = order[k] as number;
    if ((entries[a] as UidWeight).weight !== (entries[b] as UidWeight).weight && !((fractions[a] as number) - (fractions[b] as number) > 2 * margin))
      return undefined;
  }
  const remainderUnits: number[] = [];
  for (let k = 0; k < left; k += 1) {
    const i = order[k] as number;
    floors[i] = (floors[i] as number) + 1;
    remainderUnits.push((entries[i] as UidWeight).uid);
  }
  return { floors, floorSum, remainderUnits };
}
