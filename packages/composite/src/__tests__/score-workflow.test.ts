import { describe, expect, it } from 'vitest';

import { compositeScore, parseExecutionRecord, parseWorkflowPlan, parseWorkflowTask, scoreWorkflow } from '../index.js';
import { attempt, chain, preCounted, task, withAttempts } from './helpers.js';

const ONE = chain(['a']);
const okA = [attempt('a', 1, 'success')];

describe('SPEC A composite: S = 0.50*S_success + 0.25*S_cost + 0.15*S_latency + 0.10*S_reliability', () => {
  it('golden: one node, everything scored: 0.50 * 0.9 + 0.25 * (1 - 0.2 / 1) + 0.15 * (1 - 30 / 60) + 0.10 * 1', () => {
    const result = scoreWorkflow({ task: task(1, 60), plan: ONE, record: withAttempts(0.9, 0.2, 30, okA) });
    expect(result.components).toEqual({ success: 0.9 * 1, cost: 1 - 0.2 / 1, latency: 1 - 30 / 60, reliability: 1 });
    expect(result.score).toBe(0.5 * 0.9 + 0.25 * 0.8 + 0.15 * 0.5 + 0.1 * 1);
    expect(result.score).toBe(0.825);
  });

  it('golden (seed: partial DAG completion): 4 steps, 3 completed before a hard failure = 0.5 * (0.9 * 0.75) + 0.10 * 0.5', () => {
    const plan = chain(['a', 'b', 'c', 'd']);
    const record = withAttempts(0.9, 0.1, 10, [attempt('a', 1, 'success'), attempt('b', 1, 'success'), attempt('c', 1, 'success'), attempt('d', 1, 'failure')]);
    const result = scoreWorkflow({ task: task(), plan, record });
    expect(result.completionRatio).toBe(0.75);
    expect(result.counters).toEqual({
      stepsCompleted: 3,
      totalSteps: 4,
      actualRetries: 0,
      declaredRetryBudget: 0,
      unplannedRetries: 0,
      timeouts: 0,
      hardFailures: 1,
    });
    expect(result.components.success).toBe(0.9 * 0.75);
    expect(result.gates).toEqual({ costScored: false, latencyScored: false });
    expect(result.components.reliability).toBe(1 - (0 * 0.1 + 0 * 0.2 + 1 * 0.5));
    expect(result.score).toBe(0.5 * (0.9 * 0.75) + 0.25 * 0 + 0.15 * 0 + 0.1 * 0.5);
  });

  it('golden (README worked example): retries, timeouts and a declared budget shared across nodes', () => {
    const plan = {
      nodes: [{ id: 'fetch' }, { id: 'analyse' }, { id: 'report' }],
      edges: [
        { from: 'fetch', to: 'analyse' },
        { from: 'analyse', to: 'report' },
      ],
      error_handling: { fetch: { retry_count: 2, timeout_seconds: 10 }, analyse: { retry_count: 0, timeout_seconds: 20 } },
    };
    const record = withAttempts(0.92, 0.3, 36, [
      attempt('fetch', 1, 'timeout', 12),
      attempt('fetch', 2, 'success', 4),
      attempt('analyse', 1, 'success', 25),
      attempt('report', 1, 'failure', 3),
      attempt('report', 2, 'success', 5),
    ]);
    const result = scoreWorkflow({ task: task(0.5, 120), plan, record });
    // retries: fetch 2 - 1 = 1, analyse 0, report 2 - 1 = 1 -> 2; declared 2 + 0 = 2 -> unplanned 0.
    // timeouts: fetch#1 (status timeout) and analyse#1 (25 s > 20 s) -> 2. No hard failure.
    expect(result.counters).toEqual({
      stepsCompleted: 3,
      totalSteps: 3,
      actualRetries: 2,
      declaredRetryBudget: 2,
      unplannedRetries: 0,
      timeouts: 2,
      hardFailures: 0,
    });
    expect(result.components).toEqual({
      success: 0.92 * (3 / 3),
      cost: 1 - 0.3 / 0.5,
      latency: 1 - 36 / 120,
      reliability: 1 - (0 * 0.1 + 2 * 0.2 + 0 * 0.5),
    });
    expect(result.score).toBe(0.5 * 0.92 + 0.25 * (1 - 0.3 / 0.5) + 0.15 * (1 - 36 / 120) + 0.1 * (1 - 2 * 0.2));
    // In decimals 0.46 + 0.1 + 0.105 + 0.06 = 0.725; in IEEE doubles, left to right, it is one ulp above.
    expect(result.score).toBe(0.7250000000000001);
    expect(result.explanation).toEqual([
      'Counters are derived from 5 attempts: 3 of 3 steps completed, 2 retries, 2 timeouts, 0 hard failures.',
      'completion_ratio = steps_completed / total_steps_in_dag = 3 / 3 = 1.',
      'S_success = output_quality_score * completion_ratio = 0.92 * 1 = 0.92.',
      'Gate: S_success = 0.92 is above 0.7, so cost and latency are scored.',
      'S_cost = max(0, 1 - actual_tao / max_budget_tao) = max(0, 1 - 0.3 / 0.5) = 0.4.',
      'S_latency = max(0, 1 - actual_seconds / max_latency_seconds) = max(0, 1 - 36 / 120) = 0.7.',
      'unplanned_retries = max(0, actual_retries - declared_retry_budget) = max(0, 2 - 2) = 0 (declared retries are free).',
      'S_reliability = min(1, max(0, 1 - (unplanned_retries * 0.10 + timeouts * 0.20 + hard_failures * 0.50))) = min(1, max(0, 1 - (0 * 0.10 + 2 * 0.20 + 0 * 0.50))) = 0.6.',
      'S = 0.50 * S_success + 0.25 * S_cost + 0.15 * S_latency + 0.10 * S_reliability = 0.50 * 0.92 + 0.25 * 0.4 + 0.15 * 0.7 + 0.10 * 0.6 = 0.7250000000000001.',
      'Node "fetch": 2 attempts, last status success, 1 timeout counted: completed.',
      'Node "analyse": 1 attempt, last status success, 1 timeout counted: completed.',
      'Node "report": 2 attempts, last status success, 0 timeouts counted: completed.',
    ]);
  });

  it('adds the four terms left to right: 0.5*a + 0.25*b + 0.15*c + 0.1*d, not regrouped', () => {
    // q = 0.71, cost 1 - 0.3/1, latency 1 - 0.1/1, 1 unplanned retry: grouping the sum differently rounds up.
    const result = scoreWorkflow({
      task: task(1, 1),
      plan: chain(['a'], {}),
      record: preCounted(0.71, 0.3, 0.1, { steps_completed: 1, actual_retries: 1, timeouts: 0, hard_failures: 0 }),
    });
    const [a, b, c, d] = [0.71, 1 - 0.3 / 1, 1 - 0.1 / 1, 1 - (1 * 0.1 + 0 * 0.2 + 0 * 0.5)];
    expect(0.5 * a + 0.25 * b + (0.15 * c + 0.1 * d)).toBe(0.7550000000000001);
    expect(result.score).toBe(0.5 * a + 0.25 * b + 0.15 * c + 0.1 * d);
    expect(result.score).toBe(0.755);
  });

  it('S is in [0, 1]: the worst record scores 0 and the best scores 1', () => {
    const worst = scoreWorkflow({
      task: task(),
      plan: chain(['a', 'b']),
      record: withAttempts(0, 5, 500, [attempt('a', 1, 'failure'), attempt('b', 1, 'timeout'), attempt('b', 2, 'timeout')]),
    });
    expect(worst.score).toBe(0);
    const best = scoreWorkflow({ task: task(), plan: ONE, record: withAttempts(1, 0, 0, okA) });
    expect(best.score).toBe(1);
  });
});

