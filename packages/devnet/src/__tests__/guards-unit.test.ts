import { cryptoWaitReady } from '@polkadot/util-crypto';
import { beforeAll, describe, expect, it } from 'vitest';

import { deriveDevAccounts } from '../dev-accounts.js';
import { parseDevnetOptions } from '../devnet-options.js';
import { dispatchCall } from '../dispatch-call.js';
import { buildGenesisState } from '../genesis.js';
import { commitTimelocked } from '../commit-timelocked.js';
import { legacyPoolGuard } from '../pool-guard-legacy.js';
import { statefulPoolGuard } from '../pool-guard-stateful.js';
import { CUSTOM_ERROR } from '../custom-error.js';
import { ownerExempt } from '../weights-preconditions.js';
import type { DevnetCall } from '../devnet-call.js';

/**
 * Pool guards and dispatch checks on a genesis state, for the cases the WebSocket tests leave open. The chain:
 * opentensor/subtensor 14bc6f9f9 `guards/check_weights.rs` (`check_input_lengths`, `check_min_stake`) and
 * `lib.rs` `check_weights_min_stake`; `subnets/weights.rs` `do_batch_reveal_weights`.
 */

beforeAll(async () => {
  await cryptoWaitReady();
});

function genesis(overrides: Record<string, unknown> = {}, runtime: 'stateful' | 'legacy' = 'stateful') {
  const options = parseDevnetOptions({ neurons: 4, validators: 2, tempo: 5, ...overrides });
  const accounts = deriveDevAccounts(options.seed, 4);
  return { state: buildGenesisState(options, accounts, runtime), who: accounts[1]!.hotkeyHex };
}

describe('CheckWeights::check_input_lengths in the pool (InputLengthsUnequal, 18)', () => {
  it('batch_set_weights needs as many version keys as netuids, and as many weight lists', () => {
    const { state, who } = genesis();
    const batch = (weights: [number, number][][], versionKeys: bigint[]) =>
      statefulPoolGuard(state, 1n, who, { kind: 'batch_set_weights', netuids: [1, 1], weights, versionKeys });
    expect(batch([[[0, 1]], [[1, 1]]], [0n])).toBe(CUSTOM_ERROR.InputLengthsUnequal);
    expect(batch([[[0, 1]]], [0n, 0n])).toBe(CUSTOM_ERROR.InputLengthsUnequal);
    expect(batch([[[0, 1]], [[1, 1]]], [0n, 0n])).toBeNull();
  });
});

describe('check_weights_min_stake for a netuid with no subnet (stake 0)', () => {
  it('passes when StakeThreshold is 0 and is StakeAmountTooLow (1) above it', () => {
    const call: DevnetCall = { kind: 'set_weights', netuid: 9, mecid: 0, uids: [0], values: [1], versionKey: 0n, mechanism: false };
    const free = genesis({ stakeThreshold: 0n });
    expect(statefulPoolGuard(free.state, 1n, free.who, call)).toBeNull();
    const held = genesis({ stakeThreshold: 1n });
    expect(statefulPoolGuard(held.state, 1n, held.who, call)).toBe(CUSTOM_ERROR.StakeAmountTooLow);
  });
});

describe("check_weights_min_stake's owner exemption needs the owner hotkey's uid (main lib.rs:2752-2758 at 14bc6f9f9)", () => {
  const call: DevnetCall = { kind: 'set_weights', netuid: 1, mecid: 0, uids: [0], values: [1], versionKey: 0n, mechanism: false };
  it('an owner hotkey that holds no uid on the subnet is held to StakeThreshold in the pool (StakeAmountTooLow, 1)', () => {
    const { state } = genesis({ stakeThreshold: 1n });
    const unregistered = deriveDevAccounts(parseDevnetOptions({ neurons: 4 }).seed, 5)[4]!.hotkeyHex;
    state.subnets.get(1)!.ownerHotkey = unregistered;
    expect(statefulPoolGuard(state, 1n, unregistered, call)).toBe(CUSTOM_ERROR.StakeAmountTooLow);
  });
  it('a registered owner hotkey without stake passes the pool on the stateful runtime, not on the legacy one', () => {
    const stateful = genesis({ stakeThreshold: 1n });
    const miner = deriveDevAccounts(parseDevnetOptions({ neurons: 4 }).seed, 4)[3]!.hotkeyHex;
    stateful.state.subnets.get(1)!.ownerHotkey = miner;
    expect(statefulPoolGuard(stateful.state, 1n, miner, call)).toBeNull();
    const legacy = genesis({ stakeThreshold: 1n }, 'legacy');
    legacy.state.subnets.get(1)!.ownerHotkey = miner;
    expect(legacyPoolGuard(legacy.state, 1n, miner, call)).toBe(CUSTOM_ERROR.StakeAmountTooLow);
  });
});

