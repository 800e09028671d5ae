import { describe, expect, it } from 'vitest';

import { decimalFlagValue, integerFlagValue } from '../index.js';

describe('integerFlagValue: an integer flag is decimal digits only', () => {
  it('takes decimal digits within the range, and nothing JavaScript would also read as a number', () => {
    expect(integerFlagValue('1000', 0, 65535)).toEqual({ ok: true, value: 1000 });
    expect(integerFlagValue('0', 0, 65535)).toEqual({ ok: true, value: 0 });
    const refused = (text: string) => {
      const read = integerFlagValue(text, 0, 65535);
      return read.ok ? read : [read.problem, read.outOfRange];
    };
    expect(
      ['1e3', '0x10', '0b11', ' 5', '5 ', '5abc', '-0', 'Infinity', '-Infinity', 'NaN', '3.0', '3.5', '', '  ', '--json', '05', '+5', '1.5e3', '.5'].map(
        (text) => [text, refused(text)],
      ),
    ).toEqual([
      ['1e3', ['is written with an exponent (write 1000)', false]],
      ['0x10', ['is written with a 0x prefix (write 16)', false]],
      ['0b11', ['is written with a 0b prefix (write 3)', false]],
      [' 5', ['has white space around it (write 5)', false]],
      ['5 ', ['has white space around it (write 5)', false]],
      ['5abc', ['is not a number', false]],
      ['-0', ['is zero with a minus sign (write 0)', false]],
      ['Infinity', ['is not a finite number', false]],
      ['-Infinity', ['is not a finite number', false]],
      ['NaN', ['is not a finite number', false]],
      ['3.0', ['has a fraction (write 3)', false]],
      ['3.5', ['is not a whole number', false]],
      ['', ['is empty', false]],
      ['  ', ['holds only white space', false]],
      ['--json', ['is a flag, not a value: give the value right after the flag', false]],
      ['05', ['has a leading zero (write 5)', false]],
      ['+5', ['has a plus sign (write 5)', false]],
      ['1.5e3', ['is written with an exponent (write 1500)', false]],
      ['.5', ['has a dot without a digit on each side (write 0.5)', false]],
    ]);
  });

  it('a number out of the range is said to be below or above it, beyond 2^53 too', () => {
    expect(integerFlagValue('-5', 0, 10)).toEqual({ ok: false, problem: 'is below 0', outOfRange: true });
    expect(integerFlagValue('0', 1, 10)).toEqual({ ok: false, problem: 'is below 1', outOfRange: true });
    expect(integerFlagValue('11', 1, 10)).toEqual({ ok: false, problem: 'is above 10', outOfRange: true });
    expect(integerFlagValue('9007199254740993', 0, Number.MAX_SAFE_INTEGER)).toEqual({ ok: false, problem: 'is above 9007199254740991', outOfRange: true });
    // A long negative number is below the range, not above it (it read "is above 10" before).
    expect(integerFlagValue('-9007199254740993', 0, 10)).toEqual({ ok: false, problem: 'is below 0', outOfRange: true });
    expect(integerFlagValue('-9007199254740993', -Number.MAX_SAFE_INTEGER, 10)).toEqual({ ok: false, problem: 'is below -9007199254740991', outOfRange: true });
    expect(integerFlagValue('-99999999999999999999', -5, 10)).toEqual({ ok: false, problem: 'is below -5', outOfRange: true });
  });
});

describe('decimalFlagValue: a decimal flag is a number as JSON writes it', () => {
  it('takes JSON numbers, exponents included, and refuses every other spelling with the one to write', () => {
    expect(['0.25', '1e3', '1e-3', '-2.5', '0', '7'].map((text) => decimalFlagValue(text))).toEqual(
      [0.25, 1000, 0.001, -2.5, 0, 7].map((value) => ({ ok: true, value })),
    );
    expect(
      ['0x10', ' 5', '.5', '5.', '-0', '-0.0', 'Infinity', '1e400', '+1', '05', '', '--cap', '0.2abc'].map((text) => [text, decimalFlagValue(text)]),
    ).toEqual([
      ['0x10', { ok: false, problem: 'is written with a 0x prefix (write 16)', outOfRange: false }],
      [' 5', { ok: false, problem: 'has white space around it (write 5)', outOfRange: false }],
      ['.5', { ok: false, problem: 'has a dot without a digit on each side (write 0.5)', outOfRange: false }],
      ['5.', { ok: false, problem: 'has a dot without a digit on each side (write 5)', outOfRange: false }],
      ['-0', { ok: false, problem: 'is zero with a minus sign (write 0)', outOfRange: false }],
      ['-0.0', { ok: false, problem: 'is zero with a minus sign (write 0)', outOfRange: false }],
      ['Infinity', { ok: false, problem: 'is not a finite number', outOfRange: false }],
      ['1e400', { ok: false, problem: 'is too large to be a finite number', outOfRange: false }],
      ['+1', { ok: false, problem: 'has a plus sign (write 1)', outOfRange: false }],
      ['05', { ok: false, problem: 'has a leading zero (write 5)', outOfRange: false }],
      ['', { ok: false, problem: 'is empty', outOfRange: false }],
      ['--cap', { ok: false, problem: 'is a flag, not a value: give the value right after the flag', outOfRange: false }],
      ['0.2abc', { ok: false, problem: 'is not a number', outOfRange: false }],
    ]);
  });
});
