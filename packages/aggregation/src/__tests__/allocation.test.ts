import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { AGGREGATION_ERROR_CODES, allocateChallenges, bountyWeights, mapHotkeysToUids } from '../index.js';
import { expectError, sortedHotkeys } from './helpers.js';

const [a, b, c] = sortedHotkeys(3);

describe('SPEC C.7 emission allocation across challenges', () => {
  it('final weight = Σ_c α_c·w_{c,miner}; 1 − Σ α goes to the burn uid', () => {
    const r = allocateChallenges(
      [
        {
          challengeId: 'term',
          weights: [
            { hotkey: a!, weight: 0.75 },
            { hotkey: b!, weight: 0.25 },
          ],
        },
        { challengeId: 'bounty', weights: [{ hotkey: b!, weight: 1 }] },
      ],
      { term: 0.6, bounty: 0.3 },
      0,
    );
    // challenge order by id: bounty then term
    expect(r.weights).toEqual([
      { hotkey: a, weight: 0.6 * 0.75 },
      { hotkey: b, weight: 0.3 * 1 + 0.6 * 0.25 },
    ]);
    expect(r.explanation.unallocated).toBe(1 - (0.3 + 0.6));
    expect(r.burn).toBeCloseTo(0.1, 15);
  });

  it("a challenge's own burn (weights summing below 1) is burned through its alpha", () => {
    const r = allocateChallenges([{ challengeId: 't', weights: [{ hotkey: a!, weight: 0.5 }] }], { t: 1 });
    expect(r.burn).toBe(0.5);
    expect(r.explanation.challenges[0]!.burned).toBe(0.5);
  });

  it('rejects Σ α > 1, negative α, alphas without challenges and challenges without alphas', () => {
    const w = [{ hotkey: a!, weight: 1 }];
    expectError(
      () =>
        allocateChallenges(
          [
            { challengeId: 'x', weights: w },
            { challengeId: 'y', weights: w },
          ],
          { x: 0.6, y: 0.5 },
        ),
      AGGREGATION_ERROR_CODES.alphaSumExceedsOne,
      'alphas',
    );
    expectError(() => allocateChallenges([{ challengeId: 'x', weights: w }], { x: -0.1 }), AGGREGATION_ERROR_CODES.invalidInput, 'alphas.x');
    expectError(() => allocateChallenges([{ challengeId: 'x', weights: w }], { x: 0.5, z: 0.1 }), AGGREGATION_ERROR_CODES.unknownChallenge, 'alphas.z');
    expectError(() => allocateChallenges([{ challengeId: 'x', weights: w }], {}), AGGREGATION_ERROR_CODES.unknownChallenge, 'alphas.x');
  });
});

describe('SPEC C.8 bounty challenge', () => {
  it('points = 5·valid, W = min(points/100, 1) + stars (>= 2 valid), weights W/ΣW', () => {
    const r = bountyWeights([
      { hotkey: a!, validIssues: 20, invalidIssues: 0, starredRepos: 0 }, // W = 1
      { hotkey: b!, validIssues: 4, invalidIssues: 1, starredRepos: 2 }, // 0.2 + 0.5 = 0.7
      { hotkey: c!, validIssues: 1, invalidIssues: 0, starredRepos: 5 }, // 0.05, stars need >= 2 valid
    ]);
    expect(r.explanation.miners.map((m) => m.w)).toEqual([1, 0.2 + 0.5, 0.05]);
    const total = 1 + (0.2 + 0.5) + 0.05;
    expect(r.weights.map((w) => w.weight)).toEqual([1 / total, (0.2 + 0.5) / total, 0.05 / total]);
  });

  it('the base weight caps at 1 (100 points) and the star bonus at 1.25', () => {
    const r = bountyWeights([{ hotkey: a!, validIssues: 50, invalidIssues: 0, starredRepos: 9 }]);
    expect(r.explanation.miners[0]).toMatchObject({ points: 250, base: 1, stars: 1.25, w: 2.25 });
  });

  it('invalid > valid gives W = 0; all W = 0 burns everything', () => {
    const r = bountyWeights([{ hotkey: a!, validIssues: 3, invalidIssues: 4, starredRepos: 4 }]);
    expect(r.explanation.miners[0]!.w).toBe(0);
    expect(r.burn).toBe(1);
    expect(r.weights[0]!.weight).toBe(0);
  });

  it('rejects negative or fractional counts and duplicate hunters', () => {
    expectError(
      () => bountyWeights([{ hotkey: a!, validIssues: 1.5, invalidIssues: 0, starredRepos: 0 }]),
      AGGREGATION_ERROR_CODES.invalidInput,
      'records[0].validIssues',
    );
    expectError(
      () =>
        bountyWeights([
          { hotkey: a!, validIssues: 1, invalidIssues: 0, starredRepos: 0 },
          { hotkey: a!, validIssues: 1, invalidIssues: 0, starredRepos: 0 },
        ]),
      AGGREGATION_ERROR_CODES.duplicateHotkey,
      'records',
    );
  });
});