describe('SPEC A success gate: cost and latency scored only when S_success > 0.7 (strictly)', () => {
  it('gate at exactly 0.7: S_success = 0.7 is gated off, S_cost = S_latency = 0 even for free, instant work', () => {
    const result = scoreWorkflow({ task: task(), plan: ONE, record: withAttempts(0.7, 0, 0, okA) });
    expect(result.components.success).toBe(0.7);
    expect(result.gates).toEqual({ costScored: false, latencyScored: false });
    expect(result.components.cost).toBe(0);
    expect(result.components.latency).toBe(0);
    expect(result.score).toBe(0.5 * 0.7 + 0.25 * 0 + 0.15 * 0 + 0.1 * 1);
    expect(result.explanation[3]).toBe('Gate: S_success = 0.7 is not above 0.7, so cost and latency are not scored: S_cost = 0 and S_latency = 0.');
  });

  it('gate at exactly 0.7 through completion: quality 1 with 7 of 10 steps is gated off', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    const result = scoreWorkflow({
      task: task(),
      plan: chain(ids),
      record: preCounted(1, 0, 0, { steps_completed: 7, actual_retries: 0, timeouts: 0, hard_failures: 0 }),
    });
    expect(result.components.success).toBe(1 * (7 / 10));
    expect(result.gates.costScored).toBe(false);
    expect(result.score).toBe(0.5 * 0.7 + 0.1 * 1);
  });

  it('the next double above 0.7 opens the gate', () => {
    const q = 0.7000000000000001;
    const result = scoreWorkflow({ task: task(1, 60), plan: ONE, record: withAttempts(q, 0.5, 15, okA) });
    expect(result.gates).toEqual({ costScored: true, latencyScored: true });
    expect(result.components.cost).toBe(1 - 0.5 / 1);
    expect(result.components.latency).toBe(1 - 15 / 60);
  });

  it('S_cost and S_latency are max(0, ...): over budget and over the latency limit give 0, not negative', () => {
    const result = scoreWorkflow({ task: task(1, 60), plan: ONE, record: withAttempts(0.9, 3, 120, okA) });
    expect(result.gates.costScored).toBe(true);
    expect(result.components.cost).toBe(0);
    expect(result.components.latency).toBe(0);
  });

  it('S_reliability is applied regardless of the success gate', () => {
    const result = scoreWorkflow({
      task: task(),
      plan: chain(['a', 'b']),
      record: withAttempts(0.2, 0, 0, [attempt('a', 1, 'failure'), attempt('a', 2, 'success'), attempt('b', 1, 'timeout', 1)]),
    });
    expect(result.gates.costScored).toBe(false);
    // a: 1 unplanned retry; b: 1 timeout, last attempt not success with 1 >= 0 + 1 -> hard failure.
    expect(result.components.reliability).toBe(1 - (1 * 0.1 + 1 * 0.2 + 1 * 0.5));
    expect(result.score).toBe(0.5 * (0.2 * (1 / 2)) + 0.1 * (1 - (1 * 0.1 + 1 * 0.2 + 1 * 0.5)));
  });
});

