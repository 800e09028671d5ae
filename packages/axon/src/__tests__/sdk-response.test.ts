import type { KeyringPair } from '@polkadot/keyring/types';
import { listenLocal } from '@subnet/vitest-config/local-server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createDendrite } from '../dendrite.js';
import { callOutcome } from '../dendrite-result.js';
import type { Synapse } from '../synapse.js';
import { createSynapse, synapseValues } from '../synapse.js';
import { pyFloatText, pyIntText } from '../synapse-headers.js';
import { Dummy, devKeys } from './sdk-dummy.js';

/**
 * What the SDK dendrite records for an answer, read from `bittensor/core/dendrite.py` (v10.2.0) and aiohttp:
 * `call` (:578-602), `process_server_response` (:726-786), `process_error_message` (:263-306) and
 * `Synapse.from_headers` (`synapse.py:764-854`). Each case is an axon over real HTTP on 127.0.0.1 that
 * writes exactly the given status, raw header list (names in the given case, duplicates kept) and body.
 */

/** A 200 body as the SDK axon writes it, with every field and `dummy_output` 14. */
const BODY_200 =
  '{"name":"Dummy","timeout":12.0,"total_size":0,"header_size":0,' +
  '"dendrite":{"status_code":null,"status_message":null,"process_time":null,"ip":null,"port":null,"version":null,"nonce":null,"uuid":null,"hotkey":null,"signature":null},' +
  '"axon":{"status_code":null,"status_message":null,"process_time":null,"ip":null,"port":null,"version":null,"nonce":null,"uuid":null,"hotkey":null,"signature":null},' +
  '"computed_body_hash":"","dummy_input":7,"dummy_output":14}';

let alice: KeyringPair;
let bob: KeyringPair;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  [alice, bob] = (await devKeys('//Alice', '//Bob')) as [KeyringPair, KeyringPair];
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Queries an axon that answers `status`, the raw `headers` (flat name, value list) and `body`. */
async function answered(status: number, headers: readonly string[], body: string | Buffer, timeoutSeconds = 5): Promise<Synapse> {
  const { url, close } = await listenLocal((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, [...headers]);
      res.end(body);
    });
  });
  closers.push(close);
  return createDendrite({ signer: alice }).query(
    { ip: '127.0.0.1', port: Number(new URL(url).port), hotkey: bob.address },
    Dummy,
    createSynapse(Dummy, { dummy_input: 7 }),
    timeoutSeconds,
  );
}

const JSON_TYPE = ['content-type', 'application/json'];

describe('response headers, as Synapse.from_headers reads aiohttp headers (synapse.py:770-817)', () => {
  it('bt_header_* names match case-sensitively ("bt_header_axon_" in key): an upper-case status header is ignored', async () => {
    const out = await answered(200, [...JSON_TYPE, 'BT_HEADER_AXON_STATUS_CODE', '200'], BODY_200);
    expect([out.axon.statusCode, out.dendrite.statusCode, callOutcome(out).isSuccess]).toEqual([null, null, false]);
  });

  it('a name that contains the marker counts, with the text after it as the field (key.split(marker)[1])', async () => {
    const out = await answered(200, [...JSON_TYPE, 'x-bt_header_axon_status_code', '200', 'bt_header_axon_status_message', 'Success'], BODY_200);
    expect([out.dendrite.statusCode, out.dendrite.statusMessage]).toEqual([200, 'Success']);
  });

  it('a repeated bt_header_* name: the last one wins (dict assignment in header order)', async () => {
    const out = await answered(200, [...JSON_TYPE, 'bt_header_axon_status_code', '500', 'bt_header_axon_status_code', '200'], BODY_200);
    expect(out.dendrite.statusCode).toBe(200);
  });

  it("integers are read with Python's int() (cast_int): ' +0_200 ' is 200", async () => {
    const out = await answered(200, [...JSON_TYPE, 'bt_header_axon_status_code', '+0_200'], BODY_200);
    expect([out.dendrite.statusCode, callOutcome(out).isSuccess]).toEqual([200, true]);
  });

  it('header_size, total_size and timeout are validated too: a non-integer header_size fails the call with 422', async () => {
    for (const [name, value] of [
      ['header_size', 'abc'],
      ['total_size', '1.5'],
      ['timeout', 'soon'],
    ] as const) {
      const out = await answered(200, [...JSON_TYPE, 'bt_header_axon_status_code', '200', name, value], BODY_200);
      expect([name, out.dendrite.statusCode]).toEqual([name, 422]);
      expect(out.dendrite.statusMessage).toMatch(/^Failed to parse response: /);
    }
  });

  it("pyIntText / pyFloatText accept and refuse what python3's int() / float() do", () => {
    // python3 -c 'print(int("\xa0+0_200\x0b"), int("0200"))' -> 200 200; int("1__0"), int("_1"), int("1e5") raise.
    expect([pyIntText('\xa0+0_200\x0b', 'h'), pyIntText('0200', 'h'), pyIntText('-5', 'h')]).toEqual([200n, 200n, -5n]);
    for (const bad of ['1__0', '_1', '1_', '1e5', '\x1c5', '', '0x10', '5'.repeat(4301)]) expect(() => pyIntText(bad, 'h')).toThrow();
    expect(pyIntText('5'.repeat(4300), 'h')).toBe(BigInt('5'.repeat(4300)));
    // python3: float("1_0.5") 10.5, float(".5") 0.5, float("5.") 5.0, float("1e1_0") 1e10, float("-InF") -inf; float("1._5"), float("1.5_") raise.
    expect([pyFloatText('1_0.5', 't'), pyFloatText('.5', 't'), pyFloatText('5.', 't'), pyFloatText('1e1_0', 't'), pyFloatText('-InF', 't')]).toEqual([
      10.5,
      0.5,
      5,
      1e10,
      -Infinity,
    ]);
    expect(Number.isNaN(pyFloatText('+nan', 't'))).toBe(true);
    for (const bad of ['1._5', '1.5_', '1.5e', '0x1', 'in f']) expect(() => pyFloatText(bad, 't')).toThrow();
  });
});

