import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { SubnetError } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { TimelockedCommitRecord } from '@subnet/chain';

import type { ChainSubmission, HashRevealResult, RevealCheck, SubmissionSearch } from '../chain-port.js';
import { embargoAmong, embargoesAmong, embargoOf, heldEmbargoes } from '../bundle-embargo.js';
import { releaseHeldBundleFiles } from '../bundle-file.js';
import type { ValidatorService } from '../service.js';
import { timelockRecordToJson } from '../timelock-record-json.js';
import { bountyBody, fakeChain, postExecutor, postSigned, setupValidator, smallGroups, sssaDoc, startInDir, tempDir, useCleanups, useKeys } from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

const HASH = `0x${'a1'.repeat(32)}`;
const BLOCK_HASH = `0x${'cd'.repeat(32)}`;

const bundleFile = (dir: string, epoch: number): string => join(dir, 'bundles', `epoch-${epoch}.json`);

/** Ticks until `check` holds (20 s at most): reveal confirmations run in the background of the ticks. */
async function untilTrue(service: ValidatorService, check: () => Promise<boolean> | boolean): Promise<void> {
  await expect
    .poll(
      async () => {
        await service.tick();
        return check();
      },
      { timeout: 20_000, interval: 100 },
    )
    .toBe(true);
}

