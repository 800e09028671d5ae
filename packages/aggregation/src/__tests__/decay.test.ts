import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { Hotkey } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { AGGREGATION_ERROR_CODES, decayBurn, decayConfigSchema, decayStep, DEFAULT_PIPELINE_CONFIG, MIN_EXPONENTIAL_RHO, normaliseScores } from '../index.js';
import { expectError, sortedHotkeys } from './helpers.js';

const [a, b] = sortedHotkeys(2);
const OPTIONS = DEFAULT_PIPELINE_CONFIG.decay;
const state0 = { topScore: 0.8, topEpoch: 0, topHotkey: a! };

describe('SPEC C.6 reward decay', () => {
  it("SPEC C.6 seed C's timeline: epochs 1-10 keep 100 %, 11 keeps 95 %, 12 keeps 90 %, 26 and later keep 20 %", () => {
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

  it('SPEC C.6 improvement is compared with the 1e-9 tolerance: 0.80 to 0.82 resets staleness (absolute)', () => {
    expect(0.82 - 0.8 < 0.02).toBe(true); // why the tolerance exists: the plain difference falls short
    const r = decayStep(state0, { epoch: 20, scores: [{ hotkey: b!, score: 0.82 }], options: OPTIONS });
    expect(r.explanation.replacedTop).toBe(true);
    expect(r.state).toEqual({ topScore: 0.82, topEpoch: 20, topHotkey: b });
    expect(r.burn).toBe(0);
    // Just below the tolerance band: 0.82 − 2e-9 does not reset.
    const below = decayStep(state0, { epoch: 20, scores: [{ hotkey: b!, score: 0.82 - 2e-9 }], options: OPTIONS });
    expect(below.explanation.replacedTop).toBe(false);
    expect(below.burn).toBe(0.05 * 10);
  });

  it('SPEC C.6 improvement is compared with the 1e-9 tolerance: new >= top·(1 + threshold) − 1e-9 (relative)', () => {
    const options = { ...OPTIONS, improvementMode: 'relative' as const, improvementThreshold: 0.1 };
    // 0.8·1.1 = 0.8800000000000001 in doubles: 0.88 is below it, but within the tolerance.
    expect(0.88 < 0.8 * (1 + 0.1)).toBe(true);
    expect(decayStep(state0, { epoch: 20, scores: [{ hotkey: b!, score: 0.88 }], options }).explanation.replacedTop).toBe(true);
    expect(decayStep(state0, { epoch: 20, scores: [{ hotkey: b!, score: 0.88 - 2e-9 }], options }).explanation.replacedTop).toBe(false);
  });

  it('decision: with an improvement threshold of 0, a score equal to the top (within 1e-9) resets staleness, and a relative top of 0 is replaced by any score, as the SPEC C.6 formula says', () => {
    const options = { ...OPTIONS, improvementThreshold: 0 };
    const r = decayStep(state0, { epoch: 30, scores: [{ hotkey: b!, score: 0.8 }], options });
    expect(r.explanation.replacedTop).toBe(true);
    expect(r.burn).toBe(0);
    // Relative mode: a top of 0 is replaced by any candidate, 0 included.
    const relative = { ...OPTIONS, improvementMode: 'relative' as const };
    const zeroTop = decayStep({ topScore: 0, topEpoch: 0, topHotkey: a! }, { epoch: 30, scores: [{ hotkey: b!, score: 0 }], options: relative });
    expect(zeroTop.explanation.replacedTop).toBe(true);
    expect(zeroTop.state).toEqual({ topScore: 0, topEpoch: 30, topHotkey: b });
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
    const first = decayStep(null, {
      epoch: 3,
      scores: [
        { hotkey: a!, score: 0.4 },
        { hotkey: b!, score: 0.6 },
      ],
      options: OPTIONS,
    });
    expect(first.state).toEqual({ topScore: 0.6, topEpoch: 3, topHotkey: b });
    const nothing = decayStep(null, { epoch: 50, scores: [], options: OPTIONS });
    expect(nothing.state).toBeNull();
    expect(nothing.burn).toBe(0);
  });

  describe('docs/spec.md G.9: the top a decay state names is the miner the challenge ranks first among the tied', () => {
    const [low, mid, high] = sortedHotkeys(3, 40) as [Hotkey, Hotkey, Hotkey];

    it('a tie at the best score where the higher hotkey submitted earlier names that miner, the winner_takes_all winner', () => {
      const scores = [
        { hotkey: low, score: 0.9, submittedAt: 7 },
        { hotkey: high, score: 0.9, submittedAt: 3 },
        { hotkey: mid, score: 0.5, submittedAt: 1 },
      ];
      const first = decayStep(null, { epoch: 4, scores, options: OPTIONS });
      expect(first.explanation.candidate).toEqual({ hotkey: high, score: 0.9 });
      expect(first.state).toEqual({ topScore: 0.9, topEpoch: 4, topHotkey: high });
      expect(normaliseScores(scores, { strategy: 'winner_takes_all' }).explanation.winner).toBe(high);
      // A new top beaten by the threshold is named the same way.
      const beaten = decayStep(state0, { epoch: 20, scores, options: OPTIONS });
      expect(beaten.explanation.replacedTop).toBe(true);
      expect(beaten.state?.topHotkey).toBe(high);
      // Not beaten: the state keeps its top, and the explanation still names the miner the challenge ranks first.
      const kept = decayStep({ ...state0, topScore: 0.95 }, { epoch: 20, scores, options: OPTIONS });
      expect(kept.explanation.replacedTop).toBe(false);
      expect(kept.explanation.candidate?.hotkey).toBe(high);
      expect(kept.state).toEqual({ ...state0, topScore: 0.95 });
    });

    it('a miner with a submission ranks before one without; equal submissions fall to the lower hotkey', () => {
      const withOne = decayStep(null, {
        epoch: 1,
        scores: [
          { hotkey: low, score: 0.7 },
          { hotkey: high, score: 0.7, submittedAt: 9 },
        ],
        options: OPTIONS,
      });
      expect(withOne.state?.topHotkey).toBe(high);
      const same = decayStep(null, {
        epoch: 1,
        scores: [
          { hotkey: high, score: 0.7, submittedAt: 2 },
          { hotkey: low, score: 0.7, submittedAt: 2 },
        ],
        options: OPTIONS,
      });
      expect(same.state?.topHotkey).toBe(low);
    });

    it('without submissions a tie names the lowest hotkey, as before; a submission never outranks a higher score', () => {
      const plain = decayStep(null, {
        epoch: 1,
        scores: [
          { hotkey: high, score: 0.7 },
          { hotkey: low, score: 0.7 },
        ],
        options: OPTIONS,
      });
      expect(plain.state?.topHotkey).toBe(low);
      const better = decayStep(null, {
        epoch: 1,
        scores: [
          { hotkey: low, score: 0.8, submittedAt: 9 },
          { hotkey: high, score: 0.7, submittedAt: 1 },
        ],
        options: OPTIONS,
      });
      expect(better.state?.topHotkey).toBe(low);
    });

    it('rejects a submittedAt that is not an integer >= 0, naming its path', () => {
      for (const submittedAt of [1.5, -1, '3', Number.NaN]) {
        expectError(
          () =>
            decayStep(null, {
              epoch: 1,
              scores: [
                { hotkey: low, score: 0.5 },
                { hotkey: high, score: 0.5, submittedAt: submittedAt as number },
              ],
              options: OPTIONS,
            }),
          AGGREGATION_ERROR_CODES.invalidInput,
          'input.scores[1].submittedAt',
        );
      }
    });
  });

  it('exponential curve by configuration: min(1 − keep, max_burn), keep multiplied by (1 − ρ) once per stale epoch', () => {
    const options = { ...OPTIONS, curve: 'exponential' as const };
    expect(decayBurn(1, options)).toBe(1 - 0.95);
    expect(decayBurn(2, options)).toBe(1 - 0.95 * 0.95);
    expect(decayBurn(100, options)).toBe(0.8);
  });

  /** SPEC C.6 as a plain loop: every stale epoch, left to right, no early stop. */
  function plainLoopBurn(rho: number, stale: number, maxBurn: number): number {
    let keep = 1.0;
    for (let i = 0; i < stale; i += 1) keep = keep * (1 - rho);
    return Math.min(1 - keep, maxBurn);
  }

  it('SPEC C.6 exponential decay is repeated multiplication left to right (never a pow): equal to a plain loop for many (ρ, epochs_stale) pairs', () => {
    const rhos = [0, 1, 0.05, 0.1, 0.3, 0.5, 0.999, 1e-3, MIN_EXPONENTIAL_RHO];
    for (let k = 1; k < 200; k += 1) rhos.push(((k * 7919) % 1000) / 1000 + k * 1e-7);
    let powDiffers = 0;
    const mismatches: string[] = [];
    for (const rho of rhos) {
      for (const maxBurn of [0, 0.3, 0.8, 1]) {
        for (let stale = 0; stale <= 120; stale += 1) {
          const expected = plainLoopBurn(rho, stale, maxBurn);
          const got = decayBurn(stale, { rho, maxBurn, curve: 'exponential' });
          if (!Object.is(got, expected)) mismatches.push(`rho ${rho} stale ${stale} max ${maxBurn}: ${got} vs ${expected}`);
          if (maxBurn === 1 && Math.min(1 - Math.pow(1 - rho, stale), 1) !== expected) powDiffers += 1;
        }
      }
    }
    expect(mismatches).toEqual([]);
    // The pairs include ones where a library pow gives another last bit: the test can tell them apart.
    expect(powDiffers).toBeGreaterThan(0);
  });

  it('SPEC C.6 exponential decay stops early once 1 − keep >= max_burn or keep = 0, with the same result (a huge stale count is cheap)', () => {
    const options = { rho: 0.05, maxBurn: 0.8, curve: 'exponential' as const };
    expect(decayBurn(Number.MAX_SAFE_INTEGER, options)).toBe(0.8);
    expect(decayBurn(Number.MAX_SAFE_INTEGER, { rho: 1, maxBurn: 1, curve: 'exponential' })).toBe(1);
    expect(decayBurn(5000, { rho: 0.5, maxBurn: 1, curve: 'exponential' })).toBe(plainLoopBurn(0.5, 5000, 1));
  });

  it('SPEC C.6 exponential decay with ρ = 0 burns nothing, and stops at the first multiplication that changes nothing (a huge stale count is cheap)', () => {
    expect(decayBurn(1_000_000, { rho: 0, maxBurn: 0.8, curve: 'exponential' })).toBe(0);
    // Before, keep stayed 1, so neither early stop applied and the loop ran once per stale epoch: 2^53 of them
    // here, which no test timeout interrupts (the loop never yields). So it runs in a child process that is
    // killed after 60 s: the fixed code answers at once.
    const script = [
      "import { decayBurn, decayStep } from './src/index.ts';",
      "const options = { graceEpochs: 10, rho: 0, maxBurn: 1, curve: 'exponential', improvementThreshold: 0.02, improvementMode: 'absolute' };",
      'const step = decayStep({ topScore: 0.8, topEpoch: 0, topHotkey: process.argv[1] }, { epoch: Number.MAX_SAFE_INTEGER, scores: [], options });',
      "console.log(JSON.stringify([decayBurn(Number.MAX_SAFE_INTEGER, { rho: 0, maxBurn: 0.8, curve: 'exponential' }), step.burn, step.keep]));",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=@subnet/source', '--input-type=module', '-e', script, a!], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.signal, 'the child was killed: the loop ran once per stale epoch').toBeNull();
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([0, 0, 1]);
  }, 70_000);

  it('docs/spec.md G.4: the exponential curve takes ρ = 0 or ρ >= 1e-4, so its loop is bounded (about 37/ρ multiplications); a smaller ρ is refused, naming the field', () => {
    expect(MIN_EXPONENTIAL_RHO).toBe(1e-4);
    for (const rho of [5e-324, 1e-12, 9.999e-5]) {
      expectError(() => decayBurn(Number.MAX_SAFE_INTEGER, { rho, maxBurn: 1, curve: 'exponential' }), AGGREGATION_ERROR_CODES.invalidInput, 'options.rho');
      expectError(
        () => decayStep(state0, { epoch: Number.MAX_SAFE_INTEGER, scores: [], options: { ...OPTIONS, curve: 'exponential', rho } }),
        AGGREGATION_ERROR_CODES.invalidInput,
        'input.options.rho',
      );
      const parsed = decayConfigSchema.safeParse({ curve: 'exponential', rho });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['rho']);
      // The linear curve has no loop: any ρ in [0, 1] stays valid there.
      expect(decayBurn(3, { rho, maxBurn: 1, curve: 'linear' })).toBe(Math.min(rho * 3, 1));
      expect(decayConfigSchema.safeParse({ curve: 'linear', rho }).success).toBe(true);
    }
    // The bound's worst case (max_burn 1: the loop runs until 1 − keep rounds to 1) is the plain loop's result, and cheap.
    expect(decayBurn(Number.MAX_SAFE_INTEGER, { rho: MIN_EXPONENTIAL_RHO, maxBurn: 1, curve: 'exponential' })).toBe(1);
    expect(decayBurn(400_000, { rho: MIN_EXPONENTIAL_RHO, maxBurn: 1, curve: 'exponential' })).toBe(plainLoopBurn(MIN_EXPONENTIAL_RHO, 400_000, 1));
    expect(decayConfigSchema.safeParse({ curve: 'exponential', rho: MIN_EXPONENTIAL_RHO }).success).toBe(true);
    expect(decayConfigSchema.safeParse({ curve: 'exponential', rho: 0 }).success).toBe(true);
  });

  it('rejects an epoch before the top epoch and bad options', () => {
    expectError(() => decayStep({ ...state0, topEpoch: 9 }, { epoch: 8, scores: [], options: OPTIONS }), AGGREGATION_ERROR_CODES.epochBeforeTop, 'input.epoch');
    expectError(() => decayStep(null, { epoch: 1, scores: [], options: { ...OPTIONS, rho: 2 } }), AGGREGATION_ERROR_CODES.invalidInput, 'input.options.rho');
  });
});