describe('SPEC A reliability: min(1, max(0, 1 - (unplanned*0.10 + timeouts*0.20 + hard_failures*0.50)))', () => {
  const counted = (counts: { actual_retries: number; timeouts: number; hard_failures: number }, nodes = 4) =>
    scoreWorkflow({
      task: task(),
      plan: chain(['a', 'b', 'c', 'd', 'e', 'f'].slice(0, nodes)),
      record: preCounted(1, 0, 0, { steps_completed: nodes - counts.hard_failures, ...counts }),
    });

  it('each unplanned retry costs 0.10', () => {
    expect(counted({ actual_retries: 1, timeouts: 0, hard_failures: 0 }).components.reliability).toBe(1 - 1 * 0.1);
    expect(counted({ actual_retries: 3, timeouts: 0, hard_failures: 0 }).components.reliability).toBe(1 - 3 * 0.1);
  });

  it('each timeout costs 0.20', () => {
    expect(counted({ actual_retries: 0, timeouts: 1, hard_failures: 0 }).components.reliability).toBe(1 - 1 * 0.2);
    expect(counted({ actual_retries: 0, timeouts: 3, hard_failures: 0 }).components.reliability).toBe(1 - 3 * 0.2);
  });

  it('each hard failure costs 0.50', () => {
    expect(counted({ actual_retries: 0, timeouts: 0, hard_failures: 1 }).components.reliability).toBe(1 - 1 * 0.5);
  });

  it('the penalty is floored at 0 (two hard failures and a timeout give 0, not -0.2)', () => {
    expect(counted({ actual_retries: 0, timeouts: 1, hard_failures: 2 }).components.reliability).toBe(0);
  });

  it('uses the seed formula 1 - (u*0.10 + t*0.20 + h*0.50): 2 retries and 1 timeout give 0.6, not 0.6000000000000001', () => {
    // The seed's summary table writes 1 - u*0.1 - t*0.2 - h*0.5, which rounds differently here.
    expect(1 - 2 * 0.1 - 1 * 0.2).toBe(0.6000000000000001);
    expect(counted({ actual_retries: 2, timeouts: 1, hard_failures: 0 }).components.reliability).toBe(0.6);
  });
});

