import { request } from 'node:http';

import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { u8aToHex } from '@polkadot/util';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Axon } from '../axon-server.js';
import { createAxon } from '../axon-server.js';
import { checkNonce, pyFixed2 } from '../nonce-window.js';
import { signatureMessage } from '../signature.js';
import type { Synapse } from '../synapse.js';
import { createSynapse, synapseBodyHash, synapseHeaders, synapseJson } from '../synapse.js';
import { defineSynapse } from '../synapse-definition.js';
import { EMPTY_TERMINAL } from '../terminal-info.js';

/**
 * This axon against the SDK axon (`bittensor/core/axon.py`, v10.2.0) and FastAPI's body parsing, over real
 * HTTP on 127.0.0.1: what the content type and the body bytes decide, and the nonce message's numbers.
 */

const Dummy = defineSynapse({
  name: 'Dummy',
  fields: [
    ['dummy_input', { type: 'int' }],
    ['dummy_output', { type: { optional: 'int' }, default: null }],
  ],
  requiredHashFields: [],
});

let alice: KeyringPair;
let bob: KeyringPair;
let axon: Axon;
let uuidCount = 0;

beforeAll(async () => {
  await cryptoWaitReady();
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  alice = keyring.addFromUri('//Alice');
  bob = keyring.addFromUri('//Bob');
  axon = await createAxon({
    hotkey: bob.address,
    port: 0,
    caller: (h) => (h === alice.address ? { validatorPermit: true, stake: 1n } : undefined),
    handlers: [{ definition: Dummy, forward: (s: Synapse) => s }],
  });
});
afterAll(async () => {
  await axon.close();
});

/** Signed SDK headers for `Dummy(dummy_input=1)` (a fresh uuid each time), without a content type. */
function signedHeaders(): Record<string, string> {
  const nonce = BigInt(Date.now()) * 1_000_000n;
  uuidCount += 1;
  const uuid = `sdk-axon-${uuidCount}`;
  const s: Synapse = { ...createSynapse(Dummy, { dummy_input: 1 }), dendrite: { ...EMPTY_TERMINAL, nonce, uuid, hotkey: alice.address, version: 10_002_000 } };
  const hash = synapseBodyHash(Dummy, s);
  const message = signatureMessage({ nonce, dendriteHotkey: alice.address, axonHotkey: bob.address, uuid, bodyHash: hash });
  const signature = u8aToHex(alice.sign(new TextEncoder().encode(message)));
  return synapseHeaders(Dummy, { ...s, dendrite: { ...s.dendrite, signature } }, hash);
}

const BODY = Buffer.from(synapseJson(createSynapse(Dummy, { dummy_input: 1 })));

/** POSTs `body` with `headers` exactly (node adds no content type) and returns the status. */
function post(headers: Record<string, string>, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${axon.url}/Dummy`, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => {
        resolve(res.statusCode ?? 0);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the request body as FastAPI reads it (fastapi routing: JSON when no content-type or application/json or application/*+json)', () => {
  it('no content-type, application/vnd.x+json and Application/JSON; charset=utf-8 are JSON: 200', async () => {
    for (const type of [undefined, 'application/vnd.bt+json', 'Application/JSON; charset=utf-8']) {
      const status = await post({ ...signedHeaders(), ...(type === undefined ? {} : { 'content-type': type }) }, BODY);
      expect([type, status]).toEqual([type, 200]);
    }
  });

  it('application/json-seq, text/json and application: not JSON to FastAPI, 422', async () => {
    for (const type of ['application/json-seq', 'text/json', 'application']) {
      const status = await post({ ...signedHeaders(), 'content-type': type }, BODY);
      expect([type, status]).toEqual([type, 422]);
    }
  });

  it('a UTF-8 BOM or an empty body: json.loads(body.decode()) raises in verify_body_integrity (axon.py:714-720), 500', async () => {
    const bom = await post({ ...signedHeaders(), 'content-type': 'application/json' }, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), BODY]));
    const empty = await post({ ...signedHeaders(), 'content-type': 'application/json' }, Buffer.alloc(0));
    expect([bom, empty]).toEqual([500, 500]);
  });
});

describe('the stale-nonce message rounds as Python f"{x:.2f}" (axon.py:957)', () => {
  it('pyFixed2 rounds exact ties to even, as python3 does', () => {
    // python3 -c 'print([f"{x:.2f}" for x in (4.125, 4.375, 4.625, 4.875, 0.125, -0.125, 16.005, 1.0, 17.234)])'
    // -> ['4.12', '4.38', '4.62', '4.88', '0.12', '-0.12', '16.00', '1.00', '17.23']
    expect([4.125, 4.375, 4.625, 4.875, 0.125, -0.125, 16.005, 1, 17.234].map(pyFixed2)).toEqual([
      '4.12',
      '4.38',
      '4.62',
      '4.88',
      '0.12',
      '-0.12',
      '16.00',
      '1.00',
      '17.23',
    ]);
  });

  it('a first-seen nonce 4.125 s old with no timeout: "… acceptable delta is 4.00 seconds but request was 4.12 seconds old"', () => {
    // python3, with allowed_nonce_window_ns / calculate_diff_seconds of bittensor/utils/axon_utils.py:
    // now=1764000000000000000; (None, now-4_125_000_000) -> too old, "4.12", "4.00";
    // (0.125, now-4_625_000_000) -> too old, "4.62", "4.12".
    const nowNs = 1_764_000_000_000_000_000n;
    const a = checkNonce({ nowNs, timeout: null, version: 10_002_000, nonce: nowNs - 4_125_000_000n, last: undefined });
    const b = checkNonce({ nowNs, timeout: 0.125, version: 10_002_000, nonce: nowNs - 4_625_000_000n, last: undefined });
    expect([a, b]).toEqual([
      { accepted: false, message: 'Nonce is too old: acceptable delta is 4.00 seconds but request was 4.12 seconds old' },
      { accepted: false, message: 'Nonce is too old: acceptable delta is 4.12 seconds but request was 4.62 seconds old' },
    ]);
  });
});
