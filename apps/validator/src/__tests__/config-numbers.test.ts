import { describe, expect, it } from 'vitest';

import { numberSpellingProblem, unsafeIntegerProblem, writtenNumbers } from '../config-numbers.js';

describe('G.27: the numbers a YAML text holds, as written', () => {
  it('names each number by its key path and line, an alias by its own place with its anchor text, and skips strings', () => {
    const text = ['server:', '  port: 0x1f9b', '  host: "0x10"', 'peers:', '  - { weight: &w 1e3 }', '  - { weight: *w }', ''].join('\n');
    expect(writtenNumbers(text, [], (line) => `line ${line}`)).toEqual([
      { path: ['server', 'port'], value: 8091, text: '0x1f9b', where: 'line 2' },
      { path: ['peers', 0, 'weight'], value: 1000, text: '1e3', where: 'line 5' },
      { path: ['peers', 1, 'weight'], value: 1000, text: '1e3', where: 'line 5' },
    ]);
    // A variable's value sits at the variable's path.
    expect(writtenNumbers('0o17', ['server', 'port'], () => 'the variable')).toEqual([
      { path: ['server', 'port'], value: 15, text: '0o17', where: 'the variable' },
    ]);
    // YAML that does not parse yields nothing: the configuration's own parse reports it.
    expect(writtenNumbers('a: [1', [], () => '')).toEqual([]);
  });

  it('an integer takes decimal digits only; another number any decimal spelling but a 0x or 0o prefix; neither an infinity', () => {
    expect(['8091', '-1', '0'].map((t) => numberSpellingProblem(t, true))).toEqual([undefined, undefined, undefined]);
    expect(['0x1f9b', '1e3', '0o17', '-0', '.inf'].map((t) => numberSpellingProblem(t, true))).toEqual([
      'is written with a 0x prefix (write 8091)',
      'is written with an exponent (write 1000)',
      'is written with a 0o prefix (write 15)',
      'is zero with a minus sign (write 0)',
      'is not a finite number',
    ]);
    expect(['0.5', '.5', '5e-1', '+0.5', '1'].map((t) => numberSpellingProblem(t, false))).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(['0x1', '0o7', '-.Inf', '.nan'].map((t) => numberSpellingProblem(t, false))).toEqual([
      'is written with a 0x prefix (write 1)',
      'is written with a 0o prefix (write 7)',
      'is not a finite number',
      'is not a finite number',
    ]);
  });
});

describe("G.29.c: an integer past 2^53 is refused by its text, with the setting's bound", () => {
  it('above 2^53 - 1 names the largest value, below -(2^53 - 1) the smallest; within, or spelled otherwise, is left to others', () => {
    const bounds = { min: 10, max: 60_000 };
    expect(['9007199254740992', '9007199254740993', '123456789012345678901234567890'].map((t) => unsafeIntegerProblem(t, bounds))).toEqual([
      'is above 60000, the largest value this setting takes',
      'is above 60000, the largest value this setting takes',
      'is above 60000, the largest value this setting takes',
    ]);
    expect(unsafeIntegerProblem('-9007199254740992', bounds)).toBe('is below 10, the smallest value this setting takes');
    expect(['9007199254740991', '-9007199254740991', '99999', '9.007199254740993e15', '0x20000000000001'].map((t) => unsafeIntegerProblem(t, bounds))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
