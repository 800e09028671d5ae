/**
 * `vec_u16_max_upscale_to_u16` in I32F32 fixed point (chain README 2.2 step 13): if the max is above 32768,
 * `round(v * (65535 / max))`, else `round(v * 65535 / max)`; divisions truncate, rounding is half away
 * from zero, results saturate at 65535. All-zero input is returned unchanged.
 *
 * @param values - u16 weight values
 * @returns the upscaled values
 * @example
 * maxUpscaleToU16([1, 2]); // [32768, 65535]
 */
export function maxUpscaleToU16(values: readonly number[]): number[] {
  if (values.length === 0) return [];
  const max = values.reduce((a, b) => (b > a ? b : a), 0);
  if (max === 0) return [...values];
  const one = 1n << 32n;
  const half = 1n << 31n;
  const u16max = 65535n;
  const m = BigInt(max);
  const sat = (fixed: bigint): number => {
    const r = (fixed + half) >> 32n;
    return Number(r > u16max ? u16max : r);
  };
  if (max > 32768) {
    const ratio = (u16max * one) / m; // I32F32 division truncates
    return values.map((v) => sat(BigInt(v) * ratio));
  }
  return values.map((v) => sat((BigInt(v) * u16max * one) / m));
}
