import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';

import { buildProgram } from '../program.js';
import { example, jsonOf, requireBuiltCli, runCli, scratchFile } from './cli-support.js';

beforeAll(requireBuiltCli);

describe('miner-check term', () => {
  it('gives passed / total tasks, unreported tasks counting as failed (SPEC C.1)', () => {
    const run = runCli(['term', '--results', example('term', 'results.json'), '--total-tasks', '10', '--json']);
    expect(run.code).toBe(0);
    // 8 reported: tb2-003 failed a test, tb2-007 timed out, 6 passed; 2 never reported.
    expect(jsonOf(run)).toEqual({ pass_rate: 6 / 10, passed: 6, total: 10, failed_task_ids: ['tb2-003', 'tb2-007'] });
  });

  it("reproduces seed C's example: 73 of 91 tasks is 0.802", () => {
    const results = Array.from({ length: 91 }, (_, i) => ({ task_id: `t${String(i).padStart(2, '0')}`, tests_passed: i < 73 ? 3 : 2, tests_total: 3 }));
    const out = jsonOf(runCli(['term', '--results', scratchFile('results.json', JSON.stringify(results)), '--total-tasks', '91', '--json']));
    expect(out.pass_rate).toBe(73 / 91);
    expect((out.pass_rate as number).toFixed(3)).toBe('0.802');
    expect(out.failed_task_ids).toHaveLength(18);
  });

  it('prints the failed tasks and the unreported count', () => {
    const run = runCli(['term', '--results', example('term', 'results.json'), '--total-tasks', '10']);
    expect(run.stdout).toContain('Pass rate: 6 / 10 = 0.600000 (60.0 %)');
    expect(run.stdout).toMatch(/tb2-007\s+5\/5\s+timed out/);
    expect(run.stdout).toContain('2 of the benchmark');
  });

  it('rejects more results than tasks, a duplicate task, a missing field and a bad count (exit 2)', () => {
    const results = example('term', 'results.json');
    expect(runCli(['term', '--results', results, '--total-tasks', '5']).code).toBe(2);
    const dup = JSON.parse(readFileSync(results, 'utf8')) as unknown[];
    dup.push(dup[0]);
    const dupRun = runCli(['term', '--results', scratchFile('r.json', JSON.stringify(dup)), '--total-tasks', '10', '--json']);
    expect(dupRun.code).toBe(2);
    expect((jsonOf(dupRun).error as { code: string }).code).toMatch(/^AGGREGATION_/);
    const missing = runCli(['term', '--results', scratchFile('r.json', '[{"task_id":"a","tests_total":3}]'), '--total-tasks', '10', '--json']);
    expect(missing.code).toBe(2);
    expect((jsonOf(missing).error as { path: string }).path).toBe('results[0].tests_passed');
    expect(runCli(['term', '--results', results, '--total-tasks', 'ten']).code).toBe(2);
  });
});

describe('miner-check weights', () => {
  const scores = example('weights', 'scores.json');

  it('linear shares and u16 values that sum to exactly 65535', () => {
    const run = runCli(['weights', '--scores', scores, '--json']);
    expect(run.code).toBe(0);
    const out = jsonOf(run) as { weights: { key: string; uid: number; share: number; u16: number }[]; burn: { uid: number; share: number; u16: number } };
    // scores 0.95, 0.80, 0.802, 0.40, 0: linear s / Σs, no share above the default 0.5 cap
    const total = 0.95 + 0.8 + 0.802 + 0.4 + 0;
    const byUid = new Map(out.weights.map((w) => [w.uid, w]));
    expect(byUid.get(1)?.share).toBeCloseTo(0.95 / total, 12);
    expect(byUid.get(4)?.share).toBeCloseTo(0.4 / total, 12);
    expect(byUid.get(5)?.share).toBe(0);
    expect(out.weights.reduce((sum, w) => sum + w.u16, 0) + out.burn.u16).toBe(65535);
    expect(out.burn).toEqual({ uid: 0, share: 0, u16: 0 });
  });

  it('caps shares and burns the excess when n x cap < 1', () => {
    const out = jsonOf(runCli(['weights', '--scores', scores, '--cap', '0.2', '--json'])) as {
      weights: { share: number; u16: number }[];
      burn: { share: number; u16: number };
    };
    // four positive miners x 0.2 = 0.8 < 1: each keeps 0.2 and 0.2 burns
    for (const w of out.weights.filter((w) => w.share > 0)) expect(w.share).toBeCloseTo(0.2, 12);
    expect(out.burn.share).toBeCloseTo(0.2, 12);
    expect(out.weights.reduce((sum, w) => sum + w.u16, 0) + out.burn.u16).toBe(65535);
  });

  it('softmax needs a temperature; a temperature needs softmax', () => {
    expect(runCli(['weights', '--scores', scores, '--strategy', 'softmax']).code).toBe(2);
    expect(runCli(['weights', '--scores', scores, '--temperature', '0.1']).code).toBe(2);
    expect(runCli(['weights', '--scores', scores, '--strategy', 'softmax', '--temperature', '0.1']).code).toBe(0);
  });

  it('rejects a score outside [0, 1], a bad hotkey, a duplicate uid and an unknown strategy (exit 2)', () => {
    const base = JSON.parse(readFileSync(scores, 'utf8')) as Record<string, unknown>[];
    const cases: [Record<string, unknown>[], string][] = [
      [base.map((s, i) => (i === 2 ? { ...s, score: 1.2 } : s)), 'scores[2].score'],
      [base.map((s, i) => (i === 0 ? { ...s, hotkey: 'not-an-address' } : s)), 'scores[0].hotkey'],
      [base.map((s, i) => (i === 3 ? { ...s, uid: 1 } : s)), 'scores[3].uid'],
    ];
    for (const [doc, path] of cases) {
      const run = runCli(['weights', '--scores', scratchFile('s.json', JSON.stringify(doc)), '--json']);
      expect(run.code, path).toBe(2);
      expect((jsonOf(run).error as { path: string }).path).toBe(path);
    }
    expect(runCli(['weights', '--scores', scores, '--strategy', 'fair']).code).toBe(2);
  });
});

describe('--help teaches every subcommand', () => {
  it.each(['workflow', 'sssa', 'term', 'weights', 'explain'])('%s --help shows an example and exits 0', (name) => {
    const run = runCli([name, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Examples?:/);
  });

  it('the top-level help lists the five subcommands and the exit codes', () => {
    const run = runCli(['--help']);
    expect(run.code).toBe(0);
    for (const name of ['workflow', 'sssa', 'term', 'weights', 'explain']) expect(run.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    expect(run.stdout).toMatch(/2\s+invalid\s+input/);
  });

  it('a description breaks its lines only after a sentence, so help wraps it to the terminal and not mid-sentence', () => {
    const program = buildProgram({ stdout: () => undefined, stderr: () => undefined, stdin: () => '' }, { json: false, exitCode: 0, inputs: [] });
    for (const command of [program, ...program.commands]) {
      for (const line of command.description().split('\n').slice(0, -1)) expect(line, command.name()).toMatch(/[.:]$/);
    }
  });
});
