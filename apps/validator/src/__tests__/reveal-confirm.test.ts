import { join } from 'node:path';

import { SubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import type { ChainSubmission, RevealCheck } from '../chain-port.js';
import { createMetrics } from '../metrics.js';
import { confirmPendingReveals, pendingRevealFields, revealConfirmer } from '../reveal-confirm.js';
import { timelockRecordFromJson, timelockRecordToJson } from '../timelock-record-json.js';
import { openPostgresStorage } from '../postgres-storage.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import type { Storage } from '../storage.js';
import type { FakeChain } from './helpers.js';
import {
  bountyBody,
  expectAttestedBundle,
  fakeChain,
  freshSchema,
  PG_SKIP_REASON,
  PG_URL,
  postExecutor,
  requirePostgresInCi,
  startInDir,
  tempDir,
  useCleanups,
  useKeys,
} from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

/** The real storages the reveal columns live in (migration 3): SQLite, and PostgreSQL when it is there. */
const BACKENDS = [
  {
    name: 'SQLite',
    skip: false,
    open: (): Promise<Storage> => {
      const t = tempDir();
      const s = openSqliteStorage(join(t.dir, 'v.db'));
      cleanups.push(t.cleanup, () => s.close());
      return Promise.resolve(s);
    },
  },
  {
    name: PG_URL === undefined ? `PostgreSQL (${PG_SKIP_REASON})` : 'PostgreSQL',
    skip: PG_URL === undefined,
    open: async (): Promise<Storage> => {
      const { schema, drop } = await freshSchema();
      const s = await openPostgresStorage({ url: PG_URL ?? '', schema });
      cleanups.push(drop, () => s.close());
      return s;
    },
  },
];

/** A fake chain whose reveal answers are scripted per record, and which remembers what it was asked. */
function revealChain(answers: Record<string, (RevealCheck | Error)[]>): FakeChain & { asked: string[] } {
  const chain = Object.assign(fakeChain(k), { asked: [] as string[] });
  chain.confirmReveal = (record: string) => {
    chain.asked.push(record);
    const next = answers[record]?.shift();
    if (next === undefined) return Promise.reject(new Error(`no scripted answer for ${record}`));
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  };
  return chain;
}

function recordingLogger(): { warns: { obj: unknown; msg: string }[]; info: () => void; warn: (obj: unknown, msg: string) => void } {
  const warns: { obj: unknown; msg: string }[] = [];
  return { warns, info: () => undefined, warn: (obj, msg) => warns.push({ obj, msg }) };
}

async function pendingEpoch(s: Storage, epoch: number, record: string, dueBlock: bigint): Promise<void> {
  await s.claimEpoch(epoch, { status: 'submitted', ...pendingRevealFields({ record, dueBlock, commitHash: `0x${record}` }) });
}

async function counter(metrics: ReturnType<typeof createMetrics>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const v of (await metrics.revealConfirmations.get()).values) out[`${String(v.labels.outcome)}/${String(v.labels.reason)}`] = v.value;
  return out;
}

