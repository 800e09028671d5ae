import { chainError } from './chain-error.js';

/**
 * An integer argument in `[0, max]`.
 *
 * @param value - as given
 * @param path - the argument's name, for the message
 * @param max - the largest allowed value
 * @returns the value
 * @throws SubnetError `CHAIN_INVALID_INPUT` naming the path and value
 */
export function intArg(value: unknown, path: string, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw chainError('InvalidInput', `${path} must be an integer in [0, ${max}]`, { source: 'client', path, value });
  }
  return value;
}

/**
 * An optional u64 version key.
 *
 * @param value - as given
 * @returns the key as a bigint, or undefined when not given
 * @throws SubnetError `CHAIN_INVALID_INPUT` (`versionKey`)
 */
export function versionArg(value: unknown): bigint | undefined {
  if (value === undefined) return undefined;
  if ((typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) || (typeof value === 'bigint' && value >= 0n && value < 2n ** 64n)) {
    return BigInt(value);
  }
  throw chainError('InvalidInput', 'versionKey must be a u64', { source: 'client', path: 'versionKey', value });
}

/**
 * The `wait` argument: `inBlock` (default) or `finalized`.
 *
 * @param value - as given
 * @returns the wait
 * @throws SubnetError `CHAIN_INVALID_INPUT` (`wait`)
 */
export function waitArg(value: unknown): 'inBlock' | 'finalized' {
  const wait = value ?? 'inBlock';
  if (wait !== 'inBlock' && wait !== 'finalized')
    throw chainError('InvalidInput', "wait is 'inBlock' or 'finalized'", { source: 'client', path: 'wait', value: wait });
  return wait;
}
