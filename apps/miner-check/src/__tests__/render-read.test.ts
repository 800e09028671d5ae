import { join } from 'node:path';
import { isSubnetError } from '@subnet/core';
import { tempDir } from '@subnet/vitest-config/temp-dir';
import { describe, expect, it } from 'vitest';

import { MINER_CHECK_ERROR_CODES } from '../errors.js';
import { rangeOption, readJson } from '../io.js';
import { roundForPeople, table } from '../render.js';

/** The readable tables and the input reader, called directly. */

describe('table', () => {
  it('right-aligns a column whose every cell is a number and left-aligns the others', () => {
    expect(
      table(
        ['name', 'value'],
        [
          ['a', '1.5'],
          ['long', '10.25'],
        ],
      ).split('\n'),
    ).toEqual(['name  value', '----  -----', 'a       1.5', 'long  10.25']);
  });
});

describe('roundForPeople', () => {
  it("rounds a double's noise to 6 significant digits, at the end of a sentence too", () => {
    expect(roundForPeople('1 - 111 / 120 = 0.07499999999999996.')).toBe('1 - 111 / 120 = 0.075.');
    expect(roundForPeople('= 0.6812499999999999, then 0.16666666666666663')).toBe('= 0.68125, then 0.166667');
  });

  it('leaves as written what needs no rounding, names, quoted strings and integers', () => {
    expect(roundForPeople('0.50 * S_success + 0.25 * x1.5 = 12')).toBe('0.50 * S_success + 0.25 * x1.5 = 12');
    expect(roundForPeople('Node "step-0.07499999999999996": 2 attempts, v1.23456789')).toBe('Node "step-0.07499999999999996": 2 attempts, v1.23456789');
  });

  it('keeps the digits that tell a number from another of the sentence it would round onto', () => {
    expect(roundForPeople('Gate: S_success = 0.70000001 is above 0.7, so')).toBe('Gate: S_success = 0.70000001 is above 0.7, so');
    expect(roundForPeople('S_success = 0.7000000000000001 is above 0.7')).toBe('S_success = 0.7000000000000001 is above 0.7');
    expect(roundForPeople('S_success = 0.70000001234 is above 0.7')).toBe('S_success = 0.70000001 is above 0.7');
  });
});

describe('readJson', () => {
  const thrown = (run: () => unknown): Error => {
    try {
      run();
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected a throw');
  };

  it('names standard input as "standard input" and a file by its path', () => {
    const fromStdin = thrown(() => readJson('-', '--run', () => 'nope'));
    expect(isSubnetError(fromStdin, MINER_CHECK_ERROR_CODES.malformedJson)).toBe(true);
    expect(fromStdin.message).toContain('standard input is not valid JSON');
    const missing = join(tempDir('miner-check-read-'), 'absent.json');
    const fromFile = thrown(() => readJson(missing, '--run'));
    expect(isSubnetError(fromFile, MINER_CHECK_ERROR_CODES.unreadableInput)).toBe(true);
    expect(fromFile.message).toContain(`cannot read ${missing}: ENOENT`);
  });

  it('quotes malformed input of up to 60 characters whole, and longer input cut to 57 and "..."', () => {
    const sixty = `x${'y'.repeat(59)}`;
    expect((thrown(() => readJson('-', '--run', () => sixty)) as Error & { context: { value: unknown } }).context.value).toBe(sixty);
    const longer = `${sixty}z`;
    expect((thrown(() => readJson('-', '--run', () => longer)) as Error & { context: { value: unknown } }).context.value).toBe(`${sixty.slice(0, 57)}...`);
  });
});

describe('rangeOption', () => {
  it('excludes the lower bound only when asked: (0, 1] refuses 0, [0, 1] takes it', () => {
    expect(() => rangeOption('0', '--cap', { min: 0, minExclusive: true, max: 1 })).toThrow('expected a number in (0, 1]');
    expect(rangeOption('0.5', '--cap', { min: 0, minExclusive: true, max: 1 })).toBe(0.5);
    expect(rangeOption('0', '--min-reputation', { min: 0, max: 1 })).toBe(0);
    expect(() => rangeOption('-0.1', '--min-reputation', { min: 0, max: 1 })).toThrow('expected a number in [0, 1]');
  });
});
