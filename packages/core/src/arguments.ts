import { CORE_ERROR_CODES } from './error-codes.js';
import { SubnetError } from './errors.js';

/** Internal: throws `CORE_INVALID_ARGUMENT` naming the function's parameter and the value. */
export function invalidArgument(path: string, summary: string, value: unknown): never {
  throw new SubnetError(CORE_ERROR_CODES.invalidArgument, summary, { context: { path, value } });
}

/** Internal: `value` must be a string (never coerced). */
export function requireString(value: unknown, path: string): asserts value is string {
  if (typeof value !== 'string') invalidArgument(path, 'must be a string', value);
}
