import type { ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

import type { KeyringPair } from '@polkadot/keyring/types';
import { isSubnetError } from '@subnet/core';
import { listenLocal } from '@subnet/vitest-config/local-server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createDendrite } from '../dendrite.js';
import { parseJsonText } from '../json-text.js';
import { createSynapse, synapseValues } from '../synapse.js';
import { defineSynapse } from '../synapse-definition.js';
import { devKeys } from './sdk-dummy.js';

/** A miner's axon that answers with hostile bytes, over real HTTP on 127.0.0.1. */

const Answer = defineSynapse({
  name: 'Answer',
  fields: [
    ['task', { type: 'int' }],
    ['answer', { type: { optional: 'any' }, default: null }],
  ],
  requiredHashFields: [],
});

let alice: KeyringPair;
let bob: KeyringPair;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  [alice, bob] = (await devKeys('//Alice', '//Bob')) as [KeyringPair, KeyringPair];
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Starts an axon that answers every request with `answer` and returns its port. */
async function hostileAxon(answer: (res: ServerResponse) => void): Promise<number> {
  const { url, close } = await listenLocal((req, res) => {
    req.resume();
    req.on('end', () => {
      answer(res);
    });
  });
  closers.push(close);
  return Number(new URL(url).port);
}

function json(body: string): (res: ServerResponse) => void {
  return (res) => {
    res.writeHead(200, { 'content-type': 'application/json', bt_header_axon_status_code: '200' });
    res.end(body);
  };
}

/** A dendrite that reads answers up to 16 MiB (above the 1 MiB default), so the hostile bodies reach the parser. */
async function ask(port: number, timeoutSeconds = 10) {
  return createDendrite({ signer: alice, maxResponseBytes: 16 * 1024 * 1024 }).query(
    { ip: '127.0.0.1', port, hotkey: bob.address },
    Answer,
    createSynapse(Answer, { task: 1 }),
    timeoutSeconds,
  );
}

describe('an integer literal longer than CPython converts (4300 digits)', () => {
  it('parseJsonText takes 4300 digits and refuses 4301 with AXON_INVALID_JSON naming the digit count, as json.loads raises', () => {
    const at = parseJsonText(`[-${'9'.repeat(4300)}]`);
    expect(at).toEqual({ kind: 'array', items: [{ kind: 'number', text: `-${'9'.repeat(4300)}` }] });
    let caught: unknown;
    try {
      parseJsonText(`{"a": ${'9'.repeat(4301)}}`);
    } catch (error) {
      caught = error;
    }
    expect(isSubnetError(caught, 'AXON_INVALID_JSON')).toBe(true);
    expect((caught as Error).message).toMatch(/4301 digits/);
    expect((caught as Error).message).toMatch(/4300/);
    // A float's digits have no such limit in CPython (float(), not int()).
    expect(parseJsonText(`${'9'.repeat(5000)}.5`)).toEqual({ kind: 'number', text: `${'9'.repeat(5000)}.5` });
  });

  it("an axon answering a 1 MiB integer gets the SDK dendrite's 422, not a 200 the validator spends seconds converting", async () => {
    const within = await ask(await hostileAxon(json(`{"task": 1, "answer": ${'7'.repeat(4300)}}`)));
    expect(within.dendrite.statusCode).toBe(200);
    expect(synapseValues(within).answer).toBe(BigInt('7'.repeat(4300)));
    const huge = await ask(await hostileAxon(json(`{"task": 1, "answer": ${'7'.repeat(1 << 20)}}`)));
    expect(huge.dendrite.statusCode).toBe(422);
    expect(huge.dendrite.statusMessage).toMatch(/^Failed to parse response: .*1048576 digits/);
  });
});

/** A raw TCP "axon" that writes `chunks` one every `everyMs` after reading the request head. */
async function rawAxon(chunks: readonly string[], everyMs: number): Promise<number> {
  const open = new Set<Socket>();
  const server = createNetServer((socket) => {
    open.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => {
      let i = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || i >= chunks.length) clearInterval(timer);
        else socket.write(chunks[i++] ?? '');
      }, everyMs);
      socket.on('close', () => {
        clearInterval(timer);
        open.delete(socket);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  );
  return (server.address() as AddressInfo).port;
}

describe('what held: hostile answers end as the SDK codes, within the total time limit', () => {
  it('slowloris head (a header byte every 200 ms, never finished): 408 at the total limit', async () => {
    const head = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-slow: ' + 'a'.repeat(200);
    const port = await rawAxon(head.split(''), 200);
    const got = await ask(port, 1.5);
    expect(got.dendrite.statusCode).toBe(408);
    expect(got.dendrite.statusMessage).toBe('Request timeout after 1.5 seconds');
  });

  it('slowloris body (a byte every 200 ms under a large content-length): 408 at the total limit', async () => {
    const head = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nbt_header_axon_status_code: 200\r\ncontent-length: 100000\r\n\r\n';
    const port = await rawAxon([head, ...'{"task": 1, "answer": "'.split(''), ...'x'.repeat(200).split('')], 200);
    const got = await ask(port, 1.5);
    expect(got.dendrite.statusCode).toBe(408);
  });

  it('a content-length longer than the body, then the connection closed: 503 Service disconnected', async () => {
    const port = await hostileAxon((res) => {
      res.socket?.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{"task": 1}');
    });
    const got = await ask(port);
    expect(got.dendrite.statusCode).toBe(503);
    expect(got.dendrite.statusMessage).toMatch(/^Service disconnected: /);
  });

  it('a redirect to another host and port is not followed: the redirect status is the outcome, the target gets nothing', async () => {
    let reached = 0;
    const elsewhere = await hostileAxon((res) => {
      reached += 1;
      json('{"task": 1, "answer": "from elsewhere"}')(res);
    });
    const port = await hostileAxon((res) => {
      res.writeHead(307, { location: `http://localhost:${elsewhere}/Answer`, 'content-type': 'application/json' });
      res.end('{"message": "moved"}');
    });
    const got = await ask(port);
    expect(got.dendrite.statusCode).toBe(307);
    expect(synapseValues(got).answer).toBeNull();
    expect(reached).toBe(0);
  });

  it('bytes that are not UTF-8: 422, never read with U+FFFD', async () => {
    const port = await hostileAxon((res) => {
      res.writeHead(200, { 'content-type': 'application/json', bt_header_axon_status_code: '200' });
      res.end(Buffer.concat([Buffer.from('{"task": 1, "answer": "'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]));
    });
    const got = await ask(port);
    expect(got.dendrite.statusCode).toBe(422);
  });

  it('__proto__ and constructor keys in an answer are data (own keys of a null-prototype object), not a prototype', async () => {
    const got = await ask(await hostileAxon(json('{"task": 1, "answer": {"__proto__": {"polluted": true}, "constructor": 7}}')));
    expect(got.dendrite.statusCode).toBe(200);
    const answer = synapseValues(got).answer as Record<string, unknown>;
    expect(Object.keys(answer)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(answer)).toBeNull();
    expect((answer.__proto__ as Record<string, unknown>).polluted).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a body naming another synapse class keeps the class asked for (the SDK forces name = cls.__name__)', async () => {
    const got = await ask(await hostileAxon(json('{"name": "Other", "task": 1, "answer": 5}')));
    expect(got.name).toBe('Answer');
    expect(synapseValues(got).answer).toBe(5);
  });

  it('a bt_header_axon_status_code that is not a canonical integer: 422, not a status the miner chose', async () => {
    const port = await hostileAxon((res) => {
      res.writeHead(200, { 'content-type': 'application/json', bt_header_axon_status_code: '2e2' });
      res.end('{"task": 1, "answer": 5}');
    });
    const got = await ask(port);
    expect(got.dendrite.statusCode).toBe(422);
  });

  it('an error status with bt_header_axon_status_code 200 (the header wins, as in the SDK) carries no answer: the body of a non-200 is never read as values', async () => {
    const port = await hostileAxon((res) => {
      res.writeHead(500, { 'content-type': 'application/json', bt_header_axon_status_code: '200' });
      res.end('{"task": 1, "answer": "smuggled", "message": "x"}');
    });
    const got = await ask(port);
    expect(got.dendrite.statusCode).toBe(200);
    expect(synapseValues(got).answer).toBeNull();
  });

  it('headers larger than the HTTP parser takes (16 KiB): 422', async () => {
    const port = await hostileAxon((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-pad': 'p'.repeat(20_000) });
      res.end('{"task": 1}');
    });
    const got = await ask(port);
    expect(got.dendrite.statusCode).toBe(422);
  });
});
