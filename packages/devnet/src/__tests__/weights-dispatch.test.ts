import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from './harness.js';
import { harness, include, rejection } from './harness.js';

// uid 0 = owner (exempt), uids 1-2 validators, uids 3-5 miners without permit/stake
let h: Harness;
const tx = () => h.api.tx.subtensorModule!;

beforeAll(async () => {
  h = await harness({
    neurons: 6,
    validators: 3,
    stakes: [0n, 10_000_000_000_000n, 10_000_000_000_000n, 5_000_000_000_000n, 0n, 0n],
    permits: [false, true, true, false, false, false],
    weightsSetRateLimit: 0n,
    weightsVersionKey: 5n,
    minAllowedWeights: 2,
    tempo: 1000,
  });
});
afterAll(async () => {
  await h.close();
});

describe('internal_set_weights checks (chain README 2.2) through @polkadot/api', () => {
  it('WeightVecNotEqualSize comes first (step 2), before the permit check', async () => {
    const r = await include(h, tx().setWeights!(1, [0, 1], [1], 5), h.devnet.accounts[3]!.hotkey);
    expect(r.failed).toBe('WeightVecNotEqualSize');
    expect(r.events).toContain('system.ExtrinsicFailed');
  });

  it('MechanismDoesNotExist for a mecid >= MechanismCountCurrent (step 3)', async () => {
    const r = await include(h, tx().setMechanismWeights!(1, 1, [0, 1], [1, 1], 5), h.devnet.accounts[1]!.hotkey);
    expect(r.failed).toBe('MechanismDoesNotExist');
  });

  it('UidsLengthExceedUidsInSubNet when more uids than SubnetworkN (step 4)', async () => {
    const r = await include(h, tx().setWeights!(1, [0, 1, 2, 3, 4, 5, 6], [1, 1, 1, 1, 1, 1, 1], 5), h.devnet.accounts[1]!.hotkey);
    expect(r.failed).toBe('UidsLengthExceedUidsInSubNet');
  });

  it('IncorrectWeightVersionKey when version_key < WeightsVersionKey; >= passes (step 7)', async () => {
    const low = await include(h, tx().setWeights!(1, [0, 2], [1, 1], 4), h.devnet.accounts[1]!.hotkey);
    expect(low.failed).toBe('IncorrectWeightVersionKey');
    const higher = await include(h, tx().setWeights!(1, [0, 2], [1, 1], 99), h.devnet.accounts[1]!.hotkey);
    expect(higher.failed).toBeNull();
  });

  it('NeuronNoValidatorPermit for a staked uid without permit (step 9)', async () => {
    const r = await include(h, tx().setWeights!(1, [0, 1], [1, 1], 5), h.devnet.accounts[3]!.hotkey);
    expect(r.failed).toBe('NeuronNoValidatorPermit');
  });

  it('a single self-weight needs no permit (step 9) and no minimum length (step 12)', async () => {
    const r = await include(h, tx().setWeights!(1, [3], [7], 5), h.devnet.accounts[3]!.hotkey);
    expect(r.failed).toBeNull();
    expect((await h.api.query.subtensorModule!.weights!(1, 3)).toJSON()).toEqual([[3, 65535]]);
  });

  it('the subnet owner hotkey needs neither permit nor stake (steps 6 and 9)', async () => {
    const r = await include(h, tx().setWeights!(1, [1, 2], [1, 1], 5), h.devnet.accounts[0]!.hotkey);
    expect(r.failed).toBeNull();
  });

  it('DuplicateUids (step 10)', async () => {
    const r = await include(h, tx().setWeights!(1, [1, 1], [1, 1], 5), h.devnet.accounts[1]!.hotkey);
    expect(r.failed).toBe('DuplicateUids');
  });

  it('UidVecContainInvalidOne for a uid >= SubnetworkN (step 11)', async () => {
    const r = await include(h, tx().setWeights!(1, [1, 9], [1, 1], 5), h.devnet.accounts[1]!.hotkey);
    expect(r.failed).toBe('UidVecContainInvalidOne');
  });

  it('WeightVecLengthIsLow below min(SubnetworkN, MinAllowedWeights) (step 12)', async () => {
    const r = await include(h, tx().setWeights!(1, [2], [1], 5), h.devnet.accounts[1]!.hotkey);
    expect(r.failed).toBe('WeightVecLengthIsLow');
  });

  it('writes Weights max-upscaled (step 13), LastUpdate = block and WeightsSet(netuid_index, uid) (step 15)', async () => {
    const r = await include(h, tx().setWeights!(1, [4, 0, 5], [1, 6, 3], 5), h.devnet.accounts[2]!.hotkey);
    expect(r.failed).toBeNull();
    expect(r.events).toContain('subtensorModule.WeightsSet');
    const ev = r.result.events.find((e) => e.event.method === 'WeightsSet')!;
    expect(ev.event.data.toJSON()).toEqual([1, 2]);
    // hand-computed: 6 <= 32768 so round(v*65535/6): 1 -> 10922.5 -> 10923 (half away from zero), 3 -> 32767.5 -> 32768
    expect((await h.api.query.subtensorModule!.weights!(1, 2)).toJSON()).toEqual([
      [4, 10923],
      [0, 65535],
      [5, 32768],
    ]);
    const block = (await h.api.rpc.chain.getHeader(r.blockHash)).number.toNumber();
    const lastUpdate = (await h.api.query.subtensorModule!.lastUpdate!(1)).toJSON() as number[];
    expect(lastUpdate[2]).toBe(block);
  });

  it('NotEnoughStakeToSetWeights is a pool rejection: 1010 Custom error: 1 (README 2.3)', async () => {
    const msg = await rejection(tx().setWeights!(1, [0, 1], [1, 1], 5), h.devnet.accounts[4]!.hotkey);
    expect(msg).toBe('1010: Invalid Transaction: Custom error: 1');
  });

  it('set_weights returns CommitRevealEnabled when commit-reveal is on', async () => {
    h.devnet.setHyperparameter('commitRevealEnabled', true);
    await h.devnet.produceBlock();
    const r = await include(h, tx().setWeights!(1, [0, 1], [1, 1], 5), h.devnet.accounts[1]!.hotkey);
    expect(r.failed).toBe('CommitRevealEnabled');
    h.devnet.setHyperparameter('commitRevealEnabled', false);
    await h.devnet.produceBlock();
  });
});
