/**
 * `tick()` runs one step at a time: calls made while a step runs each wait for the steps before them, so the head is
 * never read by two steps at once and an epoch is never closed twice in parallel.
 */
import { describe, expect, it } from 'vitest';

import { fakeChain, setupValidator, useCleanups, useKeys } from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

describe('ValidatorService.tick()', () => {
  it('three calls made at once run three steps one after another, never two at once', async () => {
    const { start } = await setupValidator(cleanups, false);
    const chain = fakeChain(k);
    const service = await start(chain);
    // Each step begins with a head read: count the reads running at once, each held 30 ms (a slow node).
    const read = chain.head.bind(chain);
    let running = 0;
    let most = 0;
    let reads = 0;
    chain.head = async () => {
      running += 1;
      reads += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 30));
      running -= 1;
      return read();
    };
    await Promise.all([service.tick(), service.tick(), service.tick()]);
    // Before: the second and third calls both waited for the first step, then started theirs together (most: 2).
    expect(reads).toBe(3);
    expect(most).toBe(1);
  });
});
