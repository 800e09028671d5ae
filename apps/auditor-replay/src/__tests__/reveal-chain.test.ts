/**
 * The follower of commit-reveal v4 commits (reveal-chain.ts) against a real devnet with its own drand beacon, over
 * an unmodified @polkadot/api: each expected outcome is read from the chain by the test itself (the block whose
 * events hold `TimelockedWeightsRevealed`, the devnet's recorded drops, `Weights` and `Uids` at that block), not
 * from the auditor's code.
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { SubmittableExtrinsic } from '@polkadot/api/types';
import { encryptWeightsCommit } from '@subnet/timelock';
import type { Devnet } from '@subnet/devnet';
import { DEVNET_SIGNED_EXTENSIONS, startDevnet } from '@subnet/devnet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BundleAudit, CommitFollower, CommitQuery, FollowedCommit } from '../index.js';
import { buildReport, formatReport, judgeReveal, openChainReader } from '../index.js';
import type { Pair } from './fixtures.js';

const TEMPO = 4;
const NETUID = 1;

type Json = { toJSON(): unknown };
interface EventRecord {
  readonly phase: { readonly isApplyExtrinsic: boolean };
  readonly event: { readonly section: string; readonly method: string; readonly data: Json };
}

let devnet: Devnet;
let api: ApiPromise;
let chain: Awaited<ReturnType<typeof openChainReader>>;
let follow: CommitFollower;

beforeAll(async () => {
  // Commit-reveal v4, one drand pulse per block (period 12 s = the slot), blocks made by the test.
  devnet = await startDevnet({
    neurons: 6,
    validators: 3,
    tempo: TEMPO,
    weightsSetRateLimit: 0n,
    commitReveal: true,
    mechanismCount: 2,
    beacon: { period: 12 },
  });
  api = await ApiPromise.create({
    provider: new WsProvider(devnet.url, 100),
    noInitWarn: true,
    throwOnConnect: true,
    signedExtensions: DEVNET_SIGNED_EXTENSIONS,
  });
  chain = await openChainReader(devnet.url);
  follow = chain.follow;
}, 60_000);

afterAll(async () => {
  await chain.close();
  await api.disconnect();
  await devnet.stop();
});

const hotkey = (uid: number): Pair => devnet.accounts[uid]!.hotkey;
const address = (uid: number): string => devnet.accounts[uid]!.hotkeyAddress;
const hex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString('hex')}`;
const blockHash = async (n: number): Promise<string> => (await api.rpc.chain.getBlockHash(n)).toHex();
const eventsAt = async (n: number): Promise<EventRecord[]> => (await (await api.at(await blockHash(n))).query.system!.events!()) as unknown as EventRecord[];

/** The block the next epoch step runs in (the chain's runtime API). */
async function nextEpochStart(): Promise<number> {
  const out = await api.rpc.state.call('SubnetInfoRuntimeApi_get_next_epoch_start_block', hex(api.createType('u16', NETUID).toU8a()));
  return api.createType('Option<u64>', out.toU8a(true)).unwrap().toNumber();
}

/** Produces blocks up to the one before the next epoch step; returns the step's block. */
async function alignToEpochStart(): Promise<number> {
  if ((await nextEpochStart()) <= devnet.bestNumber()) await devnet.produceBlock();
  const start = await nextEpochStart();
  if (start - 1 > devnet.bestNumber()) await devnet.produceBlocks(start - 1 - devnet.bestNumber());
  return start;
}

