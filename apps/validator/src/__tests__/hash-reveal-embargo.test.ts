import { join } from 'node:path';

import { SubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { embargoError, embargoOf } from '../bundle-embargo.js';
import type { ChainSubmission, HashRevealFound, HashRevealQuery, HashRevealResult } from '../chain-port.js';
import { createMetrics } from '../metrics.js';
import { confirmPendingReveals, pendingHashRevealFields, recordHashReveals, sharedHashCommits } from '../reveal-confirm.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import type { Storage } from '../storage.js';
import { bountyBody, expectAttestedBundle, fakeChain, postExecutor, startInDir, tempDir, useCleanups, useKeys } from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

const HASH = `0x${'a1'.repeat(32)}`;
const BLOCK_HASH = `0x${'cd'.repeat(32)}`;
// The salt [4242, 4243] as any JSON text would hold it. A bare '4242' would also match inside the random hex of an
// sr25519 signature (about one run in 500), so the check looks for the key or the serialised pair.
const SALT = /"salt"|4242,\s*4243/;

function sqlite(): Storage {
  const t = tempDir();
  const s = openSqliteStorage(join(t.dir, 'v.db'));
  cleanups.push(t.cleanup, () => s.close());
  return s;
}

function recordingLogger(): {
  warns: { obj: unknown; msg: string }[];
  infos: string[];
  info: (obj: unknown, msg: string) => void;
  warn: (obj: unknown, msg: string) => void;
} {
  const warns: { obj: unknown; msg: string }[] = [];
  const infos: string[] = [];
  return { warns, infos, info: (_obj, msg) => infos.push(msg), warn: (obj, msg) => warns.push({ obj, msg }) };
}

async function hashPendingEpoch(s: Storage, epoch: number, commitHash = HASH): Promise<void> {
  await s.claimEpoch(epoch, { status: 'submitted', ...pendingHashRevealFields({ commitHash, dueBlock: 30n, closedAfter: 50n }) });
}

describe('commit-reveal v2: an epoch is embargoed until this validator reveals its commit (docs/spec.md G.22)', () => {
  it("a pending hash commit is an embargo that says v2 and who reveals, from the window's first block", async () => {
    const s = sqlite();
    await hashPendingEpoch(s, 3);
    const row = await s.getEpoch(3);
    const embargo = row === undefined ? undefined : embargoOf(row);
    expect(embargo).toEqual({ epoch: 3, revealBlock: 30n, revealRound: null, commitHash: HASH, scheme: 'hash' });
    const body = embargoError(embargo!, 12).error;
    expect(body['message']).toBe(
      "epoch 3's weights are committed with commit-reveal v2 and this validator reveals them from block 30; they are served once the reveal is recorded; retry after 12 s",
    );
    expect(body).toMatchObject({ code: 'BUNDLE_EMBARGOED', epoch: 3, reveal_block: '30', reveal_round: null, commit_hash: HASH });
  });

  it('revealPending revealing the commit records revealed with its block, once, and lifts the embargo', async () => {
    const s = sqlite();
    const chain = fakeChain(k);
    chain.headBlock = 33n;
    const metrics = createMetrics();
    const logger = recordingLogger();
    await hashPendingEpoch(s, 3);
    await hashPendingEpoch(s, 4, `0x${'b2'.repeat(32)}`);
    const results: HashRevealResult[] = [{ commitHash: HASH, status: 'revealed', block: 31n, blockHash: BLOCK_HASH }];
    expect(await recordHashReveals({ storage: s, chain, metrics, logger }, results)).toEqual([{ epoch: 3, status: 'revealed' }]);
    const row = await s.getEpoch(3);
    expect(row?.revealStatus).toBe('revealed');
    expect(row === undefined ? 'row' : embargoOf(row)).toBeUndefined();
    expect(JSON.parse(row?.reveal ?? '{}')).toMatchObject({ commit_hash: HASH, due_block: '30', block: '31', block_hash: BLOCK_HASH, checked_at_head: '33' });
    // The other epoch's commit is still owed.
    expect((await s.getEpoch(4))?.revealStatus).toBe('pending');
    expect(logger.warns).toEqual([]);
    // The same result again (a retried tick) finds no pending epoch: nothing is recorded twice.
    expect(await recordHashReveals({ storage: s, chain, metrics, logger }, results)).toEqual([]);
    expect((await metrics.revealConfirmations.get()).values.map((v) => [v.labels.outcome, v.value])).toEqual([['revealed', 1]]);
  });

  it('an expired commit is recorded not_revealed (CHAIN_REVEAL_WINDOW_MISSED), and the warning leads with the epoch', async () => {
    const s = sqlite();
    const chain = fakeChain(k);
    chain.headBlock = 60n;
    const logger = recordingLogger();
    await hashPendingEpoch(s, 3);
    expect(await recordHashReveals({ storage: s, chain, metrics: createMetrics(), logger }, [{ commitHash: HASH, status: 'expired' }])).toEqual([
      { epoch: 3, status: 'not_revealed' },
    ]);
    const row = await s.getEpoch(3);
    expect(row?.revealStatus).toBe('not_revealed');
    expect(JSON.parse(row?.reveal ?? '{}')).toMatchObject({ code: 'CHAIN_REVEAL_WINDOW_MISSED', reason: 'expired' });
    expect(logger.warns).toHaveLength(1);
    expect(logger.warns[0]?.msg).toMatch(
      /^epoch 3's committed weights were not revealed: the reveal window of commit 0xa1a1.* \(from block 30\) ended before this validator revealed it .*the weights were not set$/,
    );
  });

  it('a commit the chain no longer holds (gone: revealed or dropped, not known) is not recorded, only said, and waits for its window to close', async () => {
    const s = sqlite();
    const chain = fakeChain(k);
    chain.headBlock = 40n;
    const metrics = createMetrics();
    const logger = recordingLogger();
    await s.claimEpoch(3, {
      status: 'submitted',
      ...pendingHashRevealFields({ commitHash: HASH, dueBlock: 30n, closedAfter: 50n, commit: { commit_hash: HASH, salt: [4242] } }),
    });
    expect(await sharedHashCommits(s)).toHaveLength(1);
    expect(await recordHashReveals({ storage: s, chain, metrics, logger }, [{ commitHash: HASH, status: 'gone' }])).toEqual([]);
    expect((await s.getEpoch(3))?.revealStatus).toBe('pending');
    // Nobody can reveal it now: its salt leaves the row, so no instance loads it again on every tick.
    expect(await sharedHashCommits(s)).toEqual([]);
    expect(JSON.parse((await s.getEpoch(3))?.reveal ?? '{}')).toEqual({
      scheme: 'hash',
      commit_hash: HASH,
      due_block: '30',
      closed_after: '50',
      record: null,
      gone_at_head: '40',
    });
    expect((await metrics.revealConfirmations.get()).values).toEqual([]);
    expect(logger.warns.map((w) => w.msg)).toEqual([
      `commit-reveal v2 commit ${HASH} of epoch 3 is no longer on chain and this validator did not see it revealed (revealed by a run that stopped before recording it, moved by a hotkey swap, dropped after its window, or never included); the epoch stays embargoed until its reveal window closed, then is recorded unconfirmed`,
    ]);
  });

  it('a gone commit whose reveal by this hotkey is in a final block of its window (sent by a run that stopped before recording it) is recorded revealed with that block', async () => {
    const s = sqlite();
    const chain = fakeChain(k);
    chain.headBlock = 40n;
    const asked: HashRevealQuery[] = [];
    chain.findHashReveal = (query) => {
      asked.push(query);
      return Promise.resolve({ block: 31n, blockHash: BLOCK_HASH, extrinsicHash: `0x${'ee'.repeat(32)}` });
    };
    const metrics = createMetrics();
    const logger = recordingLogger();
    await s.claimEpoch(3, {
      status: 'submitted',
      ...pendingHashRevealFields({ commitHash: HASH, dueBlock: 30n, closedAfter: 50n, commit: { commit_hash: HASH, salt: [4242, 4243] } }),
    });
    expect(await recordHashReveals({ storage: s, chain, metrics, logger }, [{ commitHash: HASH, status: 'gone' }])).toEqual([{ epoch: 3, status: 'revealed' }]);
    // Its window's blocks, from the first that could hold the reveal to the last.
    expect(asked).toEqual([{ commitHash: HASH, fromBlock: 30n, toBlock: 50n }]);
    const row = await s.getEpoch(3);
    expect(row?.revealStatus).toBe('revealed');
    expect(row === undefined ? 'row' : embargoOf(row)).toBeUndefined();
    expect(JSON.parse(row?.reveal ?? '{}')).toMatchObject({ commit_hash: HASH, due_block: '30', block: '31', block_hash: BLOCK_HASH, checked_at_head: '40' });
    expect(row?.reveal).not.toMatch(SALT);
    expect(await sharedHashCommits(s)).toEqual([]);
    expect(logger.warns).toEqual([]);
    expect(logger.infos).toEqual([
      "committed weights revealed: epoch 3's reveal is in final block 31, sent by a run that stopped before recording it; recorded revealed now",
    ]);
    expect((await metrics.revealConfirmations.get()).values.map((v) => [v.labels.outcome, v.value])).toEqual([['revealed', 1]]);
  });

  it('a gone commit whose reveal cannot be searched for now is left as it is, salt included, and searched again; none found: gone as before', async () => {
    const s = sqlite();
    const chain = fakeChain(k);
    chain.headBlock = 40n;
    const answers: (() => Promise<HashRevealFound | null>)[] = [
      () => Promise.reject(new SubnetError('CHAIN_REQUEST_TIMEOUT', 'the node did not answer within 30000 ms')),
      () => Promise.resolve(null),
    ];
    chain.findHashReveal = () => answers.shift()?.() ?? Promise.resolve(null);
    const logger = recordingLogger();
    const deps = { storage: s, chain, metrics: createMetrics(), logger };
    await s.claimEpoch(3, {
      status: 'submitted',
      ...pendingHashRevealFields({ commitHash: HASH, dueBlock: 30n, closedAfter: 50n, commit: { commit_hash: HASH, salt: [4242, 4243] } }),
    });
    expect(await recordHashReveals(deps, [{ commitHash: HASH, status: 'gone' }])).toEqual([]);
    expect(await sharedHashCommits(s)).toHaveLength(1);
    expect(logger.warns.map((w) => w.msg)).toEqual([
      `the chain could not be searched for the reveal of epoch 3's commit-reveal v2 commit ${HASH}, no longer on chain; searching again next tick`,
    ]);
    expect(await recordHashReveals(deps, [{ commitHash: HASH, status: 'gone' }])).toEqual([]);
    expect((await s.getEpoch(3))?.revealStatus).toBe('pending');
    expect(await sharedHashCommits(s)).toEqual([]);
    expect(JSON.parse((await s.getEpoch(3))?.reveal ?? '{}')).toMatchObject({ gone_at_head: '40' });
  });

  it('a hash commit nobody reports waits until its window closed, then is recorded unconfirmed (window_closed), never read as a timelock record', async () => {
    const s = sqlite();
    const chain = fakeChain(k);
    const asked: string[] = [];
    chain.confirmReveal = (record) => {
      asked.push(record);
      return Promise.resolve({ status: 'pending' });
    };
    const logger = recordingLogger();
    await hashPendingEpoch(s, 3);
    chain.headBlock = 50n;
    expect(await confirmPendingReveals({ storage: s, chain, metrics: createMetrics(), logger })).toEqual([{ epoch: 3, status: 'waiting' }]);
    chain.headBlock = 51n;
    expect(await confirmPendingReveals({ storage: s, chain, metrics: createMetrics(), logger })).toEqual([{ epoch: 3, status: 'unconfirmed' }]);
    expect(asked).toEqual([]);
    const row = await s.getEpoch(3);
    expect(row?.revealStatus).toBe('unconfirmed');
    expect(JSON.parse(row?.reveal ?? '{}')).toMatchObject({ code: 'VALIDATOR_REVEAL_OVERDUE', reason: 'window_closed', commit_hash: HASH });
    expect(logger.warns[0]?.msg).toMatch(
      /^epoch 3's commit-reveal v2 commit 0xa1a1\S* was neither revealed nor seen expired by this validator, and its reveal window closed by block 50 /,
    );
  });

  it('a commit kept with its epoch before it is sent is not served while it is sent, and is dropped when the submission fails', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    const seen: (string | null | undefined)[] = [];
    const started: { v?: Awaited<ReturnType<typeof startInDir>> } = {};
    chain.setWeights = async (_uids, _weights, options): Promise<ChainSubmission> => {
      // As the real chain access does: the commit store saved the commit, then the epoch row gets it, then signing fails.
      await options?.onCommitSaved?.({ commit_hash: HASH, salt: [4242, 4243] });
      const row = await started.v?.storage.getEpoch(0);
      seen.push(row?.reveal, row?.revealStatus);
      const listed = (await (await fetch(`${started.v?.url}/v1/epochs`)).json()) as { epochs: { epoch: number; reveal: unknown }[] };
      seen.push(JSON.stringify(listed.epochs.find((e) => e.epoch === 0)));
      throw new SubnetError('CHAIN_SETTING_WEIGHTS_TOO_FAST', 'SettingWeightsTooFast: the node refused the commit');
    };
    const v = await startInDir(t.dir, chain, cleanups);
    started.v = v;
    await v.tick();
    expect((await postExecutor(v.url, '/v1/bounty-records', bountyBody('b1', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 11n;
    await v.tick(); // closes epoch 0: the commit is kept, then its submission fails
    const [kept, keptStatus, served] = seen;
    expect(JSON.parse(kept ?? '{}')).toEqual({ scheme: 'hash', commit_hash: HASH, commit: { commit_hash: HASH, salt: [4242, 4243] } });
    expect(keptStatus).toBeNull();
    expect(JSON.parse(served ?? '{}')).toMatchObject({ epoch: 0, status: 'submitting', reveal: null });
    expect(served).not.toMatch(SALT);
    const row = await v.storage.getEpoch(0);
    expect(row).toMatchObject({ status: 'failed', revealStatus: null, reveal: null });
  });

  it("a restart's first tick reveals the v2 commits whose window is open before its catch-up closes and sends the epoch that ended while it was down (G.45)", async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const calls: string[] = [];
    let reveals: HashRevealResult[] = [];
    const v2Chain = (): ReturnType<typeof fakeChain> => {
      const chain = fakeChain(k);
      chain.setWeights = (uids, weights): Promise<ChainSubmission> => {
        calls.push('setWeights');
        chain.submissions.push({ uids, weights });
        // epoch 0's commit (sent at block 11) is 0x1111…, epoch 1's (block 23) 0x2323…
        const commitHash = `0x${String(chain.headBlock).repeat(32)}`;
        return Promise.resolve({
          block: chain.headBlock + 1n,
          blockHash: BLOCK_HASH,
          finalized: true,
          extrinsicHash: `0x${'ab'.repeat(32)}`,
          call: 'SubtensorModule.commit_weights',
          hashCommit: { commitHash, dueBlock: chain.headBlock + 11n, closedAfter: chain.headBlock + 29n },
        });
      };
      chain.revealPending = () => {
        calls.push('revealPending');
        return Promise.resolve(reveals);
      };
      return chain;
    };
    const firstChain = v2Chain();
    const first = await startInDir(t.dir, firstChain, cleanups);
    expect((await postExecutor(first.url, '/v1/bounty-records', bountyBody('b1', k.miners[1]!.address))).status).toBe(201);
    firstChain.headBlock = 11n;
    await first.tick(); // closes epoch 0: its commit, revealable from block 22
    expect((await postExecutor(first.url, '/v1/bounty-records', bountyBody('b2', k.miners[1]!.address))).status).toBe(201);
    await first.stop();
    // Down while epoch 1 ended: the restart's head (block 23) is in epoch 2, inside epoch 0's reveal window.
    calls.length = 0;
    const secondChain = v2Chain();
    secondChain.headBlock = 23n;
    reveals = [{ commitHash: `0x${'11'.repeat(32)}`, status: 'revealed', block: 23n, blockHash: BLOCK_HASH }];
    const second = await startInDir(t.dir, secondChain, cleanups);
    // The first tick (at start) revealed epoch 0's commit, then closed epoch 1 and sent its commit.
    expect(calls).toEqual(['revealPending', 'setWeights']);
    expect(await second.storage.getEpoch(0)).toMatchObject({ status: 'submitted', revealStatus: 'revealed' });
    expect(await second.storage.getEpoch(1)).toMatchObject({ status: 'submitted', revealStatus: 'pending' });
  });

  it('through the service: a v2 commit keeps the bundle at 425 until revealPending reveals it, then serves it with a signed revealed outcome', async () => {
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
        hashCommit: { commitHash: HASH, dueBlock: 22n, closedAfter: 40n, commit: { commit_hash: HASH, salt: [4242, 4243] } },
      });
    };
    let reveals: HashRevealResult[] = [];
    chain.revealPending = () => Promise.resolve(reveals);
    const v = await startInDir(t.dir, chain, cleanups);
    await v.tick();
    expect((await postExecutor(v.url, '/v1/bounty-records', bountyBody('b1', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 11n;
    await v.tick(); // closes epoch 0: the commit
    const bundle = await fetch(`${v.url}/v1/epochs/0/bundle`);
    expect(bundle.status).toBe(425);
    expect(((await bundle.json()) as { error: { message: string } }).error.message).toMatch(/^epoch 0's weights are committed with commit-reveal v2/);
    expect((await fetch(`${v.url}/v1/weights/latest`)).status).toBe(425);
    const listed = (await (await fetch(`${v.url}/v1/epochs`)).json()) as { epochs: { epoch: number; embargo: Record<string, unknown> | null }[] };
    expect(listed.epochs.find((e) => e.epoch === 0)?.embargo).toMatchObject({ scheme: 'hash', reveal_block: '22', commit_hash: HASH });
    // The commit and its salt are kept with the epoch for whichever instance leads, and never served.
    expect(await sharedHashCommits(v.storage)).toEqual([{ commit_hash: HASH, salt: [4242, 4243] }]);
    expect(JSON.stringify(listed)).not.toMatch(SALT);
    expect(listed.epochs.find((e) => e.epoch === 0)).toMatchObject({ reveal: { status: 'pending', commit_hash: HASH } });
    const overview = await (await fetch(`${v.url}/pages`)).text();
    expect(overview).toContain('embargoed until this validator reveals it (from block 22)');
    expect(overview).not.toContain('/v1/epochs/0/bundle');
    const closeText = (await v.storage.getEpoch(0))?.bundle ?? '';
    reveals = [{ commitHash: HASH, status: 'revealed', block: 23n, blockHash: BLOCK_HASH }];
    chain.headBlock = 23n;
    await v.tick();
    expect((await v.storage.getEpoch(0))?.revealStatus).toBe('revealed');
    // The outcome replaces the pending commit: no salt is kept once it is revealed.
    expect((await v.storage.getEpoch(0))?.reveal).not.toMatch(SALT);
    const served = await fetch(`${v.url}/v1/epochs/0/bundle`);
    expect(served.status).toBe(200);
    await expectAttestedBundle(await served.text(), closeText, {
      status: 'revealed',
      commit_hash: HASH,
      due_block: '22',
      reveal_block: '23',
      reveal_block_hash: BLOCK_HASH,
      reveal_round: null,
      confirmed_at_head: '23',
    });
  });
});
