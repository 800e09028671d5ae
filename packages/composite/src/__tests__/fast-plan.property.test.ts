import { isSubnetError } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { compileRawPlan } from '../fast-plan.js';
import { fastPlanShape } from '../fast-shapes.js';
import { compiledPlanOf, parseWorkflowPlan, type CompiledPlan } from '../parse-workflow.js';
import { scoreWorkflow } from '../score-workflow.js';
import { hostileValueArb, mutateCopy, pathArb } from './helpers.js';
import { planArb } from './plan-arbitraries.js';

/**
 * `scoreWorkflow` and `compositeScore` compile a raw plan for one evaluation (`compileRawPlan`) instead of building
 * the frozen copy `parseWorkflowPlan` keeps. That path must accept only plans `parseWorkflowPlan` accepts, give the
 * same compiled numbers, take every plan the fast shape reader takes that passes the DAG rules (so it is the path
 * raw plans take), and leave nothing of one plan in the next one's scratch.
 */

/** What a compiled plan says about its plan (not the scratch an evaluation writes). */
function planPicture(compiled: CompiledPlan): unknown {
  return {
    totalSteps: compiled.totalSteps,
    index: [...compiled.index],
    nodeIds: [...compiled.nodeIds],
    retryCount: [...compiled.retryCount],
    timeoutSeconds: [...compiled.timeoutSeconds],
    declaredRetryBudget: compiled.declaredRetryBudget,
    minRetriesForHardFailures: [...compiled.minRetriesForHardFailures],
  };
}

type Outcome = { accepted: false } | { accepted: true; picture: unknown };

function viaParse(raw: unknown): Outcome {
  try {
    const compiled = compiledPlanOf(parseWorkflowPlan(raw));
    if (compiled === undefined) throw new Error('a parsed plan is compiled');
    return { accepted: true, picture: planPicture(compiled) };
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    return { accepted: false };
  }
}

/** The raw-plan path against parseWorkflowPlan on one input; returns whether the raw path took it. */
function agree(raw: unknown): boolean {
  const fast = compileRawPlan(raw);
  const fastPicture = fast === undefined ? undefined : planPicture(fast);
  const slow = viaParse(raw);
  if (fastPicture !== undefined) expect(slow).toEqual({ accepted: true, picture: fastPicture });
  // Everything the shape reader takes and the DAG rules pass goes the raw way (what the reader leaves to zod may not).
  else if (slow.accepted) expect(fastPlanShape(raw)).toBeUndefined();
  return fastPicture !== undefined;
}

const paths = pathArb(['nodes', 'edges', 'error_handling', 'id', 'from', 'to', 'retry_count', 'timeout_seconds', '__proto__', 'a', 'b', 'extra'], 4);

describe('the raw-plan path of scoreWorkflow compiles what parseWorkflowPlan compiles, and only that', () => {
  it('agrees on random plans (self edges, repeated edges and cycles among prototype-named nodes, unknown keys everywhere)', () => {
    let taken = 0;
    fc.assert(
      fc.property(planArb, (plan) => {
        if (agree(plan)) taken++;
      }),
      { numRuns: 800 },
    );
    // The arbitrary makes valid plans often enough that the raw path is exercised, not just refused.
    expect(taken).toBeGreaterThan(100);
  });

  it('agrees on random mutations (a field removed, retyped, out of range, not a plain object, a Date, inherited keys)', () => {
    fc.assert(
      fc.property(planArb, paths, hostileValueArb, fc.boolean(), (plan, path, value, remove) => {
        agree(mutateCopy(plan, path, value, remove));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses each DAG rule parseWorkflowPlan refuses, and takes the plan once it is mended', () => {
    const nodes = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    const broken: [string, unknown][] = [
      ['no nodes', { nodes: [] }],
      ['a duplicate node id', { nodes: [{ id: 'a' }, { id: 'a' }] }],
      ['an edge from an unknown node', { nodes, edges: [{ from: 'x', to: 'a' }] }],
      ['an edge to an unknown node', { nodes, edges: [{ from: 'a', to: 'x' }] }],
      ['a self edge', { nodes, edges: [{ from: 'b', to: 'b' }] }],
      [
        'a repeated edge',
        {
          nodes,
          edges: [
            { from: 'a', to: 'b' },
            { from: 'b', to: 'c' },
            { from: 'a', to: 'b' },
          ],
        },
      ],
      [
        'a cycle',
        {
          nodes,
          edges: [
            { from: 'a', to: 'b' },
            { from: 'b', to: 'c' },
            { from: 'c', to: 'a' },
          ],
        },
      ],
      [
        'a two-node cycle after an acyclic part',
        {
          nodes,
          edges: [
            { from: 'a', to: 'b' },
            { from: 'b', to: 'c' },
            { from: 'c', to: 'b' },
          ],
        },
      ],
      ['an error_handling key that is not a node', { nodes, error_handling: { x: { retry_count: 1 } } }],
      ['an error_handling key __proto__ that is not a node', JSON.parse('{"nodes":[{"id":"a"}],"error_handling":{"__proto__":{"retry_count":1}}}')],
      ['retry counts past 2^53 - 1', { nodes, error_handling: { a: { retry_count: 2 ** 52 }, c: { retry_count: 2 ** 52 } } }],
    ];
    for (const [why, raw] of broken) {
      expect([why, compileRawPlan(raw)]).toEqual([why, undefined]);
      expect([why, viaParse(raw).accepted]).toEqual([why, false]);
    }
    const mended: unknown[] = [
      {
        nodes,
        edges: [
          { from: 'a', to: 'b' },
          { from: 'b', to: 'c' },
          { from: 'a', to: 'c' },
        ],
      },
      { nodes, error_handling: { a: { retry_count: 2 ** 52 }, c: { retry_count: 2 ** 52 - 1 } } },
      JSON.parse('{"nodes":[{"id":"__proto__"}],"error_handling":{"__proto__":{"retry_count":1,"timeout_seconds":2}}}'),
    ];
    for (const raw of mended) expect(agree(raw)).toBe(true);
  });

  it('leaves nothing of one plan in the next plan of the same size (retry counts, timeouts, edges)', () => {
    const task = { task_id: 't', constraints: { max_budget_tao: 1, max_latency_seconds: 60 } };
    const record = {
      output_quality_score: 0.9,
      actual_tao: 0.2,
      actual_seconds: 30,
      attempts: [
        { node_id: 'a', attempt: 1, status: 'failure', seconds: 5 },
        { node_id: 'a', attempt: 2, status: 'success', seconds: 5 },
        { node_id: 'b', attempt: 1, status: 'success', seconds: 5 },
      ],
    };
    const strict = { nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }], error_handling: { a: { retry_count: 3, timeout_seconds: 1 } } };
    const plain = { nodes: [{ id: 'a' }, { id: 'b' }] };
    const expected = scoreWorkflow({ task, plan: parseWorkflowPlan(plain), record });
    scoreWorkflow({ task, plan: strict, record });
    expect(scoreWorkflow({ task, plan: plain, record })).toEqual(expected);
    // The plain plan declares no retries and no timeout: one unplanned retry, no timeout.
    expect([expected.counters.declaredRetryBudget, expected.counters.unplannedRetries, expected.counters.timeouts]).toEqual([0, 1, 0]);
    expect(scoreWorkflow({ task, plan: strict, record })).toEqual(scoreWorkflow({ task, plan: parseWorkflowPlan(strict), record }));
  });
});
