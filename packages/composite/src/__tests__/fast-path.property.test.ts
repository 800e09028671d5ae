import { isSubnetError } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { scoreParsed } from '../count-parsed.js';
import { fastScoreRaw } from '../fast-record.js';
import { compiledPlanOf, parseExecutionRecord, parseWorkflowPlan, parseWorkflowTask, type CompiledPlan } from '../parse-workflow.js';
import { HARD, RETRIES, SCORE, STEPS, TIMEOUTS } from '../score-slots.js';
import { hostileValueArb, mutateCopy, pathArb } from './helpers.js';

/**
 * Issue 18 item 5: the hand-written fast validator must accept exactly the inputs the zod path accepts
 * (core's shape limits, the schema, one form, attempt numbers 1..k, known nodes, producible counters),
 * and score them the same. Random valid records and random mutations of them go through both.
 */
const task = parseWorkflowTask({ task_id: 't', constraints: { max_budget_tao: 1, max_latency_seconds: 100 } });
const IDS = ['a', 'b', '__proto__', 'constructor'];

const planArb = fc
  .record({
    n: fc.integer({ min: 1, max: 4 }),
    retries: fc.array(fc.option(fc.integer({ min: 0, max: 2 })), { minLength: 4, maxLength: 4 }),
    timeouts: fc.array(fc.option(fc.double({ min: 0.5, max: 5, noNaN: true })), { minLength: 4, maxLength: 4 }),
  })
  .map(({ n, retries, timeouts }) => {
    const ids = IDS.slice(0, n);
    const errorHandling: Record<string, unknown> = {};
    ids.forEach((id, i) => {
      const entry: Record<string, number> = {};
      if (retries[i] !== null) entry.retry_count = retries[i]!;
      if (timeouts[i] !== null) entry.timeout_seconds = timeouts[i]!;
      Object.defineProperty(errorHandling, id, { value: entry, enumerable: true, writable: true, configurable: true });
    });
    return { nodes: ids.map((id) => ({ id })), error_handling: errorHandling };
  });

const statusArb = fc.constantFrom('success', 'failure', 'timeout');
const attemptsArb = fc.array(fc.record({ node: fc.integer({ min: 0, max: 3 }), status: statusArb, seconds: fc.double({ min: 0, max: 8, noNaN: true }) }), {
  maxLength: 8,
});

/** A valid record for a plan of `n` nodes: attempts numbered 1..k per node (listed in a shuffled order), or counters. */
function validRecord(
  n: number,
  attempts: { node: number; status: string; seconds: number }[],
  quality: number,
  precounted: number[] | null,
): Record<string, unknown> {
  const base = { output_quality_score: quality, actual_tao: 0.25, actual_seconds: 30 };
  if (precounted !== null) {
    const [steps = 0, retries = 0, timeouts = 0, hard = 0] = precounted;
    return { ...base, steps_completed: Math.min(steps, n), actual_retries: retries, timeouts, hard_failures: hard };
  }
  const counts = new Map<number, number>();
  const listed = attempts
    .filter((a) => a.node < n)
    .map((a) => {
      const k = (counts.get(a.node) ?? 0) + 1;
      counts.set(a.node, k);
      return { node_id: IDS[a.node]!, attempt: k, status: a.status, seconds: a.seconds };
    });
  return { ...base, attempts: listed.reverse() };
}

const paths = pathArb(
  [
    'attempts',
    'output_quality_score',
    'actual_tao',
    'actual_seconds',
    'steps_completed',
    'timeouts',
    'node_id',
    'attempt',
    'status',
    'seconds',
    '__proto__',
    'extra',
  ],
  3,
);

function slowPath(compiled: CompiledPlan, raw: unknown): { valid: boolean; numbers?: number[] } {
  try {
    scoreParsed(task, compiled, parseExecutionRecord(raw));
    return { valid: true, numbers: [SCORE, STEPS, RETRIES, TIMEOUTS, HARD].map((slot) => compiled.out[slot]!) };
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    return { valid: false };
  }
}

