import { join } from 'node:path';
import { isSubnetError } from '@subnet/core';
import { tempDir } from '@subnet/vitest-config/temp-dir';
import { describe, expect, it } from 'vitest';

import { MINER_CHECK_ERROR_CODES } from '../errors.js';
import { rangeOption, readJson } from '../io.js';
import { table } from '../render.js';

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
