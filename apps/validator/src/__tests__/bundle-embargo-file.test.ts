import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { revealSigningMessage, withRevealAttestation } from '@subnet/bundle';
import type { TimelockedCommitRecord } from '@subnet/chain';
import { describe, expect, it } from 'vitest';

import type { ChainSubmission, RevealCheck, CommitSchedule } from '../chain-port.js';
import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
import { timelockRecordToJson } from '../timelock-record-json.js';
import type { FakeChain } from './helpers.js';
import {
  bountyBody,
  crashMidSubmission,
  expectAttestedBundle,
  fakeChain,
  postExecutor,
  silent,
  startInDir,
  startPeerReceiver,
  tempDir,
  testConfig,
  useCleanups,
  useKeys,
} from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

const bundleFile = (dir: string, epoch: number): string => join(dir, 'bundles', `epoch-${epoch}.json`);

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
 * A validator on a fake chain whose commits are timelocked (reveal due at block 15), stopped and its folder
 * removed by `cleanups`: it has stored one bounty record (`recordId`) and closed epoch 0 at head 11. Its
 * reveal checks are answered by `confirmReveal`.
 */
async function closedTimelockedEpoch(
  recordId: string,
  confirmReveal: NonNullable<FakeChain['confirmReveal']>,
): Promise<{ dir: string; chain: FakeChain; service: ValidatorService }> {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const chain = fakeChain(k);
  timelocked(chain, 15n);
  chain.confirmReveal = confirmReveal;
  const service = await startInDir(t.dir, chain, cleanups);
  await service.tick();
  expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody(recordId, k.miners[2]!.address))).status).toBe(201);
  chain.headBlock = 11n;
  await service.tick();
  return { dir: t.dir, chain, service };
}

/**
 * Ticks until a confirmation pass that started after this call has finished: the pass runner starts a pass only
 * when none runs, so a second pass reading the pending reveals means the first one is done.
 */