describe('SPEC C.9 hotkeys to uids', () => {
  const metagraph = [
    { hotkey: a!, uid: 5 },
    { hotkey: b!, uid: 2 },
  ];

  it('maps by the metagraph and adds the burn to the burn uid', () => {
    const r = mapHotkeysToUids({
      weights: [
        { hotkey: a!, weight: 0.5 },
        { hotkey: b!, weight: 0.3 },
      ],
      burn: 0.2,
      metagraph,
    });
    expect(r.weights).toEqual([
      { uid: 0, weight: 0.2 },
      { uid: 2, weight: 0.3 },
      { uid: 5, weight: 0.5 },
    ]);
  });

  it('unknown hotkeys are dropped and the rest (burn included) renormalised', () => {
    const r = mapHotkeysToUids({
      weights: [
        { hotkey: a!, weight: 0.5 },
        { hotkey: c!, weight: 0.3 },
      ],
      burn: 0.2,
      metagraph,
    });
    expect(r.weights).toEqual([
      { uid: 0, weight: 0.2 / (0.5 + 0.2) },
      { uid: 5, weight: 0.5 / (0.5 + 0.2) },
    ]);
    expect(r.explanation.dropped).toEqual([{ hotkey: c, weight: 0.3 }]);
  });

  it('if nothing remains, everything goes to the burn uid', () => {
    const r = mapHotkeysToUids({ weights: [{ hotkey: c!, weight: 1 }], burn: 0, metagraph, burnUid: 7 });
    expect(r.weights).toEqual([{ uid: 7, weight: 1 }]);
    expect(r.explanation.allToBurn).toBe(true);
  });

  it("decision: when the burn uid is a miner's uid, the burn is added to it", () => {
    const r = mapHotkeysToUids({ weights: [{ hotkey: b!, weight: 0.6 }], burn: 0.4, metagraph, burnUid: 2 });
    expect(r.weights).toEqual([{ uid: 2, weight: 0.6 + 0.4 }]);
  });

  it('rejects duplicate uids and hotkeys in the metagraph', () => {
    expectError(
      () =>
        mapHotkeysToUids({
          weights: [],
          burn: 1,
          metagraph: [
            { hotkey: a!, uid: 1 },
            { hotkey: b!, uid: 1 },
          ],
        }),
      AGGREGATION_ERROR_CODES.duplicateUid,
      'input.metagraph[1].uid',
    );
    expectError(
      () =>
        mapHotkeysToUids({
          weights: [],
          burn: 1,
          metagraph: [
            { hotkey: a!, uid: 1 },
            { hotkey: a!, uid: 2 },
          ],
        }),
      AGGREGATION_ERROR_CODES.duplicateHotkey,
      'input.metagraph[1].hotkey',
    );
  });
});

describe('mapHotkeysToUids lists every uid that gets a weight, ascending (SPEC C.9)', () => {
  /** The rule written out with a table indexed by uid: kept miners (renormalised when some were dropped), then the burn added at its uid. */
  function byTable(weights: { hotkey: string; weight: number }[], burn: number, metagraph: { hotkey: string; uid: number }[], burnUid: number) {
    const uidOf = new Map(metagraph.map((n) => [n.hotkey, n.uid]));
    const kept = weights.filter((w) => uidOf.has(w.hotkey));
    const droppedAny = weights.some((w) => !uidOf.has(w.hotkey) && w.weight > 0);
    let mass = 0;
    for (const k of kept) mass += k.weight;
    mass += burn;
    const table = new Map<number, number>();
    if (!(mass > 0)) table.set(burnUid, 1);
    else {
      const renormalised = droppedAny && mass > 0;
      for (const k of kept) table.set(uidOf.get(k.hotkey)!, renormalised ? k.weight / mass : k.weight);
      const share = renormalised ? burn / mass : burn;
      if (share > 0) table.set(burnUid, (table.get(burnUid) ?? 0) + share);
    }
    return [...table].sort((a, b) => a[0] - b[0]).map(([uid, weight]) => ({ uid, weight }));
  }

  it('agrees with a table by uid, zeros and the burn position included', () => {
    const hotkeys = sortedHotkeys(8);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(0, 0.05, 0.1, 0.125), { minLength: 8, maxLength: 8 }),
        fc.shuffledSubarray(hotkeys),
        fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { minLength: 8, maxLength: 8 }),
        fc.constantFrom(0, 3, 17, 40, 65535),
        fc.constantFrom(0, 0.2),
        (values, known, uids, burnUid, burn) => {
          const weights = hotkeys.map((hotkey, i) => ({ hotkey, weight: values[i]! }));
          const metagraph = known.map((hotkey, i) => ({ hotkey, uid: uids[i]! }));
          const mapped = mapHotkeysToUids({ weights, burn, metagraph, burnUid });
          expect(mapped.weights.map((w) => [w.uid, w.weight])).toStrictEqual(byTable(weights, burn, metagraph, burnUid).map((w) => [w.uid, w.weight]));
        },
      ),
      { numRuns: 500 },
    );
  });
});
