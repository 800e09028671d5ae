import { Keyring } from '@polkadot/keyring';
import { u8aToHex } from '@polkadot/util';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { isSubnetError } from '@subnet/core';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';

import { cloneState } from '../chain-state.js';
import { deriveDevAccounts } from '../dev-accounts.js';
import { parseDevnetOptions } from '../devnet-options.js';
import { buildGenesisState } from '../genesis.js';
import { currentEpochWithLookahead, epochStep, nextEpochStartBlock, shouldRunEpoch } from '../epoch-rules.js';
import type { ChainState } from '../chain-state.js';
import { dispatchCall, maxUpscaleToU16, weightCommitHash } from '../weights-rules.js';

const blockStep = (state: ChainState, block: bigint): void => {
  epochStep(state.subnets.values(), block);
};

beforeAll(async () => {
  await cryptoWaitReady();
});

describe('vec_u16_max_upscale_to_u16 (chain README 2.2 step 13)', () => {
  it('matches hand-computed vectors on both sides of the 32768 threshold', () => {
    expect(maxUpscaleToU16([1, 2])).toEqual([32768, 65535]); // 32767.5 rounds half away from zero
    expect(maxUpscaleToU16([1, 6])).toEqual([10923, 65535]); // 10922.5 -> 10923 (the SDK's banker's rounding gives 10922)
    expect(maxUpscaleToU16([0, 0])).toEqual([0, 0]);
    expect(maxUpscaleToU16([])).toEqual([]);
    // max 40000 > 32768: ratio = floor(65535 * 2^32 / 40000) / 2^32 = 1.638374999..., 20000 * ratio = 32767.49999 -> 32767
    expect(maxUpscaleToU16([20000, 40000])).toEqual([32767, 65535]);
  });

  it('property: the max maps to 65535 and every value is within 0.5 (+ fixed-point error) of v * 65535 / max', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 65535 }), { minLength: 1, maxLength: 20 }), (values) => {
        const max = Math.max(...values);
        const out = maxUpscaleToU16(values);
        if (max === 0) {
          expect(out).toEqual(values);
          return;
        }
        expect(out[values.indexOf(max)]).toBe(65535);
        values.forEach((v, i) => {
          expect(Math.abs(out[i]! - (v * 65535) / max)).toBeLessThanOrEqual(0.5 + 1e-4);
        });
      }),
    );
  });
});

describe('commit hash (chain README 2.4 golden vector)', () => {
  it('//Alice, netuid_index 1, uids [0,1,2], values [65535,32768,1], salt [1..8], version 10002000', () => {
    const alice = new Keyring({ type: 'sr25519' }).addFromUri('//Alice');
    expect(weightCommitHash(alice.publicKey, 1, [0, 1, 2], [65535, 32768, 1], [1, 2, 3, 4, 5, 6, 7, 8], 10002000n)).toBe(
      '0x32266d2d450dc1024c031f46bf10f5b95725b750164509baf1a50617d34bfdd8',
    );
    expect(weightCommitHash(u8aToHex(alice.publicKey), 1, [0, 1, 2], [65535, 32768, 1], [1, 2, 3, 4, 5, 6, 7, 8], 10002000n)).toBe(
      '0x32266d2d450dc1024c031f46bf10f5b95725b750164509baf1a50617d34bfdd8',
    );
  });
});

function genesis(overrides: Record<string, unknown> = {}) {
  const options = parseDevnetOptions({ neurons: 4, validators: 2, tempo: 5, ...overrides });
  return { state: buildGenesisState(options, deriveDevAccounts(options.seed, 4)), accounts: deriveDevAccounts(options.seed, 4) };
}

describe('epochs by tempo (chain README 2.6, stateful schedule)', () => {
  it('fires when block - LastEpochBlock >= tempo, updating LastEpochBlock, SubnetEpochIndex, BlocksSinceLastStep', () => {
    const { state } = genesis();
    const s = state.subnets.get(1)!;
    for (let b = 1n; b <= 4n; b += 1n) blockStep(state, b);
    expect(s.subnetEpochIndex).toBe(0n);
    expect(s.blocksSinceLastStep).toBe(4n);
    expect(shouldRunEpoch(s, 5n)).toBe(true);
    expect(currentEpochWithLookahead(s, 5n)).toBe(1n);
    blockStep(state, 5n);
    expect([s.lastEpochBlock, s.subnetEpochIndex, s.blocksSinceLastStep]).toEqual([5n, 1n, 0n]);
    expect(nextEpochStartBlock(s)).toBe(10n);
  });

  it('a pending epoch (PendingEpochAt) fires early and is cleared; tempo 0 never fires', () => {
    const { state } = genesis();
    const s = state.subnets.get(1)!;
    s.pendingEpochAt = 2n;
    expect(nextEpochStartBlock(s)).toBe(2n);
    blockStep(state, 1n);
    blockStep(state, 2n);
    expect([s.lastEpochBlock, s.pendingEpochAt, s.subnetEpochIndex]).toEqual([2n, 0n, 1n]);
    s.tempo = 0;
    expect(shouldRunEpoch(s, 1000n)).toBe(false);
    expect(nextEpochStartBlock(s)).toBeNull();
  });
});

