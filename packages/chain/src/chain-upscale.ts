const FRAC = 32n;
const ONE = 1n << FRAC;
const HALF = 1n << (FRAC - 1n);

/**
 * What the chain stores for a weight vector: `vec_u16_max_upscale_to_u16` (opentensor/subtensor
 * 14bc6f9f9 `pallets/subtensor/src/epoch/math.rs:123-129`, calling `vec_max_upscale_to_u16` at `:78-120`; the same
 * lines at ab0cb2e52),
 * replicated exactly in I32F32 fixed point with bigint. If the largest value exceeds 32768 each value is
 * `round(v * (65535 / max))`, else `round(v * 65535 / max)`; fixed-point division and multiplication
 * truncate, `round` is half away from zero. A vector of zeros stays zeros.
 *
 * @param values - u16 values as submitted
 * @returns the u16 values the chain writes to `Weights`
 * @example chainUpscale([1, 2]) // [32768, 65535]
 */
export function chainUpscale(values: readonly number[]): readonly number[] {
  let max = 0;
  for (const v of values) if (v > max) max = v;
  if (max === 0) return Object.freeze(values.map(() => 0));
  const bigMax = BigInt(max);
  const roundFixed = (raw: bigint): number => Number((raw + HALF) >> FRAC);
  if (max > 32768) {
    const ratio = (65535n * ONE) / bigMax;
    return Object.freeze(values.map((v) => roundFixed(BigInt(v) * ratio)));
  }
  return Object.freeze(values.map((v) => roundFixed((BigInt(v) * 65535n * ONE) / bigMax)));
}