function fastPath(compiled: CompiledPlan, raw: unknown): { valid: boolean; numbers?: number[] } {
  return fastScoreRaw(task, compiled, raw)
    ? { valid: true, numbers: [SCORE, STEPS, RETRIES, TIMEOUTS, HARD].map((slot) => compiled.out[slot]!) }
    : { valid: false };
}

describe('issue 18 item 5: the fast record validator and the zod path accept exactly the same records', () => {
  it('agree on random valid records (both accept, same score and counters)', () => {
    fc.assert(
      fc.property(
        planArb,
        attemptsArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.option(fc.array(fc.nat(5), { minLength: 4, maxLength: 4 })),
        (plan, attempts, quality, pre) => {
          const compiled = compiledPlanOf(parseWorkflowPlan(plan))!;
          const raw = validRecord(plan.nodes.length, attempts, quality, pre);
          expect(fastPath(compiled, raw)).toEqual(slowPath(compiled, raw));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('agree on random mutations of valid records (a field removed, retyped, out of range, a prototype key, a lone surrogate, a Date)', () => {
    fc.assert(
      fc.property(
        planArb,
        attemptsArb,
        fc.option(fc.array(fc.nat(5), { minLength: 4, maxLength: 4 }), { freq: 4 }),
        paths,
        hostileValueArb,
        fc.boolean(),
        (plan, attempts, pre, path, value, remove) => {
          const compiled = compiledPlanOf(parseWorkflowPlan(plan))!;
          const raw = mutateCopy(validRecord(plan.nodes.length, attempts, 0.9, pre), path, value, remove);
          expect(fastPath(compiled, raw)).toEqual(slowPath(compiled, raw));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('agree on attempt numbers that skip or repeat, and on unknown nodes', () => {
    fc.assert(
      fc.property(
        planArb,
        fc.array(fc.record({ node: fc.integer({ min: 0, max: 4 }), attempt: fc.integer({ min: 0, max: 4 }), status: statusArb }), { maxLength: 6 }),
        (plan, list) => {
          const compiled = compiledPlanOf(parseWorkflowPlan(plan))!;
          const raw = {
            output_quality_score: 1,
            actual_tao: 0,
            actual_seconds: 0,
            attempts: list.map((a) => ({ node_id: [...IDS, 'ghost'][a.node]!, attempt: a.attempt, status: a.status, seconds: 1 })),
          };
          expect(fastPath(compiled, raw)).toEqual(slowPath(compiled, raw));
        },
      ),
      { numRuns: 600 },
    );
  });

  it('agree around the one-pass limit of 31 attempts on a node (30 to 34 attempts, shuffled, one repeated, skipped or out of range)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 28, max: 34 }),
        fc.constantFrom('none', 'repeat', 'skip', 'zero', 'beyond'),
        fc.nat(40),
        fc.array(fc.nat(), { minLength: 34, maxLength: 34 }),
        (k, fault, at, order) => {
          const compiled = compiledPlanOf(parseWorkflowPlan({ nodes: [{ id: 'a' }, { id: 'b' }], error_handling: { a: { retry_count: 40 } } }))!;
          const numbers = Array.from({ length: k }, (_, i) => i + 1);
          const i = at % k;
          if (fault === 'repeat') numbers[i] = numbers[(i + 1) % k]!;
          if (fault === 'skip') numbers[i] = k + 1;
          if (fault === 'zero') numbers[i] = 0;
          if (fault === 'beyond') numbers[i] = 2 ** 31 + i;
          const attempts = numbers
            .map((attempt, j) => ({ node_id: 'a', attempt, status: attempt === k ? 'success' : 'timeout', seconds: j % 3, rank: order[j]! }))
            .sort((x, y) => x.rank - y.rank)
            .map(({ rank: _rank, ...attempt }) => attempt);
          attempts.push({ node_id: 'b', attempt: 1, status: 'success', seconds: 1 });
          const raw = { output_quality_score: 1, actual_tao: 0, actual_seconds: 0, attempts };
          const fast = fastPath(compiled, raw);
          expect(fast).toEqual(slowPath(compiled, raw));
          expect(fast.valid).toBe(fault === 'none');
        },
      ),
      { numRuns: 300 },
    );
  });
});
