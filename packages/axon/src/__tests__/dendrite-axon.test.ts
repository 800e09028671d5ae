/* eslint-disable @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-explicit-any -- the vectors are untyped JSON read as written */
import { createServer, request } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { KeyringPair } from '@polkadot/keyring/types';
import { u8aToHex } from '@polkadot/util';
import { REFUSED_PORT } from '@subnet/vitest-config/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CallerInfo } from '../axon-blacklist.js';
import type { Axon } from '../axon-server.js';
import { createAxon } from '../axon-server.js';
import { createDendrite } from '../dendrite.js';
import { callOutcome } from '../dendrite-result.js';
import type { Synapse } from '../synapse.js';
import { signatureMessage } from '../signature.js';
import { createSynapse, synapseBodyHash, synapseHeaders, synapseValues } from '../synapse.js';
import { defineSynapse } from '../synapse-definition.js';
import { EMPTY_TERMINAL } from '../terminal-info.js';
import { axonVectors } from './vectors.js';
import { Dummy, devKeys } from './sdk-dummy.js';

/** A dendrite and an axon of this package over real HTTP on 127.0.0.1, and the SDK's answers. */

const vectors = axonVectors();
const Query = defineSynapse({
  name: 'QuerySynapse',
  fields: [
    ['query', { type: 'str' }],
    ['top_k', { type: 'int', default: 5 }],
    ['weights', { type: { list: 'float' } }],
    ['results', { type: { optional: { list: 'str' } }, default: null }],
  ],
  requiredHashFields: ['query', 'weights'],
});
/** How long the Slow synapse's forward takes: far past the dendrite's 0.5 s timeout and the bound its answer is held to. */
const SLOW_FORWARD_MS = 6000;
const Slow = defineSynapse({ name: 'Slow', fields: [['x', { type: 'int' }]], requiredHashFields: [] });

let alice: KeyringPair; // registered validator with a permit
let bob: KeyringPair; // the miner (axon hotkey)
let charlie: KeyringPair; // registered, no permit
let eve: KeyringPair; // not registered
let axon: Axon;
let strictAxon: Axon;
const servers: Server[] = [];