/** Runs passes until epoch `epoch`'s reveal status is `status` (20 s at most). */
async function untilRevealStatus(service: ValidatorService, epoch: number, status: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await service.tick();
        return (await service.storage.getEpoch(epoch))?.revealStatus;
      },
      { timeout: 20_000, interval: 200 },
    )
    .toBe(status);
}

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
    const first = await startInDir(t.dir, chain, cleanups);
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
    const second = await startInDir(t.dir, again, cleanups);
    await settledPass(second);
    expect((await second.storage.getEpoch(1))?.revealStatus).toBe('pending');
    expect(existsSync(bundleFile(t.dir, 1))).toBe(false);
    // Revealed: the file appears, the bundle signed at the close byte for byte with the signed outcome (and served).
    // The head moves first and passes settle on it, so no pass that read head 26 is still asking when the answer changes.
    again.headBlock = 27n;
    await settledPass(second);
    answer = { status: 'revealed', block: 25n, blockHash: `0x${'cd'.repeat(32)}` };
    await untilRevealStatus(second, 1, 'revealed');
    const served = await (await fetch(`${second.url}/v1/epochs/1/bundle`)).text();
    expect(readFileSync(bundleFile(t.dir, 1), 'utf8')).toBe(`${served}\n`);
    await expectAttestedBundle(served, stored, {
      status: 'revealed',
      code: null,
      reveal_block: '25',
      reveal_block_hash: `0x${'cd'.repeat(32)}`,
      commit_hash: `0x${'ee'.repeat(32)}`,
      commit_block: '12',
      reveal_round: '777',
      due_block: '25',
      confirmed_at_head: '27',
    });
  }, 60_000);

  it('a crash between the file and the outcome: the next pass records the outcome the file attests, without asking the chain again (one signed outcome per bundle)', async () => {
    let asked = 0;
    let answer: RevealCheck = { status: 'revealed', block: 15n, blockHash: `0x${'cd'.repeat(32)}` };
    const { dir, chain, service } = await closedTimelockedEpoch('c1', () => {
      asked++;
      return Promise.resolve(answer);
    });
    expect((await service.storage.getEpoch(0))?.revealStatus).toBe('pending');
    // The outcome write fails once, after the file was written (a crash, or a lost lease, between the two writes).
    const storage = service.storage as { updateEpoch: ValidatorService['storage']['updateEpoch'] };
    const update = storage.updateEpoch.bind(storage);
    let failed = 0;
    storage.updateEpoch = (epoch, fields, fence) => {
      if (fields.revealStatus !== undefined && fields.revealStatus !== 'pending' && failed === 0) {
        failed++;
        return Promise.reject(new Error('killed between the file and the outcome'));
      }
      return update(epoch, fields, fence);
    };
    // Head 16: epoch 1 is not closed yet, so epoch 0 is the only pending reveal.
    chain.headBlock = 16n;
    await expect
      .poll(
        async () => {
          await service.tick();
          return failed;
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe(1);
    expect((await service.storage.getEpoch(0))?.revealStatus).toBe('pending');
    const file = readFileSync(bundleFile(dir, 0), 'utf8');
    const written = JSON.parse(file) as { reveal: Record<string, unknown>; reveal_signature: string };
    expect(written.reveal).toMatchObject({ status: 'revealed', reveal_block: '15' });
    expect(asked).toBe(1);
    // Were the chain asked again now, it would say something else: the outcome recorded is the one attested in the file.
    answer = { status: 'unconfirmed', code: 'CHAIN_WEIGHTS_NOT_CONFIRMED', message: 'another answer' };
    await untilRevealStatus(service, 0, 'revealed');
    expect(asked).toBe(1);
    const row = await service.storage.getEpoch(0);
    expect(JSON.parse(row?.reveal ?? '{}')).toMatchObject({ attestation: written.reveal, attestation_signature: written.reveal_signature, block: '15' });
    expect(readFileSync(bundleFile(dir, 0), 'utf8')).toBe(file);
    expect(`${await (await fetch(`${service.url}/v1/epochs/0/bundle`)).text()}\n`).toBe(file);
    expect(await service.metrics.registry.metrics()).toMatch(/validator_reveal_confirmations_total\{outcome="revealed",reason=""\} 1/);
  }, 60_000);

  it('a bundle file whose attestation does not verify (another key) is not taken: the chain is asked and the file rewritten with the signed outcome', async () => {
    let asked = 0;
    const { dir, chain, service } = await closedTimelockedEpoch('f1', () => {
      asked++;
      return Promise.resolve({ status: 'revealed', block: 15n, blockHash: `0x${'cd'.repeat(32)}` });
    });
    const row = await service.storage.getEpoch(0);
    const close = JSON.parse(row?.bundle ?? '{}') as { bundle: { netuid: number; validator_hotkey: string }; digest: string };
    // A forged file: a "not revealed" outcome signed by another key, bound to this bundle.
    const forged = {
      kind: 'reveal_attestation',
      netuid: close.bundle.netuid,
      epoch: 0,
      validator_hotkey: close.bundle.validator_hotkey,
      bundle_digest: close.digest,
      status: 'not_revealed',
      code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
      reason: 'stake_lost',
      reasons: ['stake_lost'],
      message: 'forged',
      commit_hash: null,
      commit_block: null,
      commit_extrinsic_hash: null,
      reveal_round: null,
      due_block: null,
      reveal_block: null,
      reveal_block_hash: null,
      confirmed_at_head: '26',
    };
    const signature = `0x${Buffer.from(k.peer.sign(revealSigningMessage(forged as never))).toString('hex')}`;
    mkdirSync(join(dir, 'bundles'), { recursive: true });
    writeFileSync(bundleFile(dir, 0), `${withRevealAttestation(row?.bundle ?? '', { reveal: forged as never, signature })}\n`);
    chain.headBlock = 16n; // epoch 0's reveal is the only one due
    await untilRevealStatus(service, 0, 'revealed');
    expect(asked).toBe(1);
    const file = readFileSync(bundleFile(dir, 0), 'utf8');
    await expectAttestedBundle(file.slice(0, -1), row?.bundle ?? '', { status: 'revealed', reveal_block: '15' });
  }, 60_000);

  it('an outcome the attestation schema refuses is still recorded and lifts the embargo, served unsigned (never stuck embargoed)', async () => {
    const { dir, chain, service } = await closedTimelockedEpoch('u1', () =>
      Promise.resolve({
        status: 'not_revealed',
        code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
        reason: 'not a token!',
        reasons: ['not a token!'],
        message: 'dropped',
        block: 15n,
      }),
    );
    chain.headBlock = 16n;
    await untilRevealStatus(service, 0, 'not_revealed');
    const row = await service.storage.getEpoch(0);
    expect(JSON.parse(row?.reveal ?? '{}')).not.toHaveProperty('attestation');
    const served = await fetch(`${service.url}/v1/epochs/0/bundle`);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(row?.bundle);
    expect(readFileSync(bundleFile(dir, 0), 'utf8')).toBe(`${row?.bundle}\n`);
  }, 60_000);

  it("does not hold back the peer exchange: an embargoed epoch's own scores are delivered at its close, as any other's", async () => {
    const { receiver, chain: receiverChain } = await startPeerReceiver(k, cleanups);
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
    const dir = await crashMidSubmission(k, cleanups);
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
    const service = await startInDir(dir, chain, cleanups);
    expect((await service.storage.getEpoch(0))?.status).toBe('submitted');
    expect((await service.storage.getEpoch(0))?.revealStatus).toBe('pending');
    expect(existsSync(bundleFile(dir, 0))).toBe(false);
    answer = { status: 'revealed', block: 20n, blockHash: `0x${'cd'.repeat(32)}` };
    chain.headBlock = 21n;
    await untilRevealStatus(service, 0, 'revealed');
    const file = readFileSync(bundleFile(dir, 0), 'utf8');
    expect(file.endsWith('\n')).toBe(true);
    await expectAttestedBundle(file.slice(0, -1), (await service.storage.getEpoch(0))?.bundle ?? '', {
      status: 'revealed',
      reveal_block: '20',
      commit_block: '12',
    });
  }, 60_000);
});