requirePostgresInCi();

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(`timelocked reveal confirmation (scheduling, fake chain port), ${backend.name}`, () => {
    const storage = backend.open;
    it('does not ask the chain before the due block, and keeps a still-queued commit pending', async () => {
      const s = await storage();
      const chain = revealChain({ r1: [{ status: 'pending' }] });
      const metrics = createMetrics();
      await pendingEpoch(s, 3, 'r1', 40n);
      chain.headBlock = 39n;
      expect(await confirmPendingReveals({ storage: s, chain, metrics, logger: silentLogger })).toEqual([{ epoch: 3, status: 'waiting' }]);
      expect(chain.asked).toEqual([]);
      chain.headBlock = 40n;
      expect(await confirmPendingReveals({ storage: s, chain, metrics, logger: silentLogger })).toEqual([{ epoch: 3, status: 'pending' }]);
      expect(chain.asked).toEqual(['r1']);
      expect((await s.getEpoch(3))?.revealStatus).toBe('pending');
      expect(await counter(metrics)).toEqual({});
    });

    it('records revealed on the row and in the counter, once', async () => {
      const s = await storage();
      const chain = revealChain({ r1: [{ status: 'revealed', block: 41n, blockHash: `0x${'cd'.repeat(32)}` }] });
      const metrics = createMetrics();
      await pendingEpoch(s, 3, 'r1', 40n);
      await s.claimEpoch(4, { status: 'submitted' }); // a set_weights epoch: nothing to confirm
      chain.headBlock = 45n;
      expect(await confirmPendingReveals({ storage: s, chain, metrics, logger: silentLogger })).toEqual([{ epoch: 3, status: 'revealed' }]);
      const row = await s.getEpoch(3);
      expect(row?.revealStatus).toBe('revealed');
      expect(JSON.parse(row?.reveal ?? '')).toMatchObject({ commit_hash: '0xr1', block: '41', due_block: '40', checked_at_head: '45' });
      expect((await s.getEpoch(4))?.revealStatus).toBeNull();
      expect(await counter(metrics)).toEqual({ 'revealed/': 1 });
      // A later pass finds nothing pending and asks nothing.
      expect(await confirmPendingReveals({ storage: s, chain, metrics, logger: silentLogger })).toEqual([]);
      expect(chain.asked).toEqual(['r1']);
    });

    it('records a diagnosed drop with its code and first reason, counts it and warns', async () => {
      const s = await storage();
      const drop: RevealCheck = {
        status: 'not_revealed',
        code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
        reason: 'stake_lost',
        reasons: ['stake_lost', 'permit_lost'],
        message: 'the chain took the commit out of its queue at block 41 without TimelockedWeightsRevealed',
        block: 41n,
      };
      const chain = revealChain({ r1: [drop], r2: [{ status: 'unconfirmed', code: 'CHAIN_WEIGHTS_NOT_CONFIRMED', message: 'other weights stored' }] });
      const metrics = createMetrics();
      const logger = recordingLogger();
      await pendingEpoch(s, 3, 'r1', 40n);
      await pendingEpoch(s, 4, 'r2', 50n);
      chain.headBlock = 60n;
      expect(await confirmPendingReveals({ storage: s, chain, metrics, logger })).toEqual([
        { epoch: 3, status: 'not_revealed' },
        { epoch: 4, status: 'unconfirmed' },
      ]);
      const row = await s.getEpoch(3);
      expect(row?.revealStatus).toBe('not_revealed');
      expect(JSON.parse(row?.reveal ?? '')).toMatchObject({
        code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
        reason: 'stake_lost',
        reasons: ['stake_lost', 'permit_lost'],
        block: '41',
      });
      expect((await s.getEpoch(4))?.revealStatus).toBe('unconfirmed');
      expect(await counter(metrics)).toEqual({ 'not_revealed/stake_lost': 1, 'unconfirmed/CHAIN_WEIGHTS_NOT_CONFIRMED': 1 });
      expect(logger.warns.map((w) => (w.obj as { epoch: number; reason: string }).epoch)).toEqual([3, 4]);
      expect(logger.warns[0]?.obj).toMatchObject({ reason: 'stake_lost', code: 'CHAIN_TIMELOCK_REVEAL_MISSING' });
      // The words lead with the epoch and the chain's cause, not a fixed sentence with the cause in the fields only.
      expect(logger.warns.map((w) => w.msg)).toEqual([
        "epoch 3's timelocked weights were not revealed (stake_lost): the chain took the commit out of its queue at block 41 without TimelockedWeightsRevealed",
        "epoch 4's timelocked reveal is unconfirmed: other weights stored",
      ]);
    });

    it('keeps the row pending when the check fails, and confirms on a later pass', async () => {
      const s = await storage();
      const chain = revealChain({ r1: [new Error('socket closed'), { status: 'revealed', block: 41n, blockHash: `0x${'cd'.repeat(32)}` }] });
      const metrics = createMetrics();
      await pendingEpoch(s, 3, 'r1', 40n);
      chain.headBlock = 41n;
      expect(await confirmPendingReveals({ storage: s, chain, metrics, logger: silentLogger })).toEqual([{ epoch: 3, status: 'error' }]);
      expect((await s.getEpoch(3))?.revealStatus).toBe('pending');
      expect((await metrics.chainErrors.get()).values[0]?.value).toBe(1);
      expect(await confirmPendingReveals({ storage: s, chain, metrics, logger: silentLogger })).toEqual([{ epoch: 3, status: 'revealed' }]);
    });

    it('records a commit still queued past its reveal epoch unconfirmed (VALIDATOR_REVEAL_OVERDUE, still_queued), final and counted', async () => {
      const s = await storage();
      const chain = revealChain({ r1: [{ status: 'pending' }, { status: 'pending' }] });
      const metrics = createMetrics();
      const logger = recordingLogger();
      await pendingEpoch(s, 3, 'r1', 40n);
      const deps = { storage: s, chain, metrics, logger, overdueAfterBlocks: () => 20n };
      chain.headBlock = 59n; // one block before the bound: still pending
      expect(await confirmPendingReveals(deps)).toEqual([{ epoch: 3, status: 'pending' }]);
      chain.headBlock = 60n;
      expect(await confirmPendingReveals(deps)).toEqual([{ epoch: 3, status: 'unconfirmed' }]);
      const row = await s.getEpoch(3);
      expect(row?.revealStatus).toBe('unconfirmed');
      expect(JSON.parse(row?.reveal ?? '')).toMatchObject({
        code: 'VALIDATOR_REVEAL_OVERDUE',
        reason: 'still_queued',
        commit_hash: '0xr1',
        due_block: '40',
        checked_at_head: '60',
      });
      expect(await counter(metrics)).toEqual({ 'unconfirmed/VALIDATOR_REVEAL_OVERDUE': 1 });
      expect(logger.warns.at(-1)?.obj).toMatchObject({ epoch: 3, code: 'VALIDATOR_REVEAL_OVERDUE', reason: 'still_queued' });
      // Final: never asked again.
      expect(await confirmPendingReveals(deps)).toEqual([]);
      expect(chain.asked).toEqual(['r1', 'r1']);
    });

    it("records an outcome whose block never became final unconfirmed once overdue (not_finalized: the chain's finality stalled)", async () => {
      const s = await storage();
      const chain = revealChain({
        r1: [
          { status: 'pending', reason: 'not_finalized' },
          { status: 'pending', reason: 'not_finalized' },
        ],
      });
      const metrics = createMetrics();
      const logger = recordingLogger();
      await pendingEpoch(s, 3, 'r1', 40n);
      const deps = { storage: s, chain, metrics, logger, overdueAfterBlocks: () => 20n };
      chain.headBlock = 59n;
      expect(await confirmPendingReveals(deps)).toEqual([{ epoch: 3, status: 'pending' }]);
      chain.headBlock = 60n;
      expect(await confirmPendingReveals(deps)).toEqual([{ epoch: 3, status: 'unconfirmed' }]);
      const reveal = JSON.parse((await s.getEpoch(3))?.reveal ?? '') as { code: string; reason: string; message: string };
      expect(reveal).toMatchObject({ code: 'VALIDATOR_REVEAL_OVERDUE', reason: 'not_finalized' });
      expect(reveal.message).toMatch(/^finality had not reached the block where the chain revealed or dropped epoch 3's timelocked commit/);
      expect(logger.warns.at(-1)?.obj).toMatchObject({ epoch: 3, code: 'VALIDATOR_REVEAL_OVERDUE', reason: 'not_finalized' });
    });

    it('records a reveal whose every check failed unconfirmed once overdue (check_failed, with the last error)', async () => {
      const s = await storage();
      const unreadable = new SubnetError('CHAIN_STORAGE_NOT_AVAILABLE', 'the runtime has no subtensorModule.timelockedWeightCommits');
      const chain = revealChain({ r1: [new Error('socket closed'), unreadable] });
      const metrics = createMetrics();
      await pendingEpoch(s, 3, 'r1', 40n);
      const deps = { storage: s, chain, metrics, logger: silentLogger, overdueAfterBlocks: () => 20n };
      chain.headBlock = 45n;
      expect(await confirmPendingReveals(deps)).toEqual([{ epoch: 3, status: 'error' }]);
      chain.headBlock = 61n;
      expect(await confirmPendingReveals(deps)).toEqual([{ epoch: 3, status: 'unconfirmed' }]);
      expect(JSON.parse((await s.getEpoch(3))?.reveal ?? '')).toMatchObject({
        code: 'VALIDATOR_REVEAL_OVERDUE',
        reason: 'check_failed',
        last_error: { code: 'CHAIN_STORAGE_NOT_AVAILABLE', message: expect.stringContaining('timelockedWeightCommits') },
      });
      expect(await counter(metrics)).toEqual({ 'unconfirmed/VALIDATOR_REVEAL_OVERDUE': 1 });
    });

    it('records a stored commit that cannot be read back unconfirmed at once (VALIDATOR_REVEAL_RECORD_UNREADABLE), without asking the chain', async () => {
      const s = await storage();
      const chain = revealChain({});
      const metrics = createMetrics();
      await s.claimEpoch(3, { status: 'submitted', revealStatus: 'pending', reveal: '{"commit_hash":"0x1"' });
      chain.headBlock = 45n;
      expect(await confirmPendingReveals({ storage: s, chain, metrics, logger: silentLogger })).toEqual([{ epoch: 3, status: 'unconfirmed' }]);
      expect(JSON.parse((await s.getEpoch(3))?.reveal ?? '')).toMatchObject({
        code: 'VALIDATOR_REVEAL_RECORD_UNREADABLE',
        reason: 'record_unreadable',
        stored: '{"commit_hash":"0x1"',
      });
      expect(chain.asked).toEqual([]);
      expect(await counter(metrics)).toEqual({ 'unconfirmed/VALIDATOR_REVEAL_RECORD_UNREADABLE': 1 });
    });

    it('reads the bundle of the one pending epoch whose outcome it records, and no other (a pass reads heads, docs/spec.md G.25)', async () => {
      const s = await storage();
      const chain = revealChain({ r3: [{ status: 'revealed', block: 41n, blockHash: `0x${'cd'.repeat(32)}` }] });
      for (const [epoch, due] of [
        [3, 40n],
        [4, 100n],
        [5, 100n],
      ] as const) {
        await pendingEpoch(s, epoch, `r${epoch}`, due);
        await s.updateEpoch(epoch, { bundle: `{"bundle":{"epoch":${epoch}}}`, digest: `d${epoch}`, carry: '{"c":1}' });
      }
      const wholeRowsRead: number[] = [];
      const bundlesListed: number[] = [];
      const spied: Storage = {
        ...s,
        getEpoch: (epoch) => {
          wholeRowsRead.push(epoch);
          return s.getEpoch(epoch);
        },
        pendingReveals: async (after, limit) => {
          const rows = await s.pendingReveals(after, limit);
          for (const row of rows) if (Object.hasOwn(row, 'bundle')) bundlesListed.push(row.epoch);
          return rows;
        },
      };
      chain.headBlock = 45n;
      expect(await confirmPendingReveals({ storage: spied, chain, metrics: createMetrics(), logger: silentLogger })).toEqual([
        { epoch: 3, status: 'revealed' },
        { epoch: 4, status: 'waiting' },
        { epoch: 5, status: 'waiting' },
      ]);
      expect(bundlesListed).toEqual([]);
      expect(wholeRowsRead).toEqual([3]);
      expect((await s.getEpoch(3))?.revealStatus).toBe('revealed');
      // Nothing due: a pass reads no bundle at all.
      wholeRowsRead.length = 0;
      expect(await confirmPendingReveals({ storage: spied, chain, metrics: createMetrics(), logger: silentLogger })).toEqual([
        { epoch: 4, status: 'waiting' },
        { epoch: 5, status: 'waiting' },
      ]);
      expect(wholeRowsRead).toEqual([]);
    });

    it('pages through every pending epoch, however old, a bounded number per pass, and wraps (no epoch starved)', async () => {
      const s = await storage();
      // 150 pending epochs, spread over far more than the newest 64 epoch rows (set_weights epochs in between).
      const answers: Record<string, RevealCheck[]> = {};
      for (let e = 0; e < 300; e++) {
        if (e % 2 === 1) {
          await s.claimEpoch(e, { status: 'submitted' });
          continue;
        }
        answers[`r${e}`] = [{ status: 'pending' }, { status: 'pending' }, { status: 'pending' }];
        await pendingEpoch(s, e, `r${e}`, 10n);
      }
      const chain = revealChain(answers);
      chain.headBlock = 20n;
      const confirmer = revealConfirmer({ storage: s, chain, metrics: createMetrics(), logger: silentLogger }, 16);
      const perPass: number[] = [];
      for (let pass = 0; pass < 10; pass++) {
        const before = chain.asked.length;
        confirmer.tick();
        await confirmer.idle();
        perPass.push(chain.asked.length - before);
      }
      // ceil(150 / 16) = 10 passes: each pending epoch asked exactly once, oldest first, at most 16 per pass.
      expect(perPass).toEqual([16, 16, 16, 16, 16, 16, 16, 16, 16, 6]);
      expect(chain.asked).toEqual(Object.keys(answers));
      // The next pass wraps to the oldest.
      confirmer.tick();
      await confirmer.idle();
      expect(chain.asked.slice(150)).toEqual(['r0', 'r2', 'r4', 'r6', 'r8', 'r10', 'r12', 'r14', 'r16', 'r18', 'r20', 'r22', 'r24', 'r26', 'r28', 'r30']);
    });
  });
}

