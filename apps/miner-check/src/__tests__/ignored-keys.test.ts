/**
 * A key of a workflow document that the scorer ignores and that is a slip of a key it reads (`retry_cuont`) changes
 * the score without an error: `miner-check workflow` names it. The places and keys it knows are @subnet/composite's.
 */
import { readFileSync } from 'node:fs';

import { executionRecordSchema, parseWorkflowPlan, workflowPlanSchema, workflowTaskSchema } from '@subnet/composite';
import { describe, expect, it } from 'vitest';

import { ignoredKeySlips, SCORED_KEYS } from '../commands/ignored-keys.js';
import { example, jsonOf, requireBuiltCli, runCli, scratchFile } from './cli-support.js';

/** The keys of a zod object schema, read through its `shape`. */
const keysOf = (schema: unknown): string[] => Object.keys((schema as { shape: Record<string, unknown> }).shape);
const shape = (schema: unknown, key: string): unknown => (schema as { shape: Record<string, unknown> }).shape[key];
/** The element of an array schema, under an optional or default wrapper. */
const element = (schema: unknown): unknown => {
  const def = (schema as { def: { type: string; innerType?: unknown; element?: unknown } }).def;
  return def.type === 'array' ? def.element : element(def.innerType);
};

const known = (label: keyof typeof SCORED_KEYS, ...steps: string[]): readonly string[] | undefined =>
  SCORED_KEYS[label].find(([at]) => at.join('/') === steps.join('/'))?.[1];

describe('the scored keys miner-check knows', () => {
  it("are the keys of @subnet/composite's task, plan and record schemas, place by place", () => {
    expect(known('task')).toEqual(keysOf(workflowTaskSchema));
    expect(known('task', 'constraints')).toEqual(keysOf(shape(workflowTaskSchema, 'constraints')));
    expect(known('plan')).toEqual(keysOf(workflowPlanSchema));
    expect(known('plan', 'nodes', '*')).toEqual(keysOf(element(shape(workflowPlanSchema, 'nodes'))));
    expect(known('plan', 'edges', '*')).toEqual(keysOf(element(shape(workflowPlanSchema, 'edges'))));
    expect(known('record')).toEqual(keysOf(executionRecordSchema));
    expect(known('record', 'attempts', '*')).toEqual(keysOf(element(shape(executionRecordSchema, 'attempts'))));
    expect(SCORED_KEYS.plan.map(([at]) => at.join('/'))).toEqual(['', 'nodes/*', 'edges/*', 'error_handling/*']);
  });

  it('an error_handling entry is read for retry_count and timeout_seconds, and for nothing else', () => {
    const plan = (entry: unknown) => ({ nodes: [{ id: 'a' }], error_handling: { a: entry } });
    for (const key of known('plan', 'error_handling', '*') ?? []) {
      expect(() => parseWorkflowPlan(plan({ [key]: 'x' })), key).toThrow(`plan.error_handling.a.${key}`);
    }
    expect(() => parseWorkflowPlan(plan({ retry_cuont: 'x', timeout: 'x' }))).not.toThrow();
  });
});

describe('ignoredKeySlips', () => {
  const task = { task_id: 't', constraints: { max_budget_tao: 1, max_latency_seconds: 60 } };
  const record = { output_quality_score: 1, actual_tao: 0, actual_seconds: 1, attempts: [{ node_id: 'a', attempt: 1, status: 'success', seconds: 1 }] };

  it('names a slip of an absent scored key at every place, in document order', () => {
    const slips = ignoredKeySlips({
      task: { ...task, constraints: { max_budget_tao: 1, max_latency_secnds: 5 } },
      plan: { nodes: [{ id: 'a', tool: 'llm' }], edgse: [], error_handling: JSON.parse('{"__proto__": {"timeout_second": 3}}') as unknown },
      record: { output_quality_score: 1, actual_tao: 0, actual_seconds: 1, steps_completed: 1, actual_retries: 0, timeouts: 0, hard_failures: 0, atempts: [] },
    });
    expect(slips).toEqual([
      { path: 'task.constraints', key: 'max_latency_secnds', meant: 'max_latency_seconds' },
      { path: 'plan', key: 'edgse', meant: 'edges' },
      { path: 'plan.error_handling.__proto__', key: 'timeout_second', meant: 'timeout_seconds' },
      { path: 'record', key: 'atempts', meant: 'attempts' },
    ]);
    // an attempt's own keys: a slip of its seconds
    expect(
      ignoredKeySlips({ task, plan: { nodes: [{ id: 'a' }] }, record: { ...record, attempts: [{ node_id: 'a', attempt: 1, status: 'success', secnds: 1 }] } }),
    ).toEqual([{ path: 'record.attempts[0]', key: 'secnds', meant: 'seconds' }]);
  });

  it('says nothing of a key beside the one it is close to, or of other unknown keys', () => {
    expect(ignoredKeySlips({ task, plan: { nodes: [{ id: 'a', ids: 1, tool: 'x' }], edges: [], edge: [], error_handling: {} }, record })).toEqual([]);
  });
});

describe('miner-check workflow', () => {
  it('lists the slip under the score, and in --json as ignored_keys; the examples have none', () => {
    requireBuiltCli();
    const text = readFileSync(example('workflow', 'plan.json'), 'utf8');
    expect(text).toContain('"retry_count"');
    const plan = scratchFile('plan.json', text.replace('"retry_count"', '"retry_cuont"'));
    const args = ['workflow', '--task', example('workflow', 'task.json'), '--plan', plan, '--run', example('workflow', 'run.json')];
    const out = runCli(args);
    expect(out.code).toBe(0);
    expect(out.stdout.split('\n').slice(0, 5)).toEqual([
      expect.stringMatching(/^Composite score for task /),
      '',
      'Keys the scorer ignored (scored as if absent)',
      '  - plan.error_handling.summarise has the key "retry_cuont": did you mean "retry_count"?',
      '',
    ]);
    expect(jsonOf(runCli([...args, '--json'])).ignored_keys).toEqual([{ path: 'plan.error_handling.summarise', key: 'retry_cuont', meant: 'retry_count' }]);
    const clean = runCli([
      'workflow',
      '--task',
      example('workflow', 'task.json'),
      '--plan',
      example('workflow', 'plan.json'),
      '--run',
      example('workflow', 'run.json'),
      '--json',
    ]);
    expect(jsonOf(clean).ignored_keys).toEqual([]);
  });
});