function setWith(synapse: Synapse, values: Record<string, unknown>, definition = Dummy): Synapse {
  return { ...synapse, values: createSynapse(definition, { ...synapseValues(synapse), ...values }).values };
}

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  [alice, bob, charlie, eve] = (await devKeys('//Alice', '//Bob', '//Charlie', '//Eve')) as [KeyringPair, KeyringPair, KeyringPair, KeyringPair];
  const metagraph = new Map<string, CallerInfo>([
    [alice.address, { validatorPermit: true, stake: 1_000_000_000_000n }],
    [charlie.address, { validatorPermit: false, stake: 10n }],
  ]);
  const handlers = [
    { definition: Dummy, forward: (s: Synapse) => setWith(s, { dummy_output: Number(synapseValues(s).dummy_input) * 2 }) },
    { definition: Query, forward: (s: Synapse) => setWith(s, { results: [`echo:${String(synapseValues(s).query)}`] }, Query) },
    {
      definition: Slow,
      forward: async (s: Synapse) => {
        await new Promise((r) => setTimeout(r, SLOW_FORWARD_MS));
        return s;
      },
    },
  ];
  axon = await createAxon({ hotkey: bob.address, handlers, caller: (h) => metagraph.get(h), port: 0 });
  strictAxon = await createAxon({ hotkey: bob.address, handlers, caller: (h) => metagraph.get(h), port: 0, requireValidatorPermit: true });
});
afterAll(async () => {
  await axon.close();
  await strictAxon.close();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const target = () => ({ ip: '127.0.0.1', port: axon.port, hotkey: bob.address });

describe('dendrite <-> axon over HTTP', () => {
  it('an honest call: 200, Success, the forward result read back into the synapse', async () => {
    const out = await createDendrite({ signer: alice }).query(target(), Dummy, createSynapse(Dummy, { dummy_input: 7 }), 5);
    expect([out.dendrite.statusCode, out.dendrite.statusMessage, out.axon.statusCode]).toEqual([200, 'Success', 200]);
    expect(synapseValues(out).dummy_output).toBe(14);
    expect(callOutcome(out).isSuccess).toBe(true);
  });

  it('a hashed synapse (required_hash_fields) verifies end to end', async () => {
    const out = await createDendrite({ signer: alice }).query(target(), Query, createSynapse(Query, { query: 'What is 2+2?', weights: [1, 0.5] }), 5);
    expect(out.dendrite.statusCode).toBe(200);
    expect(synapseValues(out).results).toEqual(['echo:What is 2+2?']);
  });

  it('a tampered body (a man in the middle changes a hashed field): 500 Internal Server Error, as the SDK', async () => {
    const proxyPort = await listen(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks).toString().replace('What is 2+2?', 'What is 2+3?');
          const up = request(
            {
              host: '127.0.0.1',
              port: axon.port,
              path: req.url,
              method: 'POST',
              headers: { ...req.headers, 'content-length': String(Buffer.byteLength(body)) },
            },
            (r) => {
              res.writeHead(r.statusCode ?? 502, r.headers);
              r.pipe(res);
            },
          );
          up.end(body);
        });
      }),
    );
    const out = await createDendrite({ signer: alice }).query(
      { ...target(), port: proxyPort },
      Query,
      createSynapse(Query, { query: 'What is 2+2?', weights: [1] }),
      5,
    );
    expect(out.dendrite.statusCode).toBe(500);
    expect(out.dendrite.statusMessage).toMatch(/^Internal Server Error #[0-9a-f-]{36}$/);
  });

  it('a replayed request (same nonce and uuid): 401 "Nonce is too old, a newer one was last processed"', async () => {
    let captured: { headers: IncomingHttpHeaders; body: Buffer } | undefined;
    const proxyPort = await listen(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          captured = { headers: req.headers, body: Buffer.concat(chunks) };
          const up = request({ host: '127.0.0.1', port: axon.port, path: req.url, method: 'POST', headers: req.headers }, (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
          });
          up.end(captured.body);
        });
      }),
    );
    const first = await createDendrite({ signer: alice }).query({ ...target(), port: proxyPort }, Dummy, createSynapse(Dummy, { dummy_input: 1 }), 5);
    expect(first.dendrite.statusCode).toBe(200);
    const replay = await fetch(`${axon.url}/Dummy`, { method: 'POST', headers: captured!.headers as Record<string, string>, body: captured!.body });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ message: 'Not Verified with error: Nonce is too old, a newer one was last processed' });
    expect(replay.headers.get('bt_header_axon_status_code')).toBe('401');
  });

  it("an axon whose nonce store is full forgets the oldest dendrite, and a replay of that dendrite's request is still 401", async () => {
    const metagraph = new Map<string, CallerInfo>([[alice.address, { validatorPermit: true, stake: 1n }]]);
    const small = await createAxon({
      hotkey: bob.address,
      handlers: [{ definition: Dummy, forward: (s: Synapse) => s }],
      caller: (h) => metagraph.get(h),
      port: 0,
      maxNonceEntries: 1,
    });
    try {
      let captured: { headers: IncomingHttpHeaders; body: Buffer } | undefined;
      const proxyPort = await listen(
        createServer((req, res) => {
          const chunks: Buffer[] = [];
          req.on('data', (c: Buffer) => chunks.push(c));
          req.on('end', () => {
            captured = { headers: req.headers, body: Buffer.concat(chunks) };
            const up = request({ host: '127.0.0.1', port: small.port, path: req.url, method: 'POST', headers: req.headers }, (r) => {
              res.writeHead(r.statusCode ?? 502, r.headers);
              r.pipe(res);
            });
            up.end(captured.body);
          });
        }),
      );
      const first = await createDendrite({ signer: alice }).query(
        { ip: '127.0.0.1', port: proxyPort, hotkey: bob.address },
        Dummy,
        createSynapse(Dummy, { dummy_input: 1 }),
        5,
      );
      expect(first.dendrite.statusCode).toBe(200);
      // A second dendrite (another uuid) takes the only entry: the first one's key is forgotten.
      const second = await createDendrite({ signer: alice }).query(
        { ip: '127.0.0.1', port: small.port, hotkey: bob.address },
        Dummy,
        createSynapse(Dummy, { dummy_input: 2 }),
        5,
      );
      expect(second.dendrite.statusCode).toBe(200);
      // Within the SDK's first-seen window the replay's nonce would pass; the forgotten nonce's floor refuses it.
      const replay = await fetch(`http://127.0.0.1:${small.port}/Dummy`, {
        method: 'POST',
        headers: captured!.headers as Record<string, string>,
        body: captured!.body,
      });
      expect(replay.status).toBe(401);
      expect(await replay.json()).toEqual({ message: 'Not Verified with error: Nonce is too old, a newer one was last processed' });
    } finally {
      await small.close();
    }
  });

  it('a wrong signer (signs with another key than the hotkey it claims): 401 Signature mismatch', async () => {
    const forger = { address: alice.address, sign: (m: Uint8Array) => eve.sign(m) };
    const out = await createDendrite({ signer: forger }).query(target(), Dummy, createSynapse(Dummy, { dummy_input: 7 }), 5);
    expect(out.dendrite.statusCode).toBe(401);
    expect(out.dendrite.statusMessage).toMatch(/^Not Verified with error: Signature mismatch with /);
    expect(callOutcome(out).failedVerification).toBe(true);
  });

  it('an unregistered caller: 403 "Forbidden. Key is blacklisted: Unrecognized hotkey."', async () => {
    const out = await createDendrite({ signer: eve }).query(target(), Dummy, createSynapse(Dummy, { dummy_input: 7 }), 5);
    expect([out.dendrite.statusCode, out.dendrite.statusMessage]).toEqual([403, 'Forbidden. Key is blacklisted: Unrecognized hotkey.']);
    expect(callOutcome(out).isBlacklist).toBe(true);
  });

  it('a caller without validator permit on an axon that requires one: 403 Non-validator hotkey', async () => {
    const out = await createDendrite({ signer: charlie }).query({ ...target(), port: strictAxon.port }, Dummy, createSynapse(Dummy, { dummy_input: 7 }), 5);
    expect([out.dendrite.statusCode, out.dendrite.statusMessage]).toEqual([403, 'Forbidden. Key is blacklisted: Non-validator hotkey.']);
  });

  it('a slow axon: 408 "Request timeout after 0.5 seconds", without waiting for the forward', async () => {
    const started = Date.now();
    const out = await createDendrite({ signer: alice }).query(target(), Slow, createSynapse(Slow, { x: 1 }), 0.5);
    expect([out.dendrite.statusCode, out.dendrite.statusMessage]).toEqual([408, 'Request timeout after 0.5 seconds']);
    expect(callOutcome(out).isTimeout).toBe(true);
    // Answered at its own timeout, not when the forward ends: the slack above 0.5 s is for a loaded machine.
    expect(Date.now() - started).toBeLessThan(SLOW_FORWARD_MS - 2000);
  });

  it('an unreachable axon: 503 "Service unavailable at ip:port/Name"', async () => {
    const closed = REFUSED_PORT; // nothing listens there
    const out = await createDendrite({ signer: alice }).query({ ...target(), port: closed }, Dummy, createSynapse(Dummy, { dummy_input: 7 }), 5);
    expect([out.dendrite.statusCode, out.dendrite.statusMessage]).toEqual([503, `Service unavailable at 127.0.0.1:${closed}/Dummy`]);
  });

  it('valid signed headers with a malformed JSON body: 422, as FastAPI answers', async () => {
    const nonce = BigInt(Date.now()) * 1_000_000n;
    const uuid = 'malformed-json-test';
    const s: Synapse = {
      ...createSynapse(Dummy, { dummy_input: 1 }),
      dendrite: { ...EMPTY_TERMINAL, nonce, uuid, hotkey: alice.address, version: 10_002_000 },
    };
    const hash = synapseBodyHash(Dummy, s);
    const signature = u8aToHex(
      alice.sign(new TextEncoder().encode(signatureMessage({ nonce, dendriteHotkey: alice.address, axonHotkey: bob.address, uuid, bodyHash: hash }))),
    );
    const headers = { ...synapseHeaders(Dummy, { ...s, dendrite: { ...s.dendrite, signature } }, hash), 'content-type': 'application/json' };
    const res = await fetch(`${axon.url}/Dummy`, { method: 'POST', headers, body: '{"dummy_input": 1,' });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()) as object)).toEqual(['detail']);
  });

  it('an unknown synapse name: 404 naming the available ones', async () => {
    const res = await fetch(`${axon.url}/Nope`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "Synapse name 'Nope' not found. Available synapses ['Dummy', 'QuerySynapse', 'Slow']" });
  });
});

