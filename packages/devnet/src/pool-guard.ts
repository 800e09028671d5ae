import type { ChainState } from './chain-state.js';
import { legacyPoolGuard } from './pool-guard-legacy.js';
import { statefulPoolGuard } from './pool-guard-stateful.js';
import type { DevnetCall } from './devnet-call.js';

/**
 * The runtime's `SubtensorTransactionExtension` pool guard: {@link statefulPoolGuard} (Subtensor main) or
 * {@link legacyPoolGuard} (finney spec 393), by `state.runtime`. It runs when a transaction enters the pool
 * (against the best block, at best + 1) and again when the block is built; a failure is
 * `1010: Invalid Transaction: Custom error: N`.
 *
 * @param state - the state the transaction is checked against
 * @param now - the block number it would be included at
 * @param who - the signer's hex public key
 * @param call - the decoded call
 * @returns the custom error code, or `null`
 * @example
 * poolGuard(state, 11n, alice, call);
 */
export function poolGuard(state: ChainState, now: bigint, who: string, call: DevnetCall): number | null {
  return state.runtime === 'legacy' ? legacyPoolGuard(state, now, who, call) : statefulPoolGuard(state, now, who, call);
}