describe('timelocked reveal confirmation in the service (fake chain port)', () => {
  it('through the service: a timelocked commit is pending on /v1/epochs, then revealed and counted in /metrics', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = revealChain({});
    const record = 'serialized-record';
    chain.setWeights = (uids, weights): Promise<ChainSubmission> => {
      chain.submissions.push({ uids, weights });
      return Promise.resolve({
        block: chain.headBlock + 1n,
        blockHash: `0x${'cd'.repeat(32)}`,
        finalized: true,
        extrinsicHash: `0x${'ab'.repeat(32)}`,
        call: 'SubtensorModule.commit_timelocked_mechanism_weights',
        timelock: { record, dueBlock: 25n, commitHash: `0x${'ee'.repeat(32)}` },
      });
    };
    let answer: RevealCheck = { status: 'pending' };
    chain.confirmReveal = (r) => {
      chain.asked.push(r);
      return Promise.resolve(answer);
    };
    const v = await startInDir(t.dir, chain, cleanups);
    await v.tick();
    expect((await postExecutor(v.url, '/v1/bounty-records', bountyBody('b1', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 11n;
    await v.tick(); // closes epoch 0: the commit
    const epochs = async () =>
      ((await (await fetch(`${v.url}/v1/epochs`)).json()) as { epochs: { epoch: number; reveal: Record<string, unknown> | null }[] }).epochs;
    // Embargoed until the chain reveals the weights (bundle-embargo.ts); the stored bundle is what will be served.
    expect((await fetch(`${v.url}/v1/epochs/0/bundle`)).status).toBe(425);
    const bundleBefore = (await v.storage.getEpoch(0))?.bundle;
    expect((await epochs()).find((e) => e.epoch === 0)?.reveal).toMatchObject({ status: 'pending', due_block: '25' });
    expect((await epochs()).find((e) => e.epoch === 0)?.reveal).not.toHaveProperty('record');
    answer = { status: 'revealed', block: 25n, blockHash: `0x${'cd'.repeat(32)}` };
    chain.headBlock = 26n;
    await v.tick();
    await expect.poll(async () => (await epochs()).find((e) => e.epoch === 0)?.reveal?.status, { timeout: 20_000 }).toBe('revealed');
    expect(new Set(chain.asked)).toEqual(new Set([record]));
    expect(await (await fetch(`${v.url}/metrics`)).text()).toMatch(/validator_reveal_confirmations_total\{outcome="revealed",reason=""\} 1/);
    // The signed bundle does not change, and is served once revealed, with the signed outcome.
    expect((await v.storage.getEpoch(0))?.bundle).toBe(bundleBefore);
    await expectAttestedBundle(await (await fetch(`${v.url}/v1/epochs/0/bundle`)).text(), bundleBefore ?? '', {
      status: 'revealed',
      reveal_block: '25',
      reveal_block_hash: `0x${'cd'.repeat(32)}`,
      confirmed_at_head: '26',
    });
  });
});

const silentLogger = { info: () => undefined, warn: () => undefined };

describe('the stored timelocked commit record', () => {
  it('round-trips bigints (block numbers, round, nonce, prediction) and refuses text that is not JSON', () => {
    const record = {
      hotkey: k.validator.address,
      netuid: 1,
      mecid: 0,
      netuidIndex: 1,
      uid: 0,
      uids: [2, 3],
      values: [21845, 65535],
      versionKey: 0n,
      revealRound: 123_456_789_012n,
      commitHash: `0x${'aa'.repeat(32)}`,
      commitBlock: 17n,
      commitBlockHash: `0x${'bb'.repeat(32)}`,
      extrinsicHash: `0x${'cc'.repeat(32)}`,
      nonce: 2n ** 63n,
      prediction: { schedule: 'stateful' as const, commitEpoch: 1n, revealEpoch: 2n, revealBlock: 30n, targetBlock: 33n },
    };
    const text = timelockRecordToJson(record);
    expect(timelockRecordFromJson(text)).toEqual(record);
    // A plain object that merely looks tagged but has more keys stays an object.
    expect(timelockRecordFromJson('{"a":{"$bigint":"1","b":2}}')).toEqual({ a: { $bigint: '1', b: 2 } });
    expect(() => timelockRecordFromJson('{')).toThrow(expect.objectContaining({ code: 'VALIDATOR_STORAGE' }));
  });
});
