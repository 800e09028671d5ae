import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AuditReport } from '../index.js';
import { fetchBundles, runCli } from '../index.js';
import { saveBundle } from '../save-bundle.js';
import { captureIo } from './capture-io.js';
import { keys, signedBundle } from './fixtures.js';
import type { Keys } from './fixtures.js';
import { listenLocal, writeEndlessly } from '@subnet/vitest-config/local-server';
import { tempDir } from '@subnet/vitest-config/temp-dir';
import { expectBuiltCli } from '@subnet/vitest-config/built-cli';

/**
 * `auditor-replay fetch` reads a validator the auditor does not trust. Each test serves something hostile from a
 * real HTTP server on 127.0.0.1 and checks that the download stops, says what happened (URL, status, limit) and
 * never writes anything but the bundle asked for, where it was asked for.
 */

const corpus = fileURLToPath(new URL('../../test-corpus/', import.meta.url));
const appDir = fileURLToPath(new URL('../..', import.meta.url));

/** Writes one byte a second until the client goes away (slowloris). */
function drip(response: ServerResponse): void {
  response.write('{');
  writeEndlessly(response, ' ', 1000);
}

let k: Keys;
let base: string;
let close: () => Promise<void>;
/** A second server standing for an address the auditor never meant to reach (the cloud metadata service, another host). */
let elsewhere: string;
let closeElsewhere: () => Promise<void>;
let elsewhereHits = 0;
const hits = new Map<string, number>();
const bundles = new Map<number, string>();
/** Valid JSON, hostile as a bundle: depth 10 000, a number beyond a double, a bundle whose duplicate key hides the signed one. */
const hostileJson: string[] = [];
/** An honest bundle of another validator (//Eve), signed by it. */
let otherValidator: string;

