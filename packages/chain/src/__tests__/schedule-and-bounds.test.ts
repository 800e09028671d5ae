import { describe, expect, it } from 'vitest';

import { mechanismStorageIndex, weightCommitHash as commitHash } from '../commit-hash.js';
import { revealStepEpoch } from '../epoch-schedule.js';
import type { EpochState, MetagraphSnapshot } from '../metagraph-snapshot.js';
import { epochAtBlock, revealWindow } from '../reveal-window.js';

/**
 * Rules a mutation sweep found no unit test for: the epoch a reveal step reveals, the `BlocksSinceLastStep`
 * safety net (Subtensor main `coinbase/run_coinbase.rs:1085-1100` at 14bc6f9f9, `should_run_epoch`), a window of
 * one block, netuid 0 and the u16/u64 bounds of a commit hash (a negative uid: `preflight.test.ts`).
 */

const HOTKEY = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const stateful = (over: Partial<EpochState> = {}): EpochState => ({
  subnetEpochIndex: 3n,
  lastEpochBlock: 33n,
  pendingEpochAt: 0n,
  blocksSinceLastStep: 5n,
  ...over,
});
const parent = (epoch: EpochState, tempo = 10, revealPeriodEpochs = 1n) =>
  ({ netuid: 1, hyperparameters: { tempo, revealPeriodEpochs }, epoch }) as unknown as Pick<MetagraphSnapshot, 'netuid' | 'hyperparameters' | 'epoch'>;

describe('revealStepEpoch: the commit epoch a block reveals, from its parent block’s epoch state', () => {
  it('stateful: the epoch the block sees (one more when its epoch runs there) minus RevealPeriodEpochs', () => {
    // last epoch at 33, tempo 10: the next runs at 43 (43 - 33 >= 10)
    expect(revealStepEpoch(parent(stateful()), 42n)).toBe(2n);
    expect(revealStepEpoch(parent(stateful()), 43n)).toBe(3n);
    // the legacy formula would say (42 + 2) / 11 - 1 = 3 at block 42: the stateful state decides
    expect(revealStepEpoch(parent(stateful()), 42n)).not.toBe((42n + 2n) / 11n - 1n);
  });

  it('an owner-triggered epoch (PendingEpochAt) runs at its block; the BlocksSinceLastStep safety net above 50,400', () => {
    expect(revealStepEpoch(parent(stateful({ pendingEpochAt: 36n })), 36n)).toBe(3n);
    expect(revealStepEpoch(parent(stateful({ pendingEpochAt: 36n })), 35n)).toBe(2n);
    expect(revealStepEpoch(parent(stateful({ blocksSinceLastStep: 50_401n })), 34n)).toBe(3n);
    expect(revealStepEpoch(parent(stateful({ blocksSinceLastStep: 50_400n })), 34n)).toBe(2n);
  });

  it('tempo 0 never runs an epoch, a pending one included; a reveal period beyond the epoch gives 0', () => {
    expect(revealStepEpoch(parent(stateful({ pendingEpochAt: 36n }), 0), 400n)).toBe(2n);
    expect(revealStepEpoch(parent(stateful(), 10, 9n), 43n)).toBe(0n);
  });

  it('legacy runtime (no SubnetEpochIndex): (block + netuid + 1) / (tempo + 1) minus RevealPeriodEpochs', () => {
    const legacy = { subnetEpochIndex: null, lastEpochBlock: null, pendingEpochAt: null, blocksSinceLastStep: null };
    expect(revealStepEpoch(parent(legacy), 42n)).toBe(3n);
    expect(revealStepEpoch(parent(legacy), 41n)).toBe(2n);
  });
});

describe('epochAtBlock: the BlocksSinceLastStep safety net', () => {
  it('with tempo 60,000, the epoch runs once BlocksSinceLastStep passes 50,400, not at last + tempo', () => {
    const input = {
      netuid: 1,
      tempo: 60_000,
      head: 50_400n,
      epoch: { subnetEpochIndex: 0n, lastEpochBlock: 0n, pendingEpochAt: 0n, blocksSinceLastStep: 50_400n },
    };
    // block 50,401: its step raises BlocksSinceLastStep to 50,401 > 50,400, so the epoch runs there
    expect(epochAtBlock(input, 50_401n)).toBe(1n);
    expect(epochAtBlock({ ...input, epoch: { ...input.epoch, blocksSinceLastStep: 50_399n } }, 50_401n)).toBe(0n);
  });
});

describe('revealWindow: a window with one block left', () => {
  it('the head one block before the window’s last block: a window of exactly that block', () => {
    const input = { netuid: 1, tempo: 10, head: 18n, epoch: { subnetEpochIndex: 1n, lastEpochBlock: 10n, pendingEpochAt: 0n, blocksSinceLastStep: 8n } };
    expect(revealWindow(input, 0n, 1n)).toEqual({ epoch: 1n, firstBlock: 19n, lastBlock: 19n });
    // legacy (closed form): epoch 1 of netuid 1 at tempo 10 is blocks 9 to 19
    const legacy = { subnetEpochIndex: null, lastEpochBlock: null, pendingEpochAt: null, blocksSinceLastStep: null };
    expect(revealWindow({ ...input, epoch: legacy }, 0n, 1n)).toEqual({ epoch: 1n, firstBlock: 19n, lastBlock: 19n });
    expect(revealWindow({ ...input, head: 19n, epoch: legacy }, 0n, 1n)).toBeNull();
  });
});

describe('commit hash inputs: netuid 0 and the u16 / u64 bounds', () => {
  const base = { hotkey: HOTKEY, netuidIndex: 1, uids: [1], values: [1], salt: [1, 2], versionKey: 0n };
  it('netuid 0 (the root subnet) has storage index 0', () => {
    expect(mechanismStorageIndex(0)).toBe(0);
    expect(commitHash({ ...base, netuidIndex: mechanismStorageIndex(0) })).toMatch(/^0x[0-9a-f]{64}$/);
  });
  it('a negative value is not a u16, a negative version key not a u64: CHAIN_INVALID_INPUT naming the field', () => {
    expect(() => commitHash({ ...base, values: [-1] })).toThrow(
      expect.objectContaining({ code: 'CHAIN_INVALID_INPUT', context: expect.objectContaining({ path: 'values[0]' }) }),
    );
    expect(() => commitHash({ ...base, versionKey: -1n })).toThrow(
      expect.objectContaining({ code: 'CHAIN_INVALID_INPUT', context: expect.objectContaining({ path: 'versionKey' }) }),
    );
    expect(() => commitHash({ ...base, versionKey: 2n ** 64n })).toThrow(expect.objectContaining({ code: 'CHAIN_INVALID_INPUT' }));
    expect(commitHash({ ...base, versionKey: 2n ** 64n - 1n })).toMatch(/^0x[0-9a-f]{64}$/);
  });
});
