/** SPEC 0 "Hostile shapes": `__proto__`, `constructor` and friends are ordinary ids in every table and map. */
import type { Hotkey } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import type { EpochInput } from '../index.js';
import {
  AGGREGATION_ERROR_CODES,
  aggregateEvaluations,
  allocateChallenges,
  bountyWeights,
  computeEpochWeights,
  DEFAULT_PIPELINE_CONFIG,
  mapHotkeysToUids,
  normaliseScores,
  parseEpochInput,
} from '../index.js';
import { expectError, sortedHotkeys } from './helpers.js';

const PROTO_IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
const V = sortedHotkeys(3);
const M = sortedHotkeys(2, 100);

function input(ids: readonly string[]): EpochInput {
  return {
    config: DEFAULT_PIPELINE_CONFIG,
    epoch: 4,
    challenges: ids.map((id, c) => ({
      id,
      kind: 'evaluations' as const,
      alpha: 1 / ids.length,
      decay: true,
      evaluations: V.flatMap((v) => M.map((m, i) => ({ validatorHotkey: v, minerHotkey: m, epoch: 4, score: (i + 1 + c) / 10 }))),
      decayState: null,
    })),
    stakes: V.map((validatorHotkey) => ({ validatorHotkey, stake: 10 })),
    metagraph: M.map((hotkey, uid) => ({ hotkey, uid: uid + 1 })),
  };
}

describe('SPEC 0 prototype-named keys are plain data (v1.1)', () => {
  it('SPEC 0 challenge ids __proto__, constructor and friends are ordinary ids in computeEpochWeights (alphas, decay states, explanation)', () => {
    const r = computeEpochWeights(input(PROTO_IDS));
    expect(r.explanation.challenges.map((c) => c.id)).toEqual([...PROTO_IDS].sort());
    expect(r.decayStates.map((d) => d.challengeId)).toEqual([...PROTO_IDS].sort());
    expect(r.explanation.allocation.alphaSum).toBeCloseTo(1, 12);
    expect(r.weights.reduce((s, w) => s + w, 0)).toBe(65535);
    expect(Object.getPrototypeOf(r.explanation.allocation)).toBe(Object.prototype);
  });

  it('SPEC 0 a challenge id of __proto__ in wire JSON parses as data and computes like any other id', () => {
    const wire = JSON.parse(
      JSON.stringify({
        epoch: 4,
        challenges: [{ id: '__proto__', alpha: 1, evaluations: V.map((v) => ({ validator_hotkey: v, miner_hotkey: M[0], epoch: 4, score: 0.5 })) }],
        stakes: V.map((v) => ({ validator_hotkey: v, stake: 1 })),
        metagraph: [{ hotkey: M[0], uid: 3 }],
      }),
    );
    const parsed = parseEpochInput(wire);
    expect(parsed.challenges[0]!.id).toBe('__proto__');
    const r = computeEpochWeights(parsed);
    expect(r.uids).toEqual([0, 3]);
  });

  it('SPEC 0 allocateChallenges reads alphas by own keys only: {"__proto__": …} from JSON is an alpha, an inherited "constructor" is not', () => {
    const w = [{ hotkey: M[0]!, weight: 1 }];
    const alphas = JSON.parse('{"__proto__": 0.25, "constructor": 0.5}') as Record<string, number>;
    const r = allocateChallenges(
      [
        { challengeId: '__proto__', weights: w },
        { challengeId: 'constructor', weights: w },
      ],
      alphas,
    );
    expect(r.explanation.alphaSum).toBe(0.75);
    expect(r.weights).toEqual([{ hotkey: M[0], weight: 0.75 }]);
    // `constructor` is inherited by {}, never an alpha.
    expectError(() => allocateChallenges([{ challengeId: 'constructor', weights: w }], {}), AGGREGATION_ERROR_CODES.unknownChallenge);
    // A Map works too.
    expect(allocateChallenges([{ challengeId: 'toString', weights: w }], new Map([['toString', 1]])).burn).toBe(0);
  });

  it('SPEC 0 hotkeys named __proto__ or constructor are ordinary keys in the typed API (aggregation, normalisation, bounty, uid mapping)', () => {
    const h = PROTO_IDS as unknown as Hotkey[];
    const evaluations = V.flatMap((v) => h.map((minerHotkey) => ({ validatorHotkey: v, minerHotkey, epoch: 1, score: 0.5 })));
    const aggregated = aggregateEvaluations({
      evaluations,
      stakes: V.map((validatorHotkey) => ({ validatorHotkey, stake: 1 })),
      options: { minValidators: 3, minStakeFraction: 0.3, outlier: { method: 'modified_z', threshold: 3.5 } },
    });
    expect(aggregated.scores.map((s) => s.hotkey)).toEqual([...PROTO_IDS].sort());
    const normalised = normaliseScores(
      h.map((hotkey) => ({ hotkey, score: 0.5 })),
      { strategy: 'linear' },
    );
    expect(normalised.weights.map((w) => w.weight)).toEqual(h.map(() => 1 / h.length));
    const bounty = bountyWeights([{ hotkey: '__proto__' as Hotkey, validIssues: 20, invalidIssues: 0, starredRepos: 0 }]);
    expect(bounty.weights).toEqual([{ hotkey: '__proto__', weight: 1 }]);
    const mapped = mapHotkeysToUids({
      weights: [
        { hotkey: '__proto__' as Hotkey, weight: 0.5 },
        { hotkey: 'constructor' as Hotkey, weight: 0.5 },
      ],
      burn: 0,
      metagraph: [{ hotkey: '__proto__' as Hotkey, uid: 7 }],
    });
    // `constructor` is unknown to the metagraph (not found through a prototype): dropped, the rest renormalised.
    expect(mapped.weights).toEqual([{ uid: 7, weight: 1 }]);
    expect(mapped.explanation.dropped).toEqual([{ hotkey: 'constructor', weight: 0.5 }]);
  });

  it('SPEC 0 a configuration with an own __proto__ or constructor key is rejected as an unknown field, never merged into a prototype', () => {
    for (const key of ['__proto__', 'constructor']) {
      const config = JSON.parse(`{"${key}": {"weight_cap": 0.01}, "weight_cap": 0.5}`) as unknown;
      expectError(() => parseEpochInput({ config, epoch: 1, challenges: [], stakes: [], metagraph: [] }), AGGREGATION_ERROR_CODES.invalidInput);
      const decay = JSON.parse(`{"${key}": {"rho": 1}}`) as unknown;
      expectError(() => parseEpochInput({ config: { decay }, epoch: 1, challenges: [], stakes: [], metagraph: [] }), AGGREGATION_ERROR_CODES.invalidInput);
    }
    expect(({} as { weight_cap?: unknown }).weight_cap).toBeUndefined();
  });

  it('SPEC 0 a challenge id with a lone surrogate is rejected with a coded error (typed and wire)', () => {
    expectError(() => computeEpochWeights(input(['ok\uD800'])), AGGREGATION_ERROR_CODES.invalidInput, 'challenges[0].id');
    expectError(() => parseEpochInput({ epoch: 1, challenges: [{ id: '\uDC00', alpha: 1 }], stakes: [], metagraph: [] }), AGGREGATION_ERROR_CODES.invalidInput);
  });
});
