import type { Hotkey } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Evaluation } from '../aggregate.js';
import type { EpochInput, PipelineConfig } from '../index.js';
import {
  AGGREGATION_ERROR_CODES,
  computeEpochWeights,
  computeEpochWeightsWire,
  DEFAULT_PIPELINE_CONFIG,
  formatEpochExplanation,
  parseEpochInput,
} from '../index.js';
import { expectError, sortedHotkeys } from './helpers.js';

const V = sortedHotkeys(6);
const M = sortedHotkeys(8, 100);
const ev = (v: Hotkey, m: Hotkey, score: number, epoch: number): Evaluation => ({ validatorHotkey: v, minerHotkey: m, epoch, score });

function simpleInput(epoch: number, scores: readonly number[], decayState: EpochInput['challenges'][number]['decayState'] = null): EpochInput {
  const evaluations = scores.flatMap((s, i) => V.slice(0, 3).map((v) => ev(v, M[i]!, s, epoch)));
  return {
    config: DEFAULT_PIPELINE_CONFIG,
    epoch,
    challenges: [{ id: 'term', kind: 'evaluations', alpha: 1, decay: true, evaluations, decayState }],
    stakes: V.slice(0, 3).map((validatorHotkey) => ({ validatorHotkey, stake: 100 })),
    metagraph: M.map((hotkey, i) => ({ hotkey, uid: i + 1 })),
  };
}

