import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { compositeScore, parseExecutionRecord, parseWorkflowPlan, parseWorkflowTask, scoreWorkflow } from '../index.js';
import type { RawAttempt, Status } from './helpers.js';

interface Scenario {
  task: { task_id: string; constraints: { max_budget_tao: number; max_latency_seconds: number } };
  plan: {
    nodes: { id: string }[];
    edges: { from: string; to: string }[];
    error_handling: Record<string, { retry_count?: number; timeout_seconds?: number }>;
  };
  quality: number;
  actualTao: number;
  actualSeconds: number;
  attempts: RawAttempt[];
}

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const amount = fc.double({ min: 0, max: 20, noNaN: true });
const limit = fc.double({ min: 1e-3, max: 20, noNaN: true });

/** A random DAG (edges only go from a lower to a higher index), error_handling and attempts, listed shuffled. */
const scenarioArb: fc.Arbitrary<Scenario> = fc.integer({ min: 1, max: 8 }).chain((n) =>
  fc
    .record({
      pairs: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 12 }),
      handling: fc.array(fc.option(fc.record({ retry: fc.option(fc.nat(3)), timeout: fc.option(fc.integer({ min: 1, max: 10 })) })), {
        minLength: n,
        maxLength: n,
      }),
      perNode: fc.array(
        fc.array(fc.record({ status: fc.constantFrom<Status>('success', 'failure', 'timeout'), seconds: fc.double({ min: 0, max: 15, noNaN: true }) }), {
          maxLength: 4,
        }),
        { minLength: n, maxLength: n },
      ),
      shuffleKeys: fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
      quality: unit,
      actualTao: amount,
      actualSeconds: amount,
      budget: limit,
      maxSeconds: limit,
    })
    .map(({ pairs, handling, perNode, shuffleKeys, quality, actualTao, actualSeconds, budget, maxSeconds }) => {
      const id = (i: number) => `n${i}`;
      const seen = new Set<string>();
      const edges: { from: string; to: string }[] = [];
      for (const [x, y] of pairs) {
        if (x === y) continue;
        const [from, to] = x < y ? [x, y] : [y, x];
        const key = `${from}>${to}`;
        if (seen.has(key)) continue;
        seen.add(key);
        edges.push({ from: id(from), to: id(to) });
      }
      const errorHandling: Scenario['plan']['error_handling'] = {};
      handling.forEach((entry, i) => {
        if (entry === null) return;
        errorHandling[id(i)] = {
          ...(entry.retry === null ? {} : { retry_count: entry.retry }),
          ...(entry.timeout === null ? {} : { timeout_seconds: entry.timeout }),
        };
      });
      const listed = perNode.flatMap((list, i) => list.map((a, k) => ({ node_id: id(i), attempt: k + 1, status: a.status, seconds: a.seconds })));
      const attempts = listed
        .map((a, i) => ({ a, key: shuffleKeys[i % shuffleKeys.length]! * 64 + i }))
        .sort((x, y) => x.key - y.key)
        .map(({ a }) => a);
      return {
        task: { task_id: 'prop', constraints: { max_budget_tao: budget, max_latency_seconds: maxSeconds } },
        plan: { nodes: Array.from({ length: n }, (_, i) => ({ id: id(i) })), edges, error_handling: errorHandling },
        quality,
        actualTao,
        actualSeconds,
        attempts,
      };
    }),
);

const recordOf = (s: Scenario, overrides: Partial<Pick<Scenario, 'quality' | 'actualTao' | 'actualSeconds' | 'attempts'>> = {}) => ({
  output_quality_score: overrides.quality ?? s.quality,
  actual_tao: overrides.actualTao ?? s.actualTao,
  actual_seconds: overrides.actualSeconds ?? s.actualSeconds,
  attempts: overrides.attempts ?? s.attempts,
});

/** The obviously-correct reference: SPEC A's counter rules, written out per node with filters. */
function referenceCounters(s: Scenario) {
  let stepsCompleted = 0;
  let actualRetries = 0;
  let hardFailures = 0;
  for (const node of s.plan.nodes) {
    const mine = s.attempts.filter((a) => a.node_id === node.id);
    if (mine.length === 0) continue;
    const last = mine.reduce((best, a) => (a.attempt > best.attempt ? a : best));
    const retryCount = s.plan.error_handling[node.id]?.retry_count ?? 0;
    actualRetries += mine.length - 1;
    if (last.status === 'success') stepsCompleted++;
    else if (mine.length >= retryCount + 1) hardFailures++;
  }
  const timeouts = s.attempts.filter((a) => {
    const limitSeconds = s.plan.error_handling[a.node_id]?.timeout_seconds;
    return a.status === 'timeout' || (limitSeconds !== undefined && a.seconds > limitSeconds);
  }).length;
  const declaredRetryBudget = Object.values(s.plan.error_handling).reduce((sum, e) => sum + (e.retry_count ?? 0), 0);
  return { stepsCompleted, actualRetries, timeouts, hardFailures, declaredRetryBudget };
}

const counted = (s: Scenario, c: { stepsCompleted: number; actualRetries: number; timeouts: number; hardFailures: number }, quality = s.quality) => ({
  output_quality_score: quality,
  actual_tao: s.actualTao,
  actual_seconds: s.actualSeconds,
  steps_completed: c.stepsCompleted,
  actual_retries: c.actualRetries,
  timeouts: c.timeouts,
  hard_failures: c.hardFailures,
});

const score = (s: Scenario, record: unknown) => scoreWorkflow({ task: s.task, plan: s.plan, record });

