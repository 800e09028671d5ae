import { CHAIN_ERROR_CODES } from '@subnet/chain';
import type { ChainClient, TimelockedCommitRecord } from '@subnet/chain';
import { isSubnetError } from '@subnet/core';

import type { RevealCheck } from './chain-port.js';
import type { UidReplacement } from './uid-replaced.js';

/** What {@link confirmRevealOnChain} reads to tell a uid replaced after the reveal from weights the chain contradicts. */
export interface ReplacementFacts {
  /** `uidReplacedIn` (uid-replaced.ts) over the validator's connection. */
  readonly replacedIn: (at: { netuid: number; uid: number; hotkey: string }, block: bigint, blockHash: string) => Promise<UidReplacement | null>;
  /** Whether the block is on the finalised chain. */
  readonly isFinal: (block: bigint, blockHash: string) => Promise<boolean>;
}

/**
 * Asks the chain whether it revealed a timelocked commit (`confirmTimelockedReveal`, `wait: 'finalized'`) and turns
 * the answer into a {@link RevealCheck}: revealed in a finalised block; `CHAIN_TIMELOCK_REVEAL_MISSING` (its block
 * finalised) → `not_revealed` with the chain package's likely reasons; `CHAIN_WEIGHTS_NOT_CONFIRMED` (other
 * weights stored, or the commit in no queue) → `unconfirmed`, unless the weights differ because a registration took the
 * validator's uid in the reveal block after the reveal (`facts`, docs/spec.md G.19) → `uid_replaced` once that block is
 * final (`pending`, `not_finalized` before); `CHAIN_TIMELOCK_REVEAL_TIMEOUT`, or a reveal whose
 * block finality has not reached yet → `pending`. Any other error (connection, storage) is thrown:
 * the caller retries on a later tick.
 *
 * @param client - the chain client
 * @param record - the commit
 * @param timeoutMs - longest wait for the commit to leave its queue
 * @param facts - the chain reads that recognise a replaced uid; absent: never `uid_replaced`
 * @returns the check
 * @throws SubnetError the `CHAIN_*` codes other than the three above
 * @example const check = await confirmRevealOnChain(client, record, 120_000)
 */
export async function confirmRevealOnChain(
  client: ChainClient,
  record: TimelockedCommitRecord,
  timeoutMs: number,
  facts?: ReplacementFacts,
): Promise<RevealCheck> {
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
    if (isSubnetError(error, CHAIN_ERROR_CODES.weightsNotConfirmed)) {
      // Revealed at a block whose state lacks the weights: a registration in that block that took the uid removed
      // them after the reveal (replace_neuron's clear_neuron). That is no contradiction of the commit, and it is not
      // what an operator should be told is wrong (docs/spec.md G.19).
      const { blockNumber, blockHash } = error.context as { blockNumber?: unknown; blockHash?: unknown };
      if (facts !== undefined && typeof blockNumber === 'bigint' && typeof blockHash === 'string') {
        const replaced = await facts.replacedIn({ netuid: record.netuid, uid: record.uid, hotkey: record.hotkey }, blockNumber, blockHash);
        if (replaced !== null) {
          if (!(await facts.isFinal(blockNumber, blockHash))) return { status: 'pending', reason: 'not_finalized' };
          return { status: 'uid_replaced', block: blockNumber, blockHash, uid: replaced.uid, newHotkey: replaced.newHotkey };
        }
      }
      return { status: 'unconfirmed', code: error.code, message: error.message };
    }
    throw error;
  }
}
