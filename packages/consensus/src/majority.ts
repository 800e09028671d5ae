import { SubnetError } from '@subnet/core';

import { CONSENSUS_ERROR_CODES } from './errors.js';

/**
 * The fewest members that make a group: below it every consensus is `null` (SPEC section B).
 *
 * @example if (sssas.length < MIN_GROUP_SIZE) console.log('no consensus: emission uses the neutral factor 1')
 */
export const MIN_GROUP_SIZE = 3;

/**
 * How many of `n` members must report an item for it to enter a group set: strictly more than n/2, that
 * is `floor(n / 2) + 1` (n = 3 -> 2, n = 4 -> 3, n = 5 -> 3). SPEC section B.
 *
 * @param n - the group size (a non-negative safe integer)
 * @returns the majority threshold
 * @throws SubnetError `CONSENSUS_INVALID_ARGUMENT` when `n` is not a non-negative safe integer (NaN,
 *   1.5, -1, '4' and 2^53 are refused, never coerced)
 * @example majorityThreshold(4) // 3
 */
export function majorityThreshold(n: number): number {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidArgument, 'a group size is a non-negative safe integer', { context: { path: 'n', value: n } });
  }
  return Math.floor(n / 2) + 1;
}