describe('SPEC A declared retries are free: unplanned_retries = max(0, actual_retries - declared_retry_budget)', () => {
  const twoFailuresThenSuccess = [attempt('a', 1, 'failure'), attempt('a', 2, 'failure'), attempt('a', 3, 'success')];

  it('declared retries are free: retry_count 2 and 2 retries cost nothing', () => {
    const result = scoreWorkflow({ task: task(), plan: chain(['a'], { a: { retry_count: 2 } }), record: withAttempts(1, 0, 0, twoFailuresThenSuccess) });
    expect(result.counters.actualRetries).toBe(2);
    expect(result.counters.declaredRetryBudget).toBe(2);
    expect(result.counters.unplannedRetries).toBe(0);
    expect(result.components.reliability).toBe(1);
  });

  it('the same retries without a declaration are unplanned', () => {
    const result = scoreWorkflow({ task: task(), plan: ONE, record: withAttempts(1, 0, 0, twoFailuresThenSuccess) });
    expect(result.counters.unplannedRetries).toBe(2);
    expect(result.components.reliability).toBe(1 - (2 * 0.1 + 0 * 0.2 + 0 * 0.5));
  });

  it('only retries beyond the budget are penalised (3 retries, 2 declared -> 1 unplanned)', () => {
    const attempts = [...twoFailuresThenSuccess.slice(0, 2), attempt('a', 3, 'failure'), attempt('a', 4, 'success')];
    const result = scoreWorkflow({ task: task(), plan: chain(['a'], { a: { retry_count: 2 } }), record: withAttempts(1, 0, 0, attempts) });
    expect(result.counters.unplannedRetries).toBe(1);
  });

  it('the budget is the sum of every retry_count in error_handling, including nodes never retried', () => {
    const plan = chain(['a', 'b', 'c'], { a: { retry_count: 1 }, b: { retry_count: 2 }, c: { timeout_seconds: 5 } });
    const record = withAttempts(1, 0, 0, [
      attempt('a', 1, 'success'),
      attempt('b', 1, 'success'),
      attempt('c', 1, 'failure'),
      attempt('c', 2, 'failure'),
      attempt('c', 3, 'success'),
    ]);
    const result = scoreWorkflow({ task: task(), plan, record });
    expect(result.counters.declaredRetryBudget).toBe(1 + 2);
    expect(result.counters.actualRetries).toBe(2);
    expect(result.counters.unplannedRetries).toBe(0);
  });

  it('with no error_handling the budget is 0', () => {
    const result = scoreWorkflow({ task: task(), plan: { nodes: [{ id: 'a' }] }, record: withAttempts(1, 0, 0, okA) });
    expect(result.counters.declaredRetryBudget).toBe(0);
  });
});

