import { describe, expect, it } from 'vitest';

import { AGGREGATION_ERROR_CODES, decayBurn, decayStep, DEFAULT_PIPELINE_CONFIG } from '../index.js';
import { expectError, sortedHotkeys } from './helpers.js';

const [a, b] = sortedHotkeys(2);
const OPTIONS = DEFAULT_PIPELINE_CONFIG.decay;
const state0 = { topScore: 0.8, topEpoch: 0, topHotkey: a! };

describe('SPEC C.6 reward decay', () => {
  it('seed C timeline: epochs 1-10 keep 100 %, 11 keeps 95 %, 12 keeps 90 %, 26 and later keep 20 %', () => {
    const keepAt = (epoch: number) => decayStep(state0, { epoch, scores: [], options: OPTIONS });
    for (let epoch = 0; epoch <= 10; epoch += 1) {
      expect(keepAt(epoch).burn).toBe(0);
      expect(keepAt(epoch).keep).toBe(1);
    }
    expect(keepAt(11).burn).toBe(0.05);
    expect(keepAt(11).keep).toBe(0.95);
    expect(keepAt(12).burn).toBe(0.1);
    expect(keepAt(12).keep).toBe(0.9);
    expect(keepAt(25).keep).toBeCloseTo(0.25, 15);
    for (const epoch of [26, 27, 40, 1000]) {
      expect(keepAt(epoch).burn).toBe(0.8);
      expect(keepAt(epoch).keep).toBeCloseTo(0.2, 15);
    }
    expect(keepAt(26).explanation.epochsStale).toBe(16);
  });

  it('a score that beats the top by at least 0.02 (absolute) replaces it and resets staleness', () => {
    const r = decayStep(state0, { epoch: 20, scores: [{ hotkey: b!, score: 0.85 }], options: OPTIONS });
    expect(r.state).toEqual({ topScore: 0.85, topEpoch: 20, topHotkey: b });
    expect(r.burn).toBe(0);
    expect(r.explanation.replacedTop).toBe(true);
  });

  it('a smaller improvement does not reset: 0.81 over 0.80 keeps decaying', () => {
    const r = decayStep(state0, { epoch: 20, scores: [{ hotkey: b!, score: 0.81 }], options: OPTIONS });
    expect(r.state).toEqual(state0);
    expect(r.burn).toBe(0.05 * 10);
  });

  it('decision: the threshold is compared in doubles as written, new − top >= threshold (0.82 − 0.80 is 0.01999… and does not reset)', () => {
    expect(0.82 - 0.8 < 0.02).toBe(true);
    const r = decayStep(state0, { epoch: 20, scores: [{ hotkey: b!, score: 0.82 }], options: OPTIONS });
    expect(r.explanation.replacedTop).toBe(false);
    const r2 = decayStep({ ...state0, topScore: 0.5 }, { epoch: 20, scores: [{ hotkey: b!, score: 0.52 }], options: OPTIONS });
    expect(0.52 - 0.5 >= 0.02).toBe(true);
    expect(r2.explanation.replacedTop).toBe(true);
  });

  it('relative threshold by configuration: (new − top) / top >= threshold', () => {
    const options = { ...OPTIONS, improvementMode: 'relative' as const, improvementThreshold: 0.1 };
    expect(decayStep(state0, { epoch: 20, scores: [{ hotkey: b!, score: 0.9 }], options }).explanation.replacedTop).toBe(true); // +12.5 %
    expect(decayStep(state0, { epoch: 20, scores: [{ hotkey: b!, score: 0.85 }], options }).explanation.replacedTop).toBe(false); // +6.25 %
  });

  it('decision: a relative improvement that overflows (subnormal top) still replaces the top and is reported as Number.MAX_VALUE', () => {
    const options = { ...OPTIONS, improvementMode: 'relative' as const };
    const top = { topScore: 5e-324, topEpoch: 0, topHotkey: a! };
    expect((1 - 5e-324) / 5e-324).toBe(Number.POSITIVE_INFINITY); // the double quotient overflows
    const r = decayStep(top, { epoch: 3, scores: [{ hotkey: b!, score: 1 }], options });
    expect(r.explanation.replacedTop).toBe(true);
    expect(r.explanation.improvement).toBe(Number.MAX_VALUE);
    expect(r.state).toEqual({ topScore: 1, topEpoch: 3, topHotkey: b });
  });

  it('decision: the first score ever sets the top; with no score ever there is no burn', () => {
    const first = decayStep(null, { epoch: 3, scores: [{ hotkey: a!, score: 0.4 }, { hotkey: b!, score: 0.6 }], options: OPTIONS });
    expect(first.state).toEqual({ topScore: 0.6, topEpoch: 3, topHotkey: b });
    const nothing = decayStep(null, { epoch: 50, scores: [], options: OPTIONS });
    expect(nothing.state).toBeNull();
    expect(nothing.burn).toBe(0);
  });

  it('exponential curve by configuration: min(1 − (1 − ρ)^stale, max_burn)', () => {
    const options = { ...OPTIONS, curve: 'exponential' as const };
    expect(decayBurn(1, options)).toBe(1 - 0.95);
    expect(decayBurn(2, options)).toBe(1 - 0.95 * 0.95);
    expect(decayBurn(100, options)).toBe(0.8);
  });

  it('rejects an epoch before the top epoch and bad options', () => {
    expectError(() => decayStep({ ...state0, topEpoch: 9 }, { epoch: 8, scores: [], options: OPTIONS }), AGGREGATION_ERROR_CODES.epochBeforeTop, 'input.epoch');
    expectError(() => decayStep(null, { epoch: 1, scores: [], options: { ...OPTIONS, rho: 2 } }), AGGREGATION_ERROR_CODES.invalidInput, 'input.options.rho');
  });
});
