/**
 * Issue 14 item 6: every exported function checks its arguments and answers bad input with a coded
 * `AGGREGATION_` error naming the path, never NaN, a TypeError or a silent coercion. One table per export;
 * a new export without a row fails the first test.
 */
import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import * as mod from '../index.js';
import { DEFAULT_PIPELINE_CONFIG } from '../index.js';
import { sortedHotkeys } from './helpers.js';

const [v1, m1] = sortedHotkeys(2);
const OUTLIER = { method: 'modified_z', threshold: 3.5 };
const AGG = { minValidators: 3, minStakeFraction: 0.3, outlier: OUTLIER };
const DECAY = DEFAULT_PIPELINE_CONFIG.decay;
const challenge = { id: 't', kind: 'evaluations', alpha: 1, decay: true, evaluations: [] };
const epochInput = { config: DEFAULT_PIPELINE_CONFIG, epoch: 1, challenges: [challenge], stakes: [], metagraph: [] };

/** Per export, argument lists that must each be rejected with a coded error. */
const BAD: Record<string, readonly (readonly unknown[])[]> = {
  aggregateEvaluations: [
    [],
    [null],
    [{}],
    [{ evaluations: 'x', stakes: [], options: AGG }],
    [{ evaluations: [], stakes: [], options: { ...AGG, minValidators: Number.NaN } }],
    [{ evaluations: [], stakes: [{ validatorHotkey: v1, stake: '5' }], options: AGG }],
    // One field wrong in an otherwise valid evaluation: the screening of the hot loop must send each to its check.
    [{ evaluations: [{ validatorHotkey: v1, minerHotkey: '', epoch: 1, score: 0.5 }], stakes: [{ validatorHotkey: v1, stake: 5 }], options: AGG }],
    [{ evaluations: [{ validatorHotkey: '', minerHotkey: m1, epoch: 1, score: 0.5 }], stakes: [{ validatorHotkey: v1, stake: 5 }], options: AGG }],
    [{ evaluations: [{ validatorHotkey: v1, minerHotkey: m1, epoch: 1.5, score: 0.5 }], stakes: [{ validatorHotkey: v1, stake: 5 }], options: AGG }],
    [{ evaluations: [{ validatorHotkey: v1, minerHotkey: m1, epoch: -1, score: 0.5 }], stakes: [{ validatorHotkey: v1, stake: 5 }], options: AGG }],
  ],
  allocateChallenges: [
    [],
    [[], null],
    [[], {}, -1],
    [[{ challengeId: 1, weights: [] }], {}],
    [[{ challengeId: 'x', weights: [] }], { x: '0.5' }],
    [[{ challengeId: 'x', weights: [] }], new Map([[1, 0.5]])],
  ],
  applyWeightCap: [
    [undefined, { cap: 0.5 }],
    [[], undefined],
    [[], { cap: Number.NaN }],
    [[], { cap: 0.5, burnUid: 1.5 }],
    [[{ hotkey: m1, weight: '0.5' }], { cap: 0.5 }],
  ],
  bountyWeights: [
    [],
    [[null]],
    [[{ hotkey: m1, validIssues: -1, invalidIssues: 0, starredRepos: 0 }]],
    [[{ hotkey: m1, validIssues: '3', invalidIssues: 0, starredRepos: 0 }]],
    // docs/spec.md G.38: 5 points an issue past 2^53 - 1 would be rounded.
    [[{ hotkey: m1, validIssues: 1801439850948199, invalidIssues: 0, starredRepos: 0 }]],
  ],
  compareTiedMiners: [
    [],
    [null, { hotkey: m1 }],
    [{ hotkey: m1 }, undefined],
    [{ hotkey: '' }, { hotkey: m1 }],
    [{ hotkey: m1, submittedAt: 1.5 }, { hotkey: v1 }],
    [{ hotkey: m1 }, { hotkey: v1, submittedAt: -1 }],
    [{ hotkey: m1 }, { hotkey: v1, submittedAt: '2' }],
  ],
  computeEpochWeights: [
    [],
    [{}],
    [{ ...epochInput, epoch: Number.NaN }],
    [{ ...epochInput, challenges: [{ ...challenge, decay: 'yes' }] }],
    [{ ...epochInput, challenges: [{ ...challenge, decay: undefined }] }],
    [{ ...epochInput, challenges: [{ ...challenge, id: 5 }] }],
    [{ ...epochInput, challenges: [{ ...challenge, kind: 'other' }] }],
    [{ ...epochInput, config: { ...DEFAULT_PIPELINE_CONFIG, u16Mode: 'both' } }],
    [{ ...epochInput, challenges: [{ ...challenge, kind: 'bounty', decay: false, records: [{ hotkey: m1 }] }] }],
    // A bounty's records may be absent (no records), but a value that is not a list is an error, not "none".
    [{ ...epochInput, challenges: [{ id: 'b', kind: 'bounty', alpha: 1, decay: false, records: 0 }] }],
    [{ ...epochInput, challenges: [{ id: 'b', kind: 'bounty', alpha: 1, decay: false, records: false }] }],
  ],
  computeEpochWeightsWire: [
    [],
    [{}],
    [{ ...epochInput, epoch: Number.NaN }],
    [{ ...epochInput, challenges: [{ ...challenge, decay: 'yes' }] }],
    [{ ...epochInput, config: { ...DEFAULT_PIPELINE_CONFIG, u16Mode: 'both' } }],
  ],
  computeEmitWeights: [
    [],
    [null],
    [{ scores: [], metagraph: [], cap: 2 }],
    [{ scores: 'x', metagraph: [], cap: 0.5 }],
    [{ scores: [], metagraph: {}, cap: 0.5 }],
    [{ scores: [], metagraph: [], cap: 0.5, u16Mode: 'min' }],
    [{ scores: { hotkeys: [m1], values: [] }, metagraph: [], cap: 0.5 }],
    [{ scores: { hotkeys: [m1], values: 'x' }, metagraph: [], cap: 0.5 }],
    [{ scores: { hotkeys: [m1], values: [Number.NaN] }, metagraph: [{ hotkey: m1, uid: 1 }], cap: 0.5 }],
  ],
  decayBurn: [
    [Number.NaN, DECAY],
    [-1, DECAY],
    [1.5, DECAY],
    ['2', DECAY],
    [1],
    [1, { ...DECAY, rho: Number.NaN }],
    [1, { ...DECAY, maxBurn: 2 }],
    [1, { ...DECAY, curve: 'pow' }],
  ],
  decayStep: [
    [],
    [undefined, { epoch: 1, scores: [], options: DECAY }],
    [null, { epoch: 1.5, scores: [], options: DECAY }],
    [
      { topScore: 0.5, topEpoch: 0, topHotkey: '' },
      { epoch: 1, scores: [], options: DECAY },
    ],
    [
      { topScore: 0.5, topEpoch: 0, topHotkey: 5 },
      { epoch: 1, scores: [], options: DECAY },
    ],
    [null, { epoch: 1, scores: [], options: { ...DECAY, improvementThreshold: Number.NaN } }],
    [null, { epoch: 1, scores: [{ hotkey: m1, score: 0.5, submittedAt: 1.5 }], options: DECAY }],
  ],
  detectOutliers: [
    [undefined, OUTLIER],
    [[0.5], undefined],
    [[Number.NaN], OUTLIER],
    [['0.5'], OUTLIER],
    [[0.5], { method: 'iqr', threshold: 1 }],
  ],
  formatEpochExplanation: [
    [],
    [null],
    [{}],
    [{ uids: [], explanation: null }],
    [{ uids: [], explanation: { config: {}, u16: {}, allocation: {}, challenges: [], miners: [], validators: 'x' } }],
  ],
  indexMetagraph: [
    [],
    [null],
    [
      [
        { hotkey: m1, uid: 1 },
        { hotkey: m1, uid: 2 },
      ],
    ],
    [[{ hotkey: '', uid: 1 }]],
  ],
  mapHotkeysToUids: [
    [],
    [{ weights: [], burn: Number.NaN, metagraph: [] }],
    [{ weights: [], burn: 0, metagraph: [{ hotkey: m1, uid: 70000 }] }],
    [{ weights: [], burn: 0, metagraph: null }],
  ],
  normaliseScores: [
    [undefined, { strategy: 'linear' }],
    [[], undefined],
    [[], { strategy: 'x' }],
    [[], { strategy: 'softmax', temperature: 0 }],
    [[{ hotkey: m1, score: 2 }], { strategy: 'linear' }],
  ],
  parseEpochInput: [[], [{}], [{ epoch: -1, challenges: [], stakes: [], metagraph: [] }]],
  passRate: [
    [undefined, 1],
    [[], Number.NaN],
    [[], 0],
    [[], '3'],
    [[{ taskId: 't', testsPassed: 1, testsTotal: 1, timedOut: 'no' }], 1],
  ],
  roundHalfEven: [[], [Number.NaN], [Number.POSITIVE_INFINITY], ['1'], [2 ** 53], [null]],
  toU16: [[], [[], { mode: 'x' }], [[{ uid: -1, weight: 1 }]], [{ uids: [1], weights: [Number.NaN] }], [[], null], [{ uids: [1], weights: [] }]],
};