describe('SPEC A counters from attempts', () => {
  const score = (plan: ReturnType<typeof chain>, attempts: Parameters<typeof withAttempts>[3]) =>
    scoreWorkflow({ task: task(), plan, record: withAttempts(1, 0, 0, attempts) }).counters;

  it('a node is completed iff its last attempt (highest number) is success, whatever the listing order', () => {
    expect(score(chain(['a']), [attempt('a', 2, 'failure'), attempt('a', 1, 'success')]).stepsCompleted).toBe(0);
    expect(score(chain(['a']), [attempt('a', 2, 'success'), attempt('a', 1, 'failure')]).stepsCompleted).toBe(1);
  });

  it('actual_retries = sum over nodes of (attempts - 1)', () => {
    const counters = score(chain(['a', 'b', 'c']), [
      attempt('a', 1, 'failure'),
      attempt('a', 2, 'failure'),
      attempt('a', 3, 'success'),
      attempt('b', 1, 'success'),
      attempt('c', 1, 'failure'),
      attempt('c', 2, 'success'),
    ]);
    expect(counters.actualRetries).toBe(2 + 0 + 1);
  });

  it('a timeout is an attempt with status timeout or seconds above the node timeout_seconds, counted once', () => {
    const plan = chain(['a', 'b'], { a: { retry_count: 5, timeout_seconds: 10 } });
    const counters = score(plan, [
      attempt('a', 1, 'timeout', 3), // status
      attempt('a', 2, 'failure', 10.5), // seconds > 10
      attempt('a', 3, 'timeout', 11), // both: counted once
      attempt('a', 4, 'success', 10), // exactly 10 is not above the limit
      attempt('b', 1, 'success', 1000), // b declares no timeout_seconds
    ]);
    expect(counters.timeouts).toBe(3);
  });

  it('a hard failure is a node whose last attempt is not success and whose attempts >= retry_count + 1', () => {
    const plan = chain(['a', 'b', 'c'], { a: { retry_count: 1 }, b: { retry_count: 2 } });
    const counters = score(plan, [
      attempt('a', 1, 'failure'),
      attempt('a', 2, 'timeout'), // 2 >= 1 + 1: budget exhausted -> hard failure
      attempt('b', 1, 'failure'),
      attempt('b', 2, 'failure'), // 2 < 2 + 1: budget left -> not a hard failure
      attempt('c', 1, 'failure'), // no error_handling: retry_count 0, 1 >= 1 -> hard failure
    ]);
    expect(counters.hardFailures).toBe(2);
    expect(counters.stepsCompleted).toBe(0);
  });

  it('a node that overran its retry budget and still failed is a hard failure', () => {
    const counters = score(chain(['a'], { a: { retry_count: 1 } }), [attempt('a', 1, 'failure'), attempt('a', 2, 'failure'), attempt('a', 3, 'failure')]);
    expect(counters.hardFailures).toBe(1);
    expect(counters.unplannedRetries).toBe(2 - 1);
  });

  it('a node never attempted is neither completed nor a hard failure', () => {
    const counters = score(chain(['a', 'b', 'c']), [attempt('a', 1, 'success')]);
    expect(counters).toMatchObject({ stepsCompleted: 1, totalSteps: 3, hardFailures: 0, actualRetries: 0 });
  });

  it('edges are structure only: a node attempted after its predecessor failed still counts (decision)', () => {
    const counters = score(chain(['a', 'b']), [attempt('a', 1, 'failure'), attempt('b', 1, 'success')]);
    expect(counters).toMatchObject({ stepsCompleted: 1, hardFailures: 1 });
  });

  it('actual_seconds is the wall time of the run, not checked against the attempts seconds (decision: branches run in parallel)', () => {
    const plan = { nodes: [{ id: 'a' }, { id: 'b' }] };
    const result = scoreWorkflow({ task: task(1, 60), plan, record: withAttempts(1, 0, 30, [attempt('a', 1, 'success', 30), attempt('b', 1, 'success', 30)]) });
    expect(result.components.latency).toBe(1 - 30 / 60);
  });

  it('an empty attempts list completes nothing', () => {
    const result = scoreWorkflow({ task: task(), plan: chain(['a', 'b']), record: withAttempts(1, 0, 0, []) });
    expect(result.completionRatio).toBe(0);
    expect(result.score).toBe(0.5 * 0 + 0.1 * 1);
  });
});

