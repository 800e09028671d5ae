import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { publishPeerScores } from '../peer-publisher.js';
import { keys } from './helpers.js';
import type { Keys } from './helpers.js';

/**
 * A peer's answer is read only as far as the outcome needs (at most 64 KiB, for a refusal's reason): a peer
 * that answers with an endless body cannot hold the publisher until its timeout or grow its memory.
 */
let k: Keys;
let server: Server;
let peer: string;
beforeAll(async () => {
  k = await keys();
  server = createServer((request, response) => {
    request.resume();
    response.writeHead(request.url === '/refuse/v1/peer-scores' ? 400 : 201, { 'content-type': 'application/json' });
    response.write('{"error":{"code":"NOPE","message":"');
    const timer = setInterval(() => {
      if (response.destroyed) clearInterval(timer);
      else response.write('x'.repeat(65_536));
    }, 10);
    response.on('close', () => {
      clearInterval(timer);
    });
  });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  peer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
});

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
