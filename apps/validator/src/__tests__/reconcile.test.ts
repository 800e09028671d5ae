import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { recomputeBundle } from '@subnet/bundle';
import { SubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import type { SubmissionIdentity, SubmissionQuery, SubmissionSearch } from '../chain-port.js';
import { startValidator } from '../service.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import {
  bountyBody,
  captureLog,
  crashMidSubmission,
  fakeChain,
  freePort,
  postExecutor,
  readBundle,
  silent,
  startInDir,
  tempDir,
  testConfig,
  TOKEN,
  until,
  useCleanups,
  useKeys,
} from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

describe('interrupted submissions are reconciled with the chain (reconcile.ts)', () => {
  it('a crash after the extrinsic landed: recorded submitted with its block and extrinsic, and the bundle says so; never resubmitted', async () => {
    const dir = await crashMidSubmission(k, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 15n;
    const queries: SubmissionQuery[] = [];
    chain.findSubmission = (q): Promise<SubmissionSearch> => {
      queries.push(q);
      return Promise.resolve({
        status: 'landed',
        block: 12n,
        extrinsicHash: `0x${'cd'.repeat(32)}`,
        call: 'SubtensorModule.set_weights',
        lastUpdate: 12n,
        weightsMatch: true,
      });
    };
    const service = await startInDir(dir, chain, cleanups);
    expect(queries).toHaveLength(1);
    expect(queries[0]?.fromBlock).toBe(11n); // the head when the submission was claimed
    const row = await service.storage.getEpoch(0);
    expect(row?.status).toBe('submitted');
    expect(JSON.parse(row?.submission ?? '{}')).toMatchObject({ status: 'submitted', block: '12', reconciled: { last_update: '12', weights_match: true } });
    const bundle = readBundle(dir, 0);
    expect(bundle.submission).toEqual({
      status: 'submitted',
      block: '12',
      extrinsic_hash: `0x${'cd'.repeat(32)}`,
      call: 'SubtensorModule.set_weights',
      error: null,
    });
    expect(bundle.result.u16).toEqual({ uids: queries[0]?.uids, weights: queries[0]?.weights });
    expect(recomputeBundle(bundle).identical).toBe(true);
    expect(chain.submissions).toHaveLength(0);
  });

  it('a crash before it landed, its era over: recorded not_landed, the bundle says not_landed with VALIDATOR_SUBMISSION_NOT_LANDED', async () => {
    const dir = await crashMidSubmission(k, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 95n;
    chain.findSubmission = () => Promise.resolve({ status: 'not_landed', checkedTo: 91n });
    const service = await startInDir(dir, chain, cleanups);
    expect((await service.storage.getEpoch(0))?.status).toBe('not_landed');
    expect(readBundle(dir, 0).submission).toMatchObject({ status: 'not_landed', block: null, error: { code: 'VALIDATOR_SUBMISSION_NOT_LANDED' } });
    expect(readBundle(dir, 0).submission.error?.message).toBe(
      "the submission is in no final block up to 91 and its era is over: it did not land and is not submitted again (its epoch's window is closed)",
    );
    expect(chain.submissions).toHaveLength(0);
  });

  it('the warning after a restart says in words what each interrupted epoch was found to be and recorded, not only its fields', async () => {
    const landedDir = await crashMidSubmission(k, cleanups);
    const landed = fakeChain(k);
    landed.headBlock = 15n;
    landed.findSubmission = () =>
      Promise.resolve({
        status: 'landed',
        block: 12n,
        extrinsicHash: `0x${'cd'.repeat(32)}`,
        call: 'SubtensorModule.set_weights',
        lastUpdate: 12n,
        weightsMatch: true,
      });
    const first = captureLog('warn');
    const one = await startValidator({ config: testConfig(landedDir), chain: landed, logger: first.logger, autoTick: false });
    cleanups.push(() => one.stop());
    expect(first.lines.filter((l) => l.epoch === 0 && l.status === 'submitted').map((l) => l.msg)).toEqual([
      "submission reconciled with the chain: epoch 0's weights, whose submission had not been confirmed (the validator stopped while submitting, or the chain did not say), are in final block 12: recorded submitted, not sent again; its bundle is published",
    ]);

    const lostDir = await crashMidSubmission(k, cleanups);
    const lost = fakeChain(k);
    lost.headBlock = 95n;
    lost.findSubmission = () => Promise.resolve({ status: 'not_landed', checkedTo: 91n });
    const second = captureLog('warn');
    const two = await startValidator({ config: testConfig(lostDir), chain: lost, logger: second.logger, autoTick: false });
    cleanups.push(() => two.stop());
    expect(second.lines.filter((l) => l.epoch === 0 && l.status === 'not_landed').map((l) => l.msg)).toEqual([
      "submission reconciled with the chain: epoch 0 recorded not_landed: the submission is in no final block up to 91 and its era is over: it did not land and is not submitted again (its epoch's window is closed); its bundle is published",
    ]);
  });

  it('/readyz says that the first tick after a restart is reconciling an interrupted submission while it is', async () => {
    const dir = await crashMidSubmission(k, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 15n;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The chain search of the interrupted submission is slow (a real scan reads a block at a time); held here.
    chain.findSubmission = async () => {
      await gate;
      return { status: 'landed', block: 12n, extrinsicHash: `0x${'cd'.repeat(32)}`, call: 'SubtensorModule.set_weights', lastUpdate: 12n, weightsMatch: true };
    };
    const port = await freePort();
    const config = testConfig(dir, { server: { port, executor_token: TOKEN, body_limit_bytes: 64 * 1024 } });
    const starting = startValidator({ config, chain, logger: silent, autoTick: false });
    cleanups.push(async () => {
      release();
      await (await starting).stop();
    });
    const answer = await until(
      'the start to reconcile',
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
        const body = res === undefined ? undefined : ((await res.json()) as { error?: { message: string } });
        return body?.error?.message.includes('first chain head tick') === true ? { status: res?.status, message: body.error.message } : undefined;
      },
      30_000,
    );
    expect(answer).toEqual({
      status: 503,
      message: 'not ready: the first chain head tick has not finished (now: reconciling interrupted submissions with the chain)',
    });
    release();
    const service = await starting;
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
  });

  it("asks the chain for the v2 commit the epoch kept before sending, by its hash, so the next epoch's commit in the same blocks is not taken for it", async () => {
    const dir = await crashMidSubmission(k, cleanups);
    const kept = `0x${'5c'.repeat(32)}`;
    const storage = openSqliteStorage(join(dir, 'validator.sqlite'));
    await storage.updateEpoch(0, { reveal: JSON.stringify({ scheme: 'hash', commit_hash: kept, commit: { commit_hash: kept, salt: [1, 2] } }) });
    await storage.close();
    const chain = fakeChain(k);
    chain.headBlock = 15n;
    const queries: SubmissionQuery[] = [];
    chain.findSubmission = (q) => {
      queries.push(q);
      return Promise.resolve({ status: 'pending', checkedTo: 15n });
    };
    await startInDir(dir, chain, cleanups);
    expect(queries.map((q) => q.commitHash)).toEqual([kept]);
  });

  it.each([
    ['timelocked commit', { kind: 'timelocked', extrinsicHash: `0x${'e1'.repeat(32)}`, commitHash: `0x${'7e'.repeat(32)}`, revealRound: 1_234n }],
    ['set_weights', { kind: 'set', extrinsicHash: `0x${'e2'.repeat(32)}`, uids: [1], values: [65_535], versionKey: 7n }],
  ] as const)(
    "a %s: what names its signed extrinsic is kept with the epoch before it is sent, and reconciliation asks the chain for that extrinsic only, so the next epoch's in the same blocks is not taken for it (G.45)",
    async (_call, identity: SubmissionIdentity) => {
      const dir = await crashMidSubmission(k, cleanups, async (options) => options?.onSigned?.(identity));
      const kept = openSqliteStorage(join(dir, 'validator.sqlite'));
      expect(await kept.getEpoch(0)).toMatchObject({ status: 'submitting', revealStatus: null });
      await kept.close();
      const chain = fakeChain(k);
      chain.headBlock = 15n;
      const queries: SubmissionQuery[] = [];
      chain.findSubmission = (q) => {
        queries.push(q);
        return Promise.resolve({ status: 'pending', checkedTo: 15n });
      };
      await startInDir(dir, chain, cleanups);
      expect(queries.map((q) => q.identity)).toEqual([identity]);
      expect(queries[0]?.commitHash).toBeUndefined();
    },
  );

  it('a crash before it landed, its era over while the head is still in the next epoch: submitted again once, recorded submitted with the new block', async () => {
    const dir = await crashMidSubmission(k, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 19n; // epoch 1 (epoch_length 10): epoch 0 may still be submitted
    chain.findSubmission = () => Promise.resolve({ status: 'not_landed', checkedTo: 19n });
    const service = await startInDir(dir, chain, cleanups);
    expect(chain.submissions).toHaveLength(1);
    const row = await service.storage.getEpoch(0);
    expect(row?.status).toBe('submitted');
    expect(JSON.parse(row?.u16 ?? '{}')).toEqual({ uids: chain.submissions[0]?.uids, weights: chain.submissions[0]?.weights });
    const bundle = readBundle(dir, 0);
    expect(bundle.submission).toMatchObject({ status: 'submitted', block: '20', error: null });
    expect(JSON.parse(row?.bundle ?? '{}')).toMatchObject({ digest: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown });
    await service.tick();
    expect(chain.submissions).toHaveLength(1); // reconciled once, never sent a third time
  });

  it('a crash before it landed, its era over, and a uid it weights changed hands since (docs/spec.md G.7): not sent again, recorded failed with VALIDATOR_UID_CHANGED', async () => {
    const dir = await crashMidSubmission(k, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 19n; // epoch 1: epoch 0 could still be submitted
    chain.findSubmission = () => Promise.resolve({ status: 'not_landed', checkedTo: 19n });
    // the miner the crashed close scored (k.miners[1], uid 3) was replaced by another hotkey since
    const asked: (readonly number[])[] = [];
    chain.uidHolders = (uids) => {
      asked.push(uids);
      return Promise.resolve(uids.map((uid) => (uid === 3 ? k.stranger.address : (chain.neurons.find((n) => n.uid === uid)?.hotkey ?? null))));
    };
    const service = await startInDir(dir, chain, cleanups);
    expect(asked.flat()).toContain(3);
    expect(chain.submissions).toHaveLength(0);
    const row = await service.storage.getEpoch(0);
    expect(row?.status).toBe('failed');
    expect(JSON.parse(row?.submission ?? '{}')).toMatchObject({ status: 'failed', resubmitted: true, error: { code: 'VALIDATOR_UID_CHANGED' } });
    expect(readBundle(dir, 0).submission).toMatchObject({ status: 'failed', block: null, error: { code: 'VALIDATOR_UID_CHANGED' } });
    await service.tick();
    expect(chain.submissions).toHaveLength(0);
  });

  it('an extrinsic that may still land is checked again on the next ticks until the chain can tell', async () => {
    const dir = await crashMidSubmission(k, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 15n;
    const answers: SubmissionSearch[] = [
      { status: 'pending', checkedTo: 15n },
      { status: 'pending', checkedTo: 16n },
      { status: 'landed', block: 17n, extrinsicHash: `0x${'ef'.repeat(32)}`, call: 'SubtensorModule.set_weights', lastUpdate: 17n, weightsMatch: true },
    ];
    chain.findSubmission = () => Promise.resolve(answers.shift() ?? { status: 'not_landed', checkedTo: 0n });
    const service = await startInDir(dir, chain, cleanups);
    expect((await service.storage.getEpoch(0))?.status).toBe('submitting');
    expect((await fetch(`${service.url}/v1/epochs/0/bundle`)).status).toBe(404);
    await service.tick();
    expect((await service.storage.getEpoch(0))?.status).toBe('submitting');
    await service.tick();
    expect((await service.storage.getEpoch(0))?.status).toBe('submitted');
    expect(answers).toHaveLength(0);
    await service.tick();
    expect(chain.submissions).toHaveLength(0);
  });

  it('a submission whose outcome is unknown (CHAIN_INCLUSION_TIMEOUT) is not recorded failed: it is reconciled on the next tick', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    const service = await startInDir(t.dir, chain, cleanups);
    chain.setWeights = () => Promise.reject(new SubnetError('CHAIN_INCLUSION_TIMEOUT', 'not seen in a block within the wait'));
    chain.findSubmission = () =>
      Promise.resolve({
        status: 'landed',
        block: 12n,
        extrinsicHash: `0x${'ab'.repeat(32)}`,
        call: 'SubtensorModule.set_weights',
        lastUpdate: 12n,
        weightsMatch: true,
      });
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('u1', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 11n;
    await service.tick();
    expect((await service.storage.getEpoch(0))?.status).toBe('submitting');
    await service.tick();
    expect((await service.storage.getEpoch(0))?.status).toBe('submitted');
    expect(readBundle(t.dir, 0).submission.status).toBe('submitted');
    expect(await service.metrics.registry.metrics()).toMatch(/validator_submissions_total\{outcome="reconciled_submitted"\} 1/);
  });

  it('weights in a block that is not final yet: no bundle at the close (row submitting); once a final block holds them the bundle names that block', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    const service = await startInDir(t.dir, chain, cleanups);
    const plain = chain.setWeights.bind(chain);
    // The chain access saw them in block 12 (0x…0c) before finality reached it; a reorganisation then moved them to 13.
    chain.setWeights = async (uids, weights) => ({ ...(await plain(uids, weights)), block: 12n, finalized: false });
    const queries: SubmissionQuery[] = [];
    const answers: SubmissionSearch[] = [
      { status: 'pending', checkedTo: 11n },
      { status: 'landed', block: 13n, extrinsicHash: `0x${'ab'.repeat(32)}`, call: 'SubtensorModule.set_weights', lastUpdate: 13n, weightsMatch: true },
    ];
    chain.findSubmission = (q) => {
      queries.push(q);
      return Promise.resolve(answers.shift() ?? { status: 'not_landed', checkedTo: 0n });
    };
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('f1', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 11n;
    const closed: string[] = [];
    service.onEpoch((o) => closed.push(`${o.epoch}:${o.status}:${o.bundlePath === null ? 'no bundle' : 'bundle'}`));
    await service.tick();
    expect(closed).toEqual(['0:submitting:no bundle']);
    expect((await service.storage.getEpoch(0))?.status).toBe('submitting');
    expect(existsSync(join(t.dir, 'bundles', 'epoch-0.json'))).toBe(false);
    // Its weights are not served either while submitting (on a timelocked subnet they would leak before the reveal).
    expect((await fetch(`${service.url}/v1/weights/latest`)).status).toBe(404);
    expect(await service.metrics.registry.metrics()).toMatch(/validator_submissions_total\{outcome="awaiting_finality"\} 1/);
    await service.tick(); // finality has not reached it: still submitting
    expect((await service.storage.getEpoch(0))?.status).toBe('submitting');
    await service.tick();
    expect(queries.map((q) => q.fromBlock)).toEqual([11n, 11n]);
    expect((await service.storage.getEpoch(0))?.status).toBe('submitted');
    expect(readBundle(t.dir, 0).submission).toMatchObject({ status: 'submitted', block: '13', error: null });
    expect(((await (await fetch(`${service.url}/v1/weights/latest`)).json()) as { epoch: number }).epoch).toBe(0);
    expect(chain.submissions).toHaveLength(1);
  });

  it('the bundle reconciliation publishes once a final block holds the weights is built in a worker thread from the claim (docs/spec.md G.47), not on the event loop', async () => {
    // With the default chain.wait (inBlock) most epochs publish their bundle here. A worker script that notes how it was
    // started, then runs the real one in its own thread.
    const t = tempDir();
    cleanups.push(t.cleanup);
    const marker = join(t.dir, 'worker-starts.txt');
    const script = join(t.dir, 'noting-worker.mjs');
    writeFileSync(
      script,
      [
        "import { appendFileSync } from 'node:fs';",
        "import { workerData } from 'node:worker_threads';",
        `appendFileSync(${JSON.stringify(marker)}, workerData.claim === undefined ? 'records\\n' : 'claim\\n');`,
        `await import(${JSON.stringify(new URL('../epoch-worker.mjs', import.meta.url).href)});`,
      ].join('\n'),
    );
    const chain = fakeChain(k);
    const service = await startValidator({ config: testConfig(t.dir), chain, logger: silent, autoTick: false, epochWorker: pathToFileURL(script) });
    cleanups.push(() => service.stop());
    const plain = chain.setWeights.bind(chain);
    chain.setWeights = async (uids, weights) => ({ ...(await plain(uids, weights)), block: 12n, finalized: false });
    chain.findSubmission = () =>
      Promise.resolve({
        status: 'landed',
        block: 12n,
        extrinsicHash: `0x${'ab'.repeat(32)}`,
        call: 'SubtensorModule.set_weights',
        lastUpdate: 12n,
        weightsMatch: true,
      });
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('f1', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 11n;
    await service.tick();
    expect((await service.storage.getEpoch(0))?.status).toBe('submitting');
    expect(readFileSync(marker, 'utf8')).toBe('records\n');
    await service.tick();
    expect((await service.storage.getEpoch(0))?.status).toBe('submitted');
    expect(readFileSync(marker, 'utf8')).toBe('records\nclaim\n');
    // The bundle the worker built is the epoch's: signed by the validator over its digest (readBundle verifies it), it
    // names the final block and recomputes to the same document; the file holds the bytes stored (and a newline).
    const bundle = readBundle(t.dir, 0);
    expect(bundle.submission).toMatchObject({ status: 'submitted', block: '12', error: null });
    expect(recomputeBundle(bundle).identical).toBe(true);
    expect(`${(await service.storage.getEpoch(0))?.bundle}\n`).toBe(readFileSync(join(t.dir, 'bundles', 'epoch-0.json'), 'utf8'));
  });

  it('a submission dropped at the end of its era (CHAIN_EXTRINSIC_DROPPED) is not recorded failed: reconciliation sends it again within the window', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    const service = await startInDir(t.dir, chain, cleanups);
    const plain = chain.setWeights.bind(chain);
    let first = true;
    chain.setWeights = (uids, weights) => {
      if (!first) return plain(uids, weights);
      first = false;
      return Promise.reject(new SubnetError('CHAIN_EXTRINSIC_DROPPED', 'in no block up to the end of its era'));
    };
    chain.findSubmission = () => Promise.resolve({ status: 'not_landed', checkedTo: 17n });
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('d1', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 11n;
    await service.tick();
    expect((await service.storage.getEpoch(0))?.status).toBe('submitting');
    chain.headBlock = 17n;
    await service.tick();
    expect(chain.submissions).toHaveLength(1);
    const row = await service.storage.getEpoch(0);
    expect(row?.status).toBe('submitted');
    expect(JSON.parse(row?.submission ?? '{}')).toMatchObject({ status: 'submitted', block: '18', resubmitted: true });
    expect(readBundle(t.dir, 0).submission).toMatchObject({ status: 'submitted', block: '18' });
  });

  it('a commit-reveal v2 commit sent again is kept with its epoch before it is sent, in place of the dropped one, and dropped when it fails (docs/spec.md G.22)', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    const service = await startInDir(t.dir, chain, cleanups);
    const h1 = `0x${'01'.repeat(32)}`;
    const h2 = `0x${'02'.repeat(32)}`;
    const kept: unknown[] = [];
    let calls = 0;
    chain.setWeights = async (_uids, _weights, options) => {
      calls += 1;
      await options?.onCommitSaved?.({ commit_hash: calls === 1 ? h1 : h2, salt: [calls] });
      kept.push(JSON.parse((await service.storage.getEpoch(0))?.reveal ?? 'null'));
      throw calls === 1
        ? new SubnetError('CHAIN_INCLUSION_TIMEOUT', 'not seen in a block within the wait')
        : new SubnetError('CHAIN_SETTING_WEIGHTS_TOO_FAST', 'SettingWeightsTooFast');
    };
    const forgotten: string[] = [];
    chain.forgetCommit = (hash) => {
      forgotten.push(hash);
      return Promise.resolve();
    };
    chain.findSubmission = () => Promise.resolve({ status: 'not_landed', checkedTo: 17n });
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('v2r', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 11n;
    await service.tick();
    expect(await service.storage.getEpoch(0)).toMatchObject({ status: 'submitting', revealStatus: null });
    chain.headBlock = 17n;
    await service.tick();
    expect(kept).toEqual([
      { scheme: 'hash', commit_hash: h1, commit: { commit_hash: h1, salt: [1] } },
      { scheme: 'hash', commit_hash: h2, commit: { commit_hash: h2, salt: [2] } },
    ]);
    expect(await service.storage.getEpoch(0)).toMatchObject({ status: 'failed', revealStatus: null, reveal: null });
    // The first commit's salt, kept by the chain access while its outcome was unknown, is dropped once it never landed.
    expect(forgotten).toEqual([h1]);
  });

  it('a commit-reveal v2 commit the best chain alone says never landed (finality lags) keeps its salt', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    const service = await startInDir(t.dir, chain, cleanups);
    const hash = `0x${'03'.repeat(32)}`;
    chain.setWeights = async (_uids, _weights, options) => {
      await options?.onCommitSaved?.({ commit_hash: hash, salt: [3] });
      throw new SubnetError('CHAIN_INCLUSION_TIMEOUT', 'not seen in a block within the wait');
    };
    const forgotten: string[] = [];
    chain.forgetCommit = (h) => {
      forgotten.push(h);
      return Promise.resolve();
    };
    chain.findSubmission = () => Promise.resolve({ status: 'not_landed', checkedTo: 40n, finalizedTo: 12n });
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('v2f', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 11n;
    await service.tick();
    chain.headBlock = 40n;
    await service.tick();
    expect((await service.storage.getEpoch(0))?.status).toBe('not_landed');
    expect(forgotten).toEqual([]);
  });

  it('dropped and the window closed: recorded not_landed with VALIDATOR_SUBMISSION_NOT_LANDED, saying finality lagged when the best chain decided it', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    const service = await startInDir(t.dir, chain, cleanups);
    chain.setWeights = () => Promise.reject(new SubnetError('CHAIN_EXTRINSIC_DROPPED', 'in no block up to the end of its era'));
    chain.findSubmission = () => Promise.resolve({ status: 'not_landed', checkedTo: 27n, finalizedTo: 20n });
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('d2', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 11n;
    await service.tick();
    chain.headBlock = 28n; // epoch 2: epoch 0's window is closed
    await service.tick();
    const row = await service.storage.getEpoch(0);
    expect(row?.status).toBe('not_landed');
    expect(JSON.parse(row?.submission ?? '{}')).toMatchObject({ reconciled: { checked_to: '27', finalized_to: '20' } });
    const bundle = readBundle(t.dir, 0);
    expect(bundle.submission).toMatchObject({ status: 'not_landed', block: null, error: { code: 'VALIDATOR_SUBMISSION_NOT_LANDED' } });
    expect(bundle.submission.error?.message).toMatch(/no block of the best chain up to 27 \(final up to 20\)/);
  });

  it('a row left submitting without its pending claim (no bundle input kept): recorded unknown in the row itself, no bundle file', async () => {
    const dir = await crashMidSubmission(k, cleanups);
    // As a version that kept no input with the claim left it: nothing to sign a bundle from.
    const other = openSqliteStorage(join(dir, 'validator.sqlite'));
    await other.updateEpoch(0, { bundle: null });
    await other.close();
    const chain = fakeChain(k);
    chain.headBlock = 15n;
    const service = await startInDir(dir, chain, cleanups);
    const row = await service.storage.getEpoch(0);
    expect(row?.status).toBe('unknown');
    expect(JSON.parse(row?.submission ?? '{}')).toMatchObject({ status: 'failed', error: { code: 'VALIDATOR_SUBMISSION_UNKNOWN' } });
    expect(existsSync(join(dir, 'bundles', 'epoch-0.json'))).toBe(false);
  });

  it('without a chain search (or a claim without its head) the epoch is unknown, as before', async () => {
    const dir = await crashMidSubmission(k, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 15n;
    const service = await startInDir(dir, chain, cleanups);
    expect((await service.storage.getEpoch(0))?.status).toBe('unknown');
    expect(readBundle(dir, 0).submission.error?.code).toBe('VALIDATOR_SUBMISSION_UNKNOWN');
  });
});
