import { describe, expect, it } from 'vitest';

import type { ChainPort, RevealCheck } from '../chain-port.js';
import { devnetChainPort, startCommitRevealDevnet } from './commit-reveal-devnet.js';
import { useCleanups } from './helpers.js';

/** Finality this many blocks behind the best block (200 ms blocks: about 6 s). */
const LAG = 30;

describe('the reveal outcome the validator signs is a finalised one (real devnet, commit-reveal v4, finality lagging)', () => {
  const cleanups = useCleanups();

  it('a reveal the chain made in a block finality has not reached is pending (not_finalized); once that block is final it is revealed there', async () => {
    const devnet = await startCommitRevealDevnet({ runtime: 'stateful', beacon: { period: 12 }, finalityLag: LAG });
    cleanups.push(() => devnet.stop());
    const chain: ChainPort = await devnetChainPort(devnet, cleanups, { revealCheckTimeoutMs: 300 });
    const submission = await chain.setWeights([1, 2], [30_000, 35_535]);
    const pending = submission.timelock;
    if (pending === undefined) throw new Error('expected a timelocked commit');

    // Ask as the background pass does, from the due block on, until the answer is more than "still queued".
    const deadline = Date.now() + 60_000;
    let check: RevealCheck = { status: 'pending' };
    while (check.status === 'pending' && check.reason === undefined) {
      if (Date.now() > deadline) throw new Error('the commit never left its queue');
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (BigInt(devnet.bestNumber()) >= pending.dueBlock) check = await chain.confirmReveal!(pending.record);
    }
    // The chain revealed it (the old check answered `revealed` here, from a block a reorganisation could replace).
    expect(check).toEqual({ status: 'pending', reason: 'not_finalized' });

    while (check.status === 'pending') {
      if (Date.now() > deadline) throw new Error(`the reveal never became final: ${JSON.stringify(check)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      check = await chain.confirmReveal!(pending.record);
    }
    if (check.status !== 'revealed') throw new Error(`expected revealed, got ${JSON.stringify(check)}`);
    expect(devnet.finalizedNumber()).toBeGreaterThanOrEqual(Number(check.block));
    expect(check.block).toBeGreaterThanOrEqual(pending.dueBlock - 1n);
  }, 120_000);
});
