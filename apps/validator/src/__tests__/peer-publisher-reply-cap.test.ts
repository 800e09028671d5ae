import { listenLocal, writeEndlessly } from '@subnet/vitest-config/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { publishPeerScores } from '../peer-publisher.js';
import { keys } from './helpers.js';
import type { Keys } from './helpers.js';

/**
 * A peer's answer is read only as far as the outcome needs (at most 64 KiB, for a refusal's reason): a peer
 * that answers with an endless body cannot hold the publisher until its timeout or grow its memory.
 */
let k: Keys;
let peer: string;
let close: () => Promise<void>;
beforeAll(async () => {
  k = await keys();
  ({ url: peer, close } = await listenLocal((request, response) => {
    request.resume();
    response.writeHead(request.url === '/refuse/v1/peer-scores' ? 400 : 201, { 'content-type': 'application/json' });
    response.write('{"error":{"code":"NOPE","message":"');
    writeEndlessly(response);
  }));
});
afterAll(() => close());

describe('publishPeerScores reads at most 64 KiB of a peer answer', () => {
  const doc = () => ({ epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: k.miners[0]!.address, score: 0.5 }] });

  it('a 201 with an endless body is delivered at once, not timed out and retried', async () => {
    const [outcome] = await publishPeerScores([doc()], { peers: [peer], signer: k.peer, attempts: 1, timeoutMs: 5_000 });
    expect(outcome).toEqual({ peer, result: 'delivered', status: 201, attempts: 1 });
  }, 30_000);

  it('a 400 with an endless body is a refusal with the status as its reason', async () => {
    const [outcome] = await publishPeerScores([doc()], { peers: [`${peer}/refuse`], signer: k.peer, attempts: 1, timeoutMs: 5_000 });
    expect(outcome).toEqual({ peer: `${peer}/refuse`, result: 'refused', status: 400, attempts: 1, reason: 'HTTP 400' });
  }, 30_000);
});