const exportedFunctions = Object.entries(mod)
  .filter(([, value]) => typeof value === 'function')
  .map(([name]) => name)
  .sort();

describe('every exported function checks its arguments (issue 14 item 6)', () => {
  it('each exported function has a table of bad arguments here', () => {
    expect(Object.keys(BAD).sort()).toEqual(exportedFunctions);
  });

  for (const name of Object.keys(BAD)) {
    it(`${name} answers bad input with a coded AGGREGATION_ error naming a path, never NaN or a TypeError`, () => {
      const fn = (mod as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
      for (const args of BAD[name]!) {
        let caught: unknown;
        let returned: unknown;
        try {
          returned = fn(...args);
        } catch (error) {
          caught = error;
        }
        const label = `${name}(${args.map((a) => (a === undefined ? 'undefined' : JSON.stringify(a))).join(', ')}) returned ${String(returned)}, threw ${String(caught)}`;
        expect(isSubnetError(caught), label).toBe(true);
        const code = (caught as { code: string }).code;
        expect(Object.values(mod.AGGREGATION_ERROR_CODES), label).toContain(code);
        expect(typeof (caught as { context: { path?: unknown } }).context.path, label).toBe('string');
      }
    });
  }

  it('roundHalfEven still rounds every finite double below 2^52, negatives included, ties to even', () => {
    expect([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2 ** 52 - 0.5].map((x) => mod.roundHalfEven(x))).toEqual([0, 2, 2, 0, -2, -2, 2 ** 52]);
  });
});
