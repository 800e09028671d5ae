import { createHash, randomBytes } from 'node:crypto';

import { u8aToHex } from '@polkadot/util';
import { encodeAddress } from '@polkadot/util-crypto';
import { describe, expect, it } from 'vitest';

import { publishPeerScores } from '../peer-publisher.js';
import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
import { RECEIVER_HEADER, signRequest, verifySignedRequest } from '../signed-request.js';
import { fakeChain, silent, startPeerReceiver, tempDir, testConfig, TOKEN, useCleanups, useKeys } from './helpers.js';

/**
 * A signed request can name the validator it is for (`x-subnet-receiver`, signed as a sixth line), so a
 * validator that receives it cannot replay it to another validator as the signer's (docs/spec.md G.6).
 * Real HTTP on 127.0.0.1, two validators (//Alice and //Bob) on fake chains.
 */

const k = useKeys();
const cleanups = useCleanups();

/** The documented messages, written out plainly (the oracle: nothing from src/). */
function referenceMessage(body: Uint8Array, timestamp: string, nonce: string, receiver?: string): Uint8Array {
  const lines = ['POST', '/v1/sssa', createHash('sha256').update(body).digest('hex'), timestamp, nonce];
  return new TextEncoder().encode([...lines, ...(receiver === undefined ? [] : [receiver])].join('\n'));
}

/** An SSSA for a task no validator registered: UNKNOWN_TASK comes only after the signature verified. */
const sssa = (taskId: string) =>
  new TextEncoder().encode(
    JSON.stringify({ task_id: taskId, sssa: { verdict: 'ALLOW', risk_score: 0.1, findings: [], capabilities: [], dependencies: [], policy: { rules: [] } } }),
  );

async function post(
  url: string,
  body: Uint8Array,
  headers: Record<string, string>,
): Promise<{ status: number; code: string | undefined; message: string; path: string | undefined }> {
  const res = await fetch(`${url}/v1/sssa`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: new Uint8Array(body) });
  const error = ((await res.json()) as { error?: { code: string; message: string; path?: string } }).error;
  return { status: res.status, code: error?.code, message: error?.message ?? '', path: error?.path };
}

async function startAlice(config: Record<string, unknown> = {}): Promise<ValidatorService> {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const service = await startValidator({ config: testConfig(t.dir, config), chain: fakeChain(k), logger: silent, autoTick: false });
  cleanups.push(() => service.stop());
  return service;
}

/** Headers of a hand-signed SSSA by miner 0, bound to `receiver` when given. */
function handSigned(body: Uint8Array, receiver?: string): Record<string, string> {
  const timestamp = String(Date.now());
  const nonce = randomBytes(16).toString('hex');
  return {
    'x-subnet-hotkey': k.miners[0]!.address,
    'x-subnet-timestamp': timestamp,
    'x-subnet-nonce': nonce,
    'x-subnet-signature': u8aToHex(k.miners[0]!.sign(referenceMessage(body, timestamp, nonce, receiver))),
    ...(receiver === undefined ? {} : { 'x-subnet-receiver': receiver }),
  };
}

const signedCount = async (service: ValidatorService, binding: string): Promise<number> =>
  Number(new RegExp(`validator_signed_requests_total\\{kind="sssa",binding="${binding}"\\} (\\d+)`).exec(await service.metrics.registry.metrics())?.[1] ?? 0);

