import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

import type { KeyringPair } from '@polkadot/keyring/types';
import { u8aToHex } from '@polkadot/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Axon } from '../axon-server.js';
import { createAxon } from '../axon-server.js';
import { checkNonce, pyFixed2 } from '../nonce-window.js';
import { signatureMessage } from '../signature.js';
import type { Synapse } from '../synapse.js';
import { createSynapse, synapseBodyHash, synapseHeaders, synapseJson, synapseValues } from '../synapse.js';
import { defineSynapse } from '../synapse-definition.js';
import { EMPTY_TERMINAL } from '../terminal-info.js';
import { Dummy, devKeys } from './sdk-dummy.js';

/**
 * This axon against the SDK axon (`bittensor/core/axon.py`, v10.2.0) and FastAPI's body parsing, over real
 * HTTP on 127.0.0.1: what the content type and the body bytes decide, and the nonce message's numbers.
 */

/** `class Echo(bt.Synapse): text: str; score: float = 0.0; required_hash_fields = ('text',)` */
const Echo = defineSynapse({
  name: 'Echo',
  fields: [
    ['text', { type: 'str' }],
    ['score', { type: 'float', default: 0 }],
  ],
  requiredHashFields: ['text'],
});

/** `class Point(BaseModel): x: int` and `class Nested(bt.Synapse): point: Point` / `class Loose(bt.Synapse): point: Opt` with `class Opt(BaseModel): x: Optional[int] = None`. */
const Nested = defineSynapse({ name: 'Nested', fields: [['point', { type: { model: [['x', 'int']] } }]], requiredHashFields: [] });
const Loose = defineSynapse({ name: 'Loose', fields: [['point', { type: { model: [['x', { optional: 'int' }]] } }]], requiredHashFields: [] });

let alice: KeyringPair;
let bob: KeyringPair;
let axon: Axon;
let uuidCount = 0;

beforeAll(async () => {
  [alice, bob] = (await devKeys('//Alice', '//Bob')) as [KeyringPair, KeyringPair];
  axon = await createAxon({
    hotkey: bob.address,
    port: 0,
    caller: (h) => (h === alice.address ? { validatorPermit: true, stake: 1n } : undefined),
    handlers: [
      { definition: Dummy, forward: (s: Synapse) => s },
      { definition: Nested, forward: (s: Synapse) => s },
      { definition: Loose, forward: (s: Synapse) => s },
      {
        definition: Echo,
        forward: (s: Synapse) => {
          const text = String(synapseValues(s).text);
          return { ...s, values: createSynapse(Echo, { text: 'pong', score: text === 'nan' ? NaN : text === 'inf' ? Infinity : 1.5 }).values };
        },
      },
    ],
  });
});
afterAll(async () => {
  await axon.close();
});

/** A signed SDK request for a synapse (a fresh uuid each time): headers without a content type, and the body. */
function signed(definition = Dummy, values: Record<string, unknown> = { dummy_input: 1 }): { headers: Record<string, string>; body: Buffer } {
  const nonce = BigInt(Date.now()) * 1_000_000n;
  uuidCount += 1;
  const uuid = `sdk-axon-${uuidCount}`;
  const s: Synapse = { ...createSynapse(definition, values), dendrite: { ...EMPTY_TERMINAL, nonce, uuid, hotkey: alice.address, version: 10_002_000 } };
  const hash = synapseBodyHash(definition, s);
  const message = signatureMessage({ nonce, dendriteHotkey: alice.address, axonHotkey: bob.address, uuid, bodyHash: hash });
  const signature = u8aToHex(alice.sign(new TextEncoder().encode(message)));
  const sent = { ...s, dendrite: { ...s.dendrite, signature } };
  return { headers: synapseHeaders(definition, sent, hash), body: Buffer.from(synapseJson(sent)) };
}

function signedHeaders(): Record<string, string> {
  return signed().headers;
}

const BODY = Buffer.from(synapseJson(createSynapse(Dummy, { dummy_input: 1 })));

