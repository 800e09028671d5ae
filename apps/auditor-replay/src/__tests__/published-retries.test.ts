import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { isSubnetError } from '@subnet/core';

import { readPublishedBundles, signatureVerifier } from '../index.js';
import type { PublishedBundle } from '../index.js';
import { keys, signedBundle } from './fixtures.js';
import { listenLocal, writeEndlessly } from '@subnet/vitest-config/local-server';
import { tempDir } from '@subnet/vitest-config/temp-dir';

/**
 * `readPublishedBundles` (`miner-check explain --bundles URL`) asks a bundle again after a transient failure (a
 * connection reset, one request's timeout, 408, 429, 5xx), as `fetch` does, with the same backoff (doubled, capped,
 * never past the total timeout), and never after a refusal (another 4xx, a redirect, a body that is not JSON, a bad
 * signature, another epoch, an embargo). Each bundle says how many GETs it took. A real HTTP server on 127.0.0.1.
 */

const texts = new Map<number, string>();
const hits = new Map<string, number>();
let base: string;
let close: () => Promise<void>;
let verify: Awaited<ReturnType<typeof signatureVerifier>>;

const listing = (epochs: readonly number[]) => JSON.stringify({ epochs: epochs.map((epoch) => ({ epoch, bundle: `/v1/epochs/${epoch}/bundle` })) });

beforeAll(async () => {
  const k = await keys();
  verify = await signatureVerifier();
  for (const epoch of [1, 2, 3]) texts.set(epoch, JSON.stringify(signedBundle(k, { miners: 4, epoch })));
  const forged = JSON.parse(texts.get(3)!) as { signature: string };
  forged.signature = `${forged.signature.slice(0, -2)}${forged.signature.endsWith('00') ? '11' : '00'}`;
  ({ url: base, close } = await listenLocal((request, response) => {
    const path = request.url ?? '';
    const n = (hits.get(path) ?? 0) + 1;
    hits.set(path, n);
    const [, prefix = '', rest = ''] = /^\/([a-z-]+)(\/.*)$/.exec(path) ?? [];
    const epoch = Number(/^\/v1\/epochs\/(\d+)\/bundle$/.exec(rest)?.[1] ?? -1);
    const json = (text: string | undefined) => response.writeHead(200, { 'content-type': 'application/json' }).end(text);
    const reset = () => request.socket.destroy();
    switch (prefix) {
      case 'flaky':
        // The list: reset once. Epoch 1: 503, then reset, then served. Epoch 2: 408, then no answer, then served.
        // Epoch 3: 503 every time.
        if (rest === '/v1/epochs') {
          if (n === 1) reset();
          else json(listing([1, 2, 3]));
        } else if (epoch === 1) {
          if (n === 1) response.writeHead(503).end('busy');
          else if (n === 2) reset();
          else json(texts.get(1));
        } else if (epoch === 2) {
          if (n === 1) response.writeHead(408).end();
          else if (n === 2) return;
          else json(texts.get(2));
        } else response.writeHead(503, { 'retry-after': '999999' }).end('busy');
        return;
      case 'refusals': {
        if (rest === '/v1/epochs') {
          json(listing([1, 2, 3, 4, 5, 6, 7]));
          return;
        }
        const answers: Record<number, () => void> = {
          1: () => response.writeHead(404).end(),
          2: () => response.writeHead(400).end(),
          3: () => json(JSON.stringify(forged)),
          4: () => json(texts.get(1)),
          5: () => response.writeHead(302, { location: 'http://169.254.169.254/' }).end(),
          6: () => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>502</html>'),
          7: () => response.writeHead(425, { 'content-type': 'application/json', 'retry-after': '60' }).end('{"error":{"code":"BUNDLE_EMBARGOED"}}'),
        };
        answers[epoch]?.();
        return;
      }
      case 'forever':
      case 'capped':
        if (rest === '/v1/epochs') json(listing([1, 2]));
        else response.writeHead(503).end('busy');
        return;
      case 'down':
      case 'down-at-once':
        response.writeHead(502).end();
        return;
      case 'reset':
        reset();
        return;
      case 'drip':
        // The list at once; the bundle's body a byte every 100 ms, never ending.
        if (rest === '/v1/epochs') json(listing([1]));
        else {
          response.writeHead(200, { 'content-type': 'application/json' }).write('{');
          writeEndlessly(response, ' ', 100);
        }
        return;
      case 'odd-entry':
      case 'odd-bundle':
        // The list: one entry that is not an object, or epoch 0 with a bundle path that is a number, before a good one.
        if (rest === '/v1/epochs')
          json(JSON.stringify({ epochs: [prefix === 'odd-entry' ? 'x' : { epoch: 0, bundle: 5 }, { epoch: 1, bundle: '/v1/epochs/1/bundle' }] }));
        else if (epoch === 1) json(texts.get(1));
        else response.writeHead(404).end();
        return;
      default:
        response.writeHead(404).end();
    }
  }));
});
afterAll(() => close());

