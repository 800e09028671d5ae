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
 * @param n - the group size (a non-negative integer)
 * @returns the majority threshold
 * @example majorityThreshold(4) // 3
 */
export function majorityThreshold(n: number): number {
  return Math.floor(n / 2) + 1;
}
