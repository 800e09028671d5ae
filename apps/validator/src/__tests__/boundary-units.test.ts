/**
 * Edges of small boundary helpers that the HTTP tests pass over: each signature header missing on its own, a
 * reply body of exactly the byte limit, the 80-character cut of a quoted sender value, and the α figures of the
 * stake warning. Pure functions over real inputs (a real sr25519 signature, a real web `Response` stream).
 */
import { describe, expect, it } from 'vitest';

import { readBodyUpTo } from '../http-body.js';
import { quotedValue } from '../hotkey-spelling.js';
import { RECEIVER_HEADER, SIGNATURE_HEADERS, signRequest, verifySignedRequest } from '../signed-request.js';
import { stakeBelowThreshold } from '../stake-gate.js';
import { keys } from './helpers.js';

describe('verifySignedRequest: one signature header missing', () => {
  it.each(Object.values(SIGNATURE_HEADERS))('without %s alone: missing_signature naming that header, nothing else checked', async (name) => {
    const k = await keys();
    const body = new TextEncoder().encode('{"task_id":"t-1"}');
    const now = 1_800_000_000_000;
    const parts = { method: 'POST', path: '/v1/sssa', body, timestamp: now, nonce: 'n0123456789abcdef', receiver: k.validator.address };
    const headers: Record<string, string> = signRequest(k.miners[0]!, parts);
    // The complete set is taken, so the refusal below is the missing header's alone.
    expect(
      verifySignedRequest({ headers, method: 'POST', path: '/v1/sssa', body, nowMs: now, maxSkewMs: 60_000, receiver: k.validator.address }),
    ).toMatchObject({
      ok: true,
      hotkey: k.miners[0]!.address,
      bound: true,
    });
    const { [name]: _dropped, ...rest } = headers;
    expect(rest[RECEIVER_HEADER]).toBe(k.validator.address);
    const refused = verifySignedRequest({
      headers: rest,
      method: 'POST',
      path: '/v1/sssa',
      body,
      nowMs: now,
      maxSkewMs: 60_000,
      receiver: k.validator.address,
    });
    expect(refused).toEqual({ ok: false, reason: 'missing_signature', header: name, message: `signed request refused: missing header ${name}` });
  });
});

/** A `Response` whose body arrives in the given chunks. */
function chunked(chunks: readonly number[]): Response {
  let at = 0;
  let next = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = chunks[next++];
      if (size === undefined) {
        controller.close();
        return;
      }
      controller.enqueue(Uint8Array.from({ length: size }, () => at++ % 251));
    },
  });
  return new Response(stream);
}

describe('readBodyUpTo: the byte limit', () => {
  it('a body of exactly the limit is read whole and has no more (in one chunk or several)', async () => {
    for (const chunks of [[64], [10, 54], [1, 1, 62]]) {
      const { bytes, more } = await readBodyUpTo(chunked(chunks), 64);
      expect([chunks, bytes.length, more]).toEqual([chunks, 64, false]);
      expect(bytes[63]).toBe(63);
    }
  });

  it('one byte over the limit: the first limit bytes, and more', async () => {
    for (const chunks of [[65], [64, 1], [30, 30, 30]]) {
      const { bytes, more } = await readBodyUpTo(chunked(chunks), 64);
      expect([chunks, bytes.length, more]).toEqual([chunks, 64, true]);
    }
  });

  it('an empty body and a response without one', async () => {
    expect(await readBodyUpTo(chunked([]), 64)).toEqual({ bytes: Buffer.alloc(0), more: false });
    expect(await readBodyUpTo(new Response(null, { status: 204 }), 64)).toEqual({ bytes: Buffer.alloc(0), more: false });
  });
});

describe('quotedValue: a sender value in a message', () => {
  it('shows 80 characters whole and cuts the 81st off with an ellipsis', () => {
    const eighty = 'a'.repeat(80);
    expect(quotedValue(eighty)).toBe(JSON.stringify(eighty));
    expect(quotedValue(`${eighty}b`)).toBe(JSON.stringify(`${eighty}…`));
  });
});

describe('stakeBelowThreshold: the figures of the warning', () => {
  const neuron = (stake: bigint) => ({ uid: 4, hotkey: 'hk-4', stake, validatorPermit: true });
  it('prints rao as α with its decimals, and a whole number without a point', () => {
    const low = stakeBelowThreshold({ stakeThreshold: 1000n * 1_000_000_000n }, neuron(500_000_000n));
    expect(low?.sentence).toContain("a stake weight of 0.5 α, below the subnet's StakeThreshold of 1000 α");
    expect(low?.numbers).toEqual({ stake: '500000000', stake_threshold: '1000000000000' });
    expect(stakeBelowThreshold({ stakeThreshold: 2_000_000_001n }, neuron(1_000_000_000n))?.sentence).toContain(
      "of 1 α, below the subnet's StakeThreshold of 2.000000001 α",
    );
  });
  it('says nothing at the threshold or without one', () => {
    expect(stakeBelowThreshold({ stakeThreshold: 7n }, neuron(7n))).toBeNull();
    expect(stakeBelowThreshold({ stakeThreshold: undefined }, neuron(0n))).toBeNull();
  });
});