describe('an epoch whose submission is unknown on a commit-reveal subnet (reconcile.ts, real SQLite and HTTP)', () => {
  // Tempo 10, reveal period 1, an era of 64 + 16 blocks. Reconciled at head 15: a commit signed by then lands by
  // 15 + 80 = 95 and is revealed by 95 + (1 + 1) x (10 + 1) = 117; the embargo lifts at 117 + the confirmer's
  // overdue margin, 2 x max(epoch_length 10, tempo + 1 = 11) = 22: block 139.
  const schedule: CommitSchedule = { scheme: 'timelock', tempo: 10, revealPeriodEpochs: 1n, landingBlocks: 80n };

  it('stays embargoed (425, no file, not the latest weights) until its latest possible reveal is overdue, then is served and written', async () => {
    const dir = await crashMidSubmission(k, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 15n;
    chain.commitSchedule = () => Promise.resolve(schedule);
    chain.confirmReveal = () => Promise.reject(new Error('no commit to ask about'));
    const service = await startInDir(dir, chain, cleanups);
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
    expect(existsSync(bundleFile(dir, 0))).toBe(false);

    // One block before the lift: still embargoed.
    chain.headBlock = 138n;
    await settledPass(service);
    expect((await service.storage.getEpoch(0))?.revealStatus).toBe('pending');
    expect((await fetch(`${service.url}/v1/epochs/0/bundle`)).status).toBe(425);
    expect(existsSync(bundleFile(dir, 0))).toBe(false);

    chain.headBlock = 139n;
    await untilRevealStatus(service, 0, 'unconfirmed');
    const lifted = await service.storage.getEpoch(0);
    expect(JSON.parse(lifted?.reveal ?? '{}')).toMatchObject({ code: 'VALIDATOR_REVEAL_OVERDUE', reason: 'submission_unknown', due_block: '117' });
    const served = await fetch(`${service.url}/v1/epochs/0/bundle`);
    expect(served.status).toBe(200);
    const text = await served.text();
    expect(readFileSync(bundleFile(dir, 0), 'utf8')).toBe(`${text}\n`);
    await expectAttestedBundle(text, lifted?.bundle ?? '', {
      status: 'unconfirmed',
      code: 'VALIDATOR_REVEAL_OVERDUE',
      reason: 'submission_unknown',
      commit_hash: null,
      due_block: '117',
      reveal_block: null,
      confirmed_at_head: '139',
    });
  }, 60_000);

  it('on a commit-reveal v2 subnet it is embargoed the same way, saying v2 (docs/spec.md G.22)', async () => {
    const dir = await crashMidSubmission(k, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 15n;
    chain.commitSchedule = () => Promise.resolve({ ...schedule, scheme: 'hash' });
    chain.confirmReveal = () => Promise.reject(new Error('no commit to ask about'));
    const service = await startInDir(dir, chain, cleanups);
    const row = await service.storage.getEpoch(0);
    expect(row?.revealStatus).toBe('pending');
    expect(JSON.parse(row?.reveal ?? '{}')).toMatchObject({ scheme: 'hash', due_block: '117', commit_hash: null, record: null });
    const refused = await fetch(`${service.url}/v1/epochs/0/bundle`);
    expect(refused.status).toBe(425);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /^epoch 0's submission outcome is unknown and its weights may be committed with commit-reveal v2, revealed by block 117 at the latest;/,
    );
    chain.headBlock = 139n;
    await untilRevealStatus(service, 0, 'unconfirmed');
    expect((await fetch(`${service.url}/v1/epochs/0/bundle`)).status).toBe(200);
  }, 60_000);

  it('on a subnet without commit-reveal it is published at once, as before', async () => {
    const dir = await crashMidSubmission(k, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 15n;
    chain.commitSchedule = () => Promise.resolve(null);
    const service = await startInDir(dir, chain, cleanups);
    expect((await service.storage.getEpoch(0))?.status).toBe('unknown');
    expect((await service.storage.getEpoch(0))?.revealStatus).toBeNull();
    expect((await fetch(`${service.url}/v1/epochs/0/bundle`)).status).toBe(200);
    expect(existsSync(bundleFile(dir, 0))).toBe(true);
  }, 60_000);

  it('a commit found by reconciliation whose reveal details cannot be rebuilt is embargoed to the same bound, not published at once', async () => {
    const dir = await crashMidSubmission(k, cleanups);
    const chain = fakeChain(k);
    chain.headBlock = 15n;
    chain.commitSchedule = () => Promise.resolve(schedule);
    chain.confirmReveal = () => Promise.reject(new Error('no record to ask about'));
    // The commit is in a final block, but no record came back with it (recoverTimelockedCommit found no uid, say).
    chain.findSubmission = () =>
      Promise.resolve({
        status: 'landed',
        block: 12n,
        extrinsicHash: `0x${'cd'.repeat(32)}`,
        call: 'SubtensorModule.commit_timelocked_weights',
        lastUpdate: 12n,
        weightsMatch: null,
      });
    const service = await startInDir(dir, chain, cleanups);
    const row = await service.storage.getEpoch(0);
    expect(row?.status).toBe('submitted');
    expect(row?.revealStatus).toBe('pending');
    expect(JSON.parse(row?.reveal ?? '{}')).toMatchObject({ due_block: '117', commit_hash: null, record: null });
    expect((await fetch(`${service.url}/v1/epochs/0/bundle`)).status).toBe(425);
    expect((await fetch(`${service.url}/v1/weights/latest`)).status).toBe(425);
    expect(existsSync(bundleFile(dir, 0))).toBe(false);
    chain.headBlock = 139n;
    await untilRevealStatus(service, 0, 'unconfirmed');
    expect((await fetch(`${service.url}/v1/epochs/0/bundle`)).status).toBe(200);
    expect(existsSync(bundleFile(dir, 0))).toBe(true);
  }, 60_000);
});
