import { beforeAll, describe, expect, it } from 'vitest';

import { computeEpoch, parseEpochInputs } from '../index.js';
import { keys, sssa, thrownCode } from './helpers.js';

// docs/spec.md G.6 "Candidates and carried decay states name each miner and challenge once": both are the
// validator's own input, which computeEpoch rejects with BUNDLE_INVALID_INPUT rather than blaming records.

let A: string;
let B: string;
let C: string;
let V: string;
beforeAll(async () => {
  const k = await keys();
  [A, B, C] = k.miners.map((m) => m.address) as [string, string, string];
  V = k.validator.address;
});

const BLOCK = `0x${'cd'.repeat(32)}`;

describe('validator input names each candidate and challenge once (docs/spec.md G.6)', () => {
  it('candidates name each hotkey and uid once: a duplicate is BUNDLE_INVALID_INPUT, not every task excluded as unregistered', () => {
    const epoch = (candidates: unknown[]) => () =>
      computeEpoch({
        config: { pipeline: { min_validators: 1, min_stake_fraction: 0 }, challenges: [{ id: 'sssa', kind: 'sssa', alpha: 1, weight_cap: 1 }] },
        epoch: 1,
        validatorHotkey: V,
        inputs: {
          tasks: [{ task_id: 't1', task_type: 'mcp_server', block_hash: BLOCK, seq: 0 }],
          candidates,
          sssa_submissions: [A, B, C].map((h, i) => ({ record_id: `s${i}`, seq: i + 1, task_id: 't1', miner_uid: i + 1, miner_hotkey: h, sssa: sssa() })),
        },
        stakes: [{ validator_hotkey: V, stake: 1 }],
        metagraph: [
          { hotkey: A, uid: 1 },
          { hotkey: B, uid: 2 },
          { hotkey: C, uid: 3 },
        ],
      });
    const three = [
      { hotkey: A, uid: 1 },
      { hotkey: B, uid: 2 },
      { hotkey: C, uid: 3 },
    ];
    expect(thrownCode(epoch(three))).toBeUndefined();
    expect(thrownCode(epoch([...three, { hotkey: A, uid: 4 }]))).toEqual({ code: 'BUNDLE_INVALID_INPUT', path: 'inputs.candidates[3].hotkey' });
    expect(
      thrownCode(() =>
        parseEpochInputs({
          candidates: [
            { hotkey: A, uid: 1 },
            { hotkey: B, uid: 1 },
          ],
        }),
      ),
    ).toEqual({
      code: 'BUNDLE_INVALID_INPUT',
      path: 'inputs.candidates[1].uid',
    });
  });

  it('carried decay states name each challenge once: a second state for a challenge is BUNDLE_INVALID_INPUT, never silently ignored', () => {
    const state = (top: number) => ({ top_score: top, top_epoch: 1, top_hotkey: A });
    expect(
      thrownCode(() =>
        parseEpochInputs({
          decay_states: [
            { challenge_id: 'term', state: state(0.5) },
            { challenge_id: 'bounty', state: null },
          ],
        }),
      ),
    ).toBeUndefined();
    expect(
      thrownCode(() =>
        parseEpochInputs({
          decay_states: [
            { challenge_id: 'term', state: state(0.5) },
            { challenge_id: 'term', state: state(0.9) },
          ],
        }),
      ),
    ).toEqual({ code: 'BUNDLE_INVALID_INPUT', path: 'inputs.decay_states[1].challenge_id' });
  });
});
