/**
 * The devnet's pool guards, batch calls and `commit_crv3_mechanism_weights` against the Subtensor source, on
 * both runtimes, through an unmodified @polkadot/api over a real WebSocket. The expected values are the
 * source's rules written out (README "Pool guards", "Batch calls"), not read from the devnet's code.
 */
import { Keyring } from '@polkadot/keyring';
import { u8aToHex } from '@polkadot/util';
import { blake2AsHex } from '@polkadot/util-crypto';
import { encryptWeightsCommit } from '@subnet/timelock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { deriveDevAccounts } from '../dev-accounts.js';
import { parseDevnetOptions } from '../devnet-options.js';
import { epochStep } from '../epoch-rules.js';
import { buildGenesisState } from '../genesis.js';
import type { Harness } from './harness.js';
import { harness, include, rejection } from './harness.js';

const RUNTIMES = ['stateful', 'legacy'] as const;
const TEMPO = 4;

type Json = { toJSON(): unknown };
type EventRecord = { event: { section: string; method: string; data: Json & { [i: number]: unknown } } };

/** SCALE `(AccountId, u16, Vec<u16>, Vec<u16>, Vec<u16>, u64)` hashed with blake2_256: `get_commit_hash` as written in weights.rs. */
function commitHash(h: Harness, who: Uint8Array, netuidIndex: number, uids: number[], values: number[], salt: number[], versionKey: number): string {
  const encoded = h.api.createType('(AccountId32, u16, Vec<u16>, Vec<u16>, Vec<u16>, u64)', [who, netuidIndex, uids, values, salt, versionKey]);
  return blake2AsHex(encoded.toU8a(), 256);
}

async function nextEpochStart(h: Harness): Promise<number> {
  const out = await h.api.rpc.state.call('SubnetInfoRuntimeApi_get_next_epoch_start_block', u8aToHex(h.api.createType('u16', 1).toU8a()));
  return h.api.createType('Option<u64>', out.toU8a(true)).unwrap().toNumber();
}

/** Produces blocks until the next one is the block the epoch step runs in (`S`); returns `S`. */
async function alignToEpochStart(h: Harness): Promise<number> {
  // on the legacy runtime the head itself can be the epoch block (blocks_until_next_epoch = 0): move past it
  if ((await nextEpochStart(h)) <= h.devnet.bestNumber()) await h.devnet.produceBlock();
  const start = await nextEpochStart(h);
  const head = h.devnet.bestNumber();
  if (start - 1 > head) await h.devnet.produceBlocks(start - 1 - head);
  return start;
}

const storedHashes = async (h: Harness, uid: number): Promise<string[]> =>
  (((await h.api.query.subtensorModule!.weightCommits!(1, h.devnet.accounts[uid]!.hotkeyAddress)).toJSON() ?? []) as [string][]).map((c) => c[0]);

const moduleErrorName = (h: Harness, error: unknown): string =>
  h.api.registry.findMetaError((error as { asModule: Parameters<typeof h.api.registry.findMetaError>[0] }).asModule).name;

