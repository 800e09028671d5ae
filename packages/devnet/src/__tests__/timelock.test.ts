/**
 * Commit-reveal v4 on the devnet (chain README 2.5, TIMELOCK.md section 5): the devnet is its own drand
 * beacon, stores `commit_timelocked_*` commits and reveals them in `on_initialize` exactly as
 * `reveal_commits.rs` does, dropping failures silently.
 */
import type { ApiPromise } from '@polkadot/api';
import { u8aToHex } from '@polkadot/util';
import { beaconKeyFromSeed, encryptWeightsCommit, QUICKNET, verifyPulse } from '@subnet/timelock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from './harness.js';
import { harness, include, rejection } from './harness.js';

type Codec = { toJSON(): unknown; toHex(): string; isNone?: boolean; isSome?: boolean; unwrap?: () => Codec };

const q = (api: ApiPromise, pallet: string, item: string) =>
  (api.query as unknown as Record<string, Record<string, ((...a: unknown[]) => Promise<Codec>) | undefined>>)[pallet]![item]!;

async function queryAt(api: ApiPromise, n: number, pallet: string, item: string, ...args: unknown[]): Promise<Codec> {
  const hash = await api.rpc.chain.getBlockHash(n);
  const at = await api.at(hash);
  const fn = (at.query as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<Codec>>>)[pallet]![item]!;
  return fn(...args);
}

/** `section.method(data)` of the Initialization-phase events of block n. */
async function initEvents(api: ApiPromise, n: number): Promise<string[]> {
  const records = (await queryAt(api, n, 'system', 'events')) as unknown as {
    phase: { isInitialization: boolean };
    event: { section: string; method: string; data: { toJSON(): unknown } };
  }[];
  return [...records].filter((r) => r.phase.isInitialization).map((r) => `${r.event.section}.${r.event.method}${JSON.stringify(r.event.data.toJSON())}`);
}

describe('the devnet as its own drand beacon (TIMELOCK.md section 5)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ beacon: { keepRounds: 8 } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('publishes Drand.BeaconConfig with its own key from the seed, genesis = block 0 time, period 3 s', async () => {
    const config = (await q(h.api, 'drand', 'beaconConfig')()).toJSON() as Record<string, unknown>;
    const expectedKey = u8aToHex(beaconKeyFromSeed('//subnet//devnet//drand').publicKey);
    expect(config['publicKey']).toBe(expectedKey);
    expect(config['period']).toBe(3);
    expect(config['genesisTime']).toBe(1_735_689_600); // genesisTimestamp 1_735_689_600_000 ms
    expect(h.devnet.beacon).toMatchObject({ publicKey: expectedKey, genesisTime: 1_735_689_600, period: 3 });
    expect(expectedKey).not.toBe(`0x${QUICKNET.publicKey}`);
  });

  it('publishes every round up to the block timestamp (12 s slots, 3 s period: LastStoredRound = 4n + 1) and each pulse verifies', async () => {
    await h.devnet.produceBlocks(3);
    expect((await q(h.api, 'drand', 'lastStoredRound')()).toJSON()).toBe(13);
    const beacon = { publicKey: h.devnet.beacon!.publicKey, genesisTime: 1_735_689_600, period: 3 };
    for (const round of [10, 13]) {
      const pulse = (await q(h.api, 'drand', 'pulses')(round)).toJSON() as { round: number; signature: string; randomness: string };
      expect(pulse.round).toBe(round);
      expect(verifyPulse({ round: BigInt(round), signature: pulse.signature, randomness: pulse.randomness }, beacon).verdict).toBe('ok');
    }
    expect((await q(h.api, 'drand', 'pulses')(14)).isNone).toBe(true);
    expect((await queryAt(h.api, 1, 'drand', 'lastStoredRound')).toJSON()).toBe(5);
  });

  it('keeps keepRounds pulses: older ones are pruned and OldestStoredRound moves up', async () => {
    expect((await q(h.api, 'drand', 'oldestStoredRound')()).toJSON()).toBe(6); // 13 - 8 + 1
    expect((await q(h.api, 'drand', 'pulses')(5)).isNone).toBe(true);
    expect((await q(h.api, 'drand', 'pulses')(6)).isSome).toBe(true);
  });

  it('beacon.enabled false: no pulses, and BeaconConfig reads its quicknet default', async () => {
    const off = await harness({ beacon: { enabled: false } });
    try {
      await off.devnet.produceBlock();
      expect(off.devnet.beacon).toBeNull();
      expect((await q(off.api, 'drand', 'lastStoredRound')()).toJSON()).toBe(0);
      expect(((await q(off.api, 'drand', 'beaconConfig')()).toJSON() as Record<string, unknown>)['publicKey']).toBe(`0x${QUICKNET.publicKey}`);
    } finally {
      await off.close();
    }
  });
});