describe('results, explanation and the parsed fast path', () => {
  const raw = {
    task: task(1, 60),
    plan: chain(['a', 'b'], { a: { retry_count: 1 } }),
    record: withAttempts(0.8, 0.25, 12, [attempt('a', 1, 'success'), attempt('b', 1, 'success')]),
  };

  it('returns a frozen result with frozen parts', () => {
    const result = scoreWorkflow(raw);
    expect(Object.isFrozen(result)).toBe(true);
    expect(Object.isFrozen(result.components)).toBe(true);
    expect(Object.isFrozen(result.gates)).toBe(true);
    expect(Object.isFrozen(result.counters)).toBe(true);
    expect(Object.isFrozen(result.explanation)).toBe(true);
  });

  it('explains pre-counted input as pre-counted, and a gated-off score with the values it did not score', () => {
    const result = scoreWorkflow({
      task: task(2, 90),
      plan: chain(['a', 'b']),
      record: preCounted(0.5, 1, 45, { steps_completed: 1, actual_retries: 1, timeouts: 0, hard_failures: 1 }),
    });
    expect(result.explanation[0]).toBe('Counters are pre-counted: 1 of 2 steps completed, 1 retry, 0 timeouts, 1 hard failure.');
    expect(result.explanation[4]).toBe('S_cost = 0 (gated off; actual_tao 1 against max_budget_tao 2 is not scored).');
    expect(result.explanation[5]).toBe('S_latency = 0 (gated off; actual_seconds 45 against max_latency_seconds 90 is not scored).');
    expect(result.explanation[8]).toBe(
      `S = 0.50 * S_success + 0.25 * S_cost + 0.15 * S_latency + 0.10 * S_reliability = 0.50 * 0.25 + 0.25 * 0 + 0.15 * 0 + 0.10 * 0.4 = ${0.5 * 0.25 + 0.1 * 0.4}.`,
    );
  });

  it('parsed inputs score exactly as raw inputs, and compositeScore equals scoreWorkflow(...).score', () => {
    const parsed = { task: parseWorkflowTask(raw.task), plan: parseWorkflowPlan(raw.plan), record: parseExecutionRecord(raw.record) };
    expect(scoreWorkflow(parsed)).toEqual(scoreWorkflow(raw));
    expect(compositeScore(parsed)).toBe(scoreWorkflow(raw).score);
    expect(compositeScore(raw)).toBe(0.5 * 0.8 + 0.25 * (1 - 0.25 / 1) + 0.15 * (1 - 12 / 60) + 0.1 * 1);
  });

  it('parse functions return frozen values, recognise their own output, and leave the caller input unfrozen', () => {
    const plan = parseWorkflowPlan(raw.plan);
    expect(Object.isFrozen(plan)).toBe(true);
    expect(Object.isFrozen(plan.nodes[0])).toBe(true);
    expect(Object.isFrozen(plan.error_handling)).toBe(true);
    expect(parseWorkflowPlan(plan)).toBe(plan);
    const record = parseExecutionRecord(raw.record);
    expect(Object.isFrozen(record.attempts![0])).toBe(true);
    expect(parseExecutionRecord(record)).toBe(record);
    const parsedTask = parseWorkflowTask(raw.task);
    expect(parseWorkflowTask(parsedTask)).toBe(parsedTask);
    expect(Object.isFrozen(raw.plan)).toBe(false);
    expect(Object.isFrozen(raw.plan.nodes[0])).toBe(false);
    expect(Object.isFrozen(raw.record.attempts[0])).toBe(false);
  });

  it('a copy of a parsed value is validated again (the trust mark does not survive a spread or JSON)', () => {
    const plan = parseWorkflowPlan(raw.plan);
    const copied: unknown = JSON.parse(JSON.stringify(plan));
    expect(parseWorkflowPlan(copied)).not.toBe(copied);
    expect(parseWorkflowPlan({ ...plan })).toEqual(plan);
    expect(Object.keys(plan).sort()).toEqual(['edges', 'error_handling', 'nodes']);
  });

  it('keeps unknown fields of nodes, tasks and records (kept, not scored)', () => {
    const plan = parseWorkflowPlan({ nodes: [{ id: 'a', tool: 'http.get' }], version: 2 });
    expect(plan.nodes[0]).toEqual({ id: 'a', tool: 'http.get' });
    expect(plan).toMatchObject({ version: 2, edges: [], error_handling: {} });
  });

  it('the same plan scores many records, one after another, independently', () => {
    const plan = parseWorkflowPlan(chain(['a', 'b']));
    const first = scoreWorkflow({ task: raw.task, plan, record: withAttempts(1, 0, 0, [attempt('a', 1, 'success'), attempt('b', 1, 'success')]) });
    const second = scoreWorkflow({ task: raw.task, plan, record: withAttempts(1, 0, 0, [attempt('b', 1, 'success')]) });
    expect(first.counters.stepsCompleted).toBe(2);
    expect(second.counters.stepsCompleted).toBe(1);
    expect(second.counters.actualRetries).toBe(0);
  });
});

