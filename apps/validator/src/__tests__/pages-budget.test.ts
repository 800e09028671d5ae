import { describe, expect, it } from 'vitest';

import { PAGES_BURST_MS, PAGES_LOOP_SHARE, pageBudget } from '../pages/validator-pages.js';

/**
 * The pages' budget of loop time (docs/spec.md G.14) on a clock the test moves: the same arithmetic `pages-load.test.ts`
 * shows over HTTP, without depending on how long a page takes on this machine.
 */
function clocked(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

/** Builds one page that takes `ms` of the clock, all of it loop time. */
function build(budget: ReturnType<typeof pageBudget>, clock: ReturnType<typeof clocked>, ms: number): ReturnType<ReturnType<typeof pageBudget>['start']> {
  const admitted = budget.start();
  if (admitted.build) {
    clock.advance(ms);
    budget.finish(ms);
  }
  return admitted;
}

describe('the pages spend a budget of loop time (docs/spec.md G.14)', () => {
  it('pages back to back are built until the burst is spent, net of what their own time refilled; the next is refused until it is back', () => {
    const clock = clocked();
    const budget = pageBudget(clock.now);
    // The budget starts full and never holds more than the burst, so the first 300 ms page's refill is lost to the
    // cap (2000 - 300 = 1700); each later one spends 300 and refills 150 while it is built: 1700 - 12 x 150 = -100
    // after the 13th.
    expect(PAGES_BURST_MS).toBe(2000);
    expect(PAGES_LOOP_SHARE).toBe(0.5);
    for (let i = 0; i < 13; i++) expect(build(budget, clock, 300), `page ${i + 1}`).toEqual({ build: true });
    // -100 ms: back above zero after 200 ms of the clock, said in whole seconds.
    expect(build(budget, clock, 300)).toEqual({ build: false, retryAfterSeconds: 1 });
    clock.advance(199);
    expect(budget.start().build).toBe(false);
    clock.advance(2);
    expect(budget.start()).toEqual({ build: true });
  });

  it('Retry-After is the whole seconds until the budget is back above zero, and a page asked for then is built', () => {
    const clock = clocked();
    const budget = pageBudget(clock.now);
    // One page that took 7 s (a stalled storage read counted as loop time): 2000 - 7000 = -5000, its own refill lost to
    // the cap; back above zero after 10 s.
    expect(build(budget, clock, 7_000)).toEqual({ build: true });
    expect(budget.start()).toEqual({ build: false, retryAfterSeconds: 10 });
    clock.advance(9_999);
    expect(budget.start()).toEqual({ build: false, retryAfterSeconds: 1 });
    clock.advance(2);
    expect(budget.start()).toEqual({ build: true });
  });

  it('one page at a time: a page asked for while another is built waits 1 s, whatever the budget', () => {
    const clock = clocked();
    const budget = pageBudget(clock.now);
    expect(budget.start()).toEqual({ build: true });
    expect(budget.start()).toEqual({ build: false, retryAfterSeconds: 1 });
    clock.advance(10);
    budget.finish(10);
    expect(budget.start()).toEqual({ build: true });
  });

  it('the budget never holds more than the burst, however long the pages were idle', () => {
    const clock = clocked();
    const budget = pageBudget(clock.now);
    clock.advance(3_600_000);
    // After an idle hour one page may still spend only the burst before the next is refused.
    expect(build(budget, clock, 2 * PAGES_BURST_MS)).toEqual({ build: true });
    expect(budget.start().build).toBe(false);
  });
});
