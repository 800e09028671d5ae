import pino from 'pino';
import { describe, expect, it } from 'vitest';

import type { TimelockedCommitRecord } from '@subnet/chain';
import { SubnetError } from '@subnet/core';
import { REFUSED_PORT } from '@subnet/vitest-config/local-server';

import type { SubmissionSearch } from '../chain-port.js';
import type { EpochOutcome } from '../epoch-runner.js';
import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
import { timelockRecordToJson } from '../timelock-record-json.js';
import type { FakeChain } from './helpers.js';
import { fakeChain, keys, postExecutor, silent, startPeerReceiver, tempDir, testConfig, useCleanups } from './helpers.js';

/** The epoch loop publishes each close's own scores to the configured peers (real HTTP, fake chain). */

const cleanups = useCleanups();

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const metric = async (service: ValidatorService, result: string): Promise<number> =>
  Number(new RegExp(`validator_peer_publish_total\\{result="${result}"\\} (\\d+)`).exec(await service.metrics.registry.metrics())?.[1] ?? 0);

/** A validator (//Alice) on `chain` that publishes to the peer at `peerUrl`; stopped and removed by `cleanups`. */
async function startSender(chain: FakeChain, peerUrl: string): Promise<ValidatorService> {
  const s = tempDir();
  cleanups.push(s.cleanup);
  const sender = await startValidator({ config: testConfig(s.dir, { peers: { urls: [peerUrl], backoff_ms: 10 } }), chain, logger: silent, autoTick: false });
  cleanups.push(() => sender.stop());
  return sender;
}

