import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';

import { example, examples, jsonOf, requireBuiltCli, runCli, scratchFile } from './cli-support.js';

beforeAll(requireBuiltCli);

const files = ['--task', example('workflow', 'task.json'), '--plan', example('workflow', 'plan.json'), '--run', example('workflow', 'run.json')];

describe('miner-check workflow on the example', () => {
  it("prints the formula for people without a double's noise (0.075, not 0.07499999999999996); --json keeps the exact doubles", () => {
    const text = runCli(['workflow', ...files]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('S_latency = max(0, 1 - actual_seconds / max_latency_seconds) = max(0, 1 - 111 / 120) = 0.075.\n');
    expect(text.stdout).toContain('+ 0.15 * 0.075 + 0.10 * 0.6 = 0.68125.\n');
    // The formula's own constants are left as written.
    expect(text.stdout).toContain('= 0.50 * S_success + 0.25 * S_cost + 0.15 * S_latency + 0.10 * S_reliability');
    expect(text.stdout).not.toMatch(/\d\.\d{10,}/);
    // In doubles, left to right (the reference is the spec's formula written out).
    const out = jsonOf(runCli(['workflow', ...files, '--json']));
    expect((out.components as { latency: number }).latency).toBe(1 - 111 / 120);
    expect(out.score).toBe(0.5 * 0.92 + 0.25 * (1 - 0.2 / 0.5) + 0.15 * (1 - 111 / 120) + 0.1 * (1 - (2 * 0.1 + 1 * 0.2 + 0 * 0.5)));
    expect(String(out.score)).toBe('0.6812499999999999');
  });

  it('prints the composite score, components, gates and counters as JSON with snake_case keys', () => {
    const run = runCli(['workflow', ...files, '--json']);
    expect(run.code).toBe(0);
    const out = jsonOf(run);
    // Worked by hand from examples/workflow (seed A):
    //   completion 4/4 = 1, S_success = 0.92 * 1 = 0.92 (> 0.7: cost and latency scored)
    //   S_cost = 1 - 0.2 / 0.5 = 0.6; S_latency = 1 - 111 / 120 = 0.075
    //   retries: fetch 2 + summarise 1 = 3, declared 1 -> 2 unplanned; 1 timeout (status timeout)
    //   S_reliability = 1 - (2 * 0.10 + 1 * 0.20 + 0 * 0.50) = 0.6
    const expected = 0.5 * 0.92 + 0.25 * (1 - 0.2 / 0.5) + 0.15 * (1 - 111 / 120) + 0.1 * (1 - (2 * 0.1 + 1 * 0.2 + 0 * 0.5));
    expect(Object.keys(out).sort()).toEqual(['advice', 'completion_ratio', 'components', 'counters', 'gates', 'ignored_keys', 'score']);
    expect(out.score).toBeCloseTo(expected, 12);
    expect(out.components).toEqual({
      success: 0.92,
      cost: expect.closeTo(0.6, 12) as unknown,
      latency: expect.closeTo(0.075, 12) as unknown,
      reliability: expect.closeTo(0.6, 12) as unknown,
    });
    expect(out.completion_ratio).toBe(1);
    expect(out.gates).toEqual({ cost_scored: true, latency_scored: true });
    expect(out.counters).toEqual({
      steps_completed: 4,
      total_steps: 4,
      actual_retries: 3,
      declared_retry_budget: 1,
      unplanned_retries: 2,
      timeouts: 1,
      hard_failures: 0,
    });
  });

  it('advises declaring the retries on the step that retried, with what they cost', () => {
    const out = jsonOf(runCli(['workflow', ...files, '--json']));
    // 2 unplanned retries cost 2 * 0.10 of reliability, weighted 0.10: 0.02
    expect(out.advice).toContain('2 unplanned retries cost 0.0200: declare retry_count on step fetch (retry_count: 2)');
    expect((out.advice as string[]).some((line) => line.startsWith('1 timeout cost 0.0200'))).toBe(true);
  });

  it('prints readable tables by default', () => {
    const run = runCli(['workflow', ...files]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Composite score for task summarise-filings-0042: 0\.681250/);
    expect(run.stdout).toMatch(/reliability\s+0\.10\s+0\.600000\s+yes/);
    expect(run.stdout).toContain('What would raise the score');
  });

  it('reads a document from standard input with -', () => {
    const run = runCli(
      ['workflow', '--task', example('workflow', 'task.json'), '--plan', example('workflow', 'plan.json'), '--run', '-', '--json'],
      readFileSync(example('workflow', 'run.json'), 'utf8'),
    );
    expect(run.code).toBe(0);
    expect(jsonOf(run).score).toBeCloseTo(0.68125, 12);
  });

  it('says nothing can be gained for a perfect run', () => {
    const run = scratchFile(
      'run.json',
      JSON.stringify({ output_quality_score: 1, actual_tao: 0, actual_seconds: 0, steps_completed: 4, actual_retries: 0, timeouts: 0, hard_failures: 0 }),
    );
    const out = jsonOf(runCli(['workflow', '--task', example('workflow', 'task.json'), '--plan', example('workflow', 'plan.json'), '--run', run, '--json']));
    expect(out.score).toBe(1);
    expect(out.advice).toEqual([]);
  });
});

describe('miner-check workflow on broken input', () => {
  const task = example('workflow', 'task.json');
  const plan = example('workflow', 'plan.json');
  const run = example('workflow', 'run.json');

  it('malformed JSON: exit 2, code and the flag on stderr', () => {
    const broken = scratchFile('run.json', '{ "output_quality_score": 0.9, ');
    const result = runCli(['workflow', '--task', task, '--plan', plan, '--run', broken]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^miner-check: \[MINER_CHECK_MALFORMED_JSON\] .* at --run \(got /);
    expect(result.stdout).toBe('');
  });

  it('NaN is not JSON: exit 2 with the JSON error object under --json', () => {
    const broken = scratchFile('run.json', '{ "output_quality_score": NaN, "actual_tao": 0, "actual_seconds": 0, "attempts": [] }');
    const result = runCli(['workflow', '--task', task, '--plan', plan, '--run', broken, '--json']);
    expect(result.code).toBe(2);
    expect((jsonOf(result).error as { code: string }).code).toBe('MINER_CHECK_MALFORMED_JSON');
  });

  it('a number too large for a double (Infinity) is rejected with its path', () => {
    const broken = scratchFile('run.json', '{ "output_quality_score": 0.9, "actual_tao": 1e999, "actual_seconds": 0, "attempts": [] }');
    const error = jsonOf(runCli(['workflow', '--task', task, '--plan', plan, '--run', broken, '--json'])).error as Record<string, unknown>;
    expect(error.code).toMatch(/^(COMPOSITE_|CORE_INPUT_)/);
    expect(error.path).toMatch(/actual_tao$/);
    expect(error.value).toBe('Infinity');
  });

  it('a missing field: exit 2 naming the field', () => {
    const broken = scratchFile('task.json', JSON.stringify({ task_id: 't', constraints: { max_budget_tao: 1 } }));
    const result = runCli(['workflow', '--task', broken, '--plan', plan, '--run', run, '--json']);
    expect(result.code).toBe(2);
    const error = jsonOf(result).error as Record<string, unknown>;
    expect(error.code).toMatch(/^COMPOSITE_/);
    expect(error.path).toMatch(/constraints\.max_latency_seconds$/);
  });

  it('a cycle in the plan: exit 2 naming the edge', () => {
    const cyclic = scratchFile(
      'plan.json',
      JSON.stringify({
        nodes: [{ id: 'a' }, { id: 'b' }],
        edges: [
          { from: 'a', to: 'b' },
          { from: 'b', to: 'a' },
        ],
      }),
    );
    const result = runCli(['workflow', '--task', task, '--plan', cyclic, '--run', run]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^miner-check: \[COMPOSITE_\w+\] .* at plan\.edges\[\d\]/);
    expect(result.stderr).toMatch(/cycle/);
  });

  it('a file that does not exist: exit 2', () => {
    const result = runCli(['workflow', '--task', '/nonexistent/task.json', '--plan', plan, '--run', run]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^miner-check: \[MINER_CHECK_UNREADABLE_INPUT\] .* at --task \(got /);
  });

  it('an unreadable input says why, with the OS reason: a missing file, a folder', () => {
    const missing = runCli(['workflow', '--task', '/nonexistent/task.json', '--plan', plan, '--run', run]);
    expect(missing.stderr).toContain('cannot read /nonexistent/task.json: ENOENT (no such file or directory)');
    const folder = runCli(['workflow', '--task', '/', '--plan', plan, '--run', run, '--json']);
    expect(folder.code).toBe(2);
    expect(JSON.parse(folder.stdout)).toMatchObject({
      error: {
        code: 'MINER_CHECK_UNREADABLE_INPUT',
        path: '--task',
        message: expect.stringContaining('cannot read /: EISDIR (illegal operation on a directory)') as unknown,
      },
    });
  });

  it('a missing file or a folder says what to give the flag, after the OS reason', () => {
    const missing = runCli(['workflow', '--task', '/nonexistent/task.json', '--plan', plan, '--run', run]);
    expect(missing.stderr).toContain(
      'cannot read /nonexistent/task.json: ENOENT (no such file or directory); give --task the path of an existing JSON file, or - for standard input at --task',
    );
    const folder = runCli(['workflow', '--task', examples, '--plan', plan, '--run', run]);
    expect(folder.stderr).toContain(
      `cannot read ${examples}: EISDIR (illegal operation on a directory); it is a folder: give --task one JSON file in it at --task`,
    );
  });

  it('two inputs from standard input: exit 2 before reading anything', () => {
    const result = runCli(['workflow', '--task', '-', '--plan', '-', '--run', run]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('MINER_CHECK_INVALID_ARGUMENT');
  });

  it('a missing required option is a usage error: exit 2', () => {
    const result = runCli(['workflow', '--task', task]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/required option/);
  });
});

describe('miner-check --help', () => {
  it('teaches the workflow subcommand with an example, and exits 0', () => {
    const result = runCli(['workflow', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Example:');
    expect(result.stdout).toContain('--run <file>');
  });
});