describe('computeEpochWeights: the whole pipeline (SPEC C)', () => {
  it('aggregates, normalises, caps and converts to u16 summing to 65535 (worked example)', () => {
    const r = computeEpochWeights(simpleInput(0, [0.5, 0.25, 0.25]));
    // linear 0.5 / 0.25 / 0.25; quotas 32767.5, 16383.75, 16383.75: the two .75 remainders get the 2 units
    expect(r.uids).toEqual([1, 2, 3]);
    expect(r.weights).toEqual([32767, 16384, 16384]);
    expect(r.decayStates).toEqual([{ challengeId: 'term', state: { topScore: 0.5, topEpoch: 0, topHotkey: M[0] } }]);
    expect(r.explanation.miners.map((m) => m.u16)).toEqual([32767, 16384, 16384]);
  });

  it('seed C decay timeline through the pipeline: epoch 11 burns 5 % to the burn uid, epoch 26 burns 80 %', () => {
    const state = { topScore: 0.5, topEpoch: 0, topHotkey: M[0]! };
    const at11 = computeEpochWeights(simpleInput(11, [0.5, 0.5], state));
    expect(at11.explanation.challenges[0]!.decayBurn).toBe(0.05);
    expect(at11.uids).toEqual([0, 1, 2]);
    // 0.05 and 0.475 each: quotas 3276.75, 31129.125, 31129.125
    expect(at11.weights).toEqual([3277, 31129, 31129]);
    const at26 = computeEpochWeights(simpleInput(26, [0.5, 0.5], state));
    expect(at26.explanation.challenges[0]!.decayBurn).toBe(0.8);
    expect(at26.explanation.burn).toBeCloseTo(0.8, 12);
  });

  it('the cap holds through the pipeline: one strong miner alone keeps 50 %, the rest burns', () => {
    const r = computeEpochWeights(simpleInput(0, [0.9]));
    expect(r.uids).toEqual([0, 1]);
    expect(r.weights).toEqual([32768, 32767]); // 0.5 / 0.5: the tie goes to the lower uid
  });

  describe('docs/spec.md G.9: the decay state names the miner the challenge ranks first among those tied at the top', () => {
    /** M[0] and M[1] tie at 0.9 (M[1] submitted earlier when submissions are passed), M[2] scores 0.5. */
    function tieInput(strategy: 'winner_takes_all' | 'linear', submissions: EpochInput['challenges'][number]['submissions']): EpochInput {
      const input = simpleInput(4, [0.9, 0.9, 0.5]);
      return {
        ...input,
        config: { ...DEFAULT_PIPELINE_CONFIG, normalisation: { strategy }, weightCap: 1 },
        challenges: input.challenges.map((c) => (submissions === undefined ? c : { ...c, submissions })),
      };
    }
    const earlierHigh = [
      { hotkey: M[0]!, submittedAt: 7 },
      { hotkey: M[1]!, submittedAt: 3 },
      { hotkey: M[2]!, submittedAt: 1 },
    ];

    it('winner_takes_all, the higher hotkey submitted earlier: the top is that miner, the one the weight went to', () => {
      const r = computeEpochWeights(tieInput('winner_takes_all', earlierHigh));
      const challenge = r.explanation.challenges[0]!;
      expect(challenge.normalisation?.winner).toBe(M[1]);
      expect(challenge.decay?.candidate).toEqual({ hotkey: M[1], score: 0.9 });
      expect(r.decayStates).toEqual([{ challengeId: 'term', state: { topScore: 0.9, topEpoch: 4, topHotkey: M[1] } }]);
      expect(r.uids).toEqual([2]);
      const wire = computeEpochWeightsWire(tieInput('winner_takes_all', earlierHigh));
      expect(wire.decayStates).toEqual([{ challenge_id: 'term', state: { top_score: 0.9, top_epoch: 4, top_hotkey: M[1] } }]);
      expect(wire.explanation.challenges[0]!.decay?.candidate).toEqual({ hotkey: M[1], score: 0.9 });
    });

    it('winner_takes_all without submissions: the lowest tied hotkey, as before', () => {
      const r = computeEpochWeights(tieInput('winner_takes_all', undefined));
      expect(r.explanation.challenges[0]!.normalisation?.winner).toBe(M[0]);
      expect(r.decayStates).toEqual([{ challengeId: 'term', state: { topScore: 0.9, topEpoch: 4, topHotkey: M[0] } }]);
    });

    it('a strategy that does not rank by submission (linear): submissions passed change nothing, the lowest tied hotkey', () => {
      const withSubmissions = computeEpochWeights(tieInput('linear', earlierHigh));
      expect(withSubmissions.explanation.challenges[0]!.decay?.candidate).toEqual({ hotkey: M[0], score: 0.9 });
      expect(withSubmissions.decayStates).toEqual([{ challengeId: 'term', state: { topScore: 0.9, topEpoch: 4, topHotkey: M[0] } }]);
      expect(withSubmissions).toStrictEqual(computeEpochWeights(tieInput('linear', undefined)));
    });
  });

  describe('a hotkey the metagraph does not list takes no share of its challenge (SPEC C.9)', () => {
    // M[7] is scored by the validators but missing from the epoch's metagraph (deregistered, or known only to peers).
    const outside = M[7]!;
    const registered = M.slice(0, 7).map((hotkey, i) => ({ hotkey, uid: i + 1 }));
    const scoresOf = (challenge: string, list: readonly (readonly [Hotkey, number])[]) => ({
      id: challenge,
      kind: 'evaluations' as const,
      decay: false,
      evaluations: list.flatMap(([m, s]) => V.slice(0, 3).map((v) => ev(v, m, s, 0))),
    });
    const epochOf = (challenges: EpochInput['challenges']): EpochInput => ({
      config: DEFAULT_PIPELINE_CONFIG,
      epoch: 0,
      challenges,
      stakes: V.slice(0, 3).map((validatorHotkey) => ({ validatorHotkey, stake: 100 })),
      metagraph: registered,
    });

    it('the cap still holds: a capped miner keeps 0.5, not the 0.9 it had when the outsider was dropped after the cap', () => {
      const r = computeEpochWeights(
        epochOf([
          {
            ...scoresOf('term', [
              [M[0]!, 0.9],
              [M[1]!, 0.05],
              [M[2]!, 0.05],
              [outside, 0.9],
            ]),
            alpha: 1,
          },
        ]),
      );
      // Normalised over the registered three: 0.9 / 1 is above the cap of 0.5, so 0.5 / 0.25 / 0.25.
      expect(r.uids).toEqual([1, 2, 3]);
      expect(r.weights).toEqual([32767, 16384, 16384]);
      expect(r.explanation.mapping.dropped).toEqual([]);
      expect(r.explanation.challenges[0]!.cap.capped).toEqual([M[0]]);
      const row = r.explanation.miners.find((m) => m.hotkey === outside)!;
      expect(row).toMatchObject({ uid: null, allocated: 0, mapped: 0, u16: 0 });
      expect(row.challenges[0]).toMatchObject({ score: 0.9, unscoredReason: null, normalised: 0, capped: 0 });
      expect(formatEpochExplanation(r)).toContain(`why (term): ${outside} is not in the epoch's metagraph: it takes no share of the challenge`);
    });

    it("α stays with its challenge: the outsider's share is not spread over another challenge's miners", () => {
      const r = computeEpochWeights(
        epochOf([
          {
            ...scoresOf('a', [
              [M[0]!, 1],
              [outside, 1],
            ]),
            alpha: 0.5,
            weightCap: 1,
          },
          { ...scoresOf('b', [[M[1]!, 1]]), alpha: 0.5, weightCap: 1 },
        ]),
      );
      // 0.5 each (dropping the outsider after allocation gave M[0] 1/3 and M[1] 2/3).
      expect(r.uids).toEqual([1, 2]);
      expect(r.weights).toEqual([32768, 32767]);
    });

    it('the same in a bounty challenge: Σ W runs over registered hunters; the outsider keeps its W in the explanation', () => {
      const r = computeEpochWeights(
        epochOf([
          {
            id: 'bounty',
            kind: 'bounty',
            alpha: 1,
            decay: false,
            weightCap: 0.5,
            records: [
              { hotkey: M[0]!, validIssues: 20, invalidIssues: 0, starredRepos: 0 },
              { hotkey: M[1]!, validIssues: 2, invalidIssues: 0, starredRepos: 0 },
              { hotkey: outside, validIssues: 20, invalidIssues: 0, starredRepos: 0 },
            ],
          },
        ]),
      );
      // W = 1 and 0.1 among the registered: 1/1.1 is capped at 0.5 and 0.5 burns (n·cap = 1: the cap holds exactly).
      expect(r.explanation.challenges[0]!.bounty!.miners.map((m) => m.w)).toEqual([1, 0.1, 1]);
      expect(r.explanation.challenges[0]!.bounty!.totalW).toBe(1.1);
      expect(r.explanation.uidWeights).toEqual([
        { uid: 1, weight: 0.5 },
        { uid: 2, weight: 0.5 },
      ]);
      expect(r.explanation.miners.find((m) => m.hotkey === outside)!.challenges[0]).toMatchObject({ score: 1, normalised: 0, capped: 0 });
    });
  });

  it('all miners unscored: everything goes to the burn uid', () => {
    const input = simpleInput(0, [0.9]);
    const r = computeEpochWeights({ ...input, stakes: [...input.stakes, { validatorHotkey: V[5]!, stake: 10_000 }] });
    expect(r.explanation.miners[0]!.challenges[0]!.unscoredReason).toBe('insufficient_stake');
    expect(r.uids).toEqual([0]);
    expect(r.weights).toEqual([65535]);
  });

  it('a miner registered at uid 0 is named with uid 0 in its explanation row (0 is a uid, not "none")', () => {
    const input = simpleInput(0, [0.5, 0.25]);
    const metagraph = input.metagraph.map((n, i) => ({ hotkey: n.hotkey, uid: i === 0 ? 0 : n.uid }));
    const r = computeEpochWeights({ ...input, config: { ...DEFAULT_PIPELINE_CONFIG, burnUid: 9 }, metagraph });
    expect(r.explanation.miners.map((m) => [m.hotkey, m.uid])).toEqual([
      [M[0], 0],
      [M[1], 2],
    ]);
    expect(r.uids).toContain(0);
  });

  it('allocation across an evaluations challenge and a bounty challenge', () => {
    const base = simpleInput(0, [0.5, 0.5]);
    const r = computeEpochWeights({
      ...base,
      challenges: [
        { ...base.challenges[0]!, alpha: 0.5 },
        {
          id: 'bounty',
          kind: 'bounty',
          alpha: 0.25,
          decay: false,
          records: [{ hotkey: M[2]!, validIssues: 20, invalidIssues: 0, starredRepos: 0 }],
          weightCap: 1,
        },
      ],
    });
    // uid 0 (burn) 0.25, uids 1 and 2 0.25 each, uid 3 0.25 from the bounty
    expect(r.uids).toEqual([0, 1, 2, 3]);
    expect(r.weights.reduce((s, w) => s + w, 0)).toBe(65535);
    expect(r.weights).toEqual([16384, 16384, 16384, 16383]);
    expect(formatEpochExplanation(r)).toContain('challenge bounty (bounty) alpha 0.250000');
  });

  it('the printed epoch explanation says why a miner is unscored: "2 of 3 evaluations remained: uid 12 was an outlier, M = -47.2"', () => {
    const evaluations = [ev(V[0]!, M[0]!, 0.8, 5), ev(V[1]!, M[0]!, 0.81, 5), ev(V[2]!, M[0]!, 0.1, 5)];
    // A zero-stake validator's evaluation of M[1] is listed as ignored.
    const more = [ev(V[0]!, M[1]!, 0.5, 5), ev(V[1]!, M[1]!, 0.5, 5), ev(V[2]!, M[1]!, 0.5, 5), ev(V[3]!, M[1]!, 0.5, 5)];
    const r = computeEpochWeights({
      config: DEFAULT_PIPELINE_CONFIG,
      epoch: 5,
      challenges: [{ id: 'term', kind: 'evaluations', alpha: 1, decay: false, evaluations: [...evaluations, ...more] }],
      stakes: [...V.slice(0, 3).map((validatorHotkey) => ({ validatorHotkey, stake: 100 })), { validatorHotkey: V[3]!, stake: 0 }],
      metagraph: [...M.map((hotkey, i) => ({ hotkey, uid: i + 1 })), ...V.slice(0, 3).map((hotkey, i) => ({ hotkey, uid: 10 + i }))],
    });
    const text = formatEpochExplanation(r);
    // 0.6745·(0.1 − 0.8)/0.01 = -47.2
    expect(text).toContain('why (term): unscored (too few validators): 2 of 3 evaluations remained (3 needed): uid 12 was an outlier, M = -47.2');
    // V[3] is not in the metagraph: named by hotkey.
    expect(text).toContain(`why (term): scored on 3 of 4 evaluations: validator ${V[3]} has zero stake and was ignored`);
    const lowStake = computeEpochWeights({ ...simpleInput(0, [0.5]), stakes: [...simpleInput(0, [0.5]).stakes, { validatorHotkey: V[5]!, stake: 1000 }] });
    expect(formatEpochExplanation(lowStake)).toContain(
      "unscored (insufficient stake): the 3 remaining of 3 evaluations carry 23.1 % of the validator set's stake (30.0 % needed)",
    );
  });

  it('rejects evaluations of another epoch, duplicate challenges and a bounty challenge with decay', () => {
    const base = simpleInput(3, [0.5]);
    expectError(() => computeEpochWeights({ ...base, epoch: 4 }), AGGREGATION_ERROR_CODES.epochMismatch, 'challenges[0].evaluations[0].epoch');
    expectError(
      () => computeEpochWeights({ ...base, challenges: [base.challenges[0]!, base.challenges[0]!] }),
      AGGREGATION_ERROR_CODES.duplicateChallenge,
      'challenges[1].id',
    );
    expectError(
      () => computeEpochWeights({ ...base, challenges: [{ id: 'b', kind: 'bounty', alpha: 0.1, decay: true, records: [] }] }),
      AGGREGATION_ERROR_CODES.invalidInput,
      'challenges[0].decay',
    );
  });

  it('parses snake_case wire input with SPEC defaults and rejects a duplicate evaluation there too', () => {
    const wire = {
      epoch: 1,
      challenges: [{ id: 'term', alpha: 1, evaluations: [{ validator_hotkey: V[0], miner_hotkey: M[0], epoch: 1, score: 0.5 }] }],
      stakes: [{ validator_hotkey: V[0], stake: '1000000000' }],
      metagraph: [{ hotkey: M[0], uid: 1 }],
    };
    const parsed = parseEpochInput(wire);
    expect(parsed.config).toEqual(DEFAULT_PIPELINE_CONFIG);
    expect(parsed.challenges[0]).toMatchObject({ kind: 'evaluations', decay: true });
    expect(parsed.stakes[0]!.stake).toBe(1e9);
    const dup = { ...wire, challenges: [{ ...wire.challenges[0], evaluations: [wire.challenges[0]!.evaluations[0], wire.challenges[0]!.evaluations[0]] }] };
    expectError(() => parseEpochInput(dup), AGGREGATION_ERROR_CODES.invalidInput, 'input.challenges[0].evaluations[1]');
    expectError(() => parseEpochInput({ ...wire, epoch: -1 }), AGGREGATION_ERROR_CODES.invalidInput, 'input.epoch');
  });
});

