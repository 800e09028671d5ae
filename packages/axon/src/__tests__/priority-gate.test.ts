import { describe, expect, it } from 'vitest';

import { createPriorityGate } from '../priority-gate.js';

describe('priority by stake (the SDK priority thread pool)', () => {
  it('admits at most `slots` at once and serves waiters by descending priority, then arrival', async () => {
    const gate = createPriorityGate(1);
    const order: string[] = [];
    const first = await gate.enter(0);
    const waiters = [
      ['low', 1],
      ['high', 100],
      ['mid', 10],
      ['high-later', 100],
    ].map(async ([name, priority]) => {
      const release = await gate.enter(priority as number);
      order.push(name as string);
      release();
    });
    first();
    await Promise.all(waiters);
    expect(order).toEqual(['high', 'high-later', 'mid', 'low']);
  });

  it('a release called twice frees one slot only', async () => {
    const gate = createPriorityGate(1);
    const release = await gate.enter(0);
    release();
    release();
    const a = await gate.enter(0);
    let second = false;
    void gate.enter(0).then(() => {
      second = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(second).toBe(false);
    a();
  });
});
