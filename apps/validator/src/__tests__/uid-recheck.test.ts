/**
 * docs/spec.md G.7, the decision logic (pure; the devnet run is uid-race.devnet.test.ts): which uids are checked,
 * which count as changed hands, and what the close does then.
 */
import { describe, expect, it } from 'vitest';

import { changedUids, decideOnUidChanges, metagraphOf, uidChanges, weightedUids } from '../uid-recheck.js';

const metagraph = [
  { hotkey: 'hkA', uid: 0 },
  { hotkey: 'hkB', uid: 1 },
  { hotkey: 'hkC', uid: 2 },
];

describe('G.7: a uid that changed hands after the metagraph was read', () => {
  it('only uids given a weight above 0 are checked: a 0 sent to a new holder gives it nothing', () => {
    expect(weightedUids({ uids: [0, 1, 2], weights: [0, 65535, 7] })).toEqual([1, 2]);
    expect(weightedUids({ uids: [0, 1], weights: [0, 0] })).toEqual([]);
  });

  it('a uid held by another hotkey, by none, or absent from the computation’s metagraph is a change; the same holder is not', () => {
    expect(uidChanges(metagraph, [0, 1, 2], ['hkA', 'hkB', 'hkC'])).toEqual([]);
    expect(uidChanges(metagraph, [1, 2], ['hkX', 'hkC'])).toEqual([{ uid: 1, expected: 'hkB', found: 'hkX' }]);
    expect(uidChanges(metagraph, [2], [null])).toEqual([{ uid: 2, expected: 'hkC', found: null }]);
    expect(uidChanges(metagraph, [5], ['hkZ'])).toEqual([{ uid: 5, expected: '', found: 'hkZ' }]);
  });

  it('no change: send; a change on the first computation: recompute once; a change after the recomputation: fail with VALIDATOR_UID_CHANGED', () => {
    expect(decideOnUidChanges([], false)).toEqual({ action: 'send' });
    expect(decideOnUidChanges([], true)).toEqual({ action: 'send' });
    const change = { uid: 1, expected: 'hkB', found: 'hkX' };
    expect(decideOnUidChanges([change], false)).toEqual({ action: 'recompute', changes: [change] });
    const failed = decideOnUidChanges([change, { uid: 2, expected: 'hkC', found: null }], true);
    expect(failed).toMatchObject({ action: 'fail', error: { code: 'VALIDATOR_UID_CHANGED' } });
    expect(failed.action === 'fail' && failed.error.message).toContain('uid 1 hkB -> hkX, uid 2 hkC -> (none)');
  });

  it('changedUids reads the holders of the weighted uids only, in one call, and compares them', async () => {
    const asked: (readonly number[])[] = [];
    const chain = {
      uidHolders: (uids: readonly number[]) => {
        asked.push(uids);
        return Promise.resolve(uids.map((u) => (u === 2 ? 'hkNew' : (metagraph[u]?.hotkey ?? null))));
      },
    };
    expect(await changedUids(chain, metagraph, { uids: [0, 1, 2], weights: [0, 3, 9] })).toEqual([{ uid: 2, expected: 'hkC', found: 'hkNew' }]);
    expect(asked).toEqual([[1, 2]]);
    // nothing weighted: nothing read
    expect(await changedUids(chain, metagraph, { uids: [0], weights: [0] })).toEqual([]);
    expect(asked).toHaveLength(1);
    // a chain access that cannot tell (no uidHolders) reports nothing
    expect(await changedUids({}, metagraph, { uids: [1], weights: [1] })).toEqual([]);
  });

  it('an answer of the wrong length is refused, never compared position by position', async () => {
    const chain = { uidHolders: () => Promise.resolve(['hkB']) };
    await expect(changedUids(chain, metagraph, { uids: [1, 2], weights: [1, 1] })).rejects.toMatchObject({ code: 'VALIDATOR_CHAIN_UNAVAILABLE' });
  });

  it('a stored claim’s metagraph is read entry by entry; an entry of another shape is left out, so its uid counts as changed', () => {
    const stored: unknown = [{ hotkey: 'hkA', uid: 0 }, { hotkey: 7, uid: 1 }, null, 'hkC', { hotkey: 'hkC', uid: '2' }];
    expect(metagraphOf(stored)).toEqual([{ hotkey: 'hkA', uid: 0 }]);
    expect(metagraphOf({ hotkey: 'hkA', uid: 0 })).toEqual([]);
    expect(uidChanges(metagraphOf(stored), [0, 2], ['hkA', 'hkC'])).toEqual([{ uid: 2, expected: '', found: 'hkC' }]);
  });
});
