import { describe, expect, it } from 'vitest';

import { AGGREGATION_ERROR_CODES, compareTiedMiners, normaliseScores } from '../index.js';
import { expectError, sortedHotkeys } from './helpers.js';

const [a, b, c, d] = sortedHotkeys(4);
const weightsOf = (r: ReturnType<typeof normaliseScores>) => r.weights.map((w) => w.weight);

describe('SPEC C.5 normalisation', () => {
  it('linear (default): s / Σ s', () => {
    const r = normaliseScores(
      [
        { hotkey: a!, score: 0.6 },
        { hotkey: b!, score: 0.2 },
      ],
      { strategy: 'linear' },
    );
    expect(weightsOf(r)).toEqual([0.6 / (0.6 + 0.2), 0.2 / (0.6 + 0.2)]);
    expect(r.burn).toBe(0);
  });

  it('softmax with temperature subtracts the max before exp', () => {
    const r = normaliseScores(
      [
        { hotkey: a!, score: 1 },
        { hotkey: b!, score: 0.5 },
      ],
      { strategy: 'softmax', temperature: 0.5 },
    );
    const ea = Math.exp(0);
    const eb = Math.exp(-1);
    expect(weightsOf(r)).toEqual([ea / (ea + eb), eb / (ea + eb)]);
  });

  it('softmax with a tiny temperature gives no NaN (exp underflows to 0)', () => {
    const r = normaliseScores(
      [
        { hotkey: a!, score: 1 },
        { hotkey: b!, score: 0.5 },
      ],
      { strategy: 'softmax', temperature: 1e-300 },
    );
    expect(weightsOf(r)).toEqual([1, 0]);
  });

  it('winner_takes_all: ties go to the earlier submission, then the lower hotkey', () => {
    const tied = [
      { hotkey: a!, score: 0.9, submittedAt: 20 },
      { hotkey: b!, score: 0.9, submittedAt: 10 },
      { hotkey: c!, score: 0.5, submittedAt: 1 },
    ];
    expect(normaliseScores(tied, { strategy: 'winner_takes_all' }).explanation.winner).toBe(b);
    const fullTie = [
      { hotkey: b!, score: 0.9 },
      { hotkey: a!, score: 0.9 },
    ];
    const r = normaliseScores(fullTie, { strategy: 'winner_takes_all' });
    expect(r.explanation.winner).toBe(a);
    expect(weightsOf(r)).toEqual([1, 0]);
  });

  it('decision: winner_takes_all counts a missing submission time as latest', () => {
    const r = normaliseScores(
      [
        { hotkey: a!, score: 0.9 },
        { hotkey: b!, score: 0.9, submittedAt: 99 },
      ],
      { strategy: 'winner_takes_all' },
    );
    expect(r.explanation.winner).toBe(b);
  });

  it("compareTiedMiners is winner_takes_all's tie rule: earlier submittedAt, none (undefined or null) last, then lower hotkey", () => {
    const tied = [
      { hotkey: d! },
      { hotkey: c!, submittedAt: null },
      { hotkey: b!, submittedAt: 4 },
      { hotkey: a!, submittedAt: 4 },
      { hotkey: d!, submittedAt: 0 },
    ];
    expect([...tied].sort(compareTiedMiners)).toEqual([
      { hotkey: d!, submittedAt: 0 },
      { hotkey: a!, submittedAt: 4 },
      { hotkey: b!, submittedAt: 4 },
      { hotkey: c!, submittedAt: null },
      { hotkey: d! },
    ]);
    expect(compareTiedMiners({ hotkey: a!, submittedAt: 3 }, { hotkey: a!, submittedAt: 3 })).toBe(0);
    // The winner is the first of the miners at the top score in that order.
    const scores = [
      { hotkey: a!, score: 0.9, submittedAt: 8 },
      { hotkey: b!, score: 0.9 },
      { hotkey: c!, score: 0.9, submittedAt: 5 },
    ];
    expect(normaliseScores(scores, { strategy: 'winner_takes_all' }).explanation.winner).toBe([...scores].sort(compareTiedMiners)[0]!.hotkey);
    expectError(() => compareTiedMiners({ hotkey: a!, submittedAt: 1.5 }, { hotkey: b! }), AGGREGATION_ERROR_CODES.invalidInput, 'a.submittedAt');
  });

  it('decision: quadratic is s² / Σ s²', () => {
    const r = normaliseScores(
      [
        { hotkey: a!, score: 0.6 },
        { hotkey: b!, score: 0.2 },
      ],
      { strategy: 'quadratic' },
    );
    expect(weightsOf(r)).toEqual([(0.6 * 0.6) / (0.6 * 0.6 + 0.2 * 0.2), (0.2 * 0.2) / (0.6 * 0.6 + 0.2 * 0.2)]);
  });

  it('decision: ranked gives points n − rank + 1 with competition ranks (ties share), zero scores get 0', () => {
    const r = normaliseScores(
      [
        { hotkey: a!, score: 0.9 },
        { hotkey: b!, score: 0.8 },
        { hotkey: c!, score: 0.8 },
        { hotkey: d!, score: 0 },
      ],
      { strategy: 'ranked' },
    );
    // positive n = 3: ranks 1, 2, 2 -> points 3, 2, 2; sum 7
    expect(r.explanation.miners.map((m) => m.rank)).toEqual([1, 2, 2, null]);
    expect(weightsOf(r)).toEqual([3 / 7, 2 / 7, 2 / 7, 0]);
  });

  it('all-zero scores give no miner weight: everything to burn (every strategy)', () => {
    for (const strategy of ['linear', 'softmax', 'winner_takes_all', 'quadratic', 'ranked'] as const) {
      const r = normaliseScores(
        [
          { hotkey: a!, score: 0 },
          { hotkey: b!, score: 0 },
        ],
        { strategy },
      );
      expect(r.burn).toBe(1);
      expect(weightsOf(r)).toEqual([0, 0]);
    }
  });

  it('decision: quadratic whose squares all underflow burns everything instead of 0/0', () => {
    const r = normaliseScores([{ hotkey: a!, score: 1e-200 }], { strategy: 'quadratic' });
    expect(r.burn).toBe(1);
  });

  it('rejects duplicate hotkeys, bad temperature and unknown strategy', () => {
    expectError(
      () =>
        normaliseScores(
          [
            { hotkey: a!, score: 0.1 },
            { hotkey: a!, score: 0.2 },
          ],
          { strategy: 'linear' },
        ),
      AGGREGATION_ERROR_CODES.duplicateHotkey,
      'scores',
    );
    expectError(() => normaliseScores([], { strategy: 'softmax', temperature: 0 }), AGGREGATION_ERROR_CODES.invalidInput, 'options.temperature');
    expectError(() => normaliseScores([], { strategy: 'cubic' as never }), AGGREGATION_ERROR_CODES.invalidInput, 'options.strategy');
  });
});
