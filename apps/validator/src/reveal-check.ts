import { CHAIN_ERROR_CODES } from '@subnet/chain';
import type { ChainClient, TimelockedCommitRecord } from '@subnet/chain';
import { isSubnetError } from '@subnet/core';

import type { RevealCheck } from './chain-port.js';

/**
 * Asks the chain whether it revealed a timelocked commit (`confirmTimelockedReveal`, `wait: 'finalized'`) and turns
 * the answer into a {@link RevealCheck}: revealed in a finalised block; `CHAIN_TIMELOCK_REVEAL_MISSING` (its block
 * finalised) → `not_revealed` with the chain package's likely reasons; `CHAIN_WEIGHTS_NOT_CONFIRMED` (other
 * weights stored, or the commit in no queue) → `unconfirmed`; `CHAIN_TIMELOCK_REVEAL_TIMEOUT`, or a reveal whose
 * block finality has not reached yet → `pending`. Any other error (connection, storage) is thrown:
 * the caller retries on a later tick.
 *
 * @param client - the chain client
 * @param record - the commit
 * @param timeoutMs - longest wait for the commit to leave its queue
 * @returns the check
 * @throws SubnetError the `CHAIN_*` codes other than the three above
 * @example const check = await confirmRevealOnChain(client, record, 120_000)
 */
export async function confirmRevealOnChain(client: ChainClient, record: TimelockedCommitRecord, timeoutMs: number): Promise<RevealCheck> {
  try {
    // Finalized only: the outcome is signed (reveal-attest.ts) and lifts the bundle's embargo, so it may not name a
    // block a reorganisation of the unfinalised head can still replace (the chain package re-confirms on the
    // finalised branch, and holds "not revealed" until its block is final too).
    const reveal = await client.confirmTimelockedReveal(record, { timeoutMs, wait: 'finalized' });
    if (!reveal.finalized) return { status: 'pending', reason: 'not_finalized' };
    return { status: 'revealed', block: reveal.blockNumber, blockHash: reveal.blockHash };
  } catch (error) {
    if (isSubnetError(error, CHAIN_ERROR_CODES.timelockRevealTimeout)) {
      return (error.context as { unfinalizedExit?: boolean }).unfinalizedExit === true ? { status: 'pending', reason: 'not_finalized' } : { status: 'pending' };
    }
    if (isSubnetError(error, CHAIN_ERROR_CODES.timelockRevealMissing)) {
      const context = error.context as { likelyReasons?: readonly string[]; revealBlock?: bigint };
      const reasons = context.likelyReasons ?? [];
      return {
        status: 'not_revealed',
        code: error.code,
        reason: reasons[0] ?? 'unknown',
        reasons,
        message: error.message,
        block: typeof context.revealBlock === 'bigint' ? context.revealBlock : null,
      };
    }
    if (isSubnetError(error, CHAIN_ERROR_CODES.weightsNotConfirmed)) return { status: 'unconfirmed', code: error.code, message: error.message };
    throw error;
  }
}
