import { revealWeightsCommit } from '@subnet/timelock';
import type { RevealDropReason } from '@subnet/timelock';

import type { ChainState, TimelockedCommit } from './chain-state.js';
import { netuidIndex, pairKey } from './chain-state.js';
import type { DevnetEvent } from './devnet-call.js';
import { revealStepEpoch } from './epoch-rules.js';
import { setWeights } from './set-weights.js';

/**
 * Why the devnet dropped a timelocked commit (the chain only logs these at `trace`). `expired`: the reveal step worked
 * on a later epoch than the commit's and deleted its queue unread (`coinbase/reveal_commits.rs:53-58` at 14bc6f9f9),
 * whether the pulse never came in the reveal epoch or the reveal epoch was skipped (`RevealPeriodEpochs` lowered, a
 * deferral); the detail says whether the round's pulse is stored. `pulse_missing` is no longer produced: the chain
 * never drops a commit for a missing pulse in its reveal epoch (it keeps it queued), only for the epoch passing.
 */
export type TimelockDropReason = RevealDropReason | 'pulse_missing' | 'weights_check' | 'expired';

/** One commit the reveal step could not apply; kept for tests and `devnet.timelockDrops()`. */
export interface TimelockDrop {
  readonly block: bigint;
  readonly netuidIndex: number;
  readonly who: string;
  readonly revealRound: bigint;
  readonly reason: TimelockDropReason;
  /** The module error name for `weights_check`, else the decryption/decoding detail. */
  readonly detail: string;
}

/**
 * `reveal_crv3_commits_for_subnet` (chain README 2.5, `coinbase/reveal_commits.rs`), run for every subnet and
 * mechanism in `on_initialize` BEFORE the epoch step: `reveal_epoch = current epoch - RevealPeriodEpochs` (the
 * current epoch is `current_epoch_with_lookahead` on the stateful runtime, `get_epoch_index(now)` on the legacy one); queues of earlier epochs are deleted (a commit whose pulse never came is dropped);
 * nothing happens before epoch `RevealPeriodEpochs`; the queue of `reveal_epoch` is taken; a commit whose
 * `Drand.Pulses[reveal_round]` is missing is put back (retried next block); the others are decrypted with
 * the pulse signature, the payload hotkey must equal the signer, and `do_set_mechanism_weights` runs with
 * every weights check. Failures are silent (returned as drops, no event); success emits
 * `TimelockedWeightsRevealed(netuid_index, who)`.
 *
 * A subnet whose epoch the per-block cap defers in this block is skipped altogether, expiry included
 * (`reveal_crv3_commits`, `coinbase/block_step.rs:81-99` at 14bc6f9f9): its reveal moves with its epoch.
 *
 * @param state - the state being built for block `now` (pulses are those stored by earlier blocks)
 * @param now - the block number being built
 * @param deferred - the netuids whose epoch is deferred in this block (`epochsDeferredThisBlock`)
 * @returns the events (phase Initialization) and the dropped commits
 * @example
 * const { events, drops } = revealTimelockedCommits(state, 42n);
 */
export function revealTimelockedCommits(
  state: ChainState,
  now: bigint,
  deferred: ReadonlySet<number> = new Set(),
): { events: DevnetEvent[]; drops: TimelockDrop[] } {
  const events: DevnetEvent[] = [];
  const drops: TimelockDrop[] = [];
  for (const subnet of state.subnets.values()) {
    if (deferred.has(subnet.netuid)) continue;
    const curEpoch = revealStepEpoch(subnet, now);
    const revealEpoch = curEpoch > subnet.revealPeriodEpochs ? curEpoch - subnet.revealPeriodEpochs : 0n;
    for (let mecid = 0; mecid < subnet.mechanismCount; mecid += 1) {
      const idx = netuidIndex(subnet.netuid, mecid);
      for (const [key, queue] of [...subnet.timelockedCommits]) {
        const [keyIdx, keyEpoch] = key.split(':');
        if (Number(keyIdx) !== idx || BigInt(keyEpoch ?? '0') >= revealEpoch) continue;
        subnet.timelockedCommits.delete(key);
        for (const c of queue) {
          const pulse = state.pulses.has(c.revealRound) ? 'stored' : 'not stored';
          drops.push(
            drop(
              now,
              idx,
              c,
              'expired',
              `queue of epoch ${keyEpoch ?? '?'} deleted unread: the reveal step is at epoch ${revealEpoch}; Drand.Pulses[${c.revealRound}] ${pulse}`,
            ),
          );
        }
      }
      if (curEpoch < subnet.revealPeriodEpochs) continue;
      const key = pairKey(idx, revealEpoch);
      const entries = subnet.timelockedCommits.get(key);
      if (entries === undefined) continue;
      subnet.timelockedCommits.delete(key);
      const unrevealed: TimelockedCommit[] = [];
      for (const c of entries) {
        const pulse = state.pulses.get(c.revealRound);
        if (pulse === undefined) {
          unrevealed.push(c);
          continue;
        }
        const outcome = revealWeightsCommit({ commit: c.commit, signature: pulse.signature, signer: c.who });
        if (outcome.status === 'dropped') {
          drops.push(drop(now, idx, c, outcome.reason, outcome.detail));
          continue;
        }
        const set = setWeights(state, now, c.who, subnet.netuid, mecid, outcome.uids, outcome.values, outcome.versionKey);
        if (!set.ok) {
          drops.push(drop(now, idx, c, 'weights_check', set.error));
          continue;
        }
        events.push({ pallet: 'SubtensorModule', name: 'TimelockedWeightsRevealed', fields: [idx, c.who] });
      }
      if (unrevealed.length > 0) subnet.timelockedCommits.set(key, unrevealed);
    }
  }
  return { events, drops };
}

function drop(block: bigint, idx: number, c: TimelockedCommit, reason: TimelockDropReason, detail: string): TimelockDrop {
  return Object.freeze({ block, netuidIndex: idx, who: c.who, revealRound: c.revealRound, reason, detail });
}
