import { beforeAll, describe, expect, it } from 'vitest';

import { MINER_CHECK_ERROR_CODES } from '../index.js';
import { example, jsonOf, requireBuiltCli, runCli } from './cli-support.js';

/**
 * A flag's value out of range is the user's command line: MINER_CHECK_INVALID_ARGUMENT naming the flag and the value
 * they typed, never the option of the package the value feeds (`AGGREGATION_INVALID_INPUT at options.cap`), and a flag
 * that would change nothing is refused rather than ignored. Runs the built CLI (dist/cli.js).
 */
beforeAll(requireBuiltCli);

const INVALID = MINER_CHECK_ERROR_CODES.invalidArgument;
const scores = example('weights', 'scores.json');
const sssa = example('sssa', 'sssa.json');
const draw = ['--block-hash', `0x${'ab'.repeat(32)}`, '--task-id', 'task-1', '--candidates', example('sssa', 'candidates.json')];

/** The JSON error of a --json run: exit 2, the code, the flag as the path and the value typed. */
function expectFlagError(args: readonly string[], flag: string, value: string, allowed: string): void {
  const run = runCli([...args, '--json']);
  expect(run.code).toBe(2);
  expect(run.stderr).toBe('');
  const error = (jsonOf(run) as { error: Record<string, unknown> }).error;
  expect(error).toMatchObject({ code: INVALID, path: flag, value: JSON.stringify(value) });
  expect(error.message).toContain(allowed);
}

describe('flag values out of range name the flag (exit 2)', () => {
  it('weights --cap outside (0, 1]', () => {
    expectFlagError(['weights', '--scores', scores, '--cap', '2'], '--cap', '2', 'in (0, 1]');
    expectFlagError(['weights', '--scores', scores, '--cap', '0'], '--cap', '0', 'in (0, 1]');
    const text = runCli(['weights', '--scores', scores, '--cap', '2']);
    expect(text.code).toBe(2);
    expect(text.stderr.split('\n')).toEqual([`miner-check: [${INVALID}] expected a number in (0, 1] at --cap (got "2")`, '']);
  });

  it('weights --cap 1 and the bounds inside are taken', () => {
    expect(runCli(['weights', '--scores', scores, '--cap', '1']).code).toBe(0);
  });

  it('weights --temperature not above 0', () => {
    expectFlagError(['weights', '--scores', scores, '--strategy', 'softmax', '--temperature', '-1'], '--temperature', '-1', '> 0');
    expectFlagError(['weights', '--scores', scores, '--strategy', 'softmax', '--temperature', '0'], '--temperature', '0', '> 0');
  });

  it('sssa --min-reputation outside [0, 1]', () => {
    expectFlagError(['sssa', '--sssa', sssa, ...draw, '--min-reputation', '2'], '--min-reputation', '2', 'in [0, 1]');
    expect(runCli(['sssa', '--sssa', sssa, ...draw, '--min-reputation', '0.3']).code).toBe(0);
  });

  it('sssa --block-hash that is not 0x + 64 lowercase hex', () => {
    expectFlagError(['sssa', '--sssa', sssa, ...draw.slice(2), '--block-hash', '0x12'], '--block-hash', '0x12', '0x followed by 64 lowercase hex digits');
  });

  it('sssa --hotkey that is no SS58 address, as explain refuses one', () => {
    expectFlagError(['sssa', '--sssa', sssa, '--hotkey', 'bogus'], '--hotkey', 'bogus', 'not a valid SS58 address');
    expect(runCli(['sssa', '--sssa', sssa, '--hotkey', '5FyFFDydUXVCefVGjNfoDFGBkTviCCwCqKVch43vBWAGwQ78']).code).toBe(0);
  });

  it('sssa --primaries, --auditors and --min-reputation without the draw change nothing: refused, not ignored', () => {
    expectFlagError(['sssa', '--sssa', sssa, '--primaries', '5'], '--primaries', '5', 'only applies to the draw');
    expectFlagError(['sssa', '--sssa', sssa, '--auditors', '1'], '--auditors', '1', 'only applies to the draw');
    expectFlagError(['sssa', '--sssa', sssa, '--min-reputation', '0.3'], '--min-reputation', '0.3', 'only applies to the draw');
  });
});

describe('number flags are read by one rule, as the other CLIs read theirs (exit 2)', () => {
  const results = example('term', 'results.json');

  it('an integer flag is decimal digits only: 1e3, 0x10, " 5", 5abc, -0, Infinity, 3.0, an empty value and a flag are refused, naming the flag and the value as given', () => {
    const cases: readonly (readonly [string, string])[] = [
      ['1e3', 'is written with an exponent (write 1000)'],
      ['0x10', 'is written with a 0x prefix (write 16)'],
      [' 5', 'has white space around it (write 5)'],
      ['5abc', 'is not a number'],
      ['-0', 'is zero with a minus sign (write 0)'],
      ['Infinity', 'is not a finite number'],
      ['3.0', 'has a fraction (write 3)'],
      ['', 'is empty'],
    ];
    for (const [value, why] of cases) {
      const run = runCli(['term', '--results', results, `--total-tasks=${value}`, '--json']);
      expect([value, run.code, run.stderr]).toEqual([value, 2, '']);
      expect((jsonOf(run) as { error: unknown }).error).toEqual({
        code: INVALID,
        message: `[${INVALID}] expected an integer from 1 to 9007199254740991 in decimal digits; the value ${why} at --total-tasks (got ${JSON.stringify(value)})`,
        path: '--total-tasks',
        value: JSON.stringify(value),
      });
    }
    expect(runCli(['term', '--results', results, '--total-tasks', '10']).code).toBe(0);
    // A flag given as the value (`--total-tasks=--json`, `--total-tasks --json`) is a usage error naming both.
    for (const args of [['--total-tasks=--json'], ['--total-tasks', '--json']]) {
      const run = runCli(['term', '--results', results, ...args, '--json']);
      expect(run.code).toBe(2);
      expect((jsonOf(run) as { error: { message: string } }).error.message).toBe('[MINER_CHECK_USAGE] --total-tasks needs a value (got the flag --json)');
    }
  });

  it('a decimal flag is a number as JSON writes it: 0x1, " 0.5", .5, Infinity and -0 are refused with what to write; 5e-1 is taken', () => {
    const cases: readonly (readonly [string, string])[] = [
      ['0x1', 'is written with a 0x prefix (write 1)'],
      [' 0.5', 'has white space around it (write 0.5)'],
      ['.5', 'has a dot without a digit on each side (write 0.5)'],
      ['Infinity', 'is not a finite number'],
      ['-0', 'is zero with a minus sign (write 0)'],
    ];
    for (const [value, why] of cases)
      expectFlagError(['weights', '--scores', scores, `--cap=${value}`], '--cap', value, `expected a number as JSON writes it; the value ${why}`);
    expect(runCli(['weights', '--scores', scores, '--cap', '5e-1']).code).toBe(0);
  });
});
