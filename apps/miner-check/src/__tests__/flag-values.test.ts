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