describe('the dendrite reads what a Python axon answers (response_simulated)', () => {
  it.each((vectors.response_simulated as any[]).map((r: any) => [r.id, r] as [string, any]))('%s', async (_id, r: any) => {
    const port = await listen(
      createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          const headers = { ...r.headers };
          delete headers['content-length'];
          res.writeHead(r.http_status, headers);
          res.end(r.body_json_text);
        });
      }),
    );
    const out = await createDendrite({ signer: alice }).query(
      { ip: '127.0.0.1', port, hotkey: bob.address },
      Dummy,
      createSynapse(Dummy, { dummy_input: 7 }),
      5,
    );
    const expected = r.python_dendrite_result;
    expect([out.dendrite.statusCode, out.dendrite.statusMessage]).toEqual([expected.dendrite_status_code, expected.dendrite_status_message]);
    expect(synapseValues(out).dummy_output).toBe(expected.dummy_output);
    if ('is_blacklist' in expected) expect(callOutcome(out).isBlacklist).toBe(expected.is_blacklist);
    if ('is_success' in expected) expect(callOutcome(out).isSuccess).toBe(expected.is_success);
  });
});

describe('dendrite_client_errors: what no usable response becomes', () => {
  /** Rows a Node client produces, each with a scenario; the other rows name aiohttp exception types a Node client has no equivalent for. */
  const NOT_APPLICABLE = [
    'aiohttp.ServerConnectionError (exact type)',
    'aiohttp.ServerTimeoutError (exact type)',
    'aiohttp.ClientError (exact type)',
    'aiohttp.ClientResponseError (exact type)',
  ];

  it('every row is covered by a scenario below or listed as aiohttp-specific', () => {
    const causes = vectors.dendrite_client_errors.map((row: any) => row.cause as string);
    const covered = causes.filter((c: string) => /timeout \(|refused|ServerDisconnectedError|ClientPayloadError|anything else/.test(c));
    expect([...covered, ...NOT_APPLICABLE].sort()).toEqual([...causes].sort());
  });

  it('ServerDisconnectedError: the axon drops the connection -> 503 Service disconnected', async () => {
    const port = await listen(
      createServer((req) => {
        req.socket.destroy();
      }),
    );
    const out = await createDendrite({ signer: alice }).query(
      { ip: '127.0.0.1', port, hotkey: bob.address },
      Dummy,
      createSynapse(Dummy, { dummy_input: 7 }),
      5,
    );
    expect(out.dendrite.statusCode).toBe(503);
    expect(out.dendrite.statusMessage).toMatch(/^Service disconnected: /);
  });

  it('anything else (a non-JSON answer, a 200 body that fails the model): 422 Failed to parse response', async () => {
    const html = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>');
      }),
    );
    const garbage = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"dummy_input": "seven"}');
      }),
    );
    const d = createDendrite({ signer: alice });
    for (const port of [html, garbage]) {
      const out = await d.query({ ip: '127.0.0.1', port, hotkey: bob.address }, Dummy, createSynapse(Dummy, { dummy_input: 7 }), 5);
      expect(out.dendrite.statusCode).toBe(422);
      expect(out.dendrite.statusMessage).toMatch(/^Failed to parse response: /);
    }
  });

  it('ClientPayloadError analogue: a response above maxResponseBytes -> 400 Payload error', async () => {
    const port = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"x": "${'a'.repeat(5000)}"}`);
      }),
    );
    const out = await createDendrite({ signer: alice, maxResponseBytes: 1000 }).query(
      { ip: '127.0.0.1', port, hotkey: bob.address },
      Dummy,
      createSynapse(Dummy, { dummy_input: 7 }),
      5,
    );
    expect(out.dendrite.statusCode).toBe(400);
    expect(out.dendrite.statusMessage).toMatch(/^Payload error: /);
  });

  it('reads at most 1 MiB by default, as the validator does: a body of exactly 1 MiB is read, one byte more is a payload error', async () => {
    const mib = 1024 * 1024;
    // {"x":"aaa…"} of the given length in bytes.
    const body = (bytes: number): string => `{"x":"${'a'.repeat(bytes - 8)}"}`;
    expect(body(mib)).toHaveLength(mib);
    const answering = (bytes: number) =>
      listen(
        createServer((_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(body(bytes));
        }),
      );
    const d = createDendrite({ signer: alice });
    const ask = async (port: number) => d.query({ ip: '127.0.0.1', port, hotkey: bob.address }, Dummy, createSynapse(Dummy, { dummy_input: 7 }), 5);
    // Read and parsed (the model then finds no dummy_output: not a payload error).
    const fits = await ask(await answering(mib));
    expect(fits.dendrite.statusCode).not.toBe(400);
    expect(fits.dendrite.statusMessage).not.toMatch(/^Payload error: /);
    const over = await ask(await answering(mib + 1));
    expect(over.dendrite.statusCode).toBe(400);
    expect(over.dendrite.statusMessage).toBe(`Payload error: the response exceeds ${mib} bytes`);
  });
});

describe('the dendrite on the wire is the SDK dendrite (request vectors)', () => {
  it('req-dummy: the same headers and body bytes as bt.dendrite, but for the CPython sizes and the randomized signature', async () => {
    const r = vectors.request.find((x: any) => x.id === 'req-dummy');
    let got: { headers: IncomingHttpHeaders; body: string; url: string | undefined } | undefined;
    const port = await listen(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          got = { headers: req.headers, body: Buffer.concat(chunks).toString(), url: req.url };
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{"message":"x"}');
        });
      }),
    );
    const call = r.dendrite_call;
    const d = createDendrite({ signer: alice, uuid: call.uuid, externalIp: call.dendrite_external_ip, nowNs: () => BigInt(call.nonce) });
    await d.query({ ip: '127.0.0.1', port, hotkey: call.axon_hotkey }, Dummy, createSynapse(Dummy, r.constructed_with), call.timeout);
    const signature = got!.headers.bt_header_dendrite_signature as string;
    const expectedBody = (r.body_json_text as string)
      .replace(r.headers.bt_header_dendrite_signature, signature)
      .replace('"total_size": 3045', '"total_size": 0')
      .replace(`"ip": "${call.axon_ip as string}", "port": ${call.axon_port as number}`, `"ip": "127.0.0.1", "port": ${port}`);
    expect(got!.body).toBe(expectedBody);
    expect(got!.url).toBe('/Dummy');
    for (const [name, value] of Object.entries(r.headers as Record<string, string>)) {
      if ((r.headers_cpython_specific as string[]).includes(name) || name === 'bt_header_dendrite_signature') continue;
      const want = name === 'bt_header_axon_ip' ? '127.0.0.1' : name === 'bt_header_axon_port' ? String(port) : value;
      expect([name, got!.headers[name]]).toEqual([name, want]);
    }
    expect(got!.headers['content-type']).toBe('application/json');
  });
});
