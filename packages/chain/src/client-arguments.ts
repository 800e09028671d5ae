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

/**
 * An arguments object (absent only where the method allows it).
 *
 * @param value - as given
 * @param path - the argument's name, for the message
 * @returns the object
 * @throws SubnetError `CHAIN_INVALID_INPUT` naming the path and value
 */
export function objectArg<T extends object>(value: T, path: string): T {
  const given: unknown = value;
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw chainError('InvalidInput', `${path} is an object`, { source: 'client', path, value: given });
  return value;
}

/**
 * An optional time limit in milliseconds.
 *
 * @param value - as given
 * @param path - the argument's name
 * @returns the limit, or undefined when not given
 * @throws SubnetError `CHAIN_INVALID_INPUT` unless a finite number >= 0
 */
export function millisecondsArg(value: unknown, path: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw chainError('InvalidInput', `${path} is a non-negative number of milliseconds`, { source: 'client', path, value });
  }
  return value;
}

/**
 * An optional boolean flag.
 *
 * @param value - as given
 * @param path - the argument's name
 * @returns the flag, or undefined when not given
 * @throws SubnetError `CHAIN_INVALID_INPUT` unless a boolean
 */
export function flagArg(value: unknown, path: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw chainError('InvalidInput', `${path} is a boolean`, { source: 'client', path, value });
}

/**
 * An optional callback.
 *
 * @param value - as given
 * @param path - the argument's name
 * @returns the function, or undefined when not given
 * @throws SubnetError `CHAIN_INVALID_INPUT` unless a function
 */
export function functionArg<F extends (...args: never[]) => unknown>(value: F | undefined, path: string): F | undefined {
  const given: unknown = value;
  if (given === undefined || typeof given === 'function') return value;
  throw chainError('InvalidInput', `${path} is a function, not ${typeof given}`, { source: 'client', path, value: given });
}
