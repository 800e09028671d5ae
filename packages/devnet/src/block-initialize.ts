import type { ChainState } from './chain-state.js';
import type { DevnetBeacon } from './drand-beacon.js';
import { publishPulses } from './drand-beacon.js';
import type { TimelockDrop } from './timelock-reveal.js';
import { revealTimelockedCommits } from './timelock-reveal.js';
import type { DevnetEvent } from './devnet-call.js';
import { epochsDeferredThisBlock, epochStep } from './epoch-rules.js';

/** What `on_initialize` produced: events (phase Initialization) and silently dropped timelocked commits. */
export interface BlockInitialization {
  readonly events: readonly DevnetEvent[];
  readonly drops: readonly TimelockDrop[];
}

/**
 * The devnet's `on_initialize` and pulse feed, in the chain's order (`block_step.rs`): the subnets over the
 * per-block epoch cap, reveal timelocked commits of the others (with the pulses stored by earlier blocks), then the
 * epoch step (deferring the capped ones), then publish this block's drand
 * pulses (on chain they arrive by `write_pulse` extrinsics inside the block, so they are visible from the
 * next block on).
 *
 * @param state - the state being built for block `now`
 * @param now - the block number
 * @param beacon - the devnet beacon, or null when it is switched off
 * @returns the events and drops
 * @example
 * const init = initializeBlock(state, 12n, beacon);
 */
export function initializeBlock(state: ChainState, now: bigint, beacon: DevnetBeacon | null): BlockInitialization {
  const deferred = epochsDeferredThisBlock(state.subnets.values(), now);
  const { events, drops } = revealTimelockedCommits(state, now, deferred);
  epochStep(state.subnets.values(), now, deferred);
  if (beacon !== null) publishPulses(state, beacon);
  return { events, drops };
}