describe('dispatch-level errors the pool cannot reach', () => {
  it('CanNotSetRootNetworkWeights for netuid 0 (step 1), before WeightVecNotEqualSize', () => {
    const { state, accounts } = genesis();
    const out = dispatchCall(state, 1n, accounts[1]!.hotkeyHex, {
      kind: 'set_weights',
      netuid: 0,
      mecid: 0,
      uids: [0, 1],
      values: [1],
      versionKey: 0n,
      mechanism: false,
    });
    expect(out).toMatchObject({ ok: false, error: 'CanNotSetRootNetworkWeights' });
  });

  it('HotKeyNotRegisteredInSubNet (step 5) and NoWeightsCommitFound for an empty queue', () => {
    const { state } = genesis({ commitReveal: true });
    const stranger = `0x${'42'.repeat(32)}`;
    expect(
      dispatchCall(state, 1n, stranger, { kind: 'set_weights', netuid: 1, mecid: 0, uids: [0], values: [1], versionKey: 0n, mechanism: false }),
    ).toMatchObject({ ok: false, error: 'CommitRevealEnabled' });
    const noCr = genesis();
    expect(
      dispatchCall(noCr.state, 1n, stranger, { kind: 'set_weights', netuid: 1, mecid: 0, uids: [0], values: [1], versionKey: 0n, mechanism: false }),
    ).toMatchObject({ ok: false, error: 'HotKeyNotRegisteredInSubNet' });
    expect(
      dispatchCall(state, 1n, stranger, { kind: 'reveal_weights', netuid: 1, mecid: 0, uids: [0], values: [1], salt: [1], versionKey: 0n, mechanism: false }),
    ).toMatchObject({ ok: false, error: 'NoWeightsCommitFound' });
  });

  it('a failed dispatch leaves the state untouched', () => {
    const { state, accounts } = genesis();
    const before = cloneState(state);
    dispatchCall(state, 1n, accounts[3]!.hotkeyHex, {
      kind: 'set_weights',
      netuid: 1,
      mecid: 0,
      uids: [0, 1],
      values: [1, 1],
      versionKey: 0n,
      mechanism: false,
    });
    expect(state).toEqual(before);
  });
});

describe('options', () => {
  it('rejects bad options with DEVNET_INVALID_OPTIONS naming the field', () => {
    const bad = (input: unknown, path: string) => {
      try {
        parseDevnetOptions(input);
      } catch (e) {
        expect(isSubnetError(e, 'DEVNET_INVALID_OPTIONS')).toBe(true);
        expect((e as { context: { path: string } }).context.path).toBe(path);
        return;
      }
      throw new Error('accepted');
    };
    bad({ tempo: -1 }, 'options.tempo');
    bad({ neurons: 2, validators: 3 }, 'options.validators');
    bad({ neurons: 2, stakes: [1n] }, 'options.stakes');
    bad({ seed: 'a/b' }, 'options.seed');
    bad({ whatever: 1 }, 'options');
    // Node's timers take at most 2^31 - 1 ms: a longer block time fired every millisecond.
    bad({ blockTime: 2_147_483_648 }, 'options.blockTime');
    expect(parseDevnetOptions({ blockTime: 2_147_483_647 }).blockTime).toBe(2_147_483_647);
  });

  it('derives the same dev accounts from the same seed (//subnet//<seed>//hotkey//<uid>)', () => {
    const a = deriveDevAccounts('x', 2);
    const b = deriveDevAccounts('x', 2);
    expect(a.map((x) => x.hotkeyAddress)).toEqual(b.map((x) => x.hotkeyAddress));
    expect(a[1]!.hotkeyUri).toBe('//subnet//x//hotkey//1');
    expect(new Keyring({ type: 'sr25519' }).addFromUri('//subnet//x//hotkey//1').address).toBe(a[1]!.hotkeyAddress);
  });
});