describe('a later epoch is held while an earlier one is embargoed (docs/spec.md G.23; real SQLite and HTTP, chain port scripted)', () => {
  it("a failed epoch after a pending v2 commit hands out none of the committed weights until the commit's reveal, then is served and written", async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    chain.confirmReveal = () => Promise.resolve({ status: 'pending' });
    chain.setWeights = (uids, weights): Promise<ChainSubmission> => {
      chain.submissions.push({ uids, weights });
      return Promise.resolve({
        block: chain.headBlock + 1n,
        blockHash: BLOCK_HASH,
        finalized: true,
        extrinsicHash: `0x${'ab'.repeat(32)}`,
        call: 'SubtensorModule.commit_weights',
        hashCommit: { commitHash: HASH, dueBlock: 22n, closedAfter: 40n },
      });
    };
    let reveals: HashRevealResult[] = [];
    chain.revealPending = () => Promise.resolve(reveals);
    const v = await startInDir(t.dir, chain, cleanups);
    await v.tick();
    const miner = k.miners[1]!.address;
    expect((await postExecutor(v.url, '/v1/bounty-records', bountyBody('b0', miner))).status).toBe(201);
    chain.headBlock = 11n;
    await v.tick(); // closes epoch 0: its weights are committed (v2), embargoed until this validator reveals them
    expect((await fetch(`${v.url}/v1/epochs/0/bundle`)).status).toBe(425);
    const committed = chain.submissions[0];
    expect(committed).toBeDefined();

    // Epoch 1 scores the same records; its preflight fails, so nothing is committed for it (no embargo of its own).
    expect((await postExecutor(v.url, '/v1/bounty-records', bountyBody('b1', miner))).status).toBe(201);
    chain.preflightError = new SubnetError('CHAIN_NOT_ENOUGH_STAKE_TO_SET_WEIGHTS', 'stake below the threshold');
    chain.headBlock = 21n;
    await v.tick();
    const row = await v.storage.getEpoch(1);
    expect(row?.status).toBe('failed');
    // What its bundle holds: the very weights epoch 0 committed, and epoch 0's carried state.
    expect(JSON.parse(row?.u16 ?? '{}')).toEqual({ uids: committed?.uids, weights: committed?.weights });

    const held = await fetch(`${v.url}/v1/epochs/1/bundle`);
    expect(held.status).toBe(425);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThanOrEqual(5);
    const body = (await held.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code: 'BUNDLE_EMBARGOED', epoch: 1, held_by: 0, scheme: 'hash', reveal_block: '22', commit_hash: HASH });
    expect(body.error['message']).toMatch(
      /^epoch 1's bundle is held while an earlier epoch is embargoed: it carries the scores and state of epoch 0, and epoch 0's weights are committed with commit-reveal v2 and this validator reveals them from block 22; /,
    );
    // No route hands out epoch 1's weights instead.
    const latest = await fetch(`${v.url}/v1/weights/latest`);
    expect(latest.status).toBe(425);
    expect(await latest.text()).not.toContain(JSON.stringify(committed?.weights));
    const listed = (await (await fetch(`${v.url}/v1/epochs`)).json()) as { epochs: { epoch: number; embargo: Record<string, unknown> | null }[] };
    expect(listed.epochs.find((e) => e.epoch === 1)?.embargo).toMatchObject({ code: 'BUNDLE_EMBARGOED', held_by: 0, scheme: 'hash' });
    const overview = await (await fetch(`${v.url}/pages`)).text();
    expect(overview).toContain("held until epoch 0's embargo lifts");
    expect(overview).not.toContain('/v1/epochs/1/bundle');
    expect(overview).toContain('No published bundle yet.');
    expect((await fetch(`${v.url}/pages/miners/${miner}`)).status).toBe(404);
    expect(existsSync(bundleFile(t.dir, 1))).toBe(false);

    // This validator reveals epoch 0's commit: both epochs are public, and epoch 1's file is written.
    reveals = [{ commitHash: HASH, status: 'revealed', block: 23n, blockHash: BLOCK_HASH }];
    chain.headBlock = 23n;
    await v.tick();
    expect((await v.storage.getEpoch(0))?.revealStatus).toBe('revealed');
    const served = await fetch(`${v.url}/v1/epochs/1/bundle`);
    expect(served.status).toBe(200);
    const text = await served.text();
    expect(text).toBe((await v.storage.getEpoch(1))?.bundle);
    expect(readFileSync(bundleFile(t.dir, 1), 'utf8')).toBe(`${text}\n`);
    const weights = (await (await fetch(`${v.url}/v1/weights/latest`)).json()) as { epoch: number; status: string };
    expect(weights).toMatchObject({ epoch: 1, status: 'failed' });
    expect((await fetch(`${v.url}/pages/miners/${miner}`)).status).toBe(200);
  });

  it('a timelocked epoch the chain reveals before an earlier one stays held, its file unwritten, until the earlier reveal; then its file holds its signed outcome', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    const records = [700n, 701n].map((round, i) =>
      timelockRecordToJson({ revealRound: round, commitBlock: 12n + 10n * BigInt(i) } as unknown as TimelockedCommitRecord),
    );
    let commits = 0;
    const plain = chain.setWeights.bind(chain);
    chain.setWeights = async (uids, weights): Promise<ChainSubmission> => {
      const i = commits++;
      return {
        ...(await plain(uids, weights)),
        call: 'SubtensorModule.commit_timelocked_mechanism_weights',
        timelock: { record: records[i]!, dueBlock: 15n + 10n * BigInt(i), commitHash: `0x${(i === 0 ? 'e0' : 'e1').repeat(32)}` },
      };
    };
    const answers = new Map<string, RevealCheck>([
      [records[0]!, { status: 'pending' }],
      [records[1]!, { status: 'revealed', block: 25n, blockHash: BLOCK_HASH }],
    ]);
    chain.confirmReveal = (record) => Promise.resolve(answers.get(record) ?? { status: 'pending' });
    const v = await startInDir(t.dir, chain, cleanups);
    await v.tick();
    expect((await postExecutor(v.url, '/v1/bounty-records', bountyBody('t0', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 11n;
    await v.tick(); // epoch 0: committed, due at 15, the chain has not revealed it yet
    expect((await postExecutor(v.url, '/v1/bounty-records', bountyBody('t1', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 21n;
    await v.tick(); // epoch 1: committed, due at 25
    chain.headBlock = 27n;
    await untilTrue(v, async () => (await v.storage.getEpoch(1))?.revealStatus === 'revealed');
    expect((await v.storage.getEpoch(0))?.revealStatus).toBe('pending');
    // Epoch 1's own weights are on chain now, but its bundle carries epoch 0's scores and state: held.
    const held = await fetch(`${v.url}/v1/epochs/1/bundle`);
    expect(held.status).toBe(425);
    expect(((await held.json()) as { error: Record<string, unknown> }).error).toMatchObject({ epoch: 1, held_by: 0, scheme: 'timelock', reveal_round: '700' });
    expect(existsSync(bundleFile(t.dir, 1))).toBe(false);

    answers.set(records[0]!, { status: 'revealed', block: 15n, blockHash: BLOCK_HASH });
    chain.headBlock = 28n;
    await untilTrue(v, () => existsSync(bundleFile(t.dir, 1)));
    expect((await v.storage.getEpoch(0))?.revealStatus).toBe('revealed');
    const served = await fetch(`${v.url}/v1/epochs/1/bundle`);
    expect(served.status).toBe(200);
    const text = await served.text();
    expect((JSON.parse(text) as { reveal?: { status?: string; reveal_block?: string } }).reveal).toMatchObject({ status: 'revealed', reveal_block: '25' });
    expect(readFileSync(bundleFile(t.dir, 1), 'utf8')).toBe(`${text}\n`);
    expect(readFileSync(bundleFile(t.dir, 0), 'utf8')).toBe(`${await (await fetch(`${v.url}/v1/epochs/0/bundle`)).text()}\n`);
  }, 60_000);

  it('an epoch whose submission is not settled (its v2 commit in no final block yet) holds the later ones, then its embargo does, until the reveal', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    chain.confirmReveal = () => Promise.resolve({ status: 'pending' });
    // Epoch 0's commit is in a block finality has not reached: the close leaves it `submitting` for reconciliation.
    chain.setWeights = (uids, weights): Promise<ChainSubmission> => {
      chain.submissions.push({ uids, weights });
      return Promise.resolve({
        block: 12n,
        blockHash: BLOCK_HASH,
        finalized: false,
        extrinsicHash: `0x${'ab'.repeat(32)}`,
        call: 'SubtensorModule.commit_weights',
        hashCommit: { commitHash: HASH, dueBlock: 22n, closedAfter: 40n },
      });
    };
    let search: SubmissionSearch = { status: 'pending', checkedTo: 11n, unfinalizedBlock: 12n };
    chain.findSubmission = () => Promise.resolve(search);
    let reveals: HashRevealResult[] = [];
    chain.revealPending = () => Promise.resolve(reveals);
    const v = await startInDir(t.dir, chain, cleanups);
    await v.tick();
    const miner = k.miners[1]!.address;
    expect((await postExecutor(v.url, '/v1/bounty-records', bountyBody('s0', miner))).status).toBe(201);
    chain.headBlock = 11n;
    await v.tick();
    expect((await v.storage.getEpoch(0))?.status).toBe('submitting');
    expect((await postExecutor(v.url, '/v1/bounty-records', bountyBody('s1', miner))).status).toBe(201);
    chain.preflightError = new SubnetError('CHAIN_NOT_ENOUGH_STAKE_TO_SET_WEIGHTS', 'stake below the threshold');
    chain.headBlock = 21n;
    await v.tick();
    expect((await v.storage.getEpoch(0))?.status).toBe('submitting');
    const row = await v.storage.getEpoch(1);
    expect(row?.status).toBe('failed');
    expect(JSON.parse(row?.u16 ?? '{}')).toEqual({ uids: chain.submissions[0]?.uids, weights: chain.submissions[0]?.weights });
    const held = await fetch(`${v.url}/v1/epochs/1/bundle`);
    expect(held.status).toBe(425);
    expect(Number(held.headers.get('retry-after'))).toBe(60);
    const body = (await held.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ epoch: 1, held_by: 0, scheme: null, reveal_block: null, commit_hash: null });
    expect(body.error['message']).toBe(
      "epoch 1's bundle is held while an earlier epoch is embargoed: it carries the scores and state of epoch 0, and epoch 0's submission is not settled yet (a commit of its weights may be in a block); retry after 60 s",
    );
    expect((await fetch(`${v.url}/v1/weights/latest`)).status).toBe(425);
    expect(existsSync(bundleFile(t.dir, 1))).toBe(false);

    // Reconciliation finds the commit in a final block: epoch 0 is embargoed until its reveal, and epoch 1 with it.
    search = {
      status: 'landed',
      block: 12n,
      extrinsicHash: `0x${'ab'.repeat(32)}`,
      call: 'SubtensorModule.commit_weights',
      lastUpdate: 12n,
      weightsMatch: null,
      hashCommit: { commitHash: HASH, dueBlock: 22n, closedAfter: 40n },
    };
    await v.tick();
    expect((await v.storage.getEpoch(0))?.revealStatus).toBe('pending');
    expect(((await (await fetch(`${v.url}/v1/epochs/1/bundle`)).json()) as { error: Record<string, unknown> }).error).toMatchObject({
      held_by: 0,
      scheme: 'hash',
    });
    expect(existsSync(bundleFile(t.dir, 1))).toBe(false);
    reveals = [{ commitHash: HASH, status: 'revealed', block: 23n, blockHash: BLOCK_HASH }];
    chain.headBlock = 23n;
    await v.tick();
    expect((await fetch(`${v.url}/v1/epochs/1/bundle`)).status).toBe(200);
    expect(existsSync(bundleFile(t.dir, 1))).toBe(true);
  });
});

describe("a task's answer shows no reputation (docs/spec.md G.23; real SQLite and HTTP, chain port scripted)", () => {
  it("the group of a task drawn after a close shows no member's reputation, the outcome of that close's consensus, while its weights are embargoed", async () => {
    const { start } = await setupValidator(cleanups, false, { scoring: smallGroups });
    const chain = fakeChain(k);
    chain.confirmReveal = () => Promise.resolve({ status: 'pending' });
    chain.revealPending = () => Promise.resolve([]);
    chain.setWeights = (uids, weights): Promise<ChainSubmission> => {
      chain.submissions.push({ uids, weights });
      return Promise.resolve({
        block: chain.headBlock + 1n,
        blockHash: BLOCK_HASH,
        finalized: true,
        extrinsicHash: `0x${'ab'.repeat(32)}`,
        call: 'SubtensorModule.commit_weights',
        hashCommit: { commitHash: HASH, dueBlock: 22n, closedAfter: 40n },
      });
    };
    const v = await start(chain);
    await v.tick();
    type Group = { group?: Record<string, unknown>[] };
    // Epoch 0: a task whose primary answers and whose auditor stays silent (its reputation 0.5 -> 0.45 at the close).
    const first = ((await (await postExecutor(v.url, '/v1/tasks', { task_id: 'rep-0', task_type: 'scan' })).json()) as Group).group ?? [];
    const primary = k.miners.find((m) => m.address === first[0]?.['hotkey']);
    expect((await postSigned(v.url, '/v1/sssa', primary!, { task_id: 'rep-0', sssa: sssaDoc() })).status).toBe(201);
    chain.headBlock = 15n;
    await v.tick();
    expect((await fetch(`${v.url}/v1/epochs/0/bundle`)).status).toBe(425);
    const carried = (JSON.parse((await v.storage.getEpoch(0))?.carry ?? 'null') as { reputations: unknown }).reputations;
    expect(carried).toEqual([{ task_type: 'scan', hotkey: first[1]?.['hotkey'], reputation: 0.9 * 0.5 }]);

    // Epoch 1's tasks are drawn from that table; their answers (the executor's and anyone's GET) name members and roles only.
    for (let i = 1; i <= 6; i++) {
      const posted = (await (await postExecutor(v.url, '/v1/tasks', { task_id: `rep-${i}`, task_type: 'scan' })).json()) as Group;
      const looked = (await (await fetch(`${v.url}/v1/tasks/rep-${i}`)).json()) as Group;
      expect(looked.group).toEqual(posted.group);
      for (const member of looked.group ?? []) expect(Object.keys(member).sort()).toEqual(['hotkey', 'role', 'uid']);
    }
  });

  it('an embargo older than the newest 100 epochs still holds them: the bundle route, the lists, the pages and the held files', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const v = await startInDir(t.dir, fakeChain(k), cleanups);
    // Epoch 0's v2 commit waits for its reveal; 120 epochs after it committed nothing (failed preflights), so each
    // carries epoch 0's scores on. The newest 100 rows are epochs 21..120: none of them shows epoch 0.
    const u16 = JSON.stringify({ uids: [1], weights: [65535] });
    const reveal = JSON.stringify({ scheme: 'hash', commit_hash: HASH, due_block: '22' });
    expect(await v.storage.claimEpoch(0, { status: 'submitted', u16, bundle: '{"epoch":0}', digest: 'd0', revealStatus: 'pending', reveal })).toBe(true);
    for (let e = 1; e <= 120; e++) expect(await v.storage.claimEpoch(e, { status: 'failed', u16, bundle: `{"epoch":${e}}`, digest: `d${e}` })).toBe(true);

    const held = await fetch(`${v.url}/v1/epochs/120/bundle`);
    expect(held.status).toBe(425);
    expect(((await held.json()) as { error: Record<string, unknown> }).error).toMatchObject({ code: 'BUNDLE_EMBARGOED', epoch: 120, held_by: 0 });
    const listed = (await (await fetch(`${v.url}/v1/epochs`)).json()) as { epochs: { epoch: number; embargo: Record<string, unknown> | null }[] };
    expect(listed.epochs.map((e) => e.epoch)).toEqual(Array.from({ length: 100 }, (_, i) => 120 - i));
    expect(listed.epochs.every((e) => e.embargo?.['held_by'] === 0)).toBe(true);
    expect((await fetch(`${v.url}/v1/weights/latest`)).status).toBe(425);
    const overview = await (await fetch(`${v.url}/pages`)).text();
    expect(overview).toContain("held until epoch 0's embargo lifts");
    expect(overview).not.toContain('/v1/epochs/120/bundle');
    const files = join(t.dir, 'held-files');
    expect(await releaseHeldBundleFiles(v.storage, files, 0)).toEqual({ written: [], embargoed: 21 });
    expect(existsSync(join(files, 'epoch-120.json'))).toBe(false);
  });
});

describe('embargoesAmong: every epoch of a list at once, as embargoAmong gives each (docs/spec.md G.23)', () => {
  it('agrees with embargoAmong row by row on mixed lists of pending, submitting and settled epochs, in any order', () => {
    const statuses = ['submitted', 'submitting', 'failed', 'missed'] as const;
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor(seed / 65_536) % n;
    };
    for (let round = 0; round < 200; round += 1) {
      const rows = Array.from({ length: 1 + next(12) }, (_, i) => {
        const pending = next(4) === 0;
        return {
          epoch: i * 2 + next(2),
          status: statuses[next(statuses.length)]!,
          revealStatus: pending ? 'pending' : next(3) === 0 ? 'revealed' : null,
          reveal: pending
            ? JSON.stringify({ scheme: next(2) === 0 ? 'hash' : undefined, commit_hash: `0x${'ab'.repeat(32)}`, due_block: String(100 + i) })
            : null,
        };
      });
      const shuffled = [...rows].sort(() => next(3) - 1);
      const all = embargoesAmong(shuffled);
      for (const row of rows) expect(all.get(row.epoch)).toEqual(embargoAmong(row, shuffled));
      expect(
        [...all.keys()].every(
          (e) =>
            embargoAmong(
              rows.find((r) => r.epoch === e)!,
              rows,
            ) !== undefined,
        ),
      ).toBe(true);
    }
  });
});

describe('heldEmbargoes: what holds each epoch of a list, in one pass, for rows read again one at a time (docs/spec.md G.23)', () => {
  const statuses = ['submitted', 'submitting', 'failed', 'missed', 'unknown'] as const;
  /** A row as listed or as read again: settled, submitting, or with a pending reveal of either scheme (or unreadable). */
  const row = (epoch: number) =>
    fc.record({
      epoch: fc.constant(epoch),
      status: fc.constantFrom(...statuses),
      revealStatus: fc.constantFrom('pending', 'revealed', 'unconfirmed', null),
      reveal: fc.option(
        fc.oneof(
          fc
            .record({ scheme: fc.constantFrom('hash', undefined), commit_hash: fc.constant(`0x${'ab'.repeat(32)}`), due_block: fc.nat().map(String) })
            .map((r) => JSON.stringify(r)),
          fc.constant('not json'),
        ),
      ),
    });
  /** Distinct epochs in any order, each with the row listed and the row as read again (it may have changed in between). */
  const lists = fc
    .uniqueArray(fc.nat({ max: 300 }), { minLength: 1, maxLength: 40 })
    .chain((epochs) => fc.tuple(fc.tuple(...epochs.map(row)), fc.tuple(...epochs.map(row))));

  it('embargoOf(row) ?? held.get(row.epoch) is embargoAmong(row, rows) for every row, as listed and as read again', () => {
    fc.assert(
      fc.property(lists, ([listed, reread]) => {
        const held = heldEmbargoes(listed);
        for (const r of [...listed, ...reread]) expect(embargoOf(r) ?? held.get(r.epoch)).toEqual(embargoAmong(r, listed));
      }),
      { numRuns: 300 },
    );
  });
});