describe('peer exchange in the epoch loop', () => {
  it('delivers the closed epoch’s own scores to a peer validator, which counts them in its next close', async () => {
    const k = await keys();
    // The receiver runs as //Bob (uid 1 of the fake metagraph, startPeerReceiver), the sender as //Alice (uid 0).
    const { receiver, chain: receiverChain } = await startPeerReceiver(k, cleanups);
    const chain = fakeChain(k);
    const sender = await startSender(chain, receiver.url);
    const closes: EpochOutcome[] = [];
    sender.onEpoch((o) => closes.push(o));
    const miner = k.miners[0]!.address;
    const term = {
      record_id: 'term-0',
      miner_hotkey: miner,
      results: [0, 1, 2, 3].map((t) => ({ task_id: `t${t}`, tests_passed: t < 3 ? 1 : 0, tests_total: 1, timed_out: false })),
    };
    expect((await postExecutor(sender.url, '/v1/term-results', term)).status).toBe(201);
    chain.headBlock = 12n; // epoch 1: the sender closes epoch 0
    receiverChain.headBlock = 12n;
    await receiver.tick();
    await sender.tick();
    expect(closes.map((o) => [o.epoch, o.status])).toEqual([[0, 'submitted']]);
    await until(async () => (await metric(sender, 'delivered')) === 1, 'the delivery');
    // The receiver was in epoch 1 already (it closed 0 without them): the scores of epoch 0 wait for its close of 1.
    expect(receiver.currentEpoch()).toBe(1);
    const stored = (await receiver.storage.records(1)).filter((x) => x.kind === 'peer_score').map((x) => JSON.parse(x.body) as unknown);
    expect(stored).toEqual([{ validator_hotkey: k.validator.address, epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: miner, score: 0.75 }] }]);
    const received: EpochOutcome[] = [];
    receiver.onEpoch((o) => received.push(o));
    receiverChain.headBlock = 22n;
    await receiver.tick();
    expect(received.map((o) => o.epoch)).toEqual([1]);
    const bundle = JSON.parse((await receiver.storage.getEpoch(1))?.bundle ?? '{}') as { bundle: { inputs: { peer_scores: unknown[] } } };
    expect(bundle.bundle.inputs.peer_scores).toEqual([
      expect.objectContaining({ validator_hotkey: k.validator.address, challenge_id: 'term', miner_hotkey: miner, score: 0.75 }),
    ]);
  });

  it('an epoch whose block was not final at the close: its scores go to the peer once reconciliation writes its bundle, the head still in the next epoch', async () => {
    const k = await keys();
    const { receiver, chain: receiverChain } = await startPeerReceiver(k, cleanups);
    const chain = fakeChain(k);
    const plain = chain.setWeights.bind(chain);
    chain.setWeights = async (uids, weights) => ({ ...(await plain(uids, weights)), finalized: false });
    const landed: SubmissionSearch = {
      status: 'landed',
      block: 13n,
      extrinsicHash: `0x${'ab'.repeat(32)}`,
      call: 'SubtensorModule.set_weights',
      lastUpdate: 13n,
      weightsMatch: true,
    };
    let final = false;
    chain.findSubmission = () => Promise.resolve(final ? landed : { status: 'pending', checkedTo: 12n });
    const sender = await startSender(chain, receiver.url);
    const miner = k.miners[0]!.address;
    const term = {
      record_id: 'term-f',
      miner_hotkey: miner,
      results: [0, 1].map((t) => ({ task_id: `t${t}`, tests_passed: 1, tests_total: 1, timed_out: false })),
    };
    expect((await postExecutor(sender.url, '/v1/term-results', term)).status).toBe(201);
    chain.headBlock = 12n;
    receiverChain.headBlock = 12n;
    await receiver.tick();
    await sender.tick();
    expect((await sender.storage.getEpoch(0))?.status).toBe('submitting');
    await new Promise((r) => setTimeout(r, 200));
    expect(await metric(sender, 'delivered')).toBe(0);
    final = true;
    chain.headBlock = 14n;
    await sender.tick();
    expect((await sender.storage.getEpoch(0))?.status).toBe('submitted');
    await until(async () => (await metric(sender, 'delivered')) === 1, 'the delivery after reconciliation');
    const stored = (await receiver.storage.records(1)).filter((x) => x.kind === 'peer_score').map((x) => JSON.parse(x.body) as { epoch: number });
    expect(stored.map((d) => d.epoch)).toEqual([0]);
  });

  it.each(['found in a final block later', 'dropped and sent again'] as const)(
    'a timelocked epoch reconciled in the next epoch (%s): its bundle is embargoed, and its scores still go to the peer',
    async (how) => {
      const k = await keys();
      const { receiver, chain: receiverChain } = await startPeerReceiver(k, cleanups);
      const chain = fakeChain(k);
      const timelock = {
        record: timelockRecordToJson({ revealRound: 77n, commitBlock: 13n } as unknown as TimelockedCommitRecord),
        dueBlock: 40n,
        commitHash: `0x${'ee'.repeat(32)}`,
      };
      const plain = chain.setWeights.bind(chain);
      let first = true;
      chain.setWeights = async (uids, weights) => {
        const sent = { ...(await plain(uids, weights)), call: 'SubtensorModule.commit_timelocked_mechanism_weights', timelock };
        if (!first) return sent;
        first = false;
        // The close's commit: in a block finality has not reached, or dropped at the end of its era.
        if (how === 'dropped and sent again') throw new SubnetError('CHAIN_EXTRINSIC_DROPPED', 'in no block up to the end of its era');
        return { ...sent, finalized: false };
      };
      chain.confirmReveal = () => Promise.resolve({ status: 'pending' });
      let final = false;
      chain.findSubmission = (): Promise<SubmissionSearch> =>
        Promise.resolve(
          how === 'dropped and sent again'
            ? { status: 'not_landed', checkedTo: 13n }
            : final
              ? {
                  status: 'landed',
                  block: 13n,
                  extrinsicHash: `0x${'ab'.repeat(32)}`,
                  call: 'SubtensorModule.commit_timelocked_mechanism_weights',
                  lastUpdate: 13n,
                  weightsMatch: true,
                  timelock,
                }
              : { status: 'pending', checkedTo: 12n },
        );
      const sender = await startSender(chain, receiver.url);
      const term = {
        record_id: 'term-tl',
        miner_hotkey: k.miners[0]!.address,
        results: [{ task_id: 't0', tests_passed: 1, tests_total: 1, timed_out: false }],
      };
      expect((await postExecutor(sender.url, '/v1/term-results', term)).status).toBe(201);
      chain.headBlock = 12n;
      receiverChain.headBlock = 12n;
      await receiver.tick();
      await sender.tick();
      expect((await sender.storage.getEpoch(0))?.status).toBe('submitting');
      expect(await metric(sender, 'delivered')).toBe(0);
      final = true;
      chain.headBlock = 14n;
      await sender.tick();
      const row = await sender.storage.getEpoch(0);
      expect([row?.status, row?.revealStatus]).toEqual(['submitted', 'pending']);
      // The bundle is stored and its file embargoed until the reveal (nothing to serve at /v1/epochs/0/bundle yet).
      expect((await fetch(`${sender.url}/v1/epochs/0/bundle`)).status).toBe(425);
      await until(async () => (await metric(sender, 'delivered')) === 1, 'the delivery after reconciliation');
      const stored = (await receiver.storage.records(1)).filter((x) => x.kind === 'peer_score').map((x) => JSON.parse(x.body) as { epoch: number });
      expect(stored.map((d) => d.epoch)).toEqual([0]);
    },
  );

  it('an unreachable peer: the close is unaffected, retries are bounded, the failure is counted and logged with its reason', async () => {
    const k = await keys();
    const chain = fakeChain(k);
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const t = tempDir();
    cleanups.push(t.cleanup);
    const peer = `http://127.0.0.1:${REFUSED_PORT}`; // nothing listens there
    const service = await startValidator({
      config: testConfig(t.dir, { peers: { urls: [peer], attempts: 3, backoff_ms: 10 } }),
      chain,
      logger,
      autoTick: false,
    });
    cleanups.push(() => service.stop());
    const closes: EpochOutcome[] = [];
    service.onEpoch((o) => closes.push(o));
    const term = { record_id: 'term-0', miner_hotkey: k.miners[1]!.address, results: [{ task_id: 'a', tests_passed: 1, tests_total: 1, timed_out: false }] };
    expect((await postExecutor(service.url, '/v1/term-results', term)).status).toBe(201);
    chain.headBlock = 12n;
    await service.tick();
    expect(closes.map((o) => [o.epoch, o.status])).toEqual([[0, 'submitted']]);
    expect(chain.submissions).toHaveLength(1);
    await until(async () => (await metric(service, 'failed')) === 1, 'the failure');
    const warning = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'peer scores not delivered (failed): ECONNREFUSED');
    expect(warning).toMatchObject({ epoch: 0, challenge: 'term', peer, result: 'failed', attempts: 3, reason: 'ECONNREFUSED', status: null });
  });
});