describe.each(RUNTIMES)('%s runtime: reveal guards, batch commit and batch reveal (commit-reveal v2 on)', (runtime) => {
  let h: Harness;
  const tx = () => h.api.tx.subtensorModule!;
  const acct = (uid: number) => h.devnet.accounts[uid]!;

  beforeAll(async () => {
    h = await harness({ runtime, neurons: 8, validators: 8, ownerUid: null, tempo: TEMPO, commitReveal: true, weightsSetRateLimit: 0n });
  });
  afterAll(async () => {
    await h.close();
  });

  it('a reveal with a wrong salt is rejected at the pool with Custom error: 16 (NoWeightsCommitFound -> CommitNotFound); the right one is revealed', async () => {
    const a = acct(1);
    const S = await alignToEpochStart(h);
    const hash = commitHash(h, a.hotkey.publicKey, 1, [0, 2], [3, 4], [7, 7], 0);
    const committed = await include(h, tx().commitWeights!(1, hash), a.hotkey);
    expect(committed.failed).toBeNull();
    expect((await h.api.rpc.chain.getHeader(committed.blockHash)).number.toNumber()).toBe(S);
    await h.devnet.produceBlocks(TEMPO - 1); // the next block, S + TEMPO, is in the reveal epoch on both runtimes
    expect(await rejection(tx().revealWeights!(1, [0, 2], [3, 4], [7, 8], 0), a.hotkey)).toBe('1010: Invalid Transaction: Custom error: 16');
    const revealed = await include(h, tx().revealWeights!(1, [0, 2], [3, 4], [7, 7], 0), a.hotkey);
    expect(revealed.failed).toBeNull();
    expect(revealed.events).toEqual(['subtensorModule.WeightsSet', 'subtensorModule.WeightsRevealed', 'system.ExtrinsicSuccess']);
  });

  it('a reveal of an expired commit is rejected at the pool with Custom error: 17 (not in the reveal range)', async () => {
    const a = acct(2);
    await alignToEpochStart(h);
    const hash = commitHash(h, a.hotkey.publicKey, 1, [0], [1], [9], 0);
    expect((await include(h, tx().commitWeights!(1, hash), a.hotkey)).failed).toBeNull();
    await h.devnet.produceBlocks(3 * TEMPO); // three epochs later: past commit epoch + RevealPeriodEpochs on both runtimes
    expect(await storedHashes(h, 2)).toEqual([hash]); // still stored: expired commits are only popped by a later commit or reveal
    expect(await rejection(tx().revealWeights!(1, [0], [1], [9], 0), a.hotkey)).toBe('1010: Invalid Transaction: Custom error: 17');
  });

  it('batch_commit_weights runs every item, then BatchCompletedWithErrors, one BatchWeightItemFailed per failure and BatchWeightsCompleted', async () => {
    h.devnet.setHyperparameter('weightsSetRateLimit', 100n);
    await h.devnet.produceBlock();
    const a = acct(3);
    const first = commitHash(h, a.hotkey.publicKey, 1, [1], [1], [1], 0);
    const second = commitHash(h, a.hotkey.publicKey, 1, [1], [2], [1], 0);
    const r = await include(h, tx().batchCommitWeights!([1, 1], [first, second]), a.hotkey);
    h.devnet.setHyperparameter('weightsSetRateLimit', 0n);
    await h.devnet.produceBlock();
    expect(r.failed).toBeNull();
    expect(r.events).toEqual([
      'subtensorModule.WeightsCommitted',
      'subtensorModule.BatchCompletedWithErrors',
      'subtensorModule.BatchWeightItemFailed',
      'subtensorModule.BatchWeightsCompleted',
      'system.ExtrinsicSuccess',
    ]);
    const failed = r.result.events.find((e) => e.event.method === 'BatchWeightItemFailed')!.event.data as unknown as unknown[];
    // main: BatchWeightItemFailed(NetUid, DispatchError); spec 393: BatchWeightItemFailed(DispatchError)
    if (runtime === 'stateful') {
      expect((failed[0] as Json).toJSON()).toBe(1);
      expect(moduleErrorName(h, failed[1])).toBe('CommittingWeightsTooFast');
    } else {
      expect(failed).toHaveLength(1);
      expect(moduleErrorName(h, failed[0])).toBe('CommittingWeightsTooFast');
    }
    const done = r.result.events.find((e) => e.event.method === 'BatchWeightsCompleted')!.event.data.toJSON();
    expect(done).toEqual([[1, 1], a.hotkeyAddress]);
    expect(await storedHashes(h, 3)).toEqual([first]);
  });

  it('batch_reveal_weights removes only the commits it reveals and emits WeightsSet per item and one WeightsBatchRevealed', async () => {
    const a = acct(4);
    const h1 = commitHash(h, a.hotkey.publicKey, 1, [0, 1], [1, 1], [4], 0);
    const h2 = commitHash(h, a.hotkey.publicKey, 1, [2, 3], [5, 6], [4], 0);
    await alignToEpochStart(h);
    const nonce = (await h.api.rpc.system.accountNextIndex(a.hotkeyAddress)).toNumber();
    await h.api.rpc.author.submitExtrinsic(await tx().commitWeights!(1, h1).signAsync(a.hotkey, { nonce }));
    await h.api.rpc.author.submitExtrinsic(await tx().commitWeights!(1, h2).signAsync(a.hotkey, { nonce: nonce + 1 }));
    await h.devnet.produceBlock();
    expect(await storedHashes(h, 4)).toEqual([h1, h2]);
    await h.devnet.produceBlocks(TEMPO - 1);
    expect(await rejection(tx().batchRevealWeights!(1, [[2, 3]], [[5, 6]], [[5]], [0]), a.hotkey)).toBe('1010: Invalid Transaction: Custom error: 16');
    expect(await rejection(tx().batchRevealWeights!(1, [[2, 3]], [[5, 6], [1]], [[4]], [0]), a.hotkey)).toBe('1010: Invalid Transaction: Custom error: 18');
    const r = await include(h, tx().batchRevealWeights!(1, [[2, 3]], [[5, 6]], [[4]], [0]), a.hotkey);
    expect(r.failed).toBeNull();
    expect(r.events).toEqual(['subtensorModule.WeightsSet', 'subtensorModule.WeightsBatchRevealed', 'system.ExtrinsicSuccess']);
    const ev = r.result.events.find((e) => e.event.method === 'WeightsBatchRevealed')!.event.data.toJSON();
    expect(ev).toEqual([a.hotkeyAddress, 1, [h2]]);
    expect(await storedHashes(h, 4)).toEqual([h1]); // reveal_weights would have removed h1 too (every commit up to the one revealed)
  });

  it('an unregistered hotkey passes the pool with commit_weights (no uid, no rate-limit check) and fails in dispatch', async () => {
    h.devnet.setHyperparameter('stakeThreshold', 0n);
    await h.devnet.produceBlock();
    const stranger = new Keyring({ type: 'sr25519' }).addFromUri('//Stranger');
    const r = await include(h, tx().commitWeights!(1, `0x${'11'.repeat(32)}`), stranger);
    expect(r.failed).toBe('HotKeyNotRegisteredInSubNet');
  });
});

