import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { TimelockedCommitRecord } from '@subnet/chain';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { ChainSubmission, RevealCheck, TimelockSchedule } from '../chain-port.js';
import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
import { timelockRecordToJson } from '../timelock-record-json.js';
import type { FakeChain, Keys } from './helpers.js';
import { bountyBody, crashMidSubmission, fakeChain, keys, postExecutor, silent, tempDir, testConfig } from './helpers.js';

let k: Keys;
beforeAll(async () => {
  k = await keys();
});
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const bundleFile = (dir: string, epoch: number): string => join(dir, 'bundles', `epoch-${epoch}.json`);

async function start(dir: string, chain: FakeChain): Promise<ValidatorService> {
  const service = await startValidator({ config: testConfig(dir), chain, logger: silent, autoTick: false });
  cleanups.push(() => service.stop());
  return service;
}

/** Makes the fake chain's submissions timelocked commits revealed at `dueBlock`. */
function timelocked(chain: FakeChain, dueBlock: bigint): void {
  const plain = chain.setWeights.bind(chain);
  const record = timelockRecordToJson({ revealRound: 777n, commitBlock: 12n } as unknown as TimelockedCommitRecord);
  chain.setWeights = async (uids, weights): Promise<ChainSubmission> => ({
    ...(await plain(uids, weights)),
    call: 'SubtensorModule.commit_timelocked_mechanism_weights',
    timelock: { record, dueBlock, commitHash: `0x${'ee'.repeat(32)}` },
  });
}

/**
 * Ticks until a confirmation pass that started after this call has finished: the pass runner starts a pass only
 * when none runs, so a second pass reading the pending reveals means the first one is done.
 */
