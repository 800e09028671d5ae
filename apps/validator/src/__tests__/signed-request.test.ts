import { createHash, randomBytes } from 'node:crypto';

import { u8aToHex } from '@polkadot/util';
import { signatureVerify } from '@polkadot/util-crypto';
import { describe, expect, it } from 'vitest';

import { signRequest } from '../signed-request.js';
import { useKeys, useService } from './helpers.js';

/** Signed requests over real HTTP: the signature covers the exact body bytes, never a re-serialisation. */

const k = useKeys();
const validator = useService(k);

/** The documented message, written out plainly (the oracle: nothing from src/). */
function referenceMessage(path: string, body: Uint8Array, timestamp: string, nonce: string): Uint8Array {
  return new TextEncoder().encode(['POST', path, createHash('sha256').update(body).digest('hex'), timestamp, nonce].join('\n'));
}

/** Not canonical JSON: `1.0`-style numbers, spacing and newlines, `\u` escapes, keys out of order. */
function rawSssa(taskId: string): Uint8Array {
  const text = `{\n  "task_id": "${taskId}",\n  "sssa": {"verdict":"ALL\\u004fW","risk_score":2.0e-1 ,"findings":[],"capabilities":["fs.read"],"dependencies":[],"policy":{"rules":[]}}\n}\n`;
  return new TextEncoder().encode(text);
}

async function post(path: string, body: Uint8Array, headers: Record<string, string>): Promise<Response> {
  return fetch(`${validator.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: new Uint8Array(body) });
}

describe('signed requests sign the exact raw body bytes', () => {
  it('accepts an SSSA whose raw non-canonical bytes are signed by hand with the documented message', async () => {
    const body = rawSssa('task-raw-1');
    const timestamp = String(Date.now());
    const nonce = randomBytes(16).toString('hex');
    const signature = u8aToHex(k.miners[0]!.sign(referenceMessage('/v1/sssa', body, timestamp, nonce)));
    const res = await post('/v1/sssa', body, {
      'x-subnet-hotkey': k.miners[0]!.address,
      'x-subnet-timestamp': timestamp,
      'x-subnet-nonce': nonce,
      'x-subnet-signature': signature,
    });
    // No task with this id was registered, and that check comes only after the signature verified (and the
    // rate limit): UNKNOWN_TASK, not 401, proves the hand-made signature over the raw bytes was accepted.
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([404, 'UNKNOWN_TASK']);
  });

  it('signRequest signs the documented message over the bytes it is given', async () => {
    const body = rawSssa('task-raw-2');
    const timestamp = Date.now();
    const nonce = randomBytes(16).toString('hex');
    const headers = signRequest(k.miners[1]!, { method: 'post', path: '/v1/sssa', body, timestamp, nonce });
    const valid = signatureVerify(referenceMessage('/v1/sssa', body, String(timestamp), nonce), headers['x-subnet-signature']!, k.miners[1]!.address).isValid;
    expect(valid).toBe(true);
    const res = await post('/v1/sssa', body, headers);
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([404, 'UNKNOWN_TASK']);
  });

  it('401 BAD_SIGNATURE for a signature over the re-serialised body instead of the bytes sent', async () => {
    const body = rawSssa('task-raw-3');
    const reserialised = new TextEncoder().encode(JSON.stringify(JSON.parse(new TextDecoder().decode(body))));
    const headers = signRequest(k.miners[2]!, {
      method: 'POST',
      path: '/v1/sssa',
      body: reserialised,
      timestamp: Date.now(),
      nonce: randomBytes(16).toString('hex'),
    });
    const res = await post('/v1/sssa', body, headers);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('BAD_SIGNATURE');
  });

  it('401 BAD_SIGNATURE when only whitespace of the signed body changes (same JSON value, other bytes)', async () => {
    const body = rawSssa('task-raw-4');
    const headers = signRequest(k.miners[3]!, { method: 'POST', path: '/v1/sssa', body, timestamp: Date.now(), nonce: randomBytes(16).toString('hex') });
    const spaced = new Uint8Array([...body, 0x20]);
    const res = await post('/v1/sssa', spaced, headers);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('BAD_SIGNATURE');
  });

  it('peer scores: `1.0` and an escaped hotkey in the raw bytes verify as sent', async () => {
    const miner = k.miners[1]!.address;
    const escaped = `\\u00${miner.charCodeAt(0).toString(16)}${miner.slice(1)}`;
    const body = new TextEncoder().encode(`{"epoch":0,"challenge_id":"term","scores":[{"miner_hotkey":"${escaped}","score":1.0}]}`);
    const headers = signRequest(k.peer, { method: 'POST', path: '/v1/peer-scores', body, timestamp: Date.now(), nonce: randomBytes(16).toString('hex') });
    expect((await post('/v1/peer-scores', body, headers)).status).toBe(201);
  });
});
