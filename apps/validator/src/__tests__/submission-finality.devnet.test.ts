/**
 * The block a signed bundle names is final (docs/spec.md G.8), on a real devnet that reorganises its unfinalised
 * head (`devnet.reorganize`), through the running service over real @polkadot/api and WebSocket: an extrinsic whose
 * block a reorganisation replaced is recorded with the block it finally landed in; one the reorganisation dropped
 * is submitted again within its epoch's window; the same for a timelocked (commit-reveal v4) commit. Blocks are
 * produced by the test (manual devnet), so every block number below is exact. Both runtimes.
 */
import { join } from 'node:path';

import { connectChain } from '@subnet/chain';
import type { ChainConnection } from '@subnet/chain';
import { devHotkeyUri, startDevnet } from '@subnet/devnet';
import type { Devnet, DevnetOptionsInput } from '@subnet/devnet';
import pino from 'pino';
import { describe, expect, it } from 'vitest';

import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
import { timelockRecordFromJson } from '../timelock-record-json.js';
import { bountyBody, postExecutor, readBundle, silent, tempDir, testConfig, useCleanups } from './helpers.js';

const RUNTIMES = ['legacy', 'stateful'] as const;
/** Finality this many blocks behind the best block. */
const LAG = 4;
/** Our epochs: 60 blocks, so epoch 0's window (the head in epoch 1) outlasts the era below. */
const EPOCH = 60;
/** The mortal era of the weight extrinsics: a dropped one is known never to land 8 + 16 blocks after its claim. */
const ERA = 8;

const pause = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

interface Setup {
  readonly devnet: Devnet;
  readonly reader: ChainConnection;
  readonly service: ValidatorService;
  readonly dir: string;
}

