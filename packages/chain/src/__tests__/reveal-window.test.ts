import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { EpochState } from '../metagraph-snapshot.js';
import { epochAtBlock, revealWindow } from '../reveal-window.js';

const fresh: EpochState = { subnetEpochIndex: 0n, lastEpochBlock: 0n, pendingEpochAt: 0n, blocksSinceLastStep: 0n };

describe('reveal window (README 2.4: reveal only in epoch commit_epoch + RevealPeriodEpochs; 2.6 epochs)', () => {
  it('stateful schedule: tempo 10 from genesis fires epochs at blocks 10, 20, ...', () => {
    const input = { netuid: 1, tempo: 10, head: 5n, epoch: fresh };
    expect([9n, 10n, 19n, 20n, 29n].map((b) => epochAtBlock(input, b))).toEqual([0n, 1n, 1n, 2n, 2n]);
    expect(revealWindow(input, 0n, 1n)).toEqual({ epoch: 1n, firstBlock: 10n, lastBlock: 19n });
    expect(revealWindow(input, 0n, 2n)).toEqual({ epoch: 2n, firstBlock: 20n, lastBlock: 29n });
  });
  it('an owner-triggered epoch (PendingEpochAt) moves the schedule', () => {
    const input = { netuid: 1, tempo: 10, head: 5n, epoch: { ...fresh, pendingEpochAt: 7n } };
    expect(epochAtBlock(input, 7n)).toBe(1n);
    expect(revealWindow(input, 0n, 1n)).toEqual({ epoch: 1n, firstBlock: 7n, lastBlock: 16n });
  });
  it('a window already open starts at head + 1; a window already past, or beyond the horizon, is null', () => {
    expect(revealWindow({ netuid: 1, tempo: 10, head: 12n, epoch: { ...fresh, subnetEpochIndex: 1n, lastEpochBlock: 10n } }, 0n, 1n)).toEqual({
      epoch: 1n,
      firstBlock: 13n,
      lastBlock: 19n,
    });
    expect(revealWindow({ netuid: 1, tempo: 10, head: 25n, epoch: { ...fresh, subnetEpochIndex: 2n, lastEpochBlock: 20n } }, 0n, 1n)).toBeNull();
    expect(revealWindow({ netuid: 1, tempo: 360, head: 5n, epoch: fresh }, 0n, 1n, 100)).toBeNull();
  });
  it('tempo 0 never reaches a new epoch', () => {
    expect(epochAtBlock({ netuid: 1, tempo: 0, head: 5n, epoch: fresh }, 500n)).toBe(0n);
    expect(revealWindow({ netuid: 1, tempo: 0, head: 5n, epoch: fresh }, 0n, 1n, 1000)).toBeNull();
  });
  it('legacy runtimes (no SubnetEpochIndex): epoch(b) = (b + netuid + 1) / (tempo + 1)', () => {
    const legacy: EpochState = { subnetEpochIndex: null, lastEpochBlock: null, pendingEpochAt: null, blocksSinceLastStep: null };
    const input = { netuid: 1, tempo: 10, head: 3n, epoch: legacy };
    expect(epochAtBlock(input, 8n)).toBe(0n);
    expect(epochAtBlock(input, 9n)).toBe(1n);
    expect(revealWindow(input, 0n, 1n)).toEqual({ epoch: 1n, firstBlock: 9n, lastBlock: 19n });
  });
  it('property: every block of the window is in the target epoch and the blocks just outside it are not (agrees with epochAtBlock block by block)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 3 }),
        fc.boolean(),
        (tempo, head, sinceLast, commitEpoch, period, legacy) => {
          const epoch: EpochState = legacy
            ? { subnetEpochIndex: null, lastEpochBlock: null, pendingEpochAt: null, blocksSinceLastStep: null }
            : {
                subnetEpochIndex: BigInt(commitEpoch),
                lastEpochBlock: BigInt(Math.max(0, head - (sinceLast % tempo))),
                pendingEpochAt: 0n,
                blocksSinceLastStep: BigInt(sinceLast % tempo),
              };
          const input = { netuid: 1, tempo, head: BigInt(head), epoch };
          const target = BigInt(commitEpoch + period);
          const w = revealWindow(input, BigInt(commitEpoch), BigInt(period), 2_000);
          // slow reference: scan block by block
          const inTarget: bigint[] = [];
          for (let b = BigInt(head) + 1n; b <= BigInt(head) + 2_000n; b += 1n) if (epochAtBlock(input, b) === target) inTarget.push(b);
          if (w === null) {
            expect(inTarget).toEqual([]);
            return;
          }
          expect(w.epoch).toBe(target);
          expect(w.firstBlock).toBe(inTarget[0]);
          expect(w.lastBlock).toBe(inTarget[inTarget.length - 1]);
          expect(BigInt(inTarget.length)).toBe(w.lastBlock - w.firstBlock + 1n);
        },
      ),
      { numRuns: 60 },
    );
  });
});