describe('the legacy runtime exempts the owner from spec 397 on (e7f05a051 lib.rs:2521-2526, subnets/weights.rs:1165-1170; G.33)', () => {
  const call: DevnetCall = { kind: 'set_weights', netuid: 1, mecid: 0, uids: [0, 1], values: [1, 1], versionKey: 0n, mechanism: false };
  // uid 3: the owner, with the stake StakeThreshold asks (10) but no validator permit; uid 2: neither stake nor permit
  const at = (specVersion: number) => {
    const options = parseDevnetOptions({
      runtime: 'legacy',
      specVersion,
      neurons: 4,
      validators: 2,
      ownerUid: 3,
      stakeThreshold: 10n,
      stakes: [10n, 10n, 0n, 0n],
    });
    const accounts = deriveDevAccounts(options.seed, 4);
    return { state: buildGenesisState(options, accounts, 'legacy'), owner: accounts[3]!.hotkeyHex, other: accounts[2]!.hotkeyHex };
  };
  it('spec 396: the owner is held to StakeThreshold in the pool and to the permit in dispatch', () => {
    const { state, owner } = at(396);
    expect(ownerExempt(state)).toBe(false);
    expect(legacyPoolGuard(state, 1n, owner, call)).toBe(CUSTOM_ERROR.StakeAmountTooLow);
    state.subnets.get(1)!.neurons[3]!.stake = 10n;
    expect(dispatchCall(state, 1n, owner, call)).toEqual({ ok: false, error: 'NeuronNoValidatorPermit', events: [] });
  });
  it('spec 397: the owner passes the pool without stake and dispatch without a permit; another hotkey does not', () => {
    const { state, owner, other } = at(397);
    expect(ownerExempt(state)).toBe(true);
    expect(legacyPoolGuard(state, 1n, owner, call)).toBeNull();
    expect(dispatchCall(state, 1n, owner, call).ok).toBe(true);
    expect(legacyPoolGuard(state, 1n, other, call)).toBe(CUSTOM_ERROR.StakeAmountTooLow);
  });
});

describe('do_batch_reveal_weights input lengths at dispatch', () => {
  it('is InputLengthsUnequal when only the version keys are fewer than the uid lists', () => {
    const { state, who } = genesis({ commitReveal: true, commitRevealVersion: 2 });
    const out = dispatchCall(state, 1n, who, {
      kind: 'batch_reveal_weights',
      netuid: 1,
      uidsList: [[0], [1]],
      valuesList: [[1], [1]],
      saltsList: [[1], [1]],
      versionKeys: [0n],
    });
    expect(out).toEqual({ ok: false, error: 'InputLengthsUnequal', events: [] });
  });
});

describe('commit_timelocked_weights reveal round (InvalidRevealRound, 15: reveal_round < LastStoredRound)', () => {
  it.each(['stateful', 'legacy'] as const)('%s: a round equal to the last stored one passes, one below it is refused', (runtime) => {
    const { state, who } = genesis({ commitReveal: true }, runtime);
    state.lastStoredRound = 1000n;
    const guard = runtime === 'legacy' ? legacyPoolGuard : statefulPoolGuard;
    const call = (revealRound: bigint) =>
      ({ kind: 'commit_timelocked_weights', netuid: 1, mecid: 0, commit: '0x00', revealRound, version: 4, mechanism: false }) as const;
    expect(guard(state, 1n, who, call(1000n))).toBeNull();
    expect(guard(state, 1n, who, call(999n))).toBe(CUSTOM_ERROR.InvalidRevealRound);
  });
});

describe('ensure_mechanism_exists (mecid < MechanismCountCurrent)', () => {
  it('commit_weights on mecid = MechanismCount is MechanismDoesNotExist; the last mechanism is accepted', () => {
    const { state, who } = genesis({ commitReveal: true, commitRevealVersion: 2, mechanismCount: 2 });
    const commit = (mecid: number) => dispatchCall(state, 1n, who, { kind: 'commit_weights', netuid: 1, mecid, hash: `0x${'11'.repeat(32)}`, mechanism: true });
    expect(commit(2)).toEqual({ ok: false, error: 'MechanismDoesNotExist', events: [] });
    expect(commit(1).ok).toBe(true);
  });
});

describe('commit_timelocked_weights over 5000 bytes at dispatch', () => {
  it('fails (the pool refuses it first; the chain cannot even decode it)', () => {
    const { state, who } = genesis({ commitReveal: true });
    const call = (bytes: number) =>
      ({ kind: 'commit_timelocked_weights', netuid: 1, mecid: 0, commit: `0x${'ab'.repeat(bytes)}`, revealRound: 1n, version: 4, mechanism: false }) as const;
    expect(commitTimelocked(state, 1n, who, call(5001))).toEqual({ ok: false, error: 'BadRequest', events: [] });
    expect(commitTimelocked(state, 1n, who, call(5000)).ok).toBe(true);
  });
});

describe('CheckRateLimits on the stateful runtime (RateLimitExceeded, 6)', () => {
  it('commit_weights is held to WeightsSetRateLimit since LastUpdate; set_weights is not while commit-reveal is on', () => {
    const { state, who } = genesis({ commitReveal: true, commitRevealVersion: 2, weightsSetRateLimit: 100n });
    const hash = (b: string) => `0x${b.repeat(32)}`;
    expect(dispatchCall(state, 10n, who, { kind: 'commit_weights', netuid: 1, mecid: 0, hash: hash('11'), mechanism: false }).ok).toBe(true);
    const commit = { kind: 'commit_weights', netuid: 1, mecid: 0, hash: hash('22'), mechanism: false } as const;
    expect(statefulPoolGuard(state, 11n, who, commit)).toBe(CUSTOM_ERROR.RateLimitExceeded);
    expect(statefulPoolGuard(state, 110n, who, commit)).toBeNull();
    const set: DevnetCall = { kind: 'set_weights', netuid: 1, mecid: 0, uids: [0], values: [1], versionKey: 0n, mechanism: false };
    expect(statefulPoolGuard(state, 11n, who, set)).toBeNull();
  });
});