// ---- properties -----------------------------------------------------------------------------------

const configArb: fc.Arbitrary<PipelineConfig> = fc.record({
  minValidators: fc.integer({ min: 1, max: 3 }),
  minStakeFraction: fc.constantFrom(0, 0.1, 0.3, 0.5),
  outlier: fc.constantFrom({ method: 'modified_z', threshold: 3.5 } as const, { method: 'zscore', threshold: 2 } as const),
  normalisation: fc.constantFrom(
    { strategy: 'linear' } as const,
    { strategy: 'softmax', temperature: 0.1 } as const,
    { strategy: 'winner_takes_all' } as const,
    { strategy: 'quadratic' } as const,
    { strategy: 'ranked' } as const,
  ),
  weightCap: fc.constantFrom(0.1, 0.3, 0.5, 1),
  burnUid: fc.constantFrom(0, 3),
  decay: fc.constant(DEFAULT_PIPELINE_CONFIG.decay),
  u16Mode: fc.constantFrom<'sum' | 'max'>('sum', 'max'),
});

const inputArb: fc.Arbitrary<EpochInput> = fc
  .record({
    config: configArb,
    epoch: fc.integer({ min: 0, max: 40 }),
    stakes: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 5 }),
    grid: fc.array(fc.array(fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }), { minLength: 5, maxLength: 5 }), {
      minLength: 1,
      maxLength: 7,
    }),
    alphaTerm: fc.constantFrom(0.5, 0.7, 1),
    bounty: fc.array(fc.tuple(fc.nat(30), fc.nat(5), fc.nat(6)), { minLength: 0, maxLength: 3 }),
    known: fc.integer({ min: 0, max: 7 }),
    top: fc.option(fc.record({ topScore: fc.double({ min: 0, max: 1, noNaN: true }), topEpoch: fc.integer({ min: 0, max: 0 }) }), { nil: null }),
  })
  .map(({ config, epoch, stakes, grid, alphaTerm, bounty, known, top }) => {
    const evaluations: Evaluation[] = [];
    grid.forEach((row, m) => {
      row.forEach((score, v) => {
        if (score !== undefined && v < stakes.length) evaluations.push(ev(V[v]!, M[m]!, score, epoch));
      });
    });
    const challenges: EpochInput['challenges'][number][] = [
      { id: 'term', kind: 'evaluations', alpha: alphaTerm, decay: true, evaluations, decayState: top === null ? null : { ...top, topHotkey: M[0]! } },
    ];
    if (alphaTerm < 1) {
      challenges.push({
        id: 'bounty',
        kind: 'bounty',
        alpha: 1 - alphaTerm,
        decay: false,
        records: bounty.map(([valid, invalid, stars], i) => ({ hotkey: M[7 - i]!, validIssues: valid, invalidIssues: invalid, starredRepos: stars })),
      });
    }
    return {
      config,
      epoch,
      challenges,
      stakes: stakes.map((stake, i) => ({ validatorHotkey: V[i]!, stake })),
      metagraph: M.slice(0, known).map((hotkey, i) => ({ hotkey, uid: 10 + i })),
    };
  });