describe.each(RUNTIMES)('the submission block a bundle names is final, %s runtime (real devnet, reorganisations)', { timeout: 120_000 }, (runtime) => {
  const cleanups = useCleanups();

  async function setup(devnetOptions: Partial<DevnetOptionsInput> = {}, chainOptions: Record<string, unknown> = {}): Promise<Setup> {
    const devnet = await startDevnet({
      runtime,
      neurons: 6,
      validators: 2,
      tempo: 360,
      weightsSetRateLimit: 0n,
      blockTime: 0,
      finalityLag: LAG,
      ...devnetOptions,
    });
    cleanups.push(() => devnet.stop());
    await devnet.produceBlocks(3);
    const t = tempDir();
    cleanups.push(t.cleanup);
    const config = testConfig(t.dir, {
      validator: { hotkey_uri: devHotkeyUri(devnet.options.seed, 0) },
      chain: { endpoint: devnet.url, epoch_length: EPOCH, poll_ms: 20, era_period: ERA, commit_store: join(t.dir, 'commits.json'), ...chainOptions },
    });
    const service = await startValidator({ config, logger: process.env.DEBUG_FIN === undefined ? silent : pino({ level: 'info' }), autoTick: false });
    cleanups.push(() => service.stop());
    const miner = devnet.accounts[3]?.hotkey.address ?? '';
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('reorg', miner))).status).toBe(201);
    const reader = await connectChain({ network: devnet.url });
    cleanups.push(() => reader.close());
    return { devnet, reader, service, dir: t.dir };
  }

  /**
   * Runs one service tick while producing a block whenever the devnet's pool holds an extrinsic (the tick may submit),
   * and, while `continuous` answers true (a close that waits for finality), one every 150 ms.
   */
  function startTick(s: Setup, mode: { continuous?: () => boolean } = {}): { work: Promise<void>; driving: Promise<void> } {
    const state = { done: false };
    const work = s.service.tick().finally(() => {
      state.done = true;
    });
    const driving = (async () => {
      while (!state.done) {
        if (s.devnet.poolSize() > 0 || mode.continuous?.() === true) await s.devnet.produceBlock();
        // one block per 150 ms while continuous: the chain access polls once a second, so a few blocks between its polls
        await pause(mode.continuous?.() === true ? 150 : 5);
      }
    })();
    return { work, driving };
  }

  async function tick(s: Setup, continuous = false): Promise<void> {
    const t = startTick(s, continuous ? { continuous: () => true } : {});
    await t.driving;
    await t.work;
  }

  /** Produces blocks up to `n` (the head). */
  async function produceTo(s: Setup, n: number): Promise<void> {
    if (s.devnet.bestNumber() < n) await s.devnet.produceBlocks(n - s.devnet.bestNumber());
  }

  /** The devnet block (canonical now) that holds an extrinsic, by hash, between two numbers. */
  async function blockHolding(s: Setup, extrinsicHash: string, from: number, to: number): Promise<number | undefined> {
    for (let n = from; n <= to; n += 1) if ((await fetchBlock(s, n)).extrinsicHashes.includes(extrinsicHash)) return n;
    return undefined;
  }

  /** The canonical block at a number, read over @polkadot/api: its hash and its extrinsics' hashes. */
  async function fetchBlock(s: Setup, n: number): Promise<{ hash: string; extrinsicHashes: string[] }> {
    const hash = await s.reader.request('block hash', (api) => api.rpc.chain.getBlockHash(n));
    const block = await s.reader.request('block', (api) => api.rpc.chain.getBlock(hash));
    return { hash: hash.toHex(), extrinsicHashes: block.block.extrinsics.map((x) => x.hash.toHex()) };
  }

  /** Ticks (producing blocks as needed) until epoch 0's row leaves `submitting`, producing `step` blocks between ticks. */
  async function untilSettled(s: Setup, step: number, continuous = false): Promise<string> {
    for (let i = 0; i < 60; i += 1) {
      const status = (await s.service.storage.getEpoch(0))?.status;
      if (status !== 'submitting') return status ?? 'none';
      await s.devnet.produceBlocks(step);
      await tick(s, continuous);
    }
    throw new Error('epoch 0 never left submitting');
  }

  it('set_weights: its block replaced and the extrinsic re-included in another block: the bundle names the final block it landed in', async () => {
    const s = await setup();
    await produceTo(s, EPOCH);
    await tick(s); // closes epoch 0: its extrinsic lands in block 61, which finality (57) has not reached
    const row = await s.service.storage.getEpoch(0);
    expect(row?.status).toBe('submitting');
    const seen = await fetchBlock(s, EPOCH + 1);
    expect(seen.extrinsicHashes).toHaveLength(2);
    const extrinsicHash = seen.extrinsicHashes[1]!;
    // Block 61 replaced by an empty one; the pool takes the extrinsic back and the next block holds it.
    await s.devnet.reorganize(1, [{}, {}]);
    expect((await fetchBlock(s, EPOCH + 1)).hash).not.toBe(seen.hash);
    expect(s.devnet.poolSize()).toBe(1);
    await s.devnet.produceBlock();
    const landedAt = await blockHolding(s, extrinsicHash, EPOCH + 1, s.devnet.bestNumber());
    expect(landedAt).toBe(EPOCH + 3);

    expect(await untilSettled(s, 1)).toBe('submitted');
    expect(s.devnet.finalizedNumber()).toBeGreaterThanOrEqual(EPOCH + 3);
    const bundle = readBundle(s.dir, 0);
    expect(bundle.submission).toMatchObject({ status: 'submitted', block: String(EPOCH + 3), extrinsic_hash: extrinsicHash, error: null });
    expect(bundle.submission.call).toMatch(/^SubtensorModule\.set_(mechanism_)?weights$/);
  });

  it('set_weights: its block replaced and the extrinsic dropped (no pool resubmits it): submitted again within the window; the bundle names the new final block', async () => {
    const s = await setup();
    await produceTo(s, EPOCH);
    await tick(s);
    expect((await s.service.storage.getEpoch(0))?.status).toBe('submitting');
    const dropped = (await fetchBlock(s, EPOCH + 1)).extrinsicHashes[1]!;
    await s.devnet.reorganize(1, [{}, {}], { retracted: 'drop' });
    expect(s.devnet.poolSize()).toBe(0);

    // Its era (claimed at 60: 8 + 16 blocks) ends with it in no block; the head is still in epoch 1: sent again.
    expect(await untilSettled(s, 4)).toBe('submitted');
    const head = s.devnet.bestNumber();
    expect(Math.floor(head / EPOCH)).toBe(1);
    expect(await blockHolding(s, dropped, EPOCH + 1, head)).toBeUndefined();
    const bundle = readBundle(s.dir, 0);
    expect(bundle.submission.status).toBe('submitted');
    const block = Number(bundle.submission.block);
    expect(block).toBeGreaterThan(EPOCH + ERA + 16);
    expect(block).toBeLessThanOrEqual(s.devnet.finalizedNumber());
    expect(await blockHolding(s, bundle.submission.extrinsic_hash ?? '', block, block)).toBe(block);
    expect(bundle.submission.extrinsic_hash).not.toBe(dropped);
  });

  it("chain.wait 'finalized': the close waits for finality; its block replaced and the extrinsic dropped meanwhile (CHAIN_EXTRINSIC_DROPPED at its era's end): submitted again within the window, not recorded failed", async () => {
    const s = await setup({}, { wait: 'finalized' });
    await produceTo(s, EPOCH);
    // The close's extrinsic lands in block 61; the close then waits for finality to reach it, while block 61 is replaced.
    let reorganised = false;
    const t = startTick(s, { continuous: () => reorganised });
    while (s.devnet.bestNumber() < EPOCH + 1) await pause(5);
    const dropped = (await fetchBlock(s, EPOCH + 1)).extrinsicHashes[1]!;
    await s.devnet.reorganize(1, [{}, {}], { retracted: 'drop' });
    reorganised = true;
    await t.driving;
    await t.work;
    expect((await s.service.storage.getEpoch(0))?.status).toBe('submitting');

    expect(await untilSettled(s, 4, true)).toBe('submitted');
    expect(Math.floor(s.devnet.bestNumber() / EPOCH)).toBe(1);
    const bundle = readBundle(s.dir, 0);
    const block = Number(bundle.submission.block);
    expect(block).toBeLessThanOrEqual(s.devnet.finalizedNumber());
    expect(await blockHolding(s, bundle.submission.extrinsic_hash ?? '', block, block)).toBe(block);
    expect(bundle.submission.extrinsic_hash).not.toBe(dropped);
  });

  it('a timelocked commit: its block replaced and the commit dropped: committed again within the window; the record names the new final block', async () => {
    const s = await setup({ commitReveal: true, tempo: 10, beacon: { period: 12 } });
    await produceTo(s, EPOCH);
    await tick(s);
    expect((await s.service.storage.getEpoch(0))?.status).toBe('submitting');
    const dropped = (await fetchBlock(s, EPOCH + 1)).extrinsicHashes.at(-1)!;
    await s.devnet.reorganize(1, [{}, {}], { retracted: 'drop' });

    expect(await untilSettled(s, 4)).toBe('submitted');
    const row = await s.service.storage.getEpoch(0);
    const submission = JSON.parse(row?.submission ?? '{}') as { block: string; extrinsic_hash: string; call: string };
    expect(submission.extrinsic_hash).not.toBe(dropped);
    expect(submission.call).toMatch(/^SubtensorModule\.commit_(timelocked|crv3)_/);
    expect(row?.revealStatus).toBe('pending');
    const record = timelockRecordFromJson((JSON.parse(row?.reveal ?? '{}') as { record: string }).record) as { commitBlock: bigint; commitBlockHash: string };
    expect(record.commitBlock).toBe(BigInt(submission.block));
    expect(Number(record.commitBlock)).toBeLessThanOrEqual(s.devnet.finalizedNumber());
    expect(record.commitBlockHash).toBe((await fetchBlock(s, Number(record.commitBlock))).hash);
  });

  it('a timelocked commit: its block replaced and the commit re-included elsewhere: the record and bundle name the final block; its reveal is confirmed there', async () => {
    const s = await setup({ commitReveal: true, tempo: 10, beacon: { period: 12 } });
    await produceTo(s, EPOCH);
    await tick(s);
    expect((await s.service.storage.getEpoch(0))?.status).toBe('submitting');
    const seen = await fetchBlock(s, EPOCH + 1);
    const extrinsicHash = seen.extrinsicHashes.at(-1)!;
    await s.devnet.reorganize(1, [{}, {}]);
    await s.devnet.produceBlock();
    expect(await blockHolding(s, extrinsicHash, EPOCH + 1, s.devnet.bestNumber())).toBe(EPOCH + 3);

    expect(await untilSettled(s, 1)).toBe('submitted');
    const row = await s.service.storage.getEpoch(0);
    expect(JSON.parse(row?.submission ?? '{}')).toMatchObject({ status: 'submitted', block: String(EPOCH + 3), extrinsic_hash: extrinsicHash });
    expect(JSON.parse(row?.submission ?? '{}').call).toMatch(/^SubtensorModule\.commit_(timelocked|crv3)_/);
    expect(row?.revealStatus).toBe('pending');
    const record = timelockRecordFromJson((JSON.parse(row?.reveal ?? '{}') as { record: string }).record) as { commitBlock: bigint; commitBlockHash: string };
    expect(record.commitBlock).toBe(BigInt(EPOCH + 3));
    expect(record.commitBlockHash).toBe((await fetchBlock(s, EPOCH + 3)).hash);

    // The chain reveals it about one chain epoch later; the confirmation records it revealed, from the final chain.
    for (let i = 0; i < 80 && (await s.service.storage.getEpoch(0))?.revealStatus === 'pending'; i += 1) {
      await s.devnet.produceBlocks(2);
      await tick(s);
      await pause(50);
    }
    expect((await s.service.storage.getEpoch(0))?.revealStatus).toBe('revealed');
    expect(readBundle(s.dir, 0).submission).toMatchObject({ status: 'submitted', block: String(EPOCH + 3), extrinsic_hash: extrinsicHash });
  });
});