describe('the body, as aiohttp response.json() and process_server_response read it', () => {
  it('a JSON media type is what aiohttp json_re matches: application/vnd.x+json and application/jsonx are read, text/json is 422', async () => {
    for (const type of ['application/vnd.bt+json; charset=utf-8', 'Application/JSONx']) {
      const out = await answered(200, ['content-type', type, 'bt_header_axon_status_code', '200'], BODY_200);
      expect([type, out.dendrite.statusCode, synapseValues(out).dummy_output]).toEqual([type, 200, 14]);
    }
    for (const headers of [['content-type', 'text/json'], ['content-type', 'application'], []]) {
      const out = await answered(200, [...headers, 'bt_header_axon_status_code', '200'], BODY_200);
      expect(out.dendrite.statusCode).toBe(422);
    }
  });

  it('the body is stripped of Python bytes whitespace (\\v, \\f too), but a UTF-8 BOM makes json.loads fail: 422', async () => {
    const padded = await answered(200, [...JSON_TYPE, 'bt_header_axon_status_code', '200'], `\x0b\x0c ${BODY_200}\x0b`);
    expect(padded.dendrite.statusCode).toBe(200);
    const bom = await answered(
      200,
      [...JSON_TYPE, 'bt_header_axon_status_code', '200'],
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(BODY_200)]),
    );
    expect(bom.dendrite.statusCode).toBe(422);
  });

  it('an error status with a body that is not a dict, or a message that is not a string: 422, axon.status_code already the HTTP status', async () => {
    for (const body of ['[]', '"forbidden"', '{"message": 5}', '{"message": {"a": 1}}', '']) {
      const out = await answered(403, JSON_TYPE, body);
      expect([body, out.dendrite.statusCode, out.axon.statusCode]).toEqual([body, 422, 403]);
      expect(out.dendrite.statusMessage).toMatch(/^Failed to parse response: /);
    }
  });

  it('an error status read with json.loads: NaN in the body is fine, a missing or null message is None', async () => {
    const nan = await answered(403, JSON_TYPE, '{"message": "Forbidden. Key is blacklisted: x.", "score": NaN}');
    expect([nan.dendrite.statusCode, nan.dendrite.statusMessage]).toEqual([403, 'Forbidden. Key is blacklisted: x.']);
    const none = await answered(500, JSON_TYPE, '{"message": null}');
    expect([none.dendrite.statusCode, none.dendrite.statusMessage]).toEqual([500, null]);
  });

  it('a 200 body with "dendrite": null or "axon": null: 422 (__dict__.update on None)', async () => {
    for (const side of ['dendrite', 'axon']) {
      const body = BODY_200.replace(new RegExp(`"${side}":\\{[^}]*\\}`), `"${side}":null`);
      expect(body).toContain(`"${side}":null`);
      const out = await answered(200, [...JSON_TYPE, 'bt_header_axon_status_code', '200'], body);
      expect([side, out.dendrite.statusCode, out.dendrite.statusMessage]).toEqual([
        side,
        422,
        "Failed to parse response: 'NoneType' object has no attribute '__dict__'",
      ]);
    }
  });

  it("a 200 body sets every field but computed_body_hash: timeout, total_size and header_size are the answer's", async () => {
    const body = BODY_200.replace('"timeout":12.0,"total_size":0,"header_size":0', '"timeout":3.5,"total_size":77,"header_size":5').replace(
      '"computed_body_hash":""',
      '"computed_body_hash":"ff"',
    );
    const out = await answered(200, [...JSON_TYPE, 'bt_header_axon_status_code', '200'], body);
    expect([out.timeout, out.totalSize, out.headerSize, out.computedBodyHash, out.dendrite.statusCode]).toEqual([3.5, 77n, 5n, '', 200]);
  });

  it('dendrite.process_time is the elapsed time for any answer read (dendrite.py:590), not only for 200', async () => {
    const out = await answered(403, JSON_TYPE, '{"message": "Forbidden. Key is blacklisted: x."}');
    expect(out.dendrite.statusCode).toBe(403);
    expect(typeof out.dendrite.processTime).toBe('number');
  });
});

describe('no usable answer (process_error_message): the status goes to dendrite only', () => {
  it('a timeout leaves axon.status_code None and sets dendrite 408', async () => {
    const { url, close } = await listenLocal(() => {
      // never answers
    });
    closers.push(close);
    const out = await createDendrite({ signer: alice }).query(
      { ip: '127.0.0.1', port: Number(new URL(url).port), hotkey: bob.address },
      Dummy,
      createSynapse(Dummy, { dummy_input: 7 }),
      0.3,
    );
    expect([out.dendrite.statusCode, out.dendrite.statusMessage, out.axon.statusCode, out.axon.statusMessage]).toEqual([
      408,
      'Request timeout after 0.3 seconds',
      null,
      null,
    ]);
  });
});