function everyNumber(value: unknown, visit: (x: number) => void): void {
  if (typeof value === 'number') visit(value);
  else if (Array.isArray(value)) for (const v of value) everyNumber(v, visit);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) everyNumber(v, visit);
}

function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  let s = seed;
  for (let i = out.length - 1; i > 0; i -= 1) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('properties of the pipeline', () => {
  it('no output number is ever NaN or infinite, for any valid input', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = computeEpochWeights(input);
        everyNumber(r, (x) => {
          expect(Number.isFinite(x)).toBe(true);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('weights sum to 1 (burn included) before u16, and the u16 vector sums to 65535 in sum mode', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = computeEpochWeights(input);
        const total = r.explanation.uidWeights.reduce((s, w) => s + w.weight, 0);
        expect(Math.abs(total - 1)).toBeLessThan(1e-12);
        const minerTotal = r.explanation.miners.reduce((s, m) => s + m.allocated, 0);
        expect(Math.abs(minerTotal + r.explanation.burn - 1)).toBeLessThan(1e-12);
        if (input.config.u16Mode === 'sum') expect(r.weights.reduce((s, w) => s + w, 0)).toBe(65535);
        for (const w of r.weights) expect(w >= 1 && w <= 65535).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('a hotkey the metagraph does not list changes no uid weight: without its evaluations and bounty records the vector is the same, bit for bit (SPEC C.9)', () => {
    let withOutsiders = 0;
    fc.assert(
      fc.property(inputArb, (input) => {
        const listed = new Set(input.metagraph.map((n) => n.hotkey as string));
        const without: EpochInput = {
          ...input,
          challenges: input.challenges.map((c) => ({
            ...c,
            ...(c.evaluations === undefined ? {} : { evaluations: c.evaluations.filter((e) => listed.has(e.minerHotkey)) }),
            ...(c.records === undefined ? {} : { records: c.records.filter((r) => listed.has(r.hotkey)) }),
          })),
        };
        const all = computeEpochWeights(input);
        const some = computeEpochWeights(without);
        if (all.explanation.miners.some((m) => m.uid === null)) withOutsiders += 1;
        expect({ uids: all.uids, weights: all.weights }).toStrictEqual({ uids: some.uids, weights: some.weights });
        expect(all.explanation.uidWeights).toStrictEqual(some.explanation.uidWeights);
        expect(all.decayStates).toStrictEqual(some.decayStates);
        expect(all.explanation.mapping.dropped).toEqual([]);
      }),
      { numRuns: 200 },
    );
    expect(withOutsiders).toBeGreaterThan(20);
  });

  it("the caps hold to the end: no miner's uid weighs more than the sum over challenges of α times the challenge's cap (SPEC C.5, C.7)", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = computeEpochWeights(input);
        const bound = input.challenges.reduce((sum, c) => sum + c.alpha * (c.weightCap ?? input.config.weightCap), 0);
        for (const w of r.explanation.uidWeights) {
          if (w.uid !== input.config.burnUid) expect(w.weight).toBeLessThanOrEqual(bound + 1e-12);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('results are invariant to the order of every input list', () => {
    fc.assert(
      fc.property(inputArb, fc.integer({ min: 1, max: 1_000_000 }), (input, seed) => {
        const reordered: EpochInput = {
          ...input,
          challenges: shuffled(input.challenges, seed).map((c) => ({
            ...c,
            ...(c.evaluations === undefined ? {} : { evaluations: shuffled(c.evaluations, seed + 1) }),
            ...(c.records === undefined ? {} : { records: shuffled(c.records, seed + 2) }),
          })),
          stakes: shuffled(input.stakes, seed + 3),
          metagraph: shuffled(input.metagraph, seed + 4),
        };
        expect(computeEpochWeights(reordered)).toEqual(computeEpochWeights(input));
      }),
      { numRuns: 100 },
    );
  });

  it('a validator with zero stake changes nothing', () => {
    fc.assert(
      fc.property(inputArb, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 8, maxLength: 8 }), (input, scores) => {
        const ghost = V[5]!;
        const term = input.challenges[0]!;
        const withGhost: EpochInput = {
          ...input,
          stakes: [...input.stakes, { validatorHotkey: ghost, stake: 0 }],
          challenges: [
            { ...term, evaluations: [...(term.evaluations ?? []), ...M.map((m, i) => ev(ghost, m, scores[i]!, input.epoch))] },
            ...input.challenges.slice(1),
          ],
        };
        const a = computeEpochWeights(input);
        const b = computeEpochWeights(withGhost);
        expect(b.uids).toEqual(a.uids);
        expect(b.weights).toEqual(a.weights);
        expect(b.explanation.uidWeights).toEqual(a.explanation.uidWeights);
      }),
      { numRuns: 100 },
    );
  });
});

describe('computeEpochWeightsWire: the same epoch in wire form', () => {
  it('gives the same uids, weights and values as computeEpochWeights under snake_case keys, every node frozen', () => {
    const input = simpleInput(3, [0.5, 0.25, 0.9], { topScore: 0.8, topEpoch: 1, topHotkey: M[2]! });
    const camel = computeEpochWeights(input);
    const wire = computeEpochWeightsWire(input);
    expect(wire.uids).toEqual(camel.uids);
    expect(wire.weights).toEqual(camel.weights);
    expect(wire.decayStates).toEqual([{ challenge_id: 'term', state: { top_score: 0.9, top_epoch: 3, top_hotkey: M[2] } }]);
    const rows = wire.explanation.challenges[0]!.aggregation!.miners;
    // The rows built from the aggregation table read as the camelCase rows do.
    expect(rows.map((m) => [m.hotkey, m.score, m.outlier_basis, m.stake_behind, m.evaluations_used.length])).toEqual(
      camel.explanation.challenges[0]!.aggregation!.miners.map((m) => [m.hotkey, m.score, m.outlierBasis, m.stakeBehind, m.evaluationsUsed.length]),
    );
    expect(wire.explanation.uid_weights).toEqual(camel.explanation.uidWeights);
    // A bounty challenge's rows too.
    const bountyInput: EpochInput = {
      ...input,
      challenges: [
        { ...input.challenges[0]!, alpha: 0.5 },
        { id: 'bounty', kind: 'bounty', alpha: 0.5, decay: false, records: [{ hotkey: M[1]!, validIssues: 3, invalidIssues: 1, starredRepos: 2 }] },
      ],
    };
    const bountyWire = computeEpochWeightsWire(bountyInput).explanation.challenges.find((c) => c.id === 'bounty')!.bounty!;
    const bountyCamel = computeEpochWeights(bountyInput).explanation.challenges.find((c) => c.id === 'bounty')!.bounty!;
    expect(bountyWire.miners).toEqual(
      bountyCamel.miners.map((m) => ({ hotkey: m.hotkey, points: m.points, base: m.base, stars: m.stars, w: m.w, penalised: m.penalised })),
    );
    expect(bountyWire.miners.map((m) => m.hotkey)).toEqual([M[1]]);
    expect(wire.explanation.config.weight_cap).toBe(DEFAULT_PIPELINE_CONFIG.weightCap);
    const frozen = (v: unknown): boolean => typeof v !== 'object' || v === null || (Object.isFrozen(v) && Object.values(v).every(frozen));
    expect(frozen(wire)).toBe(true);
  });
});