describe('timelocked commits and their reveal (chain README 2.5)', { timeout: 60_000 }, () => {
  const TEMPO = 10;
  let h: Harness;
  const acct = (uid: number) => h.devnet.accounts[uid]!;
  const tx = () => h.api.tx.subtensorModule!;
  const commitFor = (uid: number, round: bigint, weights: { uids: number[]; values: number[]; versionKey?: bigint; hotkey?: Uint8Array }, version = 4) => {
    const { commit } = encryptWeightsCommit({
      hotkeyPublicKey: weights.hotkey ?? acct(uid).hotkey.publicKey,
      uids: weights.uids,
      values: weights.values,
      versionKey: weights.versionKey ?? 0n,
      round,
      beacon: { publicKey: h.devnet.beacon!.publicKey },
    });
    return tx().commitTimelockedMechanismWeights!(1, 0, u8aToHex(commit), round, version);
  };
  const weightsOf = async (uid: number, at?: number) =>
    (at === undefined ? await q(h.api, 'subtensorModule', 'weights')(1, uid) : await queryAt(h.api, at, 'subtensorModule', 'weights', 1, uid)).toJSON();

  beforeAll(async () => {
    // period 12 s = one pulse per 12 s block: round r is published in block r - 1, visible to on_initialize of block r
    h = await harness({ neurons: 8, validators: 6, tempo: TEMPO, commitReveal: true, weightsSetRateLimit: 0n, beacon: { period: 12 } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('rejects a wrong commit_reveal_version (IncorrectCommitRevealVersion) and a round below LastStoredRound (pool Custom error 15)', async () => {
    const wrongVersion = await include(h, commitFor(5, 20n, { uids: [1], values: [1] }, 3), acct(5).hotkey);
    expect(wrongVersion.failed).toBe('IncorrectCommitRevealVersion');
    const last = BigInt((await q(h.api, 'drand', 'lastStoredRound')()).toJSON() as number);
    expect(last).toBe(2n); // block 1 at 12 s, period 12 s
    const message = await rejection(commitFor(5, last - 1n, { uids: [1], values: [1] }), acct(5).hotkey);
    expect(message).toMatch(/Custom error: 15/);
    // the next block publishes round last + 1 before its extrinsics (write_pulse has priority), and the guard
    // runs again at inclusion: reveal_round == LastStoredRound passes (>=)
    const atLast = await include(h, commitFor(5, last + 1n, { uids: [1], values: [1] }), acct(5).hotkey);
    expect(atLast.events).toContain('subtensorModule.TimelockedWeightsCommitted');
  });

  it('reveals in the reveal epoch before the epoch step, retries a missing pulse each block, drops failures silently', async () => {
    const head = h.devnet.bestNumber();
    expect(head).toBeLessThan(TEMPO - 5); // all commits land in epoch 0; epoch 1 opens (look-ahead) at block TEMPO
    const versionAccepted = await include(h, commitFor(0, 10n, { uids: [1, 2], values: [1, 3] }), acct(0).hotkey); // pulse 10 visible at block 10
    expect(versionAccepted.events).toEqual(['subtensorModule.TimelockedWeightsCommitted', 'system.ExtrinsicSuccess']);
    await include(h, commitFor(1, 14n, { uids: [3], values: [7] }), acct(1).hotkey); // pulse 14 visible at block 14
    await include(h, commitFor(2, 10n, { uids: [4], values: [9], hotkey: acct(3).hotkey.publicKey }), acct(2).hotkey); // payload hotkey != signer
    await include(h, commitFor(4, 25n, { uids: [5], values: [9] }), acct(4).hotkey); // pulse 25 only after epoch 1 ended
    expect(h.devnet.bestNumber()).toBeLessThan(TEMPO);
    const stored = (await q(h.api, 'subtensorModule', 'timelockedWeightCommits')(1, 0)).toJSON() as unknown[];
    expect(stored).toHaveLength(5); // uid 5's commit of the previous test + these four

    await h.devnet.produceBlocks(TEMPO - h.devnet.bestNumber() + 10); // through block 2*TEMPO
    expect(await initEvents(h.api, TEMPO - 1)).toEqual([]);
    expect(await weightsOf(0, TEMPO - 1)).toEqual([]);
    expect(await initEvents(h.api, TEMPO)).toEqual([
      `subtensorModule.TimelockedWeightsRevealed[1,"${acct(5).hotkeyAddress}"]`,
      `subtensorModule.TimelockedWeightsRevealed[1,"${acct(0).hotkeyAddress}"]`,
    ]);
    expect(await weightsOf(5, TEMPO)).toEqual([[1, 65535]]);
    expect(await weightsOf(0, TEMPO)).toEqual([
      [1, 21845],
      [2, 65535],
    ]);
    for (let b = TEMPO + 1; b < 14; b += 1) expect(await initEvents(h.api, b)).toEqual([]);
    expect(await initEvents(h.api, 14)).toEqual([`subtensorModule.TimelockedWeightsRevealed[1,"${acct(1).hotkeyAddress}"]`]);
    expect(await weightsOf(1)).toEqual([[3, 65535]]);
    expect(await weightsOf(2)).toEqual([]);
    expect(await weightsOf(4)).toEqual([]);
    // uid 4's commit waits in the queue through epoch 1 and is deleted when epoch 2 opens (look-ahead at block 20)
    expect(((await queryAt(h.api, 2 * TEMPO - 1, 'subtensorModule', 'timelockedWeightCommits', 1, 0)).toJSON() as unknown[]).length).toBe(1);
    expect((await queryAt(h.api, 2 * TEMPO, 'subtensorModule', 'timelockedWeightCommits', 1, 0)).toJSON()).toEqual([]);
    // uid 4's queue was deleted unread when the reveal step moved past epoch 0 (reveal_commits.rs:53-58): `expired`,
    // as the chain client calls it; its pulse (round 25) was never stored in epoch 1, and is not at block 20 either.
    const drops = h.devnet.timelockDrops().map((d) => [Number(d.block), d.who, d.reason, d.detail.split(' ')[0]]);
    expect(drops).toEqual([
      [TEMPO, acct(2).hotkeyHex, 'hotkey_mismatch', 'the'],
      [2 * TEMPO, acct(4).hotkeyHex, 'expired', 'queue'],
    ]);
    expect(h.devnet.timelockDrops()[1]!.detail).toBe('queue of epoch 0 deleted unread: the reveal step is at epoch 1; Drand.Pulses[25] not stored');
  });

  it('runs every weights check of do_set_mechanism_weights at reveal: a version key raised after the commit drops it', async () => {
    const before = h.devnet.timelockDrops().length;
    const commitBlock = h.devnet.bestNumber() + 1; // epoch 2 (blocks 20..29)
    expect(commitBlock).toBeGreaterThan(2 * TEMPO);
    const round = BigInt(3 * TEMPO);
    await include(h, commitFor(0, round, { uids: [6], values: [1], versionKey: 5n }), acct(0).hotkey);
    h.devnet.setHyperparameter('weightsVersionKey', 6n);
    await h.devnet.produceBlocks(3 * TEMPO - h.devnet.bestNumber());
    expect(await weightsOf(0)).toEqual([
      [1, 21845],
      [2, 65535],
    ]); // unchanged
    expect(await initEvents(h.api, 3 * TEMPO)).toEqual([]);
    expect(
      h.devnet
        .timelockDrops()
        .slice(before)
        .map((d) => [Number(d.block), d.reason, d.detail]),
    ).toEqual([[3 * TEMPO, 'weights_check', 'IncorrectWeightVersionKey']]);
  });

  it('allows at most 10 commits per hotkey per epoch (TooManyUnrevealedCommits)', async () => {
    const round = BigInt(h.devnet.bestNumber() + 40);
    const nonce = (await h.api.rpc.system.accountNextIndex(acct(3).hotkeyAddress)).toNumber();
    const outcomes = Array.from(
      { length: 11 },
      (_v, i) =>
        new Promise<string | null>((resolve, reject) => {
          commitFor(3, round, { uids: [i], values: [1] })
            .signAndSend(acct(3).hotkey, { nonce: nonce + i }, (r) => {
              if (r.status.isInBlock || r.status.isFinalized) {
                resolve(r.dispatchError?.isModule === true ? h.api.registry.findMetaError(r.dispatchError.asModule).name : null);
              }
            })
            .catch(reject);
        }),
    );
    while (h.devnet.poolSize() < 11) await new Promise((r) => setTimeout(r, 5));
    await h.devnet.produceBlock();
    expect(await Promise.all(outcomes)).toEqual([...Array.from({ length: 10 }, () => null), 'TooManyUnrevealedCommits']);
  });

  it('rejects a commit longer than BoundedVec<u8, 5000> at the pool (it does not decode on chain)', async () => {
    const big = tx().commitTimelockedMechanismWeights!(1, 0, u8aToHex(new Uint8Array(5001)), 100n, 4);
    expect(await rejection(big, acct(5).hotkey)).toMatch(/1001|invalid format/i);
  });
});
