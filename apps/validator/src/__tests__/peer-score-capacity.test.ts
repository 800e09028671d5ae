import { readFileSync } from 'node:fs';

import { encodeAddress } from '@polkadot/util-crypto';
import type { Bundle } from '@subnet/bundle';
import { describe, expect, it } from 'vitest';

import { postSigned, TOKEN, useSecondPeerReceiver } from './helpers.js';

/**
 * docs/spec.md G.4 "A peer document scores at most as many miners as the metagraph has neurons": a peer
 * with a permit may be hostile, and every score it sends is carried into this validator's bundle. A
 * document with more score entries than the receiver's metagraph has neurons (after one re-read of the
 * metagraph) is refused whole with 400 PEER_SCORES_EXCEED_METAGRAPH; a document within that size is taken
 * even when some of its hotkeys are unknown here (views differ around registrations).
 */

/** A well-formed hotkey no neuron of the fake chain holds (a registration the receiver has not seen, or junk). */
const unknownHotkey = (i: number): string => {
  const key = new Uint8Array(32);
  new DataView(key.buffer).setUint32(0, i + 1);
  key[31] = 0xee;
  return encodeAddress(key, 42);
};

describe('POST /v1/peer-scores: at most as many scores as the metagraph has neurons (real HTTP, fake chain)', () => {
  // The metagraph has 7 neurons (Alice, Bob, Eve, 4 miners); the default body limit (1 MiB), under which
  // one document holds some 12,000 scores.
  const receiver = useSecondPeerReceiver({ server: { port: 0, executor_token: TOKEN, body_limit_bytes: 1_048_576 } });

  const scoresOf = (hotkeys: readonly string[]) => hotkeys.map((miner_hotkey, i) => ({ miner_hotkey, score: (i % 10) / 10 }));
  const miners = () => receiver.k.miners.map((m) => m.address);
  const junk = (n: number) => Array.from({ length: n }, (_, i) => unknownHotkey(i));
  const answer = async (res: Response) => ({
    status: res.status,
    body: (await res.json()) as { epoch?: number; error?: { code: string; message: string; path?: string } },
  });

  it('refuses a document of 12,000 junk scores (under the 1 MiB body limit) with 400 PEER_SCORES_EXCEED_METAGRAPH, naming the count and the limit', async () => {
    const hostile = { epoch: 0, challenge_id: 'term', scores: scoresOf(junk(12_000)) };
    const res = await answer(await postSigned(receiver.service.url, '/v1/peer-scores', receiver.k.peer, hostile));
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('PEER_SCORES_EXCEED_METAGRAPH');
    expect(res.body.error?.path).toBe('body.scores');
    expect(res.body.error?.message).toContain('12000 scores');
    expect(res.body.error?.message).toContain('7 neurons');
  });

  it('refuses one score more than the metagraph has neurons (8 of 7), even when most name known miners', async () => {
    const over = { epoch: 0, challenge_id: 'term', scores: scoresOf([...miners(), ...junk(4)]) };
    const res = await answer(await postSigned(receiver.service.url, '/v1/peer-scores', receiver.k.peer, over));
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('PEER_SCORES_EXCEED_METAGRAPH');
    expect(res.body.error?.message).toContain('8 scores');
  });

  it('takes a document of exactly the metagraph size whose view differs by a few registrations (3 hotkeys unknown here)', async () => {
    // The same (peer, epoch, challenge) as the refused ones: they were not stored, so this is not a conflict.
    const honest = { epoch: 0, challenge_id: 'term', scores: scoresOf([...miners(), ...junk(3)]) };
    const res = await answer(await postSigned(receiver.service.url, '/v1/peer-scores', receiver.k.peer, honest));
    expect(res).toMatchObject({ status: 201, body: { epoch: 1 } });
  });

  it('re-reads the metagraph before refusing: a neuron registered since the last read raises the limit', async () => {
    receiver.chain.neurons.push({ uid: 7, hotkey: unknownHotkey(100), stake: 0n, validatorPermit: false });
    // The metagraph is re-read at most every 2 s (as for an unknown signer); wait past that.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const fresher = { epoch: 0, challenge_id: 'workflow', scores: scoresOf([...miners(), unknownHotkey(100), ...junk(3)]) };
    const res = await answer(await postSigned(receiver.service.url, '/v1/peer-scores', receiver.k.stranger, fresher));
    expect(res).toMatchObject({ status: 201, body: { epoch: 1 } });
  });

  it('the close of epoch 1 carries exactly the taken documents (7 + 8 scores), nothing of the refused ones', async () => {
    receiver.chain.headBlock = 12n;
    await receiver.service.tick();
    receiver.chain.headBlock = 22n;
    await receiver.service.tick();
    const path = receiver.outcomes.find((o) => o.epoch === 1)?.bundlePath ?? '';
    const bundle = (JSON.parse(readFileSync(path, 'utf8')) as { bundle: Bundle }).bundle;
    const peers = (bundle.inputs as { peer_scores: { validator_hotkey: string; challenge_id: string }[] }).peer_scores;
    const count = (who: string, challenge: string) => peers.filter((p) => p.validator_hotkey === who && p.challenge_id === challenge).length;
    expect(peers).toHaveLength(15);
    expect(count(receiver.k.peer.address, 'term')).toBe(7);
    expect(count(receiver.k.stranger.address, 'workflow')).toBe(8);
  });
});