/** POSTs `body` to `/name` with `headers` exactly (node adds no content type): the status and response headers. */
function send(name: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request(`${axon.url}/${name}`, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function post(headers: Record<string, string>, body: Buffer): Promise<number> {
  return (await send('Dummy', headers, body)).status;
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

describe('the synapse is first built from the headers alone (from_headers, synapse.py:790-807, 852; axon.py:1251-1255)', () => {
  it('a required field without its bt_header_input_obj_ placeholder, or with one of the wrong type: 500', async () => {
    const { headers, body } = signed();
    expect(headers.bt_header_input_obj_dummy_input).toBe('MA=='); // base64(json.dumps(int())) = base64('0')
    const { bt_header_input_obj_dummy_input: _dropped, ...without } = headers;
    const missing = await send('Dummy', { ...without, 'content-type': 'application/json' }, body);
    const wrongType = await send('Dummy', { ...headers, bt_header_input_obj_dummy_input: 'IiI=', 'content-type': 'application/json' }, body); // '""'
    const right = await send('Dummy', { ...headers, 'content-type': 'application/json' }, body);
    expect([missing.status, wrongType.status, right.status]).toEqual([500, 500, 200]);
  });

  it('a required model field: its placeholder is {} (e30=), so a model with a required sub-field is always 500, one with only optional sub-fields is 200', async () => {
    const nested = signed(Nested, { point: { x: 1 } });
    const loose = signed(Loose, { point: { x: 1 } });
    expect([nested.headers.bt_header_input_obj_point, loose.headers.bt_header_input_obj_point]).toEqual(['e30=', 'e30=']);
    const a = await send('Nested', { ...nested.headers, 'content-type': 'application/json' }, nested.body);
    const b = await send('Loose', { ...loose.headers, 'content-type': 'application/json' }, loose.body);
    expect([a.status, b.status]).toEqual([500, 200]);
  });
});

describe('the signed message takes computed_body_hash from the header synapse (axon.py:928)', () => {
  it('no computed_body_hash header: the message ends in ".None" (from_headers gives None), verification passes, then the body hash check fails: 500', async () => {
    const nonce = BigInt(Date.now()) * 1_000_000n;
    const uuid = 'sdk-axon-no-hash';
    const s: Synapse = {
      ...createSynapse(Dummy, { dummy_input: 1 }),
      dendrite: { ...EMPTY_TERMINAL, nonce, uuid, hotkey: alice.address, version: 10_002_000 },
    };
    const message = `${nonce}.${alice.address}.${bob.address}.${uuid}.None`;
    const signature = u8aToHex(alice.sign(new TextEncoder().encode(message)));
    const sent = { ...s, dendrite: { ...s.dendrite, signature } };
    const { computed_body_hash: _dropped, ...headers } = synapseHeaders(Dummy, sent, synapseBodyHash(Dummy, sent));
    const out = await send('Dummy', { ...headers, 'content-type': 'application/json' }, Buffer.from(synapseJson(sent)));
    expect(out.status).toBe(500);
  });
});

describe('the answer as synapse_to_response writes it (axon.py:1518-1554)', () => {
  it("computed_body_hash is the answer's own body hash (to_headers() of the returned synapse), not the request's", async () => {
    // python3: h = lambda s: hashlib.sha3_256(s.encode()).hexdigest(); h(h(str('pong'))) / h(h(str('ping')))
    const { headers, body } = signed(Echo, { text: 'ping' });
    expect(headers.computed_body_hash).toBe('199b85faff23918af3b29f5208117ce5cbd4b2057b27e975146ece1de02b489a');
    const out = await send('Echo', { ...headers, 'content-type': 'application/json' }, body);
    expect([out.status, out.headers.computed_body_hash]).toEqual([200, '1e1d5e23da02e5b0b6f0b68ca84fee09b8b7cd5c2299d7c5bd267d4798707271']);
  });

  it('a NaN or infinite float in the answer: Starlette renders with allow_nan=False and raises, so 500', async () => {
    // python3 -c 'import json; json.dumps(float("nan"), allow_nan=False)' -> ValueError: Out of range float values are not JSON compliant
    for (const text of ['nan', 'inf']) {
      const { headers, body } = signed(Echo, { text });
      const out = await send('Echo', { ...headers, 'content-type': 'application/json' }, body);
      expect([text, out.status, out.headers.bt_header_axon_status_code]).toEqual([text, 500, '500']);
    }
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
