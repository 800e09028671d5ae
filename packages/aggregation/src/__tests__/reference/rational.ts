/** Exact non-negative rationals as bigint pairs (reference only). */
export interface Q {
  readonly n: bigint;
  readonly d: bigint;
}

/** A finite double x >= 0 exactly: double it until it is an integer (each doubling is exact). */
export function fromDouble(x: number): Q {
  if (!(x >= 0) || !Number.isFinite(x)) throw new Error(`not a finite double >= 0: ${x}`);
  let v = x;
  let d = 1n;
  while (!Number.isInteger(v)) {
    v *= 2;
    d *= 2n;
  }
  return reduce({ n: BigInt(v), d });
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function reduce(q: Q): Q {
  if (q.n === 0n) return { n: 0n, d: 1n };
  const g = gcd(q.n, q.d);
  return { n: q.n / g, d: q.d / g };
}

export const ZERO: Q = { n: 0n, d: 1n };
export const int = (k: number | bigint): Q => ({ n: BigInt(k), d: 1n });
export const add = (a: Q, b: Q): Q => reduce({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
export const sub = (a: Q, b: Q): Q => reduce({ n: a.n * b.d - b.n * a.d, d: a.d * b.d });
export const mul = (a: Q, b: Q): Q => reduce({ n: a.n * b.n, d: a.d * b.d });
export const div = (a: Q, b: Q): Q => reduce({ n: a.n * b.d, d: a.d * b.n });
/** -1, 0 or 1 as a < b, a = b, a > b. */
export const cmp = (a: Q, b: Q): number => {
  const l = a.n * b.d;
  const r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
};
export const floor = (a: Q): bigint => a.n / a.d;
/** The fractional part a - floor(a). */
export const frac = (a: Q): Q => reduce({ n: a.n % a.d, d: a.d });

function bits(x: bigint): number {
  return x.toString(2).length;
}

/** The double nearest to q >= 0 (ties to even), subnormals included. */
export function toDouble(q: Q): number {
  if (q.n === 0n) return 0;
  // Find shift with 2^52 <= q·2^shift < 2^53 (then the integer part is a 53-bit mantissa).
  let shift = 52 - (bits(q.n) - bits(q.d));
  const scaled = (s: number): Q => (s >= 0 ? { n: q.n << BigInt(s), d: q.d } : { n: q.n, d: q.d << BigInt(-s) });
  while (floor(scaled(shift)) >= 1n << 53n) shift -= 1;
  while (floor(scaled(shift)) < 1n << 52n) shift += 1;
  if (shift > 1074) shift = 1074; // subnormal: the unit is 2^-1074
  const s = scaled(shift);
  let m = floor(s);
  const rest = frac(s);
  const half = cmp(rest, { n: 1n, d: 2n });
  if (half > 0 || (half === 0 && m % 2n === 1n)) m += 1n;
  // m·2^-shift; multiply by halves one at a time (each exact while the result stays representable).
  let x = Number(m); // m <= 2^53: exact
  const k = shift;
  for (let i = 0; i < -k; i += 1) x *= 2;
  let scale = 1;
  for (let i = 0; i < Math.min(k, 1000); i += 1) scale /= 2;
  x *= scale;
  for (let i = 1000; i < k; i += 1) x /= 2;
  return x;
}