const summary = (read: readonly PublishedBundle[]) => read.map((b) => [b.source.slice(base.length), b.problem?.code ?? 'verified', b.attempts]);

describe('readPublishedBundles options', () => {
  it('last is a whole number of at least 1: 0 (slice(-0), every listed epoch), a fraction or NaN is AUDITOR_INVALID_OPTION before any request', async () => {
    for (const last of [0, -1, 1.5, Number.NaN]) {
      const before = hits.get('/flaky/v1/epochs') ?? 0;
      const error = await readPublishedBundles(`${base}/flaky`, { verify, last }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isSubnetError(error, 'AUDITOR_INVALID_OPTION')).toBe(true);
      expect(error).toMatchObject({ context: { path: 'last' } });
      expect((error as Error).message).toContain('last must be a whole number of epochs, at least 1');
      expect(hits.get('/flaky/v1/epochs') ?? 0).toBe(before);
    }
  });
});

describe('readPublishedBundles retries transient failures of each bundle with fetch’s backoff', () => {
  it('a reset, a 503, a 408 and a request that times out are asked again and the bundle is used; a bundle that stays 503 is set aside after its retries', async () => {
    const read = await readPublishedBundles(`${base}/flaky`, { verify, retries: 3, backoffMs: 5, timeoutMs: 400 });
    expect(summary(read)).toEqual([
      ['/flaky/v1/epochs/1/bundle', 'verified', 3],
      ['/flaky/v1/epochs/2/bundle', 'verified', 3],
      ['/flaky/v1/epochs/3/bundle', 'AUDITOR_FETCH_FAILED', 4],
    ]);
    const url = `${base}/flaky/v1/epochs/3/bundle`;
    expect(read[2]?.problem?.message).toBe(`[AUDITOR_FETCH_FAILED] GET ${url}: HTTP 503 (after 4 attempts) at --bundles (got ${JSON.stringify(url)})`);
    // The epoch list was reset once and asked again, as the bundles are.
    expect(hits.get('/flaky/v1/epochs')).toBe(2);
    expect(hits.get('/flaky/v1/epochs/3/bundle')).toBe(4);
  }, 20_000);

  it('a refusal is never asked again: 404, 400, a bad signature, another epoch, a redirect, not JSON, an embargo (one GET each)', async () => {
    const read = await readPublishedBundles(`${base}/refusals`, { verify, retries: 3, backoffMs: 5 });
    expect(summary(read)).toEqual([
      ['/refusals/v1/epochs/1/bundle', 'AUDITOR_FETCH_FAILED', 1],
      ['/refusals/v1/epochs/2/bundle', 'AUDITOR_FETCH_FAILED', 1],
      ['/refusals/v1/epochs/3/bundle', 'BUNDLE_BAD_SIGNATURE', 1],
      ['/refusals/v1/epochs/4/bundle', 'AUDITOR_WRONG_EPOCH', 1],
      ['/refusals/v1/epochs/5/bundle', 'AUDITOR_FETCH_FAILED', 1],
      ['/refusals/v1/epochs/6/bundle', 'AUDITOR_MALFORMED_JSON', 1],
      ['/refusals/v1/epochs/7/bundle', 'AUDITOR_BUNDLE_EMBARGOED', 1],
    ]);
    for (const epoch of [1, 2, 3, 4, 5, 6, 7]) expect(hits.get(`/refusals/v1/epochs/${epoch}/bundle`)).toBe(1);
  });

  it('each wait is capped (maxBackoffMs), not the validator’s Retry-After nor the doubled backoff', async () => {
    const started = Date.now();
    const read = await readPublishedBundles(`${base}/capped`, { verify, retries: 3, backoffMs: 10_000, maxBackoffMs: 20 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(summary(read)).toEqual([
      ['/capped/v1/epochs/1/bundle', 'AUDITOR_FETCH_FAILED', 4],
      ['/capped/v1/epochs/2/bundle', 'AUDITOR_FETCH_FAILED', 4],
    ]);
  }, 10_000);

  it('the retries end at totalTimeoutMs: the bundle under way says so with its attempts, the next is not asked (0 attempts)', async () => {
    const started = Date.now();
    const read = await readPublishedBundles(`${base}/forever`, { verify, retries: 1000, backoffMs: 200, maxBackoffMs: 200, totalTimeoutMs: 1500 });
    expect(Date.now() - started).toBeLessThan(4000);
    const first = read[0]!;
    expect(first.problem?.code).toBe('AUDITOR_FETCH_FAILED');
    expect(first.problem?.message).toMatch(
      /: HTTP 503 \(after \d+ attempts\); then the run passed its --total-timeout of 1500 ms: raise it \(at most 604800000\) to wait longer at --bundles/,
    );
    expect(first.attempts).toBe(hits.get('/forever/v1/epochs/1/bundle'));
    expect(first.attempts).toBeGreaterThan(2);
    expect(summary(read.slice(1))).toEqual([['/forever/v1/epochs/2/bundle', 'AUDITOR_FETCH_FAILED', 0]]);
    expect(read[1]?.problem?.message).toContain('not asked: the run passed its --total-timeout of 1500 ms');
    expect(hits.get('/forever/v1/epochs/2/bundle')).toBeUndefined();
  }, 10_000);

  it('a body that does not end within timeoutMs is named as such (the answer began), and asked again as a transient failure', async () => {
    const read = await readPublishedBundles(`${base}/drip`, { verify, retries: 1, backoffMs: 5, timeoutMs: 300 });
    expect(summary(read)).toEqual([['/drip/v1/epochs/1/bundle', 'AUDITOR_FETCH_FAILED', 2]]);
    expect(read[0]?.problem?.message).toContain(`GET ${base}/drip/v1/epochs/1/bundle: the answer did not end within 300 ms (after 2 attempts)`);
  });

  it('totalTimeoutMs 0 is a limit, not the default: the list is not asked again, whatever the retries', async () => {
    const error = await readPublishedBundles(`${base}/down-at-once`, { verify, totalTimeoutMs: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSubnetError(error, 'AUDITOR_FETCH_FAILED')).toBe(true);
    expect((error as Error).message).toContain('the run passed its --total-timeout of 0 ms');
  });

  it('an epoch list that stays 502 is AUDITOR_FETCH_FAILED after its retries, saying how many', async () => {
    const error = await readPublishedBundles(`${base}/down`, { verify, retries: 2, backoffMs: 5 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSubnetError(error, 'AUDITOR_FETCH_FAILED')).toBe(true);
    expect((error as Error).message).toContain(`GET ${base}/down/v1/epochs: HTTP 502 (after 3 attempts)`);
    expect(hits.get('/down/v1/epochs')).toBe(3);
  });
});

describe('readPublishedBundles: what it sets aside without using', () => {
  it('a list entry that is not an object, or epoch 0 with a bundle path that is not a string, is named in the listing problem and never asked for', async () => {
    for (const [prefix, first] of [
      ['odd-entry', 'epochs[0] = "x"'],
      ['odd-bundle', 'epochs[0].bundle = 5'],
    ] as const) {
      const read = await readPublishedBundles(`${base}/${prefix}`, { verify, retries: 0 });
      const source = `${base}/${prefix}/v1/epochs`;
      expect(summary(read)).toEqual([
        [`/${prefix}/v1/epochs`, 'AUDITOR_INVALID_LISTING', null],
        [`/${prefix}/v1/epochs/1/bundle`, 'verified', 1],
      ]);
      expect(read[0]?.problem?.message).toBe(
        `[AUDITOR_INVALID_LISTING] GET ${source}: 1 listed epoch(s) are not an object with a non-negative integer "epoch" (at most 2^53 - 1) and a "bundle" path or null; the first: ${first} at --bundles (got ${JSON.stringify(source)})`,
      );
      expect(hits.get(`/${prefix}/v1/epochs/0/bundle`)).toBeUndefined();
    }
  });

  it('an epoch list whose connection is reset every time: AUDITOR_FETCH_FAILED after its retries, with the network error as its cause', async () => {
    const error = await readPublishedBundles(`${base}/reset`, { verify, retries: 1, backoffMs: 5 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSubnetError(error, 'AUDITOR_FETCH_FAILED')).toBe(true);
    expect((error as Error).message).toContain(`GET ${base}/reset/v1/epochs: fetch failed`);
    expect((error as Error).message).toContain('(after 2 attempts)');
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(hits.get('/reset/v1/epochs')).toBe(2);
  });

  it('a folder: a file that cannot be read is set aside with AUDITOR_UNREADABLE, the bundle beside it is used', async () => {
    const dir = tempDir('auditor-published-');
    writeFileSync(join(dir, 'epoch-1.json'), texts.get(1)!);
    // A folder under a bundle's name: listed as a *.json file, and reading it fails (EISDIR), as root too.
    mkdirSync(join(dir, 'epoch-2.json'));
    const read = await readPublishedBundles(dir, { verify });
    expect(read.map((b) => [b.source, b.problem?.code ?? 'verified', b.attempts])).toEqual([
      [join(dir, 'epoch-1.json'), 'verified', null],
      [join(dir, 'epoch-2.json'), 'AUDITOR_UNREADABLE', null],
    ]);
    // The OS reason worded as the operands' errors word it, without Node's repeat of the path.
    expect(read[1]?.problem?.message).toBe(`cannot read ${join(dir, 'epoch-2.json')}: EISDIR (illegal operation on a directory)`);
  });
});