async function settledPass(service: ValidatorService): Promise<void> {
  const storage = service.storage as { pendingReveals: ValidatorService['storage']['pendingReveals'] };
  const read = storage.pendingReveals.bind(storage);
  let passes = 0;
  storage.pendingReveals = (after, limit) => {
    passes++;
    return read(after, limit);
  };
  try {
    await expect
      .poll(
        async () => {
          await service.tick();
          return passes;
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBeGreaterThanOrEqual(2);
  } finally {
    storage.pendingReveals = read;
  }
}

describe('the bundle file of an embargoed epoch (bundles.dir, real SQLite and HTTP; chain port scripted)', () => {
  it('is not written at the close of a timelocked epoch; after a restart it is written, the signed bytes, once the reveal is confirmed; a set_weights epoch is written at close', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    const first = await start(t.dir, chain);
    await first.tick();
    expect((await postExecutor(first.url, '/v1/bounty-records', bountyBody('e0', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 11n;
    await first.tick(); // closes epoch 0 with set_weights: written at once
    expect(readFileSync(bundleFile(t.dir, 0), 'utf8')).toBe(`${(await first.storage.getEpoch(0))?.bundle}\n`);
    timelocked(chain, 25n);
    expect((await postExecutor(first.url, '/v1/bounty-records', bountyBody('e1', k.miners[2]!.address))).status).toBe(201);
    chain.headBlock = 21n;
    await first.tick(); // closes epoch 1: a timelocked commit, reveal pending
    const stored = (await first.storage.getEpoch(1))?.bundle ?? '';
    expect((await first.storage.getEpoch(1))?.revealStatus).toBe('pending');
    expect(stored).toContain(k.miners[2]!.address);
    expect(existsSync(bundleFile(t.dir, 1))).toBe(false);
    expect((await fetch(`${first.url}/v1/epochs/1/bundle`)).status).toBe(425);
    await first.stop();
    expect(existsSync(bundleFile(t.dir, 1))).toBe(false);

    // A restart before the reveal: still no file while the chain holds the commit.
    const again = fakeChain(k);
    again.headBlock = 26n;
    let answer: RevealCheck = { status: 'pending' };
    again.confirmReveal = () => Promise.resolve(answer);
    const second = await start(t.dir, again);
    await settledPass(second);
    expect((await second.storage.getEpoch(1))?.revealStatus).toBe('pending');
    expect(existsSync(bundleFile(t.dir, 1))).toBe(false);
    // Revealed: the file appears, byte for byte the bundle signed at the close (and served).
    answer = { status: 'revealed', block: 25n, blockHash: `0x${'cd'.repeat(32)}` };
    again.headBlock = 27n;
    await expect
      .poll(
        async () => {
          await second.tick();
          return (await second.storage.getEpoch(1))?.revealStatus;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe('revealed');
    expect(readFileSync(bundleFile(t.dir, 1), 'utf8')).toBe(`${stored}\n`);
    expect(await (await fetch(`${second.url}/v1/epochs/1/bundle`)).text()).toBe(stored);
  }, 60_000);

  it("does not hold back the peer exchange: an embargoed epoch's own scores are delivered at its close, as any other's", async () => {
    const receiverChain = Object.assign(fakeChain(k), { hotkey: k.peer.address });
    const r = tempDir();
    cleanups.push(r.cleanup);
    const receiver = await startValidator({
      config: testConfig(r.dir, { validator: { hotkey_uri: '//Bob' } }),
      chain: receiverChain,
      logger: silent,
      autoTick: false,
    });
    cleanups.push(() => receiver.stop());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    timelocked(chain, 25n);
    const sender = await startValidator({
      config: testConfig(t.dir, { peers: { urls: [receiver.url], backoff_ms: 10 } }),
      chain,
      logger: silent,
      autoTick: false,
    });
    cleanups.push(() => sender.stop());
    await sender.tick();
    // Term results give own scores (bounty scores are not exchanged).
    const term = {
      record_id: 'term-0',
      miner_hotkey: k.miners[1]!.address,
      results: [0, 1].map((n) => ({ task_id: `t${n}`, tests_passed: 1, tests_total: 1, timed_out: false })),
    };
    expect((await postExecutor(sender.url, '/v1/term-results', term)).status).toBe(201);
    chain.headBlock = 12n;
    receiverChain.headBlock = 12n;
    await receiver.tick();
    await sender.tick();
    expect((await sender.storage.getEpoch(0))?.revealStatus).toBe('pending');
    expect(existsSync(bundleFile(t.dir, 0))).toBe(false);
    const delivered = async (): Promise<number> =>
      Number(/validator_peer_publish_total\{result="delivered"\} (\d+)/.exec(await sender.metrics.registry.metrics())?.[1] ?? 0);
    await expect.poll(delivered, { timeout: 20_000 }).toBe(1);
    const stored = (await receiver.storage.records(1)).filter((x) => x.kind === 'peer_score');
    expect(stored).toHaveLength(1);
  }, 60_000);

  it('a timelocked commit found by reconciliation after a crash: no file until its reveal is confirmed', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    await crashMidSubmission(k, t.dir, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 15n;
    const record = timelockRecordToJson({ revealRound: 777n, commitBlock: 12n } as unknown as TimelockedCommitRecord);
    chain.findSubmission = () =>
      Promise.resolve({
        status: 'landed',
        block: 12n,
        extrinsicHash: `0x${'cd'.repeat(32)}`,
        call: 'SubtensorModule.commit_timelocked_mechanism_weights',
        lastUpdate: 12n,
        weightsMatch: null,
        timelock: { record, dueBlock: 20n, commitHash: `0x${'ee'.repeat(32)}` },
      });
    let answer: RevealCheck = { status: 'pending' };
    chain.confirmReveal = () => Promise.resolve(answer);
    const service = await start(t.dir, chain);
    expect((await service.storage.getEpoch(0))?.status).toBe('submitted');
    expect((await service.storage.getEpoch(0))?.revealStatus).toBe('pending');
    expect(existsSync(bundleFile(t.dir, 0))).toBe(false);
    answer = { status: 'revealed', block: 20n, blockHash: `0x${'cd'.repeat(32)}` };
    chain.headBlock = 21n;
    await expect
      .poll(
        async () => {
          await service.tick();
          return (await service.storage.getEpoch(0))?.revealStatus;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe('revealed');
    expect(readFileSync(bundleFile(t.dir, 0), 'utf8')).toBe(`${(await service.storage.getEpoch(0))?.bundle}\n`);
  }, 60_000);
});

describe('an epoch whose submission is unknown on a timelocked subnet (reconcile.ts, real SQLite and HTTP)', () => {
  // Tempo 10, reveal period 1, an era of 64 + 16 blocks. Reconciled at head 15: a commit signed by then lands by
  // 15 + 80 = 95 and is revealed by 95 + (1 + 1) x (10 + 1) = 117; the embargo lifts at 117 + the confirmer's
  // overdue margin, 2 x max(epoch_length 10, tempo + 1 = 11) = 22: block 139.
  const schedule: TimelockSchedule = { tempo: 10, revealPeriodEpochs: 1n, landingBlocks: 80n };

  it('stays embargoed (425, no file, not the latest weights) until its latest possible reveal is overdue, then is served and written', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    await crashMidSubmission(k, t.dir, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 15n;
    chain.timelockSchedule = () => Promise.resolve(schedule);
    chain.confirmReveal = () => Promise.reject(new Error('no commit to ask about'));
    const service = await start(t.dir, chain);
    const row = await service.storage.getEpoch(0);
    expect(row?.status).toBe('unknown');
    expect(row?.revealStatus).toBe('pending');
    expect(JSON.parse(row?.reveal ?? '{}')).toMatchObject({ due_block: '117', commit_hash: null, record: null });
    const refused = await fetch(`${service.url}/v1/epochs/0/bundle`);
    expect(refused.status).toBe(425);
    const refusal = ((await refused.json()) as { error: Record<string, unknown> }).error;
    expect(refusal).toMatchObject({ code: 'BUNDLE_EMBARGOED', epoch: 0, reveal_block: '117', reveal_round: null, commit_hash: null });
    expect(String(refusal['message'])).toMatch(/submission outcome is unknown .* revealed by block 117 at the latest/);
    expect((await fetch(`${service.url}/v1/weights/latest`)).status).toBe(425);
    expect(existsSync(bundleFile(t.dir, 0))).toBe(false);

    // One block before the lift: still embargoed.
    chain.headBlock = 138n;
    await settledPass(service);
    expect((await service.storage.getEpoch(0))?.revealStatus).toBe('pending');
    expect((await fetch(`${service.url}/v1/epochs/0/bundle`)).status).toBe(425);
    expect(existsSync(bundleFile(t.dir, 0))).toBe(false);

    chain.headBlock = 139n;
    await expect
      .poll(
        async () => {
          await service.tick();
          return (await service.storage.getEpoch(0))?.revealStatus;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe('unconfirmed');
    const lifted = await service.storage.getEpoch(0);
    expect(JSON.parse(lifted?.reveal ?? '{}')).toMatchObject({ code: 'VALIDATOR_REVEAL_OVERDUE', reason: 'submission_unknown', due_block: '117' });
    const served = await fetch(`${service.url}/v1/epochs/0/bundle`);
    expect(served.status).toBe(200);
    const text = await served.text();
    expect(text).toBe(lifted?.bundle);
    expect(readFileSync(bundleFile(t.dir, 0), 'utf8')).toBe(`${text}\n`);
  }, 60_000);

  it('on a subnet without timelocked commits it is published at once, as before', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    await crashMidSubmission(k, t.dir, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 15n;
    chain.timelockSchedule = () => Promise.resolve(null);
    const service = await start(t.dir, chain);
    expect((await service.storage.getEpoch(0))?.status).toBe('unknown');
    expect((await service.storage.getEpoch(0))?.revealStatus).toBeNull();
    expect((await fetch(`${service.url}/v1/epochs/0/bundle`)).status).toBe(200);
    expect(existsSync(bundleFile(t.dir, 0))).toBe(true);
  }, 60_000);
});