describe.each(RUNTIMES)('%s runtime: set_weights guards and batch_set_weights (commit-reveal off)', (runtime) => {
  let h: Harness;
  const tx = () => h.api.tx.subtensorModule!;
  const acct = (uid: number) => h.devnet.accounts[uid]!;

  beforeAll(async () => {
    h = await harness({ runtime, neurons: 4, validators: 4, ownerUid: null, tempo: 100, weightsSetRateLimit: 100n });
  });
  afterAll(async () => {
    await h.close();
  });

  it(
    runtime === 'stateful'
      ? 'a set inside the rate limit is rejected at the pool with Custom error: 6 (CheckRateLimits)'
      : 'a set inside the rate limit passes the pool (spec 393 checks only the stake) and fails with SettingWeightsTooFast',
    async () => {
      expect((await include(h, tx().setWeights!(1, [0, 1], [1, 1], 0), acct(1).hotkey)).failed).toBeNull();
      if (runtime === 'stateful') {
        expect(await rejection(tx().setWeights!(1, [0, 1], [1, 2], 0), acct(1).hotkey)).toBe('1010: Invalid Transaction: Custom error: 6');
      } else {
        expect((await include(h, tx().setWeights!(1, [0, 1], [1, 2], 0), acct(1).hotkey)).failed).toBe('SettingWeightsTooFast');
      }
    },
  );

  it('batch_set_weights emits WeightsSet for the items that pass, BatchCompletedWithErrors, BatchWeightItemFailed and BatchWeightsCompleted', async () => {
    const a = acct(2);
    const r = await include(
      h,
      tx().batchSetWeights!(
        [1, 1],
        [
          [
            [0, 1],
            [1, 1],
          ],
          [[0, 1]],
        ],
        [0, 0],
      ),
      a.hotkey,
    );
    expect(r.failed).toBeNull();
    expect(r.events).toEqual([
      'subtensorModule.WeightsSet',
      'subtensorModule.BatchCompletedWithErrors',
      'subtensorModule.BatchWeightItemFailed',
      'subtensorModule.BatchWeightsCompleted',
      'system.ExtrinsicSuccess',
    ]);
    const failed = r.result.events.find((e) => e.event.method === 'BatchWeightItemFailed')!.event.data as unknown as unknown[];
    expect(moduleErrorName(h, failed[failed.length - 1])).toBe('SettingWeightsTooFast');
    expect(failed).toHaveLength(runtime === 'stateful' ? 2 : 1);
    expect((await h.api.query.subtensorModule!.weights!(1, 2)).toJSON()).toEqual([
      [0, 65535],
      [1, 65535],
    ]);
  });

  it('an unregistered hotkey passes the pool with set_weights (the chain lets it through, no Custom error: 19) and fails in dispatch', async () => {
    h.devnet.setHyperparameter('stakeThreshold', 0n);
    await h.devnet.produceBlock();
    const stranger = new Keyring({ type: 'sr25519' }).addFromUri('//Stranger');
    const r = await include(h, tx().setWeights!(1, [0], [1], 0), stranger);
    expect(r.failed).toBe('HotKeyNotRegisteredInSubNet');
    expect(r.events).toEqual(['system.ExtrinsicFailed']);
  });
});