describe('issue 14 item 7: the composite explanation has a line per node', () => {
  it('one line per node, in plan order: attempts, last status, timeouts counted, completed or hard failure', () => {
    const plan = chain(['fetch', 'parse', 'store', 'notify'], { fetch: { retry_count: 1, timeout_seconds: 5 }, parse: { retry_count: 2 } });
    const record = withAttempts(0.5, 0, 0, [
      attempt('fetch', 1, 'timeout', 6),
      attempt('fetch', 2, 'success', 7),
      attempt('parse', 1, 'failure'),
      attempt('store', 1, 'failure'),
    ]);
    const lines = scoreWorkflow({ task: task(), plan, record }).explanation.slice(9);
    expect(lines).toEqual([
      'Node "fetch": 2 attempts, last status success, 2 timeouts counted: completed.',
      'Node "parse": 1 attempt, last status failure, 0 timeouts counted: not completed and not a hard failure (1 attempt < retry_count 2 + 1).',
      'Node "store": 1 attempt, last status failure, 0 timeouts counted: hard failure (1 attempt >= retry_count 0 + 1).',
      'Node "notify": never attempted, so neither completed nor a hard failure.',
    ]);
  });

  it('the per-node lines are the same for a parsed record and a raw one (fast path)', () => {
    const plan = parseWorkflowPlan(chain(['a', 'b'], { a: { retry_count: 1 } }));
    const raw = withAttempts(1, 0, 0, [attempt('a', 2, 'timeout'), attempt('a', 1, 'failure'), attempt('b', 1, 'success')]);
    const fromRaw = scoreWorkflow({ task: task(), plan, record: raw });
    const fromParsed = scoreWorkflow({ task: task(), plan, record: parseExecutionRecord(raw) });
    expect(fromRaw).toEqual(fromParsed);
    expect(fromRaw.explanation.slice(9)).toEqual([
      'Node "a": 2 attempts, last status timeout, 1 timeout counted: hard failure (2 attempts >= retry_count 1 + 1).',
      'Node "b": 1 attempt, last status success, 0 timeouts counted: completed.',
    ]);
  });

  it('pre-counted records say that no per-node line can be given', () => {
    const result = scoreWorkflow({
      task: task(),
      plan: ONE,
      record: preCounted(1, 0, 0, { steps_completed: 1, actual_retries: 0, timeouts: 0, hard_failures: 0 }),
    });
    expect(result.explanation.at(-1)).toBe('Per-node lines: none, the counters were pre-counted (no attempts to show).');
  });
});
