import { describe, expect, it } from 'vitest';

import type { BundleAudit } from '../index.js';
import { compareChainWeights } from '../index.js';
import { chainUnknown } from '../chain-weights.js';

const audit = (weights: [number, number][], netuid = 1): BundleAudit => ({
  source: 'x',
  status: 'ok',
  epoch: 9,
  netuid,
  validator_hotkey: 'V',
  checks: { schema: true, digest: true, signature: true, recompute: true, chain: null },
  mismatches: [],
  root_cause: null,
  digest: null,
  error: null,
  weights: weights.map(([uid, weight]) => ({ uid, hotkey: `H${uid}`, weight })),
  submission_block: '120',
  submission: { status: 'submitted', code: null, call: 'SubtensorModule.set_weights' },
});

describe('compareChainWeights: the chain stores max-upscaled values', () => {
  it('a sum-mode vector matches the chain when the chain holds its max-upscaled form', () => {
    // [1, 2] -> max 2 <= 32768: round(1·65535/2) = 32768 (half away from zero), 65535.
    expect(
      compareChainWeights(
        audit([
          [3, 1],
          [4, 2],
        ]),
        1,
        {
          block: '120',
          validatorUid: 0,
          pairs: [
            [3, 32768],
            [4, 65535],
          ],
        },
      ),
    ).toEqual([]);
    // [21845, 43690]: max > 32768, ratio = 65535/43690 = 1.5 exactly; 21845·1.5 = 32767.5 rounds half away to 32768.
    expect(
      compareChainWeights(
        audit([
          [1, 21845],
          [2, 43690],
        ]),
        1,
        {
          block: '120',
          validatorUid: 0,
          pairs: [
            [1, 32768],
            [2, 65535],
          ],
        },
      ),
    ).toEqual([]);
  });

  it('the raw (not upscaled) vector on chain is a mismatch per uid, naming expected and on-chain values', () => {
    const found = compareChainWeights(
      audit([
        [3, 1],
        [4, 2],
      ]),
      1,
      {
        block: '120',
        validatorUid: 0,
        pairs: [
          [3, 1],
          [4, 2],
        ],
      },
    );
    expect(found.map((m) => [m.stage, m.miner?.uid, m.expected, m.claimed])).toEqual([
      ['chain.weights', 3, 32768, 1],
      ['chain.weights', 4, 65535, 2],
    ]);
  });

  it('a uid absent on one side counts as 0; zero entries are equal to absent ones', () => {
    expect(
      compareChainWeights(
        audit([
          [3, 0],
          [4, 5],
        ]),
        1,
        { block: '1', validatorUid: 0, pairs: [[4, 65535]] },
      ),
    ).toEqual([]);
    const found = compareChainWeights(audit([[4, 5]]), 1, {
      block: '1',
      validatorUid: 0,
      pairs: [
        [4, 65535],
        [7, 10],
      ],
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ miner: { uid: 7 }, expected: 0, claimed: 10 });
  });

  it('a validator without a uid, or a bundle of another subnet, is a chain mismatch', () => {
    expect(compareChainWeights(audit([[4, 5]]), 1, { block: '1', validatorUid: null, pairs: [] })[0]?.stage).toBe('chain.validator');
    expect(compareChainWeights(audit([[4, 5]], 2), 1, { block: '1', validatorUid: 0, pairs: [[4, 65535]] })[0]).toMatchObject({
      stage: 'chain.netuid',
      expected: 1,
      claimed: 2,
    });
  });

  it('weights a registration removed after they were set (replaced) are not compared: no chain.weights for the empty row, a bundle of another subnet still a mismatch', () => {
    const replaced = { block: '131', validatorUid: 1, pairs: [], replaced: { hotkey: '5H', block: '131' } };
    expect(compareChainWeights(audit([[4, 5]]), 1, replaced)).toEqual([]);
    expect(compareChainWeights(audit([[4, 5]], 2), 1, replaced).map((m) => m.stage)).toEqual(['chain.netuid']);
    expect(chainUnknown(replaced, 1)?.code).toBe('AUDITOR_UID_REPLACED');
  });

  it('removed weights taken again from the block (the decrypted commit, or the set_weights arguments) are compared like stored ones, each mismatch naming where they came from; nothing is unknown', () => {
    const fromCommit = {
      block: '131',
      validatorUid: 1,
      pairs: [[4, 65535] as const],
      replaced: { hotkey: '5H', block: '131', from: 'commit' as const, round: '77' },
    };
    expect(compareChainWeights(audit([[4, 5]]), 1, fromCommit)).toEqual([]);
    expect(chainUnknown(fromCommit, 1)).toBeNull();
    expect(
      compareChainWeights(
        audit([
          [4, 5],
          [6, 5],
        ]),
        1,
        fromCommit,
      ),
    ).toEqual([
      expect.objectContaining({
        stage: 'chain.weights',
        miner: { hotkey: 'H6', uid: 6 },
        field: 'Weights[1][1] from the commit (drand round 77)',
        expected: 65535,
        claimed: 0,
      }),
    ]);
    const fromCall = { ...fromCommit, pairs: [[4, 1] as const], replaced: { hotkey: '5H', block: '131', from: 'extrinsic' as const } };
    expect(chainUnknown(fromCall, 1)).toBeNull();
    expect(compareChainWeights(audit([[4, 5]]), 1, fromCall)).toEqual([
      expect.objectContaining({ stage: 'chain.weights', field: 'Weights[1][1] from the set_weights call', expected: 65535, claimed: 1 }),
    ]);
  });
});