describe('a request bound to its receiver cannot be replayed to another validator', () => {
  it('the same bytes and headers: taken by the validator they name, 421 WRONG_RECEIVER at another one, naming the header, its value and that validator', async () => {
    const alice = await startAlice();
    const { receiver: bob } = await startPeerReceiver(k, cleanups);
    const body = sssa('task-bound');
    const headers = handSigned(body, k.validator.address);
    expect(await post(alice.url, body, headers)).toMatchObject({ status: 404, code: 'UNKNOWN_TASK' });
    const replayed = await post(bob.url, body, headers);
    expect(replayed).toMatchObject({ status: 421, code: 'WRONG_RECEIVER', path: 'headers.x-subnet-receiver' });
    expect(replayed.message).toContain(`"${k.validator.address}"`);
    expect(replayed.message).toContain(`this validator's hotkey is ${k.peer.address}`);
    expect(await signedCount(alice, 'receiver')).toBe(1);
    expect(await signedCount(bob, 'receiver')).toBe(0);
  });

  it('decision: an unbound request (five lines, no x-subnet-receiver) is still taken by default, and counted as binding="none"', async () => {
    const alice = await startAlice();
    const { receiver: bob } = await startPeerReceiver(k, cleanups);
    const body = sssa('task-unbound');
    const headers = handSigned(body);
    expect(await post(alice.url, body, headers)).toMatchObject({ status: 404, code: 'UNKNOWN_TASK' });
    // The replay this header exists to stop: without it another validator takes the copy as the miner's.
    expect(await post(bob.url, body, headers)).toMatchObject({ status: 404, code: 'UNKNOWN_TASK' });
    expect(await signedCount(bob, 'none')).toBe(1);
  });

  it('the receiver is signed: removing the header from a bound request, or adding one to an unbound request, is 401 BAD_SIGNATURE', async () => {
    const alice = await startAlice();
    const body = sssa('task-strip');
    const bound = handSigned(body, k.validator.address);
    const { [RECEIVER_HEADER]: _dropped, ...stripped } = bound;
    const refused = await post(alice.url, body, stripped);
    expect(refused).toMatchObject({ status: 401, code: 'BAD_SIGNATURE' });
    expect(refused.message).toContain('no x-subnet-receiver');
    const added = await post(alice.url, body, { ...handSigned(body), [RECEIVER_HEADER]: k.validator.address });
    expect(added).toMatchObject({ status: 401, code: 'BAD_SIGNATURE' });
    expect(added.message).toContain(`the receiver ${k.validator.address}`);
  });

  it('a refused receiver spends no nonce: the same nonce, signed again for the right validator, is taken', async () => {
    const alice = await startAlice();
    const body = sssa('task-nonce');
    const wrong = handSigned(body, k.peer.address);
    expect(await post(alice.url, body, wrong)).toMatchObject({ status: 421, code: 'WRONG_RECEIVER' });
    const nonce = wrong['x-subnet-nonce']!;
    const timestamp = wrong['x-subnet-timestamp']!;
    const right = {
      ...wrong,
      'x-subnet-receiver': k.validator.address,
      'x-subnet-signature': u8aToHex(k.miners[0]!.sign(referenceMessage(body, timestamp, nonce, k.validator.address))),
    };
    expect(await post(alice.url, body, right)).toMatchObject({ status: 404, code: 'UNKNOWN_TASK' });
  });

  it('server.require_receiver: an unbound request is 401 UNSIGNED naming x-subnet-receiver and the hotkey to send; a bound one is taken', async () => {
    const alice = await startAlice({ server: { port: 0, executor_token: TOKEN, require_receiver: true } });
    const body = sssa('task-required');
    const refused = await post(alice.url, body, handSigned(body));
    expect(refused).toMatchObject({ status: 401, code: 'UNSIGNED', path: 'headers.x-subnet-receiver' });
    expect(refused.message).toContain(`${RECEIVER_HEADER}: ${k.validator.address}`);
    expect(await post(alice.url, body, handSigned(body, k.validator.address))).toMatchObject({ status: 404, code: 'UNKNOWN_TASK' });
  });

  it('signRequest with `receiver` sends the header and signs the documented six-line message', () => {
    const body = sssa('task-helper');
    const headers = signRequest(k.miners[0]!, {
      method: 'POST',
      path: '/v1/sssa',
      body,
      timestamp: 1_763_798_400_000,
      nonce: 'n'.repeat(16),
      receiver: k.validator.address,
    });
    expect(headers[RECEIVER_HEADER]).toBe(k.validator.address);
    const check = (receiver: string) =>
      verifySignedRequest({ headers, method: 'POST', path: '/v1/sssa', body, nowMs: 1_763_798_400_000, maxSkewMs: 60_000, receiver });
    expect(check(k.validator.address)).toMatchObject({ ok: true, bound: true, hotkey: k.miners[0]!.address });
    expect(check(k.peer.address)).toMatchObject({ ok: false, reason: 'wrong_receiver', header: RECEIVER_HEADER });
  });
});

describe('peers configured with their hotkeys get bound documents', () => {
  it('the publisher binds each request to the peer it names: taken by a peer that requires binding; refused 421 WRONG_RECEIVER (final, no retry) when the hotkey is another validator’s', async () => {
    const { receiver: bob } = await startPeerReceiver(k, cleanups, { server: { port: 0, executor_token: TOKEN, require_receiver: true } });
    const doc = { epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: k.miners[0]!.address, score: 0.5 }] };
    const [unbound] = await publishPeerScores([doc], { peers: [bob.url], signer: k.validator, attempts: 1 });
    expect(unbound).toMatchObject({ result: 'refused', status: 401 });
    expect(unbound!.reason).toMatch(/^UNSIGNED: .*x-subnet-receiver/);
    const [wrong] = await publishPeerScores([doc], { peers: [{ url: bob.url, hotkey: k.stranger.address }], signer: k.validator, attempts: 3, backoffMs: 10 });
    expect(wrong).toMatchObject({ result: 'refused', status: 421, attempts: 1 });
    expect(wrong!.reason).toMatch(/^WRONG_RECEIVER: /);
    const [bound] = await publishPeerScores([doc], { peers: [{ url: bob.url, hotkey: k.peer.address }], signer: k.validator, attempts: 1 });
    expect(bound).toMatchObject({ peer: bob.url, result: 'delivered', status: 201 });
  });

  it('peers.urls takes { url, hotkey } and refuses a hotkey in another spelling, naming its path', () => {
    // resolveConfig reads no file: the folder is never created.
    const config = testConfig('/nonexistent', { peers: { urls: ['http://10.0.0.2:8091', { url: 'http://10.0.0.3:8091', hotkey: k.peer.address }] } });
    expect(config.peers.urls).toEqual(['http://10.0.0.2:8091', { url: 'http://10.0.0.3:8091', hotkey: k.peer.address }]);
    expect(() => testConfig('/nonexistent', { peers: { urls: [{ url: 'http://10.0.0.3:8091', hotkey: 'not-a-key' }] } })).toThrow(
      /a peer's hotkey is an SS58 address of a 32-byte key .* at peers\.urls\[0\]\.hotkey \(got "not-a-key"\)/,
    );
    const polkadot = encodeAddress(k.peer.publicKey, 0);
    expect(() => testConfig('/nonexistent', { peers: { urls: [{ url: 'http://10.0.0.3:8091', hotkey: polkadot }] } })).toThrow(
      `a peer's hotkey is spelled with prefix 42, as the metagraph lists it: ${k.peer.address}, not an address with prefix 0 at peers.urls[0].hotkey`,
    );
  });
});
