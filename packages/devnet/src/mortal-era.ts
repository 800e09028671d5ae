/**
 * The birth block of a mortal era at the current block: `floor((max(current, phase) - phase) / period) * period
 * + phase` (`sp_runtime::generic::Era::birth`).
 *
 * @param period - the era period
 * @param phase - the era phase
 * @param current - the current block number
 * @returns the birth block
 * @example
 * mortalBirth(64, 10, 100); // 74
 */
export function mortalBirth(period: number, phase: number, current: number): number {
  return Math.floor((Math.max(current, phase) - phase) / period) * period + phase;
}