describe.each(RUNTIMES)('%s runtime: commit_crv3_mechanism_weights', (runtime) => {
  let h: Harness;
  const acct = (uid: number) => h.devnet.accounts[uid]!;

  beforeAll(async () => {
    // one drand pulse per 12 s block: round r is visible to on_initialize of block r
    h = await harness({ runtime, neurons: 4, validators: 4, ownerUid: null, tempo: 5, commitReveal: true, weightsSetRateLimit: 0n, beacon: { period: 12 } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('is executed as commit_timelocked_mechanism_weights with version 4: stored, TimelockedWeightsCommitted, revealed in the next epoch', async () => {
    const a = acct(1);
    const round = BigInt(h.devnet.bestNumber() + 3);
    const { commit } = encryptWeightsCommit({
      hotkeyPublicKey: a.hotkey.publicKey,
      uids: [0, 3],
      values: [1, 2],
      versionKey: 0n,
      round,
      beacon: { publicKey: h.devnet.beacon!.publicKey },
    });
    const r = await include(h, h.api.tx.subtensorModule!.commitCrv3MechanismWeights!(1, 0, u8aToHex(commit), round), a.hotkey);
    expect(r.failed).toBeNull();
    expect(r.events).toEqual(['subtensorModule.TimelockedWeightsCommitted', 'system.ExtrinsicSuccess']);
    const committed = r.result.events.find((e) => e.event.method === 'TimelockedWeightsCommitted')!.event.data.toJSON();
    expect(committed).toEqual([a.hotkeyAddress, 1, blake2AsHex(commit, 256), Number(round)]);
    const revealedAt: number[] = [];
    for (let i = 0; i < 15 && revealedAt.length === 0; i += 1) {
      const block = (await h.devnet.produceBlock())!;
      const events = (await (await h.api.at(block.hash)).query.system!.events!()) as unknown as EventRecord[];
      if (events.some((e) => e.event.method === 'TimelockedWeightsRevealed')) revealedAt.push(block.number);
    }
    expect(revealedAt).toHaveLength(1);
    expect((await h.api.query.subtensorModule!.weights!(1, 1)).toJSON()).toEqual([
      [0, 32768],
      [3, 65535],
    ]);
  });
});

describe.each(RUNTIMES)('%s runtime: BlocksSinceLastStep as drain_pending keeps it', (runtime) => {
  let h: Harness;
  const NETUID = 1;
  const T = 3;

  beforeAll(async () => {
    h = await harness({ runtime, neurons: 2, validators: 1, tempo: T, netuid: NETUID });
  });
  afterAll(async () => {
    await h.close();
  });

  it('is raised every block and reset to 0 in the block the epoch runs (raised before should_run_epoch is asked)', async () => {
    const read = async (n: number, item: string): Promise<number> => {
      const at = await h.api.at(await h.api.rpc.chain.getBlockHash(n));
      return Number((await at.query.subtensorModule![item]!(NETUID)).toJSON());
    };
    await h.devnet.produceBlocks(4 * (T + 1));
    let epochs = 0;
    for (let n = 1; n <= 4 * (T + 1); n += 1) {
      // the epoch runs in block n: legacy blocks_until_next_epoch(n) == 0 (ab0cb2e52 run_coinbase.rs:946);
      // stateful SubnetEpochIndex moved in n (main run_coinbase.rs:428)
      const fired =
        runtime === 'legacy' ? T - ((n + NETUID + 1) % (T + 1)) === 0 : (await read(n, 'subnetEpochIndex')) === (await read(n - 1, 'subnetEpochIndex')) + 1;
      if (fired) epochs += 1;
      const expected = fired ? 0 : (await read(n - 1, 'blocksSinceLastStep')) + 1;
      expect(await read(n, 'blocksSinceLastStep'), `block ${n}`).toBe(expected);
    }
    expect(epochs).toBeGreaterThanOrEqual(4);
  });
});

describe('stateful should_run_epoch sees BlocksSinceLastStep after this block raised it (main run_coinbase.rs:363, 1094)', () => {
  const MAX_TEMPO = 50_400n; // main pallets/subtensor/src/lib.rs
  const subnetAt = (since: bigint) => {
    const options = parseDevnetOptions({ neurons: 2, validators: 1, tempo: 360 });
    const state = buildGenesisState(options, deriveDevAccounts(options.seed, 2), 'stateful');
    const subnet = state.subnets.get(1)!;
    subnet.lastEpochBlock = 1_000_000n;
    subnet.blocksSinceLastStep = since;
    return subnet;
  };

  it('MAX_TEMPO - 1 before the block: raised to MAX_TEMPO, not above it, so no epoch', () => {
    const subnet = subnetAt(MAX_TEMPO - 1n);
    epochStep([subnet], 1_000_001n);
    expect(subnet.blocksSinceLastStep).toBe(MAX_TEMPO);
    expect(subnet.subnetEpochIndex).toBe(0n);
  });

  it('MAX_TEMPO before the block: raised to MAX_TEMPO + 1 > MAX_TEMPO, so the epoch runs and the counter is 0', () => {
    const subnet = subnetAt(MAX_TEMPO);
    epochStep([subnet], 1_000_001n);
    expect(subnet.blocksSinceLastStep).toBe(0n);
    expect(subnet.subnetEpochIndex).toBe(1n);
    expect(subnet.lastEpochBlock).toBe(1_000_001n);
  });
});

describe('stateful runtime: the per-block epoch cap (MaxEpochsPerBlock, main run_coinbase.rs:326, :369-378; block_step.rs:87-93)', () => {
  let h: Harness;
  const T = 5;

  beforeAll(async () => {
    h = await harness({ neurons: 4, validators: 4, ownerUid: null, tempo: T, commitReveal: true, weightsSetRateLimit: 0n, beacon: { period: 12 } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('a deferred epoch moves one block at a time (PendingEpochAt = block + 1, nothing else), and the reveal step skips the subnet until it runs', async () => {
    const read = async (n: number): Promise<{ index: number; last: number; pending: number }> => {
      const at = await h.api.at(await h.api.rpc.chain.getBlockHash(n));
      const q = (item: string): Promise<number> => at.query.subtensorModule![item]!(1).then((v) => Number((v as Json).toJSON()));
      return { index: await q('subnetEpochIndex'), last: await q('lastEpochBlock'), pending: await q('pendingEpochAt') };
    };
    const a = h.devnet.accounts[1]!;
    const due = await alignToEpochStart(h); // the epoch runs in the next block, `due`
    await h.devnet.produceBlock();
    const before = await read(due);
    // a commit in the block after `due`, so in epoch `before.index`, to a round already stored when its reveal epoch starts
    const round = BigInt(due + 2);
    const { commit } = encryptWeightsCommit({
      hotkeyPublicKey: a.hotkey.publicKey,
      uids: [2],
      values: [1],
      versionKey: 0n,
      round,
      beacon: { publicKey: h.devnet.beacon!.publicKey },
    });
    const r = await include(h, h.api.tx.subtensorModule!.commitTimelockedWeights!(1, u8aToHex(commit), round, 4), a.hotkey);
    expect(r.failed).toBeNull();
    const commitBlock = h.devnet.bestNumber();
    expect(commitBlock).toBeLessThan(due + T); // epoch E's reveal starts in block due + T (undeferred)
    h.devnet.deferEpochs(3);
    await h.devnet.produceBlocks(due + T - 1 - h.devnet.bestNumber()); // the change applies in the first of these
    const revealedAt: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const block = (await h.devnet.produceBlock())!;
      const events = (await (await h.api.at(block.hash)).query.system!.events!()) as unknown as EventRecord[];
      if (events.some((e) => e.event.method === 'TimelockedWeightsRevealed')) revealedAt.push(block.number);
    }
    // due + T, + 1, + 2 deferred: the epoch and the reveal run in due + T + 3
    for (let k = 0; k < 3; k += 1)
      expect(await read(due + T + k), `block ${due + T + k}`).toEqual({ index: before.index, last: due, pending: due + T + k + 1 });
    expect(await read(due + T + 3)).toEqual({ index: before.index + 1, last: due + T + 3, pending: 0 });
    expect(revealedAt).toEqual([due + T + 3]);
    expect(await read(due + T + 5)).toEqual({ index: before.index + 1, last: due + T + 3, pending: 0 }); // the cap emulation is used up
  });

  it('the legacy runtime has no cap: deferEpochs throws DEVNET_INVALID_DEFERRAL, as does a bad count', async () => {
    expect(() => {
      h.devnet.deferEpochs(-1);
    }).toThrow(expect.objectContaining({ code: 'DEVNET_INVALID_DEFERRAL', context: { path: 'count', value: -1 } }));
    const legacy = await harness({ runtime: 'legacy', neurons: 2, validators: 1 });
    try {
      expect(() => {
        legacy.devnet.deferEpochs(1);
      }).toThrow(expect.objectContaining({ code: 'DEVNET_INVALID_DEFERRAL', context: { path: 'runtime', value: 'legacy' } }));
    } finally {
      await legacy.close();
    }
  });
});