/** Signs and sends each `[extrinsic, signer]` into the pool in turn (so they keep that order), then produces one block holding them all. */
async function includeTogether(txs: readonly (readonly [SubmittableExtrinsic<'promise'>, Pair])[]): Promise<{ block: number; hashes: string[] }> {
  const inBlock: Promise<void>[] = [];
  for (const [tx, signer] of txs) {
    const before = devnet.poolSize();
    // The node's next index counts the pool (a second extrinsic of one signer in a block needs it).
    const nonce = await api.rpc.system.accountNextIndex(signer.address);
    inBlock.push(
      new Promise<void>((resolve, reject) => {
        tx.signAndSend(signer, { nonce }, (r) => {
          if (r.status.isInBlock) {
            if (r.dispatchError !== undefined) reject(new Error(`failed: ${r.dispatchError.toString()}`));
            else resolve();
          }
          if (r.status.isInvalid || r.status.isDropped) reject(new Error(r.status.type));
        }).catch(reject);
      }),
    );
    const start = Date.now();
    while (devnet.poolSize() === before) {
      if (Date.now() - start > 10_000) throw new Error('the extrinsic never reached the pool');
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const produced = await devnet.produceBlock();
  await Promise.all(inBlock);
  if (produced === null) throw new Error('no block produced');
  return { block: produced.number, hashes: txs.map(([tx]) => tx.hash.toHex()) };
}

interface CommitOptions {
  /** The mechanism (0: `commit_timelocked_weights`, else `commit_timelocked_mechanism_weights`). */
  readonly mecid?: number;
  /** The commit bytes to send (a copy); else `uid`'s own weights encrypted to `round`. */
  readonly bytes?: Uint8Array;
  /** The hotkey the payload names (default: the signer's). */
  readonly payloadUid?: number;
  readonly uids?: readonly number[];
  readonly values?: readonly number[];
}

/** A timelocked commit of `uid`'s hotkey to drand round `round`, encrypted under the devnet's beacon. */
function commitTx(uid: number, round: bigint, o: CommitOptions = {}): { tx: SubmittableExtrinsic<'promise'>; bytes: Uint8Array } {
  const bytes =
    o.bytes ??
    encryptWeightsCommit({
      hotkeyPublicKey: hotkey(o.payloadUid ?? uid).publicKey,
      uids: o.uids ?? [3, 4],
      values: o.values ?? [100, 200],
      versionKey: 0n,
      round,
      beacon: { publicKey: devnet.beacon!.publicKey },
    }).commit;
  const m = api.tx.subtensorModule!;
  const tx =
    (o.mecid ?? 0) === 0
      ? m.commitTimelockedWeights!(NETUID, hex(bytes), round, 4)
      : m.commitTimelockedMechanismWeights!(NETUID, o.mecid, hex(bytes), round, 4);
  return { tx, bytes };
}

/** What the chain itself says about the `nth` commit event of `who` in block `n`: `(netuid_index, hash, round)`. */
async function committedEvent(n: number, who: string, nth = 0): Promise<{ netuidIndex: number; commitHash: string; revealRound: string }> {
  const e = (await eventsAt(n)).filter((r) => r.event.method === 'TimelockedWeightsCommitted' && (r.event.data.toJSON() as unknown[])[0] === who)[nth];
  const [, idx, hash, round] = (e?.event.data.toJSON() ?? []) as [string, number, string, number];
  return { netuidIndex: idx, commitHash: hash, revealRound: String(round) };
}

/** Produces blocks one at a time until one's events hold `TimelockedWeightsRevealed` of `who` (at most `max`); returns it. */
async function produceUntilRevealed(who: string, max = 3 * (TEMPO + 1)): Promise<number> {
  for (let i = 0; i < max; i += 1) {
    const b = (await devnet.produceBlock())!.number;
    if ((await eventsAt(b)).some((r) => r.event.method === 'TimelockedWeightsRevealed' && (r.event.data.toJSON() as unknown[])[1] === who)) return b;
  }
  throw new Error(`no reveal of ${who} within ${max} blocks`);
}

const query = (uid: number, commitBlock: number, extrinsicHash: string | null, hint: string | null): CommitQuery => ({
  netuid: NETUID,
  hotkey: address(uid),
  commitBlock: String(commitBlock),
  extrinsicHash,
  hint,
});

const NOT_FOUND: FollowedCommit = { commit: null, reveal: null, weights: null };

/** The audit of `uid`'s committed bundle of epoch 7, its weights those `commitTx` encrypts by default (uids 3, 4: 100, 200). */
const committedAudit = (uid: number, commitBlock: number, extrinsicHash: string): BundleAudit => ({
  source: 'epoch-7.json',
  status: 'ok',
  epoch: 7,
  netuid: NETUID,
  validator_hotkey: address(uid),
  checks: { schema: true, digest: true, signature: true, recompute: true, chain: null },
  mismatches: [],
  root_cause: null,
  digest: 'd'.repeat(64),
  error: null,
  weights: [
    { uid: 3, hotkey: null, weight: 100 },
    { uid: 4, hotkey: null, weight: 200 },
  ],
  submission_block: String(commitBlock),
  submission: { status: 'submitted', code: null, call: 'SubtensorModule.commit_timelocked_weights', extrinsic_hash: extrinsicHash },
});

describe('commitFollower on a real devnet (commit-reveal v4, docs/spec.md G.6)', () => {
  let commitBlock: number;
  let own: string; // the extrinsic hash of uid 1's commit
  let copy: string; // uid 0 resubmitting uid 1's commit bytes in the same block, to a later round
  let revealBlock: number;
  let copyDropped: number;
  let expected: FollowedCommit;

  beforeAll(async () => {
    const due = await alignToEpochStart();
    await devnet.produceBlock(); // the epoch step; the commits go in the block after it
    const round = BigInt(due + 2);
    const mine = commitTx(1, round);
    // The copy waits in the same queue for a pulse two blocks after the reveal starts, then is dropped (encrypted to another round, it does not open).
    const copyRound = BigInt(due + TEMPO + 2);
    const theirs = commitTx(0, copyRound, { bytes: mine.bytes });
    const included = await includeTogether([
      [api.tx.subtensorModule!.commitWeights!(NETUID, `0x${'11'.repeat(32)}`), hotkey(1)], // a v2 commit of the same hotkey first
      [mine.tx, hotkey(1)],
      [theirs.tx, hotkey(0)],
    ]);
    commitBlock = included.block;
    [, own = '', copy = ''] = included.hashes;
    revealBlock = await produceUntilRevealed(address(1));
    // uid 0 serves its axon in the block that drops its copy: AxonServed(netuid, hotkey) is no reveal.
    await devnet.produceBlocks(Number(copyRound) - 1 - devnet.bestNumber());
    copyDropped = (await includeTogether([[api.tx.subtensorModule!.serveAxon!(NETUID, 1, 134744072, 8091, 4, 4, 0, 0), hotkey(0)]])).block;
    expect(devnet.timelockDrops()).toContainEqual(
      expect.objectContaining({ block: BigInt(copyDropped), who: hex(hotkey(0).publicKey), reason: 'decryption_failed' }),
    );
    expect((await eventsAt(copyDropped)).map((r) => `${r.event.section}.${r.event.method}`)).toContain('subtensorModule.AxonServed');
    await devnet.produceBlock(); // a head past both
    const at = await api.at(await blockHash(revealBlock));
    const pairs = (await at.query.subtensorModule!.weights!(NETUID, 1)).toJSON() as [number, number][];
    expect(pairs.length).toBeGreaterThan(0);
    expected = {
      commit: await committedEvent(commitBlock, address(1)),
      reveal: { outcome: 'revealed', block: String(revealBlock), blockHash: await blockHash(revealBlock), head: String(devnet.bestNumber()) },
      weights: { block: String(revealBlock), validatorUid: 1, pairs },
    };
  }, 60_000);

  it('follows the commit of the named extrinsic to the block the chain revealed it in (its copy of the same bytes, still queued, is not it), and reads Weights there', async () => {
    expect(revealBlock).toBeLessThan(copyDropped);
    expect(await follow(query(1, commitBlock, own, String(revealBlock)))).toEqual(expected);
  });

  it('reaches the same reveal without an attestation (bisection), and whatever reveal block an attestation names: 0, earlier, later, past the head', async () => {
    const hints = [
      null,
      '0',
      String(commitBlock),
      String(commitBlock + 1),
      String(revealBlock - 1),
      String(revealBlock + 1),
      String(devnet.bestNumber() + 1),
      '999999',
    ];
    for (const hint of hints) expect(await follow(query(1, commitBlock, own, hint)), `hint ${hint}`).toEqual(expected);
  });

  it("without an extrinsic hash, takes the hotkey's timelocked commit event in its block, not its v2 WeightsCommitted before it", async () => {
    const order = (await eventsAt(commitBlock)).filter((r) => (r.event.data.toJSON() as unknown[])[0] === address(1)).map((r) => r.event.method);
    expect(order).toEqual(['WeightsCommitted', 'TimelockedWeightsCommitted']);
    expect(await follow(query(1, commitBlock, null, String(revealBlock)))).toEqual(expected);
  });

  it('a hash no extrinsic of the block has, or the extrinsic of another hotkey (even one that carries the same commit bytes), shows no commit', async () => {
    expect(await follow(query(1, commitBlock, `0x${'00'.repeat(32)}`, String(revealBlock)))).toEqual(NOT_FOUND);
    expect(await follow(query(1, commitBlock, copy, String(revealBlock)))).toEqual(NOT_FOUND);
  });

  it("the copy is uid 0's own commit, with the same hash: followed to the block the chain dropped it in (uid 1's reveal and uid 0's AxonServed are no reveal of it)", async () => {
    const dropped: FollowedCommit = {
      commit: await committedEvent(commitBlock, address(0)),
      reveal: { outcome: 'dropped', block: String(copyDropped), blockHash: await blockHash(copyDropped), head: expected.reveal!.head },
      weights: null,
    };
    expect(dropped.commit?.commitHash).toBe(expected.commit?.commitHash);
    for (const hint of [null, String(revealBlock), String(copyDropped)])
      expect(await follow(query(0, commitBlock, copy, hint)), `hint ${hint}`).toEqual(dropped);
  });
});

describe('commitFollower on a real devnet: a dropped commit, a queued one, a validator replaced in its reveal block', () => {
  /** Aligns to an epoch step, produces it, and has each uid commit its own weights in the next block to a round stored at its reveal. */
  async function commitAfterStep(...uids: number[]): Promise<{ due: number; block: number; hashes: string[] }> {
    const due = await alignToEpochStart();
    await devnet.produceBlock();
    const included = await includeTogether(uids.map((uid) => [commitTx(uid, BigInt(due + 2)).tx, hotkey(uid)] as const));
    return { due, ...included };
  }

  it('a commit the chain dropped at its reveal (version key raised) is followed to the block it left the queue: dropped, no weights', async () => {
    const c = await commitAfterStep(2);
    devnet.setHyperparameter('weightsVersionKey', 7n);
    let drop: bigint | undefined;
    for (let i = 0; i < 3 * (TEMPO + 1) && drop === undefined; i += 1) {
      await devnet.produceBlock();
      drop = devnet.timelockDrops().find((d) => d.who === hex(hotkey(2).publicKey))?.block;
    }
    devnet.setHyperparameter('weightsVersionKey', 0n);
    await devnet.produceBlock();
    expect(devnet.timelockDrops()).toContainEqual(expect.objectContaining({ block: drop, reason: 'weights_check', detail: 'IncorrectWeightVersionKey' }));
    const dropped: FollowedCommit = {
      commit: await committedEvent(c.block, address(2)),
      reveal: { outcome: 'dropped', block: String(drop), blockHash: await blockHash(Number(drop)), head: String(devnet.bestNumber()) },
      weights: null,
    };
    for (const hint of [String(drop), null, String(Number(drop) + 1)])
      expect(await follow(query(2, c.block, c.hashes[0] ?? '', hint)), `hint ${hint}`).toEqual(dropped);
  });

  it('a commit still queued at the head has no outcome yet, whatever block an attestation names (past the head too)', async () => {
    const c = await commitAfterStep(2);
    const queued: FollowedCommit = {
      commit: await committedEvent(c.block, address(2)),
      reveal: { outcome: 'queued', block: null, blockHash: null, head: String(c.block) },
      weights: null,
    };
    for (const hint of [null, String(c.block), String(c.block + 1), '999999'])
      expect(await follow(query(2, c.block, c.hashes[0] ?? '', hint)), `hint ${hint}`).toEqual(queued);
  });

  it('a validator whose uid a registration takes in its reveal block (after the reveal) has no uid or weights there: the follower reveals the commit again with the stored pulse, as the chain did, and compares that (docs/spec.md G.6), not a chain.validator mismatch', async () => {
    const c = await commitAfterStep(1, 0); // uid 0 reveals the same values in the same block: the chain stores its weights
    await devnet.produceBlocks(c.due + TEMPO - 1 - devnet.bestNumber());
    devnet.replaceNeuron(1, `0x${'77'.repeat(32)}`); // applied in the next block, after its on_initialize (the reveal step)
    const revealed = await produceUntilRevealed(address(1), 1);
    const at = await api.at(await blockHash(revealed));
    const before = await api.at(await blockHash(revealed - 1));
    // What the chain shows: uid 1 was the hotkey's when the block began, a registration gave it to 0x77… in the
    // block (BlockAtRegistration = the block), and uid 1 has no weights left there while uid 0's are stored.
    expect((await before.query.subtensorModule!.uids!(NETUID, address(1))).toJSON()).toBe(1);
    expect((await at.query.subtensorModule!.uids!(NETUID, address(1))).toJSON()).toBeNull();
    const holder = (await at.query.subtensorModule!.keys!(NETUID, 1)).toString();
    expect(holder).not.toBe(address(1));
    expect((await at.query.subtensorModule!.blockAtRegistration!(NETUID, 1)).toJSON()).toBe(revealed);
    expect((await at.query.subtensorModule!.weights!(NETUID, 1)).toJSON()).toEqual([]);
    // The chain's own reveal of the same values (uid 0's commit): what uid 1's reveal stored before the registration.
    const stored = (await at.query.subtensorModule!.weights!(NETUID, 0)).toJSON() as [number, number][];
    expect(stored.length).toBeGreaterThan(0);
    const commit = await committedEvent(c.block, address(1));
    const followed = await follow(query(1, c.block, c.hashes[0] ?? '', String(revealed)));
    expect(followed).toEqual({
      commit,
      reveal: { outcome: 'revealed', block: String(revealed), blockHash: await blockHash(revealed), head: String(revealed) },
      weights: {
        block: String(revealed),
        validatorUid: 1,
        pairs: stored,
        replaced: { hotkey: holder, block: String(revealed), from: 'commit', round: commit.revealRound },
      },
    });
    const judged = judgeReveal(committedAudit(1, c.block, c.hashes[0] ?? ''), NETUID, followed);
    expect(judged).toMatchObject({ status: 'ok', checks: { chain: true }, mismatches: [] });
    expect(judged.chain_unknown).toBeUndefined();
    const report = buildReport([judged]);
    expect(report.exit_code).toBe(0);
    expect(formatReport(report)).not.toMatch(/CHAIN UNKNOWN|chain\.validator|MISMATCH/);
    // A bundle claiming other weights than the commit carried is caught although the state lost them.
    const other = {
      ...committedAudit(1, c.block, c.hashes[0] ?? ''),
      weights: [
        { uid: 3, hotkey: null, weight: 200 },
        { uid: 4, hotkey: null, weight: 100 },
      ],
    };
    const caught = judgeReveal(other, NETUID, followed);
    expect(caught).toMatchObject({ status: 'mismatch', checks: { chain: false } });
    expect(caught.mismatches.map((m) => [m.stage, m.field, m.miner?.uid])).toEqual([
      ['chain.weights', `Weights[${NETUID}][1] from the commit (drand round ${commit.revealRound})`, 3],
      ['chain.weights', `Weights[${NETUID}][1] from the commit (drand round ${commit.revealRound})`, 4],
    ]);
    // The reveal itself is still checked: an attestation naming another reveal block is a chain.reveal mismatch.
    const attestation = { status: 'revealed', reveal_block: String(revealed + 1), reveal_block_hash: null, commit_hash: null };
    const lying = judgeReveal(
      { ...committedAudit(1, c.block, c.hashes[0] ?? ''), reveal: { verified: true, attestation, error: null, chain: null } } as BundleAudit,
      NETUID,
      followed,
    );
    expect(lying).toMatchObject({ status: 'mismatch', checks: { chain: false } });
    expect(lying.mismatches).toEqual([
      expect.objectContaining({ stage: 'chain.reveal', field: 'reveal_block', expected: String(revealed), claimed: String(revealed + 1) }),
    ]);
  });

  it('without the pulse the reveal used (the node no longer stores it), removed weights cannot be taken again: the chain check is unknown (AUDITOR_UID_REPLACED, exit 0)', () => {
    const followed: FollowedCommit = {
      commit: { netuidIndex: NETUID, commitHash: `0x${'12'.repeat(32)}`, revealRound: '40' },
      reveal: { outcome: 'revealed', block: '31', blockHash: `0x${'34'.repeat(32)}`, head: '35' },
      weights: { block: '31', validatorUid: 1, pairs: [], replaced: { hotkey: address(5), block: '31' } },
    };
    const judged = judgeReveal(committedAudit(1, 30, `0x${'56'.repeat(32)}`), NETUID, followed);
    expect(judged).toMatchObject({ status: 'ok', checks: { chain: null }, mismatches: [] });
    expect(judged.chain_unknown).toEqual({ code: 'AUDITOR_UID_REPLACED', message: expect.any(String), uid: 1, block: '31', holder_hotkey: address(5) });
    const report = buildReport([judged]);
    expect(report.exit_code).toBe(0);
    expect(formatReport(report)).toContain(
      `CHAIN UNKNOWN epoch 7 epoch-7.json: [AUDITOR_UID_REPLACED] the weights cannot be compared: uid 1 on subnet ${NETUID} was given to ${address(5)} by a registration in block 31`,
    );
  });
});

describe('commitFollower on a real devnet: a commit on mechanism 1', () => {
  it("reads Weights at the commit's own storage index, and a reveal of the same hotkey on mechanism 0 in that block is no reveal of a dropped mechanism-1 commit", async () => {
    const due = await alignToEpochStart();
    await devnet.produceBlock();
    const round = BigInt(due + 2);
    const c = await includeTogether([
      [commitTx(2, round).tx, hotkey(2)],
      [commitTx(2, round, { mecid: 1, uids: [2, 5], values: [7, 7] }).tx, hotkey(2)],
      [commitTx(0, round).tx, hotkey(0)],
      [commitTx(0, round, { mecid: 1, payloadUid: 2 }).tx, hotkey(0)], // names uid 2 in its payload: dropped
    ]);
    const revealed = await produceUntilRevealed(address(2));
    const index = (await committedEvent(c.block, address(2), 1)).netuidIndex;
    expect(index).not.toBe(NETUID);
    const at = await api.at(await blockHash(revealed));
    const pairs = (await at.query.subtensorModule!.weights!(index, 2)).toJSON() as [number, number][];
    expect(pairs).toEqual([
      [2, 65535],
      [5, 65535],
    ]);
    expect((await at.query.subtensorModule!.weights!(NETUID, 2)).toJSON()).not.toEqual(pairs);
    expect(devnet.timelockDrops()).toContainEqual(expect.objectContaining({ block: BigInt(revealed), who: hex(hotkey(0).publicKey), netuidIndex: index }));
    const head = String(devnet.bestNumber());
    const reveal = { block: String(revealed), blockHash: await blockHash(revealed), head };
    expect(await follow(query(2, c.block, c.hashes[1] ?? '', String(revealed)))).toEqual({
      commit: await committedEvent(c.block, address(2), 1),
      reveal: { outcome: 'revealed', ...reveal },
      weights: { block: String(revealed), validatorUid: 2, pairs },
    });
    expect(await follow(query(0, c.block, c.hashes[3] ?? '', String(revealed)))).toEqual({
      commit: await committedEvent(c.block, address(0), 1),
      reveal: { outcome: 'dropped', ...reveal },
      weights: null,
    });
  });
});

describe('commitFollower on a real devnet: the uid taken in the block after the reveal', () => {
  it("reads the weights at the reveal block, where the uid is still the validator's: compared as usual (chain ok), nothing unknown", async () => {
    const due = await alignToEpochStart();
    await devnet.produceBlock();
    const c = await includeTogether([[commitTx(2, BigInt(due + 2)).tx, hotkey(2)]]);
    const revealed = await produceUntilRevealed(address(2));
    devnet.replaceNeuron(2, `0x${'88'.repeat(32)}`);
    const next = (await devnet.produceBlock())!.number;
    expect((await (await api.at(await blockHash(next))).query.subtensorModule!.uids!(NETUID, address(2))).toJSON()).toBeNull();
    const at = await api.at(await blockHash(revealed));
    expect((await at.query.subtensorModule!.uids!(NETUID, address(2))).toJSON()).toBe(2);
    const pairs = (await at.query.subtensorModule!.weights!(NETUID, 2)).toJSON() as [number, number][];
    expect(pairs).toEqual([
      [3, 32768],
      [4, 65535],
    ]);
    const followed = await follow(query(2, c.block, c.hashes[0] ?? '', String(revealed)));
    expect(followed.weights).toEqual({ block: String(revealed), validatorUid: 2, pairs });
    const judged = judgeReveal(committedAudit(2, c.block, c.hashes[0] ?? ''), NETUID, followed);
    expect(judged).toMatchObject({ status: 'ok', checks: { chain: true }, mismatches: [] });
    expect(judged.chain_unknown).toBeUndefined();
  });
});

describe('commitFollower on a real devnet: a hotkey swap in the reveal block', () => {
  it('reads the weights under the uid the reveal set: a swap moves the uid to the new hotkey but keeps its weights and registration block, so they are compared as usual (chain ok), not called replaced or missing', async () => {
    const due = await alignToEpochStart();
    await devnet.produceBlock();
    const c = await includeTogether([[commitTx(0, BigInt(due + 2)).tx, hotkey(0)]]);
    await devnet.produceBlocks(due + TEMPO - 1 - devnet.bestNumber());
    const swapped = `0x${'99'.repeat(32)}`;
    devnet.swapHotkey(address(0), swapped); // a swap_hotkey of the next block: after its on_initialize (the reveal step)
    const revealed = await produceUntilRevealed(address(0), 1);
    const at = await api.at(await blockHash(revealed));
    // What the chain shows: uid 0 was the hotkey's when the block began; at R the new hotkey holds it, registered
    // long before R (a swap is no registration), and uid 0's weights are the revealed ones.
    expect((await (await api.at(await blockHash(revealed - 1))).query.subtensorModule!.uids!(NETUID, address(0))).toJSON()).toBe(0);
    expect((await at.query.subtensorModule!.uids!(NETUID, address(0))).toJSON()).toBeNull();
    expect((await at.query.subtensorModule!.keys!(NETUID, 0)).toString()).toBe(api.createType('AccountId', swapped).toString());
    expect((await at.query.subtensorModule!.blockAtRegistration!(NETUID, 0)).toJSON()).not.toBe(revealed);
    const pairs = (await at.query.subtensorModule!.weights!(NETUID, 0)).toJSON() as [number, number][];
    expect(pairs).toEqual([
      [3, 32768],
      [4, 65535],
    ]);
    const followed = await follow(query(0, c.block, c.hashes[0] ?? '', String(revealed)));
    expect(followed.weights).toEqual({ block: String(revealed), validatorUid: 0, pairs });
    const judged = judgeReveal(committedAudit(0, c.block, c.hashes[0] ?? ''), NETUID, followed);
    expect(judged).toMatchObject({ status: 'ok', checks: { chain: true }, mismatches: [] });
    expect(judged.chain_unknown).toBeUndefined();
  });
});

describe('commitFollower on a node that pruned the commit block state', () => {
  it('judges an extrinsic hash absent from the named block from the block body alone (no commit); the commit in its own block needs the state (AUDITOR_CHAIN_STATE_PRUNED)', async () => {
    // A node that keeps the state of its last 8 blocks only, like a pruned (non-archive) Subtensor node; block bodies stay.
    const pruned = await startDevnet({
      neurons: 4,
      validators: 2,
      tempo: TEMPO,
      weightsSetRateLimit: 0n,
      commitReveal: true,
      beacon: { period: 12 },
      stateHistory: 8,
    });
    const reader = await openChainReader(pruned.url);
    const client = await ApiPromise.create({
      provider: new WsProvider(pruned.url, 100),
      noInitWarn: true,
      throwOnConnect: true,
      signedExtensions: DEVNET_SIGNED_EXTENSIONS,
    });
    try {
      await pruned.produceBlocks(2);
      const signer = pruned.accounts[1]!.hotkey;
      const round = BigInt(pruned.bestNumber() + 3);
      const commit = encryptWeightsCommit({
        hotkeyPublicKey: signer.publicKey,
        uids: [2],
        values: [1],
        versionKey: 0n,
        round,
        beacon: { publicKey: pruned.beacon!.publicKey },
      }).commit;
      const tx = client.tx.subtensorModule!.commitTimelockedWeights!(NETUID, hex(commit), round, 4);
      const inBlock = new Promise<void>((resolve, reject) => {
        tx.signAndSend(signer, (r) => {
          if (r.status.isInBlock) resolve();
          if (r.status.isInvalid || r.status.isDropped) reject(new Error(r.status.type));
        }).catch(reject);
      });
      while (pruned.poolSize() === 0) await new Promise((r) => setTimeout(r, 5));
      const block = (await pruned.produceBlock())!.number;
      await inBlock;
      await pruned.produceBlocks(20);
      const q = { netuid: NETUID, hotkey: pruned.accounts[1]!.hotkeyAddress, extrinsicHash: tx.hash.toHex(), hint: null };
      // The bundle names the block before its commit's: that block holds no such extrinsic, whatever its state.
      expect(await reader.follow({ ...q, commitBlock: String(block - 1) })).toEqual(NOT_FOUND);
      await expect(reader.follow({ ...q, commitBlock: String(block) })).rejects.toMatchObject({ code: 'AUDITOR_CHAIN_STATE_PRUNED' });
    } finally {
      await client.disconnect();
      await reader.close();
      await pruned.stop();
    }
  });
});
