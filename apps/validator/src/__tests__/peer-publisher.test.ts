import { createServer, request } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { REFUSED_PORT } from '@subnet/vitest-config/local-server';
import { afterAll, describe, expect, it } from 'vitest';

import { publishPeerScores } from '../peer-publisher.js';
import { useKeys, useService } from './helpers.js';

/** Publishing this validator's scores to a peer validator over real HTTP: signed raw bytes, retries, final refusals. */

const k = useKeys();
const validator = useService(k);
const servers: Server[] = [];

// Registered after useService, so it runs before the validator stops (vitest runs afterAll hooks last first).
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A peer in front of the real service: `answer` answers a call itself (given its 1-based number) and returns
 * true, or returns false and the call is forwarded to the service.
 */
async function inFrontOfService(answer: (call: number, res: ServerResponse) => boolean): Promise<{ url: string; calls: () => number }> {
  let calls = 0;
  const target = new URL(validator.url);
  const url = await listen(
    createServer((req, res) => {
      calls++;
      if (answer(calls, res)) {
        req.resume();
        return;
      }
      const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      req.pipe(up);
    }),
  );
  return { url, calls: () => calls };
}

describe('publishPeerScores', () => {
  it('delivers signed scores to a peer validator; resending is idempotent (200); other scores for the same epoch are refused (409) without retries', async () => {
    const doc = { epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: k.miners[0]!.address, score: 0.75 }] };
    const [first] = await publishPeerScores([doc], { peers: [validator.url], signer: k.peer, backoffMs: 10 });
    expect(first).toEqual({ peer: validator.url, result: 'delivered', status: 201, attempts: 1 });
    const [again] = await publishPeerScores([doc], { peers: [validator.url], signer: k.peer, backoffMs: 10 });
    expect(again).toEqual({ peer: validator.url, result: 'delivered', status: 200, attempts: 1 });
    const [other] = await publishPeerScores([{ ...doc, scores: [{ miner_hotkey: k.miners[0]!.address, score: 0.5 }] }], {
      peers: [validator.url],
      signer: k.peer,
      backoffMs: 10,
    });
    expect(other).toMatchObject({ peer: validator.url, result: 'refused', status: 409, attempts: 1 });
    expect(other?.reason).toBe(
      'RECORD_CONFLICT: this validator already sent different scores of epoch 0 for challenge "term"; one document per validator, epoch and challenge is taken (SPEC C.2)',
    );
  });

  it('retries a peer that answers 503, and delivers on the next attempt', async () => {
    const flaky = await inFrontOfService((call, res) => {
      if (call > 1) return false;
      res.writeHead(503).end();
      return true;
    });
    const doc = { epoch: 0, challenge_id: 'sssa', scores: [{ miner_hotkey: k.miners[1]!.address, score: 1 }] };
    const [outcome] = await publishPeerScores([doc], { peers: [flaky.url], signer: k.peer, backoffMs: 10 });
    expect(outcome).toEqual({ peer: flaky.url, result: 'delivered', status: 201, attempts: 2 });
  });

  it("retries NOT_REGISTERED, NOT_A_VALIDATOR and PEER_SCORES_EXCEED_METAGRAPH, which a peer whose metagraph lags this validator's answers, and delivers once it has caught up", async () => {
    // The first three answers are what a peer that has not yet seen a registration or a permit says; then it forwards.
    const refusals: [number, string][] = [
      [403, 'NOT_REGISTERED'],
      [403, 'NOT_A_VALIDATOR'],
      [400, 'PEER_SCORES_EXCEED_METAGRAPH'],
    ];
    const lagging = await inFrontOfService((call, res) => {
      const refusal = refusals[call - 1];
      if (refusal === undefined) return false;
      const [status, code] = refusal;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code, message: 'not yet' } }));
      return true;
    });
    const doc = { epoch: 0, challenge_id: 'workflow', scores: [{ miner_hotkey: k.miners[3]!.address, score: 0.25 }] };
    const [outcome] = await publishPeerScores([doc], { peers: [lagging.url], signer: k.peer, backoffMs: 10 });
    expect(lagging.calls()).toBe(4);
    expect(outcome).toEqual({ peer: lagging.url, result: 'delivered', status: 201, attempts: 4 });
  });

  it('a signer the peer never finds registered is refused after every attempt, with the reason', async () => {
    const [outcome] = await publishPeerScores([{ epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: k.miners[2]!.address, score: 0.1 }] }], {
      peers: [validator.url],
      signer: k.stranger,
      attempts: 3,
      backoffMs: 5,
    });
    expect(outcome).toMatchObject({ peer: validator.url, result: 'refused', status: 403, attempts: 3 });
    expect(outcome?.reason).toMatch(/^NOT_REGISTERED: /);
  });

  it('gives up on an unreachable peer after the configured attempts, without throwing', async () => {
    const closed = `http://127.0.0.1:${REFUSED_PORT}`; // nothing listens there
    const [outcome] = await publishPeerScores([{ epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: k.miners[2]!.address, score: 0.1 }] }], {
      peers: [closed],
      signer: k.peer,
      attempts: 3,
      backoffMs: 5,
    });
    expect(outcome).toEqual({ peer: closed, result: 'failed', status: null, attempts: 3, reason: 'ECONNREFUSED' });
  });

  it('retries 429 (rate limited) like a 5xx, and reports the last answer as the reason when every attempt fails', async () => {
    let calls = 0;
    const busy = await listen(
      createServer((req, res) => {
        calls++;
        req.resume();
        res.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'slow down' } }));
      }),
    );
    const [outcome] = await publishPeerScores([{ epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: k.miners[2]!.address, score: 0.1 }] }], {
      peers: [busy],
      signer: k.peer,
      attempts: 2,
      backoffMs: 5,
    });
    expect(calls).toBe(2);
    expect(outcome).toEqual({ peer: busy, result: 'failed', status: 429, attempts: 2, reason: 'RATE_LIMITED: slow down' });
  });

  it('a peer slower than the time limit fails with a timeout reason; an abort ends the retries at once', async () => {
    const hanging = await listen(
      createServer((req) => {
        req.resume(); // never answers
      }),
    );
    const doc = { epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: k.miners[2]!.address, score: 0.1 }] };
    const [slow] = await publishPeerScores([doc], { peers: [hanging], signer: k.peer, attempts: 1, timeoutMs: 200 });
    expect(slow).toEqual({ peer: hanging, result: 'failed', status: null, attempts: 1, reason: 'timed out after 200 ms' });
    const controller = new AbortController();
    const pending = publishPeerScores([doc], {
      peers: [hanging],
      signer: k.peer,
      attempts: 10,
      backoffMs: 60_000,
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    setTimeout(() => {
      controller.abort();
    }, 100);
    const [aborted] = await pending;
    expect(aborted).toEqual({ peer: hanging, result: 'failed', status: null, attempts: 1, reason: 'aborted' });
  });
});
