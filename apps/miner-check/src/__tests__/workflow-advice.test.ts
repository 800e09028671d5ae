import { describe, expect, it } from 'vitest';

import { workflowCheck } from '../commands/workflow.js';

/**
 * The advice of `miner-check workflow`, called directly (no CLI): each line is a second `scoreWorkflow` on a
 * changed input, so these pin which lines appear, their wording and their order.
 */

const task = { task_id: 'advice-1', constraints: { max_budget_tao: 0.5, max_latency_seconds: 120 } };
const chain = (ids: readonly string[], errorHandling: Record<string, unknown> = {}) => ({
  nodes: ids.map((id) => ({ id, tool: 't' })),
  edges: ids.slice(1).map((id, i) => ({ from: ids[i], to: id })),
  error_handling: errorHandling,
});
const counted = (over: Record<string, number>) => ({
  output_quality_score: 0.9,
  actual_tao: 0.2,
  actual_seconds: 60,
  steps_completed: 3,
  actual_retries: 0,
  timeouts: 0,
  hard_failures: 0,
  ...over,
});
const adviceOf = (plan: unknown, run: unknown) => workflowCheck({ task, plan, run }).json.advice as string[];

describe('workflow advice', () => {
  it('advises a pre-counted record to declare its unplanned retries, with what they cost', () => {
    // 3 retries against 1 declared: 2 unplanned cost 2 x 0.10 of reliability, weighted 0.10 = 0.0200.
    const advice = adviceOf(chain(['a', 'b', 'c'], { a: { retry_count: 1 } }), counted({ actual_retries: 3 }));
    expect(advice).toContain('2 unplanned retries cost 0.0200: declare them in error_handling (retry_count on the steps that retried, 2 more in all)');
  });

  it('advises on a step called __proto__ like any other (node ids are data)', () => {
    const plan = JSON.parse(
      '{"nodes":[{"id":"__proto__","tool":"t"},{"id":"b","tool":"t"}],"edges":[{"from":"__proto__","to":"b"}],"error_handling":{}}',
    ) as unknown;
    const run = {
      output_quality_score: 1,
      actual_tao: 0,
      actual_seconds: 0,
      attempts: [
        { node_id: '__proto__', attempt: 1, status: 'failure', seconds: 1 },
        { node_id: '__proto__', attempt: 2, status: 'success', seconds: 1 },
        { node_id: 'b', attempt: 1, status: 'success', seconds: 1 },
      ],
    };
    expect(adviceOf(plan, run)).toEqual(['1 unplanned retry cost 0.0100: declare retry_count on step __proto__ (retry_count: 1)']);
  });

  it('says "it" for one step never completed and "them" for two', () => {
    const plan = chain(['a', 'b', 'c']);
    const one = adviceOf(plan, counted({ steps_completed: 2, output_quality_score: 1 })).find((line) => line.includes('never completed'));
    const two = adviceOf(plan, counted({ steps_completed: 1, output_quality_score: 1 })).find((line) => line.includes('never completed'));
    expect(one).toMatch(/^1 step never completed: finishing it would add [\d.]+ \(completion ratio 0\.67 -> 1\.00\)$/);
    expect(two).toMatch(/^2 steps never completed: finishing them would add [\d.]+ \(completion ratio 0\.33 -> 1\.00\)$/);
  });

  it('says why cost and latency are not scored while S_success <= 0.7', () => {
    const advice = adviceOf(chain(['a', 'b', 'c']), counted({ steps_completed: 1 }));
    expect(advice).toContain('cost and latency are not scored while S_success = 0.3000 <= 0.7: a complete run at full quality would add up to 0.5750');
  });

  it('orders the advice by gain, largest first, whatever the wording', () => {
    // The retry line sorts first by its text ("2 ...") but gains least: gain decides.
    const advice = adviceOf(chain(['a', 'b', 'c'], { a: { retry_count: 1 } }), counted({ actual_retries: 3 }));
    expect(advice.map((line) => /(?:add|cost) (0\.\d{4})/.exec(line)?.[1])).toEqual(['0.0500', '0.0500', '0.0375', '0.0200']);
    expect(advice.at(-1)).toMatch(/^2 unplanned retries/);
  });
});
