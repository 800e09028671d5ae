/**
 * The one place where weights become u16 values: SPEC C.10, owned by `@subnet/aggregation`'s `toU16`.
 * Errors from it (`AGGREGATION_*`) are re-raised as `CHAIN_INVALID_INPUT` with the same path and value.
 */
import { toU16 } from '@subnet/aggregation';
import { isSubnetError } from '@subnet/core';

import { chainError } from './chain-error.js';

/** `sum`: integers summing to exactly 65535 (largest remainder, ties lower uid first). `max`: the Python SDK. */
export type U16Mode = 'sum' | 'max';

/** A u16 weight vector ready for the chain, sorted by uid, zeros removed. */
export interface U16Vector {
  readonly uids: readonly number[];
  readonly values: readonly number[];
}

/**
 * Converts non-negative weights keyed by uid to u16 values (SPEC C.10, `@subnet/aggregation` `toU16`);
 * entries that come out 0 are dropped, so what is submitted is what the chain's length check counts.
 *
 * @param entries - `[uid, weight]` pairs with distinct uids; weights finite and >= 0
 * @param mode - `sum` (default) or `max`
 * @returns uids ascending and their u16 values, zeros removed; empty when every weight is 0
 * @throws SubnetError `CHAIN_INVALID_INPUT` for a negative, NaN or infinite weight or a bad uid
 * @example convertToU16([[0, 1], [1, 6]], 'max') // { uids: [0, 1], values: [10922, 65535] }
 */
export function convertToU16(entries: readonly (readonly [number, number])[], mode: U16Mode = 'sum'): U16Vector {
  try {
    const result = toU16({ uids: entries.map((e) => e[0]), weights: entries.map((e) => e[1]) }, { mode });
    return Object.freeze({ uids: result.uids, values: result.weights });
  } catch (error) {
    if (isSubnetError(error)) {
      throw chainError('InvalidInput', `weights cannot be converted to u16 (${error.code})`, {
        source: 'client',
        path: error.context.path ?? 'weights',
        value: error.context.value,
        cause: error,
      });
    }
    throw error;
  }
}