beforeAll(async () => {
  k = await keys();
  for (const epoch of [1, 2, 3]) bundles.set(epoch, JSON.stringify(signedBundle(k, { miners: 4, epoch })));
  otherValidator = JSON.stringify(signedBundle({ validator: k.stranger, peers: k.peers, stranger: k.validator }, { miners: 4, epoch: 4 }));
  hostileJson.push(
    `{"bundle":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    '{"bundle":{"epoch":1e400},"digest":"00","signature":"00"}',
    `{"bundle":${JSON.stringify((JSON.parse(bundles.get(3)!) as { bundle: unknown }).bundle)},"bundle":{"epoch":2}}`,
    'null',
  );
  ({ url: elsewhere, close: closeElsewhere } = await listenLocal((_request, response) => {
    elsewhereHits += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(bundles.get(1));
  }));
  ({ url: base, close } = await listenLocal((request, response) => {
    const path = request.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route: Record<string, () => void> = {
      '/redirect-metadata/v1/epochs/1/bundle': () => response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/' }).end(),
      '/redirect-elsewhere/v1/epochs/1/bundle': () => response.writeHead(301, { location: `${elsewhere}/v1/epochs/1/bundle` }).end(),
      '/redirect-file/v1/epochs/1/bundle': () => response.writeHead(307, { location: 'file:///etc/passwd' }).end(),
      '/redirect-loop/v1/epochs/1/bundle': () => response.writeHead(308, { location: '/redirect-loop/v1/epochs/1/bundle' }).end(),
      '/drip/v1/epochs/1/bundle': () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        drip(response);
      },
      '/drip/v1/epochs/2/bundle': () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        drip(response);
      },
      '/endless-embargo/v1/epochs/1/bundle': () => {
        // A 425 whose body never ends: the embargo's details are read up to a small cap, not until the timeout.
        response.writeHead(425, { 'content-type': 'application/json', 'retry-after': '60' });
        response.write('{"error":{"code":"BUNDLE_EMBARGOED","padding":"');
        const timer = setInterval(() => {
          if (response.destroyed) clearInterval(timer);
          else response.write('x'.repeat(65_536));
        }, 5);
        response.on('close', () => {
          clearInterval(timer);
        });
      },
      '/embargo/v1/epochs/1/bundle': () =>
        response
          .writeHead(425, { 'content-type': 'application/json', 'retry-after': '60' })
          .end('{"error":{"code":"BUNDLE_EMBARGOED","reveal_block":"131","reveal_round":"4242"}}'),
      // Details that are not decimal strings (a number, a text), and no Retry-After: each left out, not guessed.
      '/embargo/v1/epochs/2/bundle': () =>
        response.writeHead(425, { 'content-type': 'application/json' }).end('{"error":{"code":"BUNDLE_EMBARGOED","reveal_block":131,"reveal_round":"42x"}}'),
      // Commit-reveal v2: the validator reveals its own commit from the window's first block (docs/spec.md G.22).
      '/embargo/v1/epochs/3/bundle': () =>
        response
          .writeHead(425, { 'content-type': 'application/json', 'retry-after': '30' })
          .end('{"error":{"code":"BUNDLE_EMBARGOED","reveal_block":"140","reveal_round":null,"scheme":"hash"}}'),
      // Held for an earlier epoch's embargo (docs/spec.md G.23): the reveal fields are epoch 3's.
      '/embargo/v1/epochs/4/bundle': () =>
        response
          .writeHead(425, { 'content-type': 'application/json', 'retry-after': '30' })
          .end('{"error":{"code":"BUNDLE_EMBARGOED","epoch":4,"held_by":3,"reveal_block":"140","reveal_round":null,"scheme":"hash"}}'),
      // Held for an earlier epoch whose submission is not settled: no scheme, no reveal block.
      '/embargo/v1/epochs/6/bundle': () =>
        response
          .writeHead(425, { 'content-type': 'application/json', 'retry-after': '60' })
          .end('{"error":{"code":"BUNDLE_EMBARGOED","epoch":6,"held_by":5,"reveal_block":null,"reveal_round":null,"scheme":null}}'),
      // A held_by that is no earlier epoch is left out.
      '/embargo/v1/epochs/5/bundle': () =>
        response.writeHead(425, { 'content-type': 'application/json' }).end('{"error":{"code":"BUNDLE_EMBARGOED","held_by":9,"scheme":"timelock"}}'),
      '/busy/v1/epochs/1/bundle': () => response.writeHead(503, { 'retry-after': '999999' }).end('busy'),
      '/throttled/v1/epochs/1/bundle': () => response.writeHead(429, { 'retry-after': '999999' }).end('slow down'),
      '/request-timeout/v1/epochs/1/bundle': () => response.writeHead(408).end('request timeout'),
      '/bad-request/v1/epochs/1/bundle': () => response.writeHead(400).end('bad request'),
      '/not-modified/v1/epochs/1/bundle': () => response.writeHead(304).end(),
      '/no-content/v1/epochs/1/bundle': () => response.writeHead(204).end(),
      '/html/v1/epochs/1/bundle': () => response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>'),
      '/html-error/v1/epochs/1/bundle': () => response.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad Gateway</body></html>'),
      '/gzip-bomb/v1/epochs/1/bundle': () => {
        // A gzip stream of zeros that never ends (about 1 KiB on the wire per MiB inflated): the cap counts
        // inflated bytes, and inflating stops there (else this would run until the timeout).
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        const gzip = createGzip();
        gzip.pipe(response);
        gzip.write('{"padding":"');
        const zeros = Buffer.alloc(1024 * 1024, 0x30);
        const pump = () => {
          while (!response.destroyed && gzip.write(zeros));
          if (!response.destroyed) gzip.once('drain', pump);
        };
        response.on('close', () => gzip.destroy());
        pump();
      },
      '/other-validator/v1/epochs/4/bundle': () => response.writeHead(200, { 'content-type': 'application/json' }).end(otherValidator),
      '/other-validator/v1/epochs/3/bundle': () => response.writeHead(200, { 'content-type': 'application/json' }).end(bundles.get(3)),
      '/wrong-epoch/v1/epochs/2/bundle': () => response.writeHead(200, { 'content-type': 'application/json' }).end(bundles.get(1)),
    };
    const answer = route[path];
    if (answer !== undefined) {
      answer();
      return;
    }
    const hostile = /^\/hostile-json\/v1\/epochs\/(\d)\/bundle$/.exec(path);
    if (hostile !== null) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(hostileJson[Number(hostile[1])]);
      return;
    }
    if (path === '/a-indented/v1/epochs/2/bundle') {
      readFile(join(corpus, 'equivocation', 'a.json'), 'utf8').then(
        (text) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(JSON.parse(text), null, 2)),
        () => response.writeHead(500).end(),
      );
      return;
    }
    const served = /^\/(a|b)\/v1\/epochs\/2\/bundle$/.exec(path);
    if (served !== null) {
      readFile(join(corpus, 'equivocation', `${served[1]}.json`)).then(
        (bytes) => response.writeHead(200, { 'content-type': 'application/json' }).end(bytes),
        () => response.writeHead(500).end(),
      );
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"BUNDLE_NOT_FOUND"}');
  }));
});
afterAll(async () => {
  await close();
  await closeElsewhere();
});

describe('fetch from a hostile validator: redirects are not followed', () => {
  it('a redirect to the metadata address, to another host, to file:, or to itself fails naming the status and the target; nothing is fetched from the target', async () => {
    const outDir = tempDir('auditor-hostile-');
    const cases = [
      ['redirect-metadata', 302, 'http://169.254.169.254/latest/meta-data/iam/'],
      ['redirect-elsewhere', 301, `${elsewhere}/v1/epochs/1/bundle`],
      ['redirect-file', 307, 'file:///etc/passwd'],
      ['redirect-loop', 308, '/redirect-loop/v1/epochs/1/bundle'],
    ] as const;
    for (const [prefix, status, location] of cases) {
      const [got] = await fetchBundles({ validator: `${base}/${prefix}`, from: 1, to: 1, outDir, retries: 2, backoffMs: 1, timeoutMs: 2000 });
      expect(got).toMatchObject({ epoch: 1, status: 'failed', file: null, attempts: 1, code: 'AUDITOR_FETCH_FAILED' });
      expect(got?.error).toBe(
        `GET ${base}/${prefix}/v1/epochs/1/bundle: HTTP ${status}: redirects to ${location} (not followed: give --validator the URL that serves the bundles)`,
      );
    }
    expect(elsewhereHits).toBe(0);
    expect(hits.get('/redirect-loop/v1/epochs/1/bundle')).toBe(1);
    expect(await readdir(outDir)).toEqual([]);
  });
});

describe('fetch from a hostile validator: time limits', () => {
  it('a body that drips one byte a second fails at --timeout, naming the URL and the limit', async () => {
    const outDir = tempDir('auditor-hostile-');
    const started = Date.now();
    const [got] = await fetchBundles({ validator: `${base}/drip`, from: 1, to: 1, outDir, retries: 0, timeoutMs: 1500 });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(got).toMatchObject({ epoch: 1, status: 'failed', file: null });
    expect(got?.error).toBe(
      `GET ${base}/drip/v1/epochs/1/bundle: the answer did not end within 1500 ms (after 1 attempt); the limit is --timeout 1500: raise it (at most 3600000) to wait longer`,
    );
  }, 10_000);

  it('decision (docs/spec.md G.46 (b)): --total-timeout ends the whole run: the request under way stops, later epochs are not asked for, each is named; exit 1; the sentence names its value and its most', async () => {
    const outDir = tempDir('auditor-hostile-');
    const t = captureIo(false);
    const started = Date.now();
    const code = await runCli(
      ['fetch', '--validator', `${base}/drip`, '--from', '1', '--to', '3', '--out', outDir, '--timeout', '60000', '--total-timeout', '1200', '--retries', '5'],
      t,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(code).toBe(1);
    const stop = 'the run passed its --total-timeout of 1200 ms: raise it (at most 604800000) to wait longer';
    expect(t.out()).toContain(`epoch 1: failed: [AUDITOR_FETCH_FAILED] GET ${base}/drip/v1/epochs/1/bundle: ${stop}`);
    expect(t.out()).toContain(`epoch 2: failed: [AUDITOR_FETCH_FAILED] GET ${base}/drip/v1/epochs/2/bundle: not asked: ${stop}`);
    expect(t.out()).toContain(`epoch 3: failed: [AUDITOR_FETCH_FAILED] GET ${base}/drip/v1/epochs/3/bundle: not asked: ${stop}`);
    // The progress line gives the status and code; the sentence is on stdout, once.
    expect(t.err()).toContain('fetch 3/3 epoch 3 failed [AUDITOR_FETCH_FAILED]');
    expect(t.err()).not.toContain(stop);
    expect(t.out()).toContain('0/3 bundle(s) saved');
    expect(hits.get('/drip/v1/epochs/3/bundle')).toBeUndefined();
  }, 10_000);

  it('the built binary exits by itself against a validator that drips (no handle left open)', async () => {
    expectBuiltCli(appDir);
    const outDir = tempDir('auditor-hostile-');
    const started = Date.now();
    const result = await new Promise<{ code: number | string | null | undefined; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          join(appDir, 'bin', 'auditor-replay.js'),
          'fetch',
          '--validator',
          `${base}/drip`,
          '--from',
          '2',
          '--to',
          '2',
          '--out',
          outDir,
          '--total-timeout',
          '800',
          '--quiet',
        ],
        { timeout: 20_000 },
        (error, stdout) => {
          resolve({ code: error === null ? 0 : error.code, stdout });
        },
      );
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('the run passed its --total-timeout of 800 ms: raise it (at most 604800000) to wait longer');
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 25_000);

  it('429 and 503 with retry-after: 999999, and 408, are retried on the auditor own backoff (capped), a bounded number of times; 400 is not', async () => {
    const outDir = tempDir('auditor-hostile-');
    const started = Date.now();
    const got = await Promise.all(
      ['throttled', 'busy', 'request-timeout', 'bad-request'].map((p) =>
        fetchBundles({ validator: `${base}/${p}`, from: 1, to: 1, outDir, retries: 3, backoffMs: 10_000, maxBackoffMs: 20 }),
      ),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(got.map(([r]) => [r?.code, r?.error])).toEqual([
      ['AUDITOR_FETCH_FAILED', `GET ${base}/throttled/v1/epochs/1/bundle: HTTP 429 (after 4 attempts)`],
      ['AUDITOR_FETCH_FAILED', `GET ${base}/busy/v1/epochs/1/bundle: HTTP 503 (after 4 attempts)`],
      ['AUDITOR_FETCH_FAILED', `GET ${base}/request-timeout/v1/epochs/1/bundle: HTTP 408 (after 4 attempts)`],
      ['AUDITOR_FETCH_FAILED', `GET ${base}/bad-request/v1/epochs/1/bundle: HTTP 400`],
    ]);
    expect(hits.get('/throttled/v1/epochs/1/bundle')).toBe(4);
    expect(hits.get('/busy/v1/epochs/1/bundle')).toBe(4);
    expect(hits.get('/request-timeout/v1/epochs/1/bundle')).toBe(4);
    expect(hits.get('/bad-request/v1/epochs/1/bundle')).toBe(1);
  }, 10_000);
});

describe('fetch from a hostile validator: sizes and statuses', () => {
  it('a 425 is embargoed with the reveal block, the drand round and when to try again, as the answer gives them (decimal strings only)', async () => {
    const outDir = tempDir('auditor-hostile-');
    const before = Date.now();
    const got = await fetchBundles({ validator: `${base}/embargo`, from: 1, to: 2, outDir, retries: 3, backoffMs: 5 });
    const after = Date.now();
    const [first, second] = got;
    expect(first).toMatchObject({ epoch: 1, status: 'embargoed', file: null, attempts: 1, code: 'AUDITOR_BUNDLE_EMBARGOED' });
    expect(first?.embargo).toMatchObject({ epoch: 1, revealBlock: '131', revealRound: '4242', retryAfterSeconds: 60 });
    const retryAt = Date.parse(first?.embargo?.retryAt ?? '');
    expect(retryAt).toBeGreaterThanOrEqual(before + 60_000);
    expect(retryAt).toBeLessThanOrEqual(after + 60_000);
    expect(first?.error).toBe(
      `GET ${base}/embargo/v1/epochs/1/bundle: embargoed until the chain reveals epoch 1's commit-reveal weights (block 131, drand round 4242); try after ${first?.embargo?.retryAt} (60 s)`,
    );
    expect(second?.embargo).toEqual({ epoch: 2, revealBlock: null, revealRound: null, scheme: null, heldBy: null, retryAfterSeconds: null, retryAt: null });
    expect(second?.error).toBe(`GET ${base}/embargo/v1/epochs/2/bundle: embargoed until the chain reveals epoch 2's commit-reveal weights; try again later`);
    expect(hits.get('/embargo/v1/epochs/1/bundle')).toBe(1);
    // A commit-reveal v2 validator reveals the weights itself: the sentence says who, and from which block.
    const [v2] = await fetchBundles({ validator: `${base}/embargo`, from: 3, to: 3, outDir, retries: 0 });
    expect(v2?.embargo).toMatchObject({ epoch: 3, revealBlock: '140', revealRound: null, scheme: 'hash', retryAfterSeconds: 30 });
    expect(v2?.error).toBe(
      `GET ${base}/embargo/v1/epochs/3/bundle: embargoed until the validator reveals epoch 3's commit-reveal v2 weights (from block 140); try after ${v2?.embargo?.retryAt} (30 s)`,
    );
    // A later epoch held while an earlier one is embargoed (docs/spec.md G.23): the sentence names the epoch it waits for.
    const [held, notEarlier] = await fetchBundles({ validator: `${base}/embargo`, from: 4, to: 5, outDir, retries: 0 });
    expect(held?.embargo).toMatchObject({ epoch: 4, heldBy: 3, revealBlock: '140', scheme: 'hash' });
    expect(held?.error).toBe(
      `GET ${base}/embargo/v1/epochs/4/bundle: held: it carries the scores of epoch 3, embargoed until the validator reveals epoch 3's commit-reveal v2 weights (from block 140); try after ${held?.embargo?.retryAt} (30 s)`,
    );
    const [unsettled] = await fetchBundles({ validator: `${base}/embargo`, from: 6, to: 6, outDir, retries: 0 });
    expect(unsettled?.error).toBe(
      `GET ${base}/embargo/v1/epochs/6/bundle: held: it carries the scores of epoch 5, whose submission is not settled yet; try after ${unsettled?.embargo?.retryAt} (60 s)`,
    );
    expect(notEarlier?.embargo).toMatchObject({ epoch: 5, heldBy: null, scheme: 'timelock' });
    expect(notEarlier?.error).toBe(
      `GET ${base}/embargo/v1/epochs/5/bundle: embargoed until the chain reveals epoch 5's commit-reveal weights; try again later`,
    );
    expect(await readdir(outDir)).toEqual([]);
  });

  it('a 425 whose body never ends is read up to a small cap: embargoed at once, not held until the timeout', async () => {
    const outDir = tempDir('auditor-hostile-');
    const started = Date.now();
    const [got] = await fetchBundles({ validator: `${base}/endless-embargo`, from: 1, to: 1, outDir, retries: 0, timeoutMs: 20_000 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(got).toMatchObject({ epoch: 1, status: 'embargoed', file: null, embargo: { retryAfterSeconds: 60, revealBlock: null } });
  }, 30_000);

  it('a gzip body that never ends is capped on its inflated bytes and stops there', async () => {
    const outDir = tempDir('auditor-hostile-');
    const started = Date.now();
    const [got] = await fetchBundles({ validator: `${base}/gzip-bomb`, from: 1, to: 1, outDir, retries: 0, maxBytes: 1024 * 1024, timeoutMs: 20_000 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(got).toMatchObject({ status: 'failed', file: null });
    expect(got?.error).toBe(
      `GET ${base}/gzip-bomb/v1/epochs/1/bundle: the answer is larger than 1048576 bytes; the limit is --max-bundle-bytes 1048576: raise it (at most 268435456) to allow more`,
    );
    expect(await readdir(outDir)).toEqual([]);
  });

  it('304, 204, an HTML page with 200 and an HTML 502: each a failure naming the URL and the status; only the 502 is retried', async () => {
    const outDir = tempDir('auditor-hostile-');
    const errors: (string | null | undefined)[] = [];
    const codes: (string | null | undefined)[] = [];
    for (const p of ['not-modified', 'no-content', 'html', 'html-error']) {
      const [got] = await fetchBundles({ validator: `${base}/${p}`, from: 1, to: 1, outDir, retries: 1, backoffMs: 1 });
      errors.push(got?.error);
      codes.push(got?.code);
    }
    expect(codes).toEqual(['AUDITOR_FETCH_FAILED', 'AUDITOR_MALFORMED_JSON', 'AUDITOR_MALFORMED_JSON', 'AUDITOR_FETCH_FAILED']);
    expect(errors).toEqual([
      `GET ${base}/not-modified/v1/epochs/1/bundle: HTTP 304`,
      `GET ${base}/no-content/v1/epochs/1/bundle: HTTP 204: the answer is not JSON`,
      `GET ${base}/html/v1/epochs/1/bundle: HTTP 200: the answer is not JSON`,
      `GET ${base}/html-error/v1/epochs/1/bundle: HTTP 502 (after 2 attempts)`,
    ]);
    expect(await readdir(outDir)).toEqual([]);
  });
});

describe('fetch from a hostile validator: what is written to --out', () => {
  it('the file kept is read for its digest up to the 64 MiB a bundle may be: at exactly that size it is, one byte more it is not', async () => {
    const outDir = tempDir('auditor-hostile-');
    const digest = 'ab'.repeat(32);
    const head = `{"bundle":{},"digest":"${digest}","padding":"`;
    const kept = join(outDir, 'epoch-7.json');
    await writeFile(kept, `${head}${' '.repeat(64 * 1024 * 1024 - head.length - 2)}"}`);
    const answer = Buffer.from(`{"bundle":{},"digest":"${digest}"}`);
    const exact = await saveBundle(outDir, 7, answer, JSON.parse(answer.toString()));
    expect(exact).toEqual({ file: expect.stringMatching(/epoch-7\.[0-9a-f]{64}\.json$/), beside: { file: kept, sameDigest: true } });
    await appendFile(kept, ' ');
    const over = await saveBundle(outDir, 7, answer, JSON.parse(answer.toString()));
    expect(over).toEqual({ file: exact.file, beside: { file: kept, sameDigest: false } });
  }, 30_000);

  it('a signed bundle of another epoch than the one asked for is refused, not saved under the asked epoch', async () => {
    const outDir = tempDir('auditor-hostile-');
    const [got] = await fetchBundles({ validator: `${base}/wrong-epoch`, from: 2, to: 2, outDir, retries: 0 });
    expect(got).toMatchObject({ epoch: 2, status: 'failed', file: null, code: 'AUDITOR_WRONG_EPOCH' });
    expect(got?.error).toBe(`GET ${base}/wrong-epoch/v1/epochs/2/bundle: the answer is the bundle of epoch 1, not of epoch 2`);
    expect(await readdir(outDir)).toEqual([]);
  });

  it('a bundle signed by another validator than --validator-hotkey is refused; without it, fetch names the hotkeys the saved bundles claim', async () => {
    const alice = k.validator.address;
    const eve = k.stranger.address;
    const pinned = tempDir('auditor-hostile-');
    const t = captureIo(false);
    expect(
      await runCli(['fetch', '--validator', `${base}/other-validator`, '--from', '3', '--to', '4', '--out', pinned, '--validator-hotkey', alice, '--quiet'], t),
    ).toBe(1);
    const refusal = `GET ${base}/other-validator/v1/epochs/4/bundle: the bundle names validator "${eve}", not ${alice} given with --validator-hotkey; not saved`;
    expect(t.out()).toContain(`epoch 4: failed: [AUDITOR_WRONG_VALIDATOR] ${refusal}\n`);
    expect(t.out()).toContain(`the saved bundles name validator hotkey ${alice} (1)\n`);
    expect(await readdir(pinned)).toEqual(['epoch-3.json']);
    // The same refusal, coded, in --json (and from the API), so a script branches on the code, not on the sentence.
    const j = captureIo(false);
    const again = tempDir('auditor-hostile-');
    expect(
      await runCli(['fetch', '--validator', `${base}/other-validator`, '--from', '3', '--to', '4', '--out', again, '--validator-hotkey', alice, '--json'], j),
    ).toBe(1);
    expect(j.err()).toBe('');
    const report = JSON.parse(j.out()) as {
      exit_code: number;
      sources: { epochs: { epoch: number; status: string; code: string | null; error: string | null }[] }[];
    };
    expect(report.exit_code).toBe(1);
    expect(report.sources[0]?.epochs.map((e) => [e.epoch, e.status, e.code, e.error])).toEqual([
      [3, 'saved', null, null],
      [4, 'failed', 'AUDITOR_WRONG_VALIDATOR', refusal],
    ]);
    const [, refused] = await fetchBundles({ validator: `${base}/other-validator`, from: 3, to: 4, outDir: again, validatorHotkey: alice, retries: 0 });
    expect(refused).toMatchObject({ status: 'failed', code: 'AUDITOR_WRONG_VALIDATOR', error: refusal, attempts: 1 });
    const open = tempDir('auditor-hostile-');
    const u = captureIo(false);
    expect(await runCli(['fetch', '--validator', `${base}/other-validator`, '--from', '3', '--to', '4', '--out', open, '--quiet'], u)).toBe(0);
    expect(u.out()).toContain(
      `the saved bundles name validator hotkeys ${alice} (1), ${eve} (1) (check it is the validator you audit, or pass --validator-hotkey)`,
    );
    // Each is honestly signed by the hotkey it names, so verify passes both: only the hotkey tells them apart.
    expect(await runCli(['verify', open], captureIo())).toBe(0);
    expect(await runCli(['fetch', '--validator', base, '--from', '3', '--to', '3', '--out', open, '--validator-hotkey', 'not-a-hotkey'], captureIo())).toBe(2);
  });

  it('a second, different bundle for an epoch already in --out is kept next to it, never over it; verify then reports the equivocation', async () => {
    const outDir = tempDir('auditor-hostile-');
    const first = captureIo(false);
    expect(await runCli(['fetch', '--validator', `${base}/a`, '--from', '2', '--to', '2', '--out', outDir, '--quiet'], first)).toBe(0);
    const a = await readFile(join(corpus, 'equivocation', 'a.json'));
    expect(await readFile(join(outDir, 'epoch-2.json'))).toEqual(a);
    // The same bytes again: nothing new.
    expect(await runCli(['fetch', '--validator', `${base}/a`, '--from', '2', '--to', '2', '--out', outDir, '--quiet'], captureIo(false))).toBe(0);
    expect(await readdir(outDir)).toEqual(['epoch-2.json']);
    // Other bytes for epoch 2: saved beside, named by their sha256, and said.
    const second = captureIo(false);
    expect(await runCli(['fetch', '--validator', `${base}/b`, '--from', '2', '--to', '2', '--out', outDir, '--quiet'], second)).toBe(0);
    const names = await readdir(outDir);
    const beside = names.find((n) => n !== 'epoch-2.json')!;
    expect(names).toHaveLength(2);
    expect(names).toContain('epoch-2.json');
    // Named by the whole sha256 of the bytes (64 hex), from a reference that is not the code under test.
    expect(beside).toBe(
      `epoch-2.${createHash('sha256')
        .update(await readFile(join(corpus, 'equivocation', 'b.json')))
        .digest('hex')}.json`,
    );
    expect(await readFile(join(outDir, 'epoch-2.json'))).toEqual(a);
    expect(await readFile(join(outDir, beside))).toEqual(await readFile(join(corpus, 'equivocation', 'b.json')));
    expect(second.out()).toContain(
      `epoch 2: saved as ${join(outDir, beside)}: ${join(outDir, 'epoch-2.json')} holds another document for this epoch; both kept (verify the folder: two bundles validly signed by one validator for one epoch are an equivocation)`,
    );
    const v = captureIo();
    expect(await runCli(['verify', outDir, '--json'], v)).toBe(1);
    expect((JSON.parse(v.out()) as AuditReport).equivocations).toHaveLength(1);
  });

  it('the same signed bundle served again in other bytes is kept beside and said to be the same (same digest), no equivocation', async () => {
    const outDir = tempDir('auditor-hostile-');
    expect(await runCli(['fetch', '--validator', `${base}/a`, '--from', '2', '--to', '2', '--out', outDir, '--quiet'], captureIo(false))).toBe(0);
    const again = captureIo(false);
    expect(await runCli(['fetch', '--validator', `${base}/a-indented`, '--from', '2', '--to', '2', '--out', outDir, '--quiet'], again)).toBe(0);
    const beside = (await readdir(outDir)).find((n) => n !== 'epoch-2.json')!;
    expect(again.out()).toContain(
      `epoch 2: saved as ${join(outDir, beside)}: ${join(outDir, 'epoch-2.json')} holds the same signed bundle (same digest) in other bytes, e.g. without its reveal attestation; both kept`,
    );
    const v = captureIo();
    expect(await runCli(['verify', outDir, '--json'], v)).toBe(0);
    expect((JSON.parse(v.out()) as AuditReport).equivocations).toEqual([]);
  });

  it('a third document whose sha256 shares its first 12 hex with one already beside (a ground collision) is saved, not AUDITOR_NAME_CONFLICT', async () => {
    const outDir = tempDir('auditor-hostile-');
    expect(await runCli(['fetch', '--validator', `${base}/a`, '--from', '2', '--to', '2', '--out', outDir, '--quiet'], captureIo(false))).toBe(0);
    const served = await readFile(join(corpus, 'equivocation', 'b.json'));
    const hash = createHash('sha256').update(served).digest('hex');
    // What a validator that ground 12 hex of sha256 (about 2^24 hashes, birthday bound of 48 bits) leaves in the
    // folder: another document of epoch 2, already fetched, under the 12-hex name the next answer would take.
    const ground = join(outDir, `epoch-2.${hash.slice(0, 12)}.json`);
    const groundBytes = JSON.stringify(JSON.parse(await readFile(join(corpus, 'equivocation', 'a.json'), 'utf8')), null, 2);
    await writeFile(ground, groundBytes);
    const t = captureIo(false);
    expect(await runCli(['fetch', '--validator', `${base}/b`, '--from', '2', '--to', '2', '--out', outDir, '--quiet'], t)).toBe(0);
    const saved = join(outDir, `epoch-2.${hash}.json`);
    expect(t.out()).toContain(`epoch 2: saved as ${saved}: ${join(outDir, 'epoch-2.json')} holds another document for this epoch; both kept`);
    expect(await readFile(saved)).toEqual(served);
    expect(await readFile(ground, 'utf8')).toBe(groundBytes);
    // verify judges every document kept: b against a is the equivocation.
    const v = captureIo();
    expect(await runCli(['verify', outDir, '--json'], v)).toBe(1);
    expect((JSON.parse(v.out()) as AuditReport).equivocations).toHaveLength(1);
  });

  it('a folder an earlier version filled (12-hex names) is still recognised: bytes already there under the short name are not saved again', async () => {
    const outDir = tempDir('auditor-hostile-');
    expect(await runCli(['fetch', '--validator', `${base}/a`, '--from', '2', '--to', '2', '--out', outDir, '--quiet'], captureIo(false))).toBe(0);
    const served = await readFile(join(corpus, 'equivocation', 'b.json'));
    const legacy = `epoch-2.${createHash('sha256').update(served).digest('hex').slice(0, 12)}.json`;
    await writeFile(join(outDir, legacy), served);
    const t = captureIo(false);
    expect(await runCli(['fetch', '--validator', `${base}/b`, '--from', '2', '--to', '2', '--out', outDir, '--quiet'], t)).toBe(0);
    expect(t.out()).toContain(`epoch 2: saved as ${join(outDir, legacy)}: `);
    expect((await readdir(outDir)).sort()).toEqual(['epoch-2.json', legacy].sort());
  });

  it('both file names of an epoch already holding other bytes is AUDITOR_NAME_CONFLICT naming both paths (text, --json, --help), not a network failure', async () => {
    const outDir = tempDir('auditor-hostile-');
    const served = await readFile(join(corpus, 'equivocation', 'b.json'));
    // The auditor's folder already holds other bytes under both names fetch would use for this answer.
    const first = join(outDir, 'epoch-2.json');
    const second = join(outDir, `epoch-2.${createHash('sha256').update(served).digest('hex')}.json`);
    await writeFile(first, '{"mine":1}');
    await writeFile(second, '{"mine":2}');
    const j = captureIo();
    expect(await runCli(['fetch', '--validator', `${base}/b`, '--from', '2', '--to', '2', '--out', outDir, '--json'], j)).toBe(1);
    const [epoch] = (JSON.parse(j.out()) as { sources: { epochs: { status: string; code: string; error: string; file: string | null }[] }[] }).sources[0]!
      .epochs;
    expect(epoch).toMatchObject({ status: 'failed', code: 'AUDITOR_NAME_CONFLICT', file: null });
    expect(epoch!.error).toContain(`${first} and ${second} both already hold other bytes`);
    const t = captureIo(false);
    expect(await runCli(['fetch', '--validator', `${base}/b`, '--from', '2', '--to', '2', '--out', outDir, '--quiet'], t)).toBe(1);
    expect(t.out() + t.err()).toContain(`[AUDITOR_NAME_CONFLICT]`);
    expect(t.out() + t.err()).toContain(`${first} and ${second}`);
    // Nothing was overwritten, nothing added.
    expect([await readFile(first, 'utf8'), await readFile(second, 'utf8')]).toEqual(['{"mine":1}', '{"mine":2}']);
    expect((await readdir(outDir)).sort()).toEqual(['epoch-2.json', second.slice(outDir.length + 1)].sort());
    const help = captureIo();
    expect(await runCli(['fetch', '--help'], help)).toBe(0);
    expect(help.out()).toContain('AUDITOR_NAME_CONFLICT');
  });

  it('valid JSON that is a hostile bundle (depth 10 000, 1e400, duplicate keys, null) is saved as served; verify sets each aside with a code (exit 2)', async () => {
    const outDir = tempDir('auditor-hostile-');
    const t = captureIo(false);
    expect(await runCli(['fetch', '--validator', `${base}/hostile-json`, '--from', '0', '--to', '3', '--out', outDir, '--quiet', '--retries', '0'], t)).toBe(0);
    for (const [epoch, doc] of hostileJson.entries()) expect(await readFile(join(outDir, `epoch-${epoch}.json`), 'utf8')).toBe(doc);
    const v = captureIo();
    expect(await runCli(['verify', outDir, '--json'], v)).toBe(2);
    const report = JSON.parse(v.out()) as AuditReport;
    expect(report.bundles.map((b) => [b.source, b.status, b.error?.code])).toEqual([
      [join(outDir, 'epoch-0.json'), 'invalid', 'CORE_INPUT_TOO_DEEP'],
      [join(outDir, 'epoch-1.json'), 'invalid', 'CORE_INPUT_NOT_JSON'],
      [join(outDir, 'epoch-2.json'), 'invalid', 'AUDITOR_INVALID_BUNDLE'],
      [join(outDir, 'epoch-3.json'), 'invalid', 'AUDITOR_INVALID_BUNDLE'],
    ]);
    expect(hits.get('/hostile-json/v1/epochs/3/bundle')).toBe(1);
  });
});
