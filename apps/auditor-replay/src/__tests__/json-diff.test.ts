import { describe, expect, it } from 'vitest';

import { diffJson, formatJsonPath, locateDifference } from '../index.js';

describe('diffJson: exact comparison by canonical JSON (SPEC 0)', () => {
  it('equal documents (keys in any order) have no difference', () => {
    expect(diffJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toEqual([]);
  });

  it('doubles are compared by their shortest round-trip form: 0.1 + 0.2 is not 0.3', () => {
    const d = diffJson({ s: 0.1 + 0.2 }, { s: 0.3 }, ['result']);
    expect(d).toEqual([{ path: 'result.s', segments: ['result', 's'], kind: 'value', expected: 0.30000000000000004, claimed: 0.3 }]);
  });

  it('a number and its decimal string differ (types are part of the bytes)', () => {
    expect(diffJson({ stake: 1 }, { stake: '1' })).toHaveLength(1);
  });

  it('lists are compared by index, with missing and extra elements', () => {
    expect(diffJson([1, 2, 3], [1, 5])).toEqual([
      { path: '[1]', segments: [1], kind: 'value', expected: 2, claimed: 5 },
      { path: '[2]', segments: [2], kind: 'missing', expected: 3 },
    ]);
    expect(diffJson([1], [1, 4])[0]).toMatchObject({ path: '[1]', kind: 'extra', claimed: 4 });
  });

  it('lists keyed by hotkey are matched by hotkey: one missing miner does not shift the others', () => {
    const expected = [
      { hotkey: 'A', w: 1 },
      { hotkey: 'B', w: 2 },
      { hotkey: 'C', w: 3 },
    ];
    const claimed = [
      { hotkey: 'A', w: 1 },
      { hotkey: 'C', w: 4 },
    ];
    expect(diffJson(expected, claimed, ['m'])).toEqual([
      { path: 'm[1].w', segments: ['m', 1, 'w'], kind: 'value', expected: 3, claimed: 4 },
      { path: 'm[1]', segments: ['m', 1], kind: 'missing', expected: { hotkey: 'B', w: 2 } },
    ]);
  });

  it('the same keyed members in another order is a difference of the list order', () => {
    const d = diffJson([{ id: 'a' }, { id: 'b' }], [{ id: 'b' }, { id: 'a' }], ['l']);
    expect(d).toEqual([{ path: 'l', segments: ['l'], kind: 'value', expected: ['a', 'b'], claimed: ['b', 'a'] }]);
  });

  it('keyed lists of one length with other members: each member missing or extra, and no list-order difference', () => {
    const d = diffJson([{ id: 'a' }, { id: 'b' }], [{ id: 'a' }, { id: 'c' }], ['l']);
    expect(d).toEqual([
      { path: 'l[1]', segments: ['l', 1], kind: 'extra', claimed: { id: 'c' } },
      { path: 'l[1]', segments: ['l', 1], kind: 'missing', expected: { id: 'b' } },
    ]);
  });

  it('an object or a list against another kind of value is one difference of the whole value', () => {
    for (const [expected, claimed] of [
      [{ b: 1 }, 5],
      [{ b: 1 }, null],
      [[1], 5],
      [[1], { 0: 1 }],
      [5, [1]],
    ] as const) {
      expect(diffJson({ a: expected }, { a: claimed })).toEqual([{ path: 'a', segments: ['a'], kind: 'value', expected, claimed }]);
    }
  });

  it('object keys present on one side only are missing or extra', () => {
    expect(diffJson({ a: 1 }, { b: 1 }).map((d) => [d.path, d.kind])).toEqual([
      ['a', 'missing'],
      ['b', 'extra'],
    ]);
  });

  it('object keys are data: a key named like a member of Object.prototype, __proto__ too, on one side only is missing or extra', () => {
    // Parsed as the claimed result of a bundle is: `__proto__` an own key, as JSON.parse makes it.
    const claimed = JSON.parse('{"a":1,"toString":2,"__proto__":3}') as unknown;
    expect(diffJson({ a: 1, constructor: 4, hasOwnProperty: 5 }, claimed).map((d) => [d.path, d.kind])).toEqual([
      ['__proto__', 'extra'],
      ['constructor', 'missing'],
      ['hasOwnProperty', 'missing'],
      ['toString', 'extra'],
    ]);
    expect(diffJson(JSON.parse('{"__proto__":{"x":1}}'), {})).toEqual([{ path: '__proto__', segments: ['__proto__'], kind: 'missing', expected: { x: 1 } }]);
  });

  it('formats paths as a.b[2]["odd key"]', () => {
    expect(formatJsonPath(['a', 'b', 2, 'odd key'])).toBe('a.b[2]["odd key"]');
  });
});

describe('locateDifference: stage, miner and field of a difference', () => {
  const metagraph = new Map([
    ['HK1', 3],
    ['HK2', 4],
  ]);
  const doc = {
    result: {
      challenges: [{ id: 'term', details: { pass_rates: [{ miner_hotkey: 'HK2', pass_rate: 0.5, explanation: { failed: [{ reason: 'x' }] } }] } }],
      aggregation: { challenges: [{ id: 'term', cap: { mass: 1 } }], uid_weights: [{ uid: 3, weight: 0.2 }] },
      u16: { uids: [3, 4], weights: [100, 65435] },
    },
  };

  it('a per-miner value: the stage names the challenge, the miner is the entry hotkey with its uid, the field is inside the entry', () => {
    expect(locateDifference(['result', 'challenges', 0, 'details', 'pass_rates', 0, 'explanation', 'failed', 0, 'reason'], doc, doc, metagraph)).toEqual({
      stage: 'challenges[term].details.pass_rates',
      miner: { hotkey: 'HK2', uid: 4 },
      field: 'explanation.failed[0].reason',
    });
  });

  it('a u16 weight: the miner is the uid at the same index of the uids list', () => {
    expect(locateDifference(['result', 'u16', 'weights', 1], doc, doc, metagraph)).toEqual({
      stage: 'u16.weights',
      miner: { hotkey: 'HK2', uid: 4 },
      field: '',
    });
  });

  it('a per-uid entry names the miner by uid; a value of no miner has the last key as field', () => {
    expect(locateDifference(['result', 'aggregation', 'uid_weights', 0, 'weight'], doc, doc, metagraph)).toEqual({
      stage: 'aggregation.uid_weights',
      miner: { hotkey: 'HK1', uid: 3 },
      field: 'weight',
    });
    expect(locateDifference(['result', 'aggregation', 'challenges', 0, 'cap', 'mass'], doc, doc, metagraph)).toEqual({
      stage: 'aggregation.challenges[term].cap',
      miner: null,
      field: 'mass',
    });
  });
});

describe('diffJson leaf equality is canonical-JSON equality', () => {
  it('0 and -0 print the same; integers beyond 2^53 equal their decimal string, as canonicalJson writes them', () => {
    expect(diffJson({ a: 0 }, { a: -0 })).toEqual([]);
    expect(diffJson({ a: 2 ** 60 }, { a: '1152921504606846976' })).toEqual([]);
    expect(diffJson({ a: 2 ** 60 }, { a: String(2 ** 60) })).toHaveLength(1); // '1152921504606847000' is not its canonical form
    expect(diffJson({ a: 1 }, { a: true })).toHaveLength(1);
    expect(diffJson({ a: null }, { a: 0 })).toHaveLength(1);
  });
});