describe('SPEC A properties (fast-check)', () => {
  it('score in [0, 1], every component in [0, 1], counters as the reference derives them', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const result = score(s, recordOf(s));
        expect(result.score).toBeGreaterThanOrEqual(0);
        expect(result.score).toBeLessThanOrEqual(1);
        for (const value of Object.values(result.components)) {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
        }
        const ref = referenceCounters(s);
        expect(result.counters).toEqual({
          stepsCompleted: ref.stepsCompleted,
          totalSteps: s.plan.nodes.length,
          actualRetries: ref.actualRetries,
          declaredRetryBudget: ref.declaredRetryBudget,
          unplannedRetries: Math.max(0, ref.actualRetries - ref.declaredRetryBudget),
          timeouts: ref.timeouts,
          hardFailures: ref.hardFailures,
        });
      }),
      { numRuns: 300 },
    );
  });

  it('non-decreasing in output quality', () => {
    fc.assert(
      fc.property(scenarioArb, unit, unit, (s, q1, q2) => {
        const [lo, hi] = q1 <= q2 ? [q1, q2] : [q2, q1];
        expect(score(s, recordOf(s, { quality: lo })).score).toBeLessThanOrEqual(score(s, recordOf(s, { quality: hi })).score);
      }),
      { numRuns: 200 },
    );
  });

  it('non-increasing in cost (actual_tao) and in latency (actual_seconds)', () => {
    fc.assert(
      fc.property(scenarioArb, amount, amount, (s, x1, x2) => {
        const [lo, hi] = x1 <= x2 ? [x1, x2] : [x2, x1];
        expect(score(s, recordOf(s, { actualTao: hi })).score).toBeLessThanOrEqual(score(s, recordOf(s, { actualTao: lo })).score);
        expect(score(s, recordOf(s, { actualSeconds: hi })).score).toBeLessThanOrEqual(score(s, recordOf(s, { actualSeconds: lo })).score);
      }),
      { numRuns: 200 },
    );
  });

  it('non-increasing in unplanned retries, timeouts and hard failures (pre-counted, one counter raised at a time)', () => {
    fc.assert(
      fc.property(scenarioArb, fc.nat(6), fc.nat(6), fc.nat(8), (s, extraRetries, extraTimeouts, extraHard) => {
        const ref = referenceCounters(s);
        const n = s.plan.nodes.length;
        // Enough retries for any number of hard failures, so every variant below is a valid record.
        const base = { ...ref, actualRetries: ref.actualRetries + ref.declaredRetryBudget };
        const baseScore = score(s, counted(s, base));
        const moreRetries = score(s, counted(s, { ...base, actualRetries: base.actualRetries + extraRetries }));
        expect(moreRetries.counters.unplannedRetries).toBeGreaterThanOrEqual(baseScore.counters.unplannedRetries);
        expect(moreRetries.score).toBeLessThanOrEqual(baseScore.score);
        const maxTimeouts = base.actualRetries + n;
        const moreTimeouts = score(s, counted(s, { ...base, timeouts: Math.min(maxTimeouts, base.timeouts + extraTimeouts) }));
        expect(moreTimeouts.score).toBeLessThanOrEqual(baseScore.score);
        const maxHard = n - base.stepsCompleted;
        const moreHard = score(s, counted(s, { ...base, hardFailures: Math.min(maxHard, base.hardFailures + extraHard) }));
        expect(moreHard.score).toBeLessThanOrEqual(baseScore.score);
      }),
      { numRuns: 200 },
    );
  });

  it('invariant to the order attempts are listed in', () => {
    fc.assert(
      fc.property(scenarioArb, fc.array(fc.nat(), { minLength: 40, maxLength: 40 }), (s, keys) => {
        const shuffled = s.attempts
          .map((a, i) => ({ a, key: keys[i % keys.length]! * 64 + i }))
          .sort((x, y) => x.key - y.key)
          .map(({ a }) => a);
        expect(score(s, recordOf(s, { attempts: shuffled }))).toEqual(score(s, recordOf(s)));
        expect(score(s, recordOf(s, { attempts: [...s.attempts].reverse() }))).toEqual(score(s, recordOf(s)));
      }),
      { numRuns: 200 },
    );
  });

  it('attempts-derived and pre-counted input agree (pre-counted from the reference counters)', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const fromAttempts = score(s, recordOf(s));
        const fromCounters = score(s, counted(s, referenceCounters(s)));
        expect(fromCounters.score).toBe(fromAttempts.score);
        expect(fromCounters.components).toEqual(fromAttempts.components);
        expect(fromCounters.gates).toEqual(fromAttempts.gates);
        expect(fromCounters.counters).toEqual(fromAttempts.counters);
        expect(fromCounters.explanation.slice(1, 9)).toEqual(fromAttempts.explanation.slice(1, 9));
      }),
      { numRuns: 300 },
    );
  });

  it('raw and parsed inputs give identical results, and compositeScore agrees bit for bit', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const raw = { task: s.task, plan: s.plan, record: recordOf(s) };
        const parsed = { task: parseWorkflowTask(s.task), plan: parseWorkflowPlan(s.plan), record: parseExecutionRecord(recordOf(s)) };
        const result = scoreWorkflow(raw);
        expect(scoreWorkflow(parsed)).toEqual(result);
        expect(Object.is(compositeScore(parsed), result.score)).toBe(true);
        expect(Object.is(compositeScore(raw), result.score)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('is deterministic: scoring the same input twice gives the same JSON', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        expect(JSON.stringify(score(s, recordOf(s)))).toBe(JSON.stringify(score(s, structuredClone(recordOf(s)))));
      }),
      { numRuns: 100 },
    );
  });
});
