import { readFileSync } from 'node:fs';

import type { Bundle } from '@subnet/bundle';
import { describe, expect, it } from 'vitest';

import { admitPeerScores, peerScoresTarget } from '../peer-window.js';
import { postSigned, useSecondPeerReceiver } from './helpers.js';

/**
 * docs/spec.md G.4 "Peer scores count one epoch late": a peer document of epoch E is taken while this
 * validator is in E or E+1 and counts in its close of E+1; other epochs are refused with 409 WRONG_EPOCH.
 */

describe('peerScoresTarget (which close counts a peer document)', () => {
  it('takes the current epoch and the one just ended, both into the close after their epoch', () => {
    expect(peerScoresTarget(41, 42)).toEqual({ ok: true, closeEpoch: 42 });
    expect(peerScoresTarget(42, 42)).toEqual({ ok: true, closeEpoch: 43 });
    expect(peerScoresTarget(0, 0)).toEqual({ ok: true, closeEpoch: 1 });
  });

  it('refuses older epochs as too late and later ones as too early, naming the epochs it takes', () => {
    const late = peerScoresTarget(40, 42);
    expect(late).toMatchObject({ ok: false, reason: 'too_late' });
    expect(!late.ok && late.message).toContain('takes scores of epochs 41 and 42');
    expect(peerScoresTarget(43, 42)).toMatchObject({ ok: false, reason: 'too_early' });
    const early = peerScoresTarget(1, 0);
    expect(!early.ok && early.message).toContain('takes scores of epoch 0');
    expect(peerScoresTarget(0, undefined)).toMatchObject({ ok: false, reason: 'not_ready' });
  });

  it('admitPeerScores refuses a document whose close already ran here, and decides again (and writes) after reading storage', async () => {
    const writes: number[] = [];
    const write = (closeEpoch: number) => writes.push(closeEpoch);
    const closed = { getEpochHead: (n: number) => Promise.resolve(n === 42 ? ({ epoch: 42 } as never) : undefined) };
    expect(await admitPeerScores({ storage: closed, currentEpoch: () => 42 }, 41, write)).toMatchObject({ ok: false, reason: 'too_late' });
    // The head moves on while the row is read: the answer is the one for the epoch the write will see.
    let current = 42;
    const moving = {
      getEpochHead: () => {
        current = 43;
        return Promise.resolve(undefined);
      },
    };
    expect(await admitPeerScores({ storage: moving, currentEpoch: () => current }, 41, write)).toMatchObject({ ok: false, reason: 'too_late' });
    expect(writes).toEqual([]);
    current = 42;
    expect(await admitPeerScores({ storage: moving, currentEpoch: () => current }, 42, write)).toEqual({ ok: true, written: 1 });
    expect(writes).toEqual([43]);
  });
});

describe('POST /v1/peer-scores across an epoch boundary (real HTTP, fake chain)', () => {
  // A second peer validator (Eve) with a permit.
  const receiver = useSecondPeerReceiver();

  const doc = (epoch: number, challenge: string, miner: number, score: number) => ({
    epoch,
    challenge_id: challenge,
    scores: [{ miner_hotkey: receiver.k.miners[miner]!.address, score }],
  });
  const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as { epoch?: number; error?: { code: string; message: string } } });
  const bundleOf = (epoch: number): Bundle => {
    const path = receiver.outcomes.find((o) => o.epoch === epoch)?.bundlePath ?? '';
    return (JSON.parse(readFileSync(path, 'utf8')) as { bundle: Bundle }).bundle;
  };
  const peerInputs = (bundle: Bundle) =>
    (bundle.inputs as { peer_scores: { validator_hotkey: string; challenge_id: string; miner_hotkey: string; score: number }[] }).peer_scores.map(
      (p) => `${p.validator_hotkey === receiver.k.peer.address ? 'bob' : 'eve'}:${p.challenge_id}:${p.score}`,
    );
  const evaluationsBy = (bundle: Bundle, hotkey: string): number =>
    JSON.stringify(bundle.result.aggregation).split(`"validator_hotkey":"${hotkey}"`).length - 1;

  it('in epoch 0: scores of epoch 0 are taken for the close of epoch 1; scores of epoch 1 are too early (409 WRONG_EPOCH)', async () => {
    const now = await answer(await postSigned(receiver.service.url, '/v1/peer-scores', receiver.k.peer, doc(0, 'term', 0, 0.5)));
    expect(now).toMatchObject({ status: 201, body: { epoch: 1 } });
    const early = await answer(await postSigned(receiver.service.url, '/v1/peer-scores', receiver.k.peer, doc(1, 'term', 0, 0.5)));
    expect(early.status).toBe(409);
    expect(early.body.error?.code).toBe('WRONG_EPOCH');
    expect(early.body.error?.message).toContain('has not begun here');
  });

  it('in epoch 1: scores of epoch 0 (the epoch the peer just closed) are taken, and so are scores of epoch 1, for the next close', async () => {
    receiver.chain.headBlock = 12n;
    await receiver.service.tick();
    expect(receiver.service.currentEpoch()).toBe(1);
    expect(receiver.outcomes.map((o) => o.epoch)).toEqual([0]);
    // The close of epoch 0 ran before any peer could know its scores of epoch 0: none of them are in it.
    expect(peerInputs(bundleOf(0))).toEqual([]);
    const justClosed = await answer(await postSigned(receiver.service.url, '/v1/peer-scores', receiver.k.stranger, doc(0, 'term', 0, 0.25)));
    expect(justClosed).toMatchObject({ status: 201, body: { epoch: 1 } });
    const current = await answer(await postSigned(receiver.service.url, '/v1/peer-scores', receiver.k.stranger, doc(1, 'workflow', 1, 0.75)));
    expect(current).toMatchObject({ status: 201, body: { epoch: 2 } });
  });

  it('the close of epoch 1 aggregates both peers’ scores of epoch 0, and not the scores of epoch 1', async () => {
    receiver.chain.headBlock = 22n;
    await receiver.service.tick();
    const bundle = bundleOf(1);
    expect(peerInputs(bundle).sort()).toEqual(['bob:term:0.5', 'eve:term:0.25']);
    expect(bundle.result.excluded.filter((e) => e.list === 'peer_scores')).toEqual([]);
    expect(evaluationsBy(bundle, receiver.k.peer.address)).toBe(1);
    expect(evaluationsBy(bundle, receiver.k.stranger.address)).toBe(1);
  });

  it('in epoch 2: scores of epoch 0 are too late (409 WRONG_EPOCH: their close has run); epoch 1 is still taken', async () => {
    const late = await answer(await postSigned(receiver.service.url, '/v1/peer-scores', receiver.k.peer, doc(0, 'workflow', 2, 0.5)));
    expect(late.status).toBe(409);
    expect(late.body.error?.code).toBe('WRONG_EPOCH');
    expect(late.body.error?.message).toContain('too late');
    const justClosed = await answer(await postSigned(receiver.service.url, '/v1/peer-scores', receiver.k.peer, doc(1, 'term', 2, 1)));
    expect(justClosed).toMatchObject({ status: 201, body: { epoch: 2 } });
    receiver.chain.headBlock = 32n;
    await receiver.service.tick();
    expect(peerInputs(bundleOf(2)).sort()).toEqual(['bob:term:1', 'eve:workflow:0.75']);
  });
});
