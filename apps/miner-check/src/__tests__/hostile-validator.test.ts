import { readdirSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runMinerCheck } from '../program.js';
import { listenLocal, writeEndlessly } from '@subnet/vitest-config/local-server';

/**
 * `miner-check explain --bundles URL` reads a validator the miner does not trust. Each test serves something
 * hostile from a real HTTP server on 127.0.0.1: the command ends by itself, never follows the validator
 * elsewhere, and every bundle it could not use is set aside with a code and a message naming the URL and the
 * status or the limit.
 */

const honest = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'auditor-replay', 'test-corpus', 'honest');
const files = new Map(
  readdirSync(honest)
    .filter((n) => n.endsWith('.json'))
    .map((n) => [Number(/\d+/.exec(n)![0]), readFileSync(join(honest, n))] as const),
);
const epochs = [...files.keys()].sort((a, b) => a - b);
const newest = JSON.parse(files.get(epochs.at(-1)!)!.toString('utf8')) as {
  bundle: { result: { aggregation: { miners: { hotkey: string; u16: number }[] } } };
};
const miner = newest.bundle.result.aggregation.miners.find((m) => m.u16 > 0)!.hotkey;
/** The epochs whose bundle has the miner (its history). */
const withMiner = epochs.filter((e) =>
  (JSON.parse(files.get(e)!.toString('utf8')) as typeof newest).bundle.result.aggregation.miners.some((m) => m.hotkey === miner),
);
const listing = (list: readonly unknown[]) => JSON.stringify({ epochs: list });
const honestListing = listing(epochs.map((epoch) => ({ epoch, status: 'submitted', bundle: `/v1/epochs/${epoch}/bundle` })));

/** Writes one byte a second until the client goes away (slowloris). */
function drip(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{');
  writeEndlessly(response, ' ', 1000);
}

let base: string;
let close: () => Promise<void>;
let elsewhere: string;
let closeElsewhere: () => Promise<void>;
let elsewhereHits = 0;
const hits = new Map<string, number>();

beforeAll(async () => {
  ({ url: elsewhere, close: closeElsewhere } = await listenLocal((_request, response) => {
    elsewhereHits += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(honestListing);
  }));
  ({ url: base, close } = await listenLocal((request, response) => {
    const path = request.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const [, prefix = '', rest = ''] = /^\/([^/]+)(\/.*)$/.exec(path) ?? [];
    const json = (text: string | Buffer) => response.writeHead(200, { 'content-type': 'application/json' }).end(text);
    const bundle = /^\/v1\/epochs\/(\d+)\/bundle$/.exec(rest);
    const honestBundle = () => {
      const bytes = bundle === null ? undefined : files.get(Number(bundle[1]));
      if (bytes === undefined) response.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"BUNDLE_NOT_FOUND"}');
      else json(bytes);
    };
    const last = String(epochs.at(-1));
    switch (prefix) {
      case 'honest':
        if (rest === '/v1/epochs') json(honestListing);
        else honestBundle();
        return;
      case 'redirect-list':
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return;
      case 'redirect-bundle':
        if (rest === '/v1/epochs') json(honestListing);
        else if (bundle?.[1] === last) response.writeHead(307, { location: `${elsewhere}/v1/epochs/${last}/bundle` }).end();
        else honestBundle();
        return;
      case 'drip':
        if (rest === '/v1/epochs') json(honestListing);
        else if (bundle?.[1] === last) drip(response);
        else honestBundle();
        return;
      case 'flaky':
        // The newest bundle answers 503 the first time it is asked, then is served: a transient failure.
        if (rest === '/v1/epochs') json(honestListing);
        else if (bundle?.[1] === last && hits.get(path) === 1) response.writeHead(503).end('busy');
        else honestBundle();
        return;
      case 'drip-all':
        if (rest === '/v1/epochs') json(honestListing);
        else drip(response);
        return;
      case 'null-list':
        json('null');
        return;
      case 'bad-list':
        if (rest === '/v1/epochs')
          json(
            listing([
              { epoch: -1, bundle: '/v1/epochs/-1/bundle' },
              { epoch: 1.5, bundle: '/v1/epochs/1.5/bundle' },
              { epoch: 1e300, bundle: '/x' },
              { epoch: '0', bundle: '/x' },
              { epoch: 2 ** 53 + 2, bundle: '/x' },
              { epoch: 7, bundle: null },
              null,
              ...epochs.map((epoch) => ({ epoch, bundle: `/v1/epochs/${epoch}/bundle` })),
              { epoch: epochs.at(-1), bundle: '/again' },
            ]).replace('{"epoch":7,"bundle":null}', '{"epoch":7,"bundle":null},{"__proto__":{"epoch":3,"bundle":"/p"}}'),
          );
        else honestBundle();
        return;
      case 'wrong-epoch':
        if (rest === '/v1/epochs') json(listing([...epochs, 99].map((epoch) => ({ epoch, bundle: `/v1/epochs/${epoch}/bundle` }))));
        else if (bundle?.[1] === '99') json(files.get(epochs.at(-1)!)!);
        else honestBundle();
        return;
      case 'statuses': {
        if (rest === '/v1/epochs') {
          json(listing([...epochs, 100, 101, 102, 103].map((epoch) => ({ epoch, bundle: `/v1/epochs/${epoch}/bundle` }))));
          return;
        }
        const answers: Record<string, () => void> = {
          '100': () => response.writeHead(429, { 'retry-after': '999999' }).end('slow down'),
          '101': () => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>502 Bad Gateway</html>'),
          '102': () => response.writeHead(304).end(),
          '103': () =>
            response
              .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
              .end(gzipSync(Buffer.from(`{"padding":"${'x'.repeat(65 * 1024 * 1024)}"}`))),
        };
        (answers[bundle?.[1] ?? ''] ?? honestBundle)();
        return;
      }
      default:
        response.writeHead(404).end();
    }
  }));
});
afterAll(async () => {
  await close();
  await closeElsewhere();
});

async function explain(args: string[]): Promise<{ code: number; json: Record<string, unknown> & { error?: { code: string; message: string } } }> {
  let out = '';
  const code = await runMinerCheck(['explain', '--hotkey', miner, '--json', ...args], { stdout: (t) => (out += t), stderr: () => undefined, stdin: () => '' });
  return { code, json: JSON.parse(out) as never };
}

type SetAside = { source: string; code: string; message: string; attempts: number | null }[];

/** A coded message as SubnetError writes it: `[CODE] GET url: why at --bundles (got "url")` (the value cut at 80 characters). */
function coded(code: string, url: string, why: string): string {
  const value = JSON.stringify(url);
  return `[${code}] GET ${url}: ${why} at --bundles (got ${value.length > 80 ? `${value.slice(0, 77)}...` : value})`;
}

describe('miner-check explain from a hostile validator', () => {
  it('a redirect of the epoch list (to 169.254.169.254) is not followed: AUDITOR_FETCH_FAILED naming the URL, the status and the target', async () => {
    const got = await explain(['--bundles', `${base}/redirect-list`]);
    expect(got.code).toBe(2);
    expect(got.json.error).toEqual({
      code: 'AUDITOR_FETCH_FAILED',
      message: coded(
        'AUDITOR_FETCH_FAILED',
        `${base}/redirect-list/v1/epochs`,
        'HTTP 302: redirects to http://169.254.169.254/latest/meta-data/ (not followed: give --bundles the URL that serves the bundles)',
      ),
      path: '--bundles',
      value: `"${base}/redirect-list/v1/epochs"`,
    });
  });

  it('a redirect of one bundle (to another host) is not followed: that bundle is set aside, the others are used', async () => {
    const got = await explain(['--bundles', `${base}/redirect-bundle`]);
    expect(got.code).toBe(0);
    const url = `${base}/redirect-bundle/v1/epochs/${epochs.at(-1)}/bundle`;
    expect(got.json.set_aside).toEqual([
      {
        source: url,
        code: 'AUDITOR_FETCH_FAILED',
        message: coded(
          'AUDITOR_FETCH_FAILED',
          url,
          `HTTP 307: redirects to ${elsewhere}/v1/epochs/${epochs.at(-1)}/bundle (not followed: give --bundles the URL that serves the bundles)`,
        ),
        attempts: 1,
      },
    ]);
    expect(elsewhereHits).toBe(0);
  });

  it('a bundle that drips one byte a second is asked again (--retries), then set aside at --timeout, naming the URL, the limit and the attempts', async () => {
    const started = Date.now();
    const got = await explain(['--bundles', `${base}/drip`, '--timeout', '1500', '--retries', '1']);
    // The drip never ends, so ending at all is the timeout working (an idle timeout would wait forever: a byte comes
    // every second). Two attempts of 1.5 s take about 3.3 s on an idle machine; the bound leaves room for a loaded one.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(got.code).toBe(0);
    const url = `${base}/drip/v1/epochs/${epochs.at(-1)}/bundle`;
    expect(got.json.set_aside).toEqual([
      {
        source: url,
        code: 'AUDITOR_FETCH_FAILED',
        message: coded(
          'AUDITOR_FETCH_FAILED',
          url,
          'the answer did not end within 1500 ms (after 2 attempts); the limit is --timeout 1500: raise it (at most 3600000) to wait longer',
        ),
        attempts: 2,
      },
    ]);
    expect(hits.get(`/drip/v1/epochs/${epochs.at(-1)}/bundle`)).toBe(2);
  }, 30_000);

  it('a bundle that answers 503 once is asked again and used, not set aside', async () => {
    const got = await explain(['--bundles', `${base}/flaky`]);
    expect(got.code).toBe(0);
    expect(got.json.set_aside).toEqual([]);
    expect((got.json.history as { epoch: number }[]).map((h) => h.epoch)).toEqual(withMiner);
    expect(hits.get(`/flaky/v1/epochs/${epochs.at(-1)}/bundle`)).toBe(2);
  });

  it('decision (docs/spec.md G.46 (b)): --total-timeout ends the whole read; every bundle not read is named, and the error says why none could be used; the sentence names its value and its most', async () => {
    const started = Date.now();
    const got = await explain(['--bundles', `${base}/drip-all`, '--timeout', '60000', '--total-timeout', '1200']);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(got.code).toBe(2);
    const stop = 'the run passed its --total-timeout of 1200 ms: raise it (at most 604800000) to wait longer';
    expect(got.json.error?.code).toBe('MINER_CHECK_MINER_NOT_FOUND');
    const first = `${base}/drip-all/v1/epochs/${epochs[0]}/bundle`;
    expect(got.json.error?.message).toContain(
      `no miner ${miner} in any verified bundle (0 verified, ${epochs.length} set aside; the first: ${first}: ${coded('AUDITOR_FETCH_FAILED', first, stop)})`,
    );
    expect(hits.get(`/drip-all/v1/epochs/${epochs.at(-1)}/bundle`)).toBeUndefined();
  }, 10_000);

  it('an epoch list that is not { epochs: [...] } is AUDITOR_INVALID_LISTING (exit 2), not an internal error', async () => {
    const got = await explain(['--bundles', `${base}/null-list`]);
    expect(got.code).toBe(2);
    expect(got.json.error).toMatchObject({ code: 'AUDITOR_INVALID_LISTING', path: '--bundles' });
    expect(got.json.error?.message).toBe(coded('AUDITOR_INVALID_LISTING', `${base}/null-list/v1/epochs`, 'the answer is not an object with an "epochs" list'));
  });

  it('listed epochs that are not non-negative safe integers, a __proto__ key and a duplicate are set aside in two lines and never asked for', async () => {
    const got = await explain(['--bundles', `${base}/bad-list`]);
    expect(got.code).toBe(0);
    const source = `${base}/bad-list/v1/epochs`;
    expect(got.json.set_aside).toEqual([
      {
        source,
        code: 'AUDITOR_INVALID_LISTING',
        message: coded(
          'AUDITOR_INVALID_LISTING',
          source,
          '7 listed epoch(s) are not an object with a non-negative integer "epoch" (at most 2^53 - 1) and a "bundle" path or null; the first: epochs[0].epoch = -1',
        ),
        attempts: null,
      },
      {
        source,
        code: 'AUDITOR_INVALID_LISTING',
        message: coded('AUDITOR_INVALID_LISTING', source, `epoch ${epochs.at(-1)} is listed more than once (epochs[${8 + epochs.length}])`),
        attempts: null,
      },
    ]);
    expect((got.json.history as { epoch: number }[]).map((h) => h.epoch)).toEqual(withMiner);
    const asked = [...hits.keys()].filter((p) => p.startsWith('/bad-list/'));
    expect(asked.sort()).toEqual([source.slice(base.length), ...epochs.map((e) => `/bad-list/v1/epochs/${e}/bundle`)].sort());
  });

  it('a signed bundle of another epoch than the one listed is set aside (AUDITOR_WRONG_EPOCH), not counted twice', async () => {
    const got = await explain(['--bundles', `${base}/wrong-epoch`]);
    expect(got.code).toBe(0);
    const url = `${base}/wrong-epoch/v1/epochs/99/bundle`;
    expect(got.json.set_aside).toEqual([
      {
        source: url,
        code: 'AUDITOR_WRONG_EPOCH',
        message: coded('AUDITOR_WRONG_EPOCH', url, `the answer is the bundle of epoch ${epochs.at(-1)}, not of epoch 99`),
        attempts: 1,
      },
    ]);
    expect((got.json.history as { epoch: number }[]).map((h) => h.epoch)).toEqual(withMiner);
  });

  it('--validator-hotkey: bundles another validator signed are set aside (AUDITOR_WRONG_VALIDATOR), named with both hotkeys; its own are used', async () => {
    const signer = (JSON.parse(files.get(epochs[0]!)!.toString('utf8')) as { bundle: { validator_hotkey: string } }).bundle.validator_hotkey;
    // The validator the miner means: every honest bundle is its own, all are used.
    const own = await explain(['--bundles', `${base}/honest`, '--validator-hotkey', signer]);
    expect(own.code).toBe(0);
    expect(own.json.set_aside).toEqual([]);
    expect((own.json.history as { epoch: number; validator_hotkey: string }[]).map((h) => [h.epoch, h.validator_hotkey])).toEqual(
      withMiner.map((e) => [e, signer]),
    );
    // Another validator (Alice): the same honestly signed bundles are not its own, none is used.
    const alice = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
    const other = await explain(['--bundles', `${base}/honest`, '--validator-hotkey', alice]);
    expect(other.code).toBe(2);
    expect(other.json.error?.code).toBe('MINER_CHECK_MINER_NOT_FOUND');
    const first = `${base}/honest/v1/epochs/${epochs[0]}/bundle`;
    const why = `the bundle is signed by validator "${signer}", not by ${alice} (--validator-hotkey)`;
    expect(other.json.error?.message).toContain(
      `no miner ${miner} in any verified bundle (0 verified, ${epochs.length} set aside; the first: ${first}: ${coded('AUDITOR_WRONG_VALIDATOR', first, why)})`,
    );
    // From a folder too, each file named.
    let text = '';
    const code = await runMinerCheck(['explain', '--hotkey', miner, '--bundles', honest, '--validator-hotkey', alice], {
      stdout: () => undefined,
      stderr: (t) => (text += t),
      stdin: () => '',
    });
    expect(code).toBe(2);
    const file = join(honest, `epoch-${epochs[0]}.json`);
    expect(text).toContain(`the first: ${file}: [AUDITOR_WRONG_VALIDATOR] ${file}: ${why} at bundle.validator_hotkey (got "${signer}")`);
  });

  it('--validator-hotkey that is not an SS58 hotkey is refused before the validator is asked anything (exit 2)', async () => {
    const asked = hits.get('/honest/v1/epochs') ?? 0;
    const got = await explain(['--bundles', `${base}/honest`, '--validator-hotkey', '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQZ']);
    expect(got.code).toBe(2);
    expect(got.json.error?.code).toBe('MINER_CHECK_INVALID_ARGUMENT');
    expect(got.json.error?.message).toContain('--validator-hotkey');
    expect(hits.get('/honest/v1/epochs') ?? 0).toBe(asked);
  });

  it('--hotkey that is not an SS58 hotkey is refused before the validator is asked anything (exit 2), with what is wrong with it', async () => {
    const asked = hits.get('/honest/v1/epochs') ?? 0;
    // The miner's own hotkey with two neighbouring characters swapped: only the checksum tells.
    let at = 3;
    while (miner[at] === miner[at + 1]) at++;
    const swapped = `${miner.slice(0, at)}${miner[at + 1] ?? ''}${miner[at] ?? ''}${miner.slice(at + 2)}`;
    // Given last, so it replaces the helper's --hotkey.
    const got = await explain(['--bundles', `${base}/honest`, '--hotkey', swapped]);
    expect(got.code).toBe(2);
    expect(got.json.error?.code).toBe('MINER_CHECK_INVALID_ARGUMENT');
    expect(got.json.error?.message).toContain('--hotkey');
    expect(got.json.error?.message).toContain('a character is mistyped or two are swapped');
    expect(hits.get('/honest/v1/epochs') ?? 0).toBe(asked);
  });

  it('429 with retry-after: 999999 is retried on the auditor own backoff, then set aside; an HTML page, a 304 and a gzip body over 64 MiB inflated: set aside at once', async () => {
    const started = Date.now();
    const got = await explain(['--bundles', `${base}/statuses`]);
    // 3 retries of the 429 wait 250 + 500 + 1000 ms, not the 999999 s it asks for.
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(got.code).toBe(0);
    const url = (n: number) => `${base}/statuses/v1/epochs/${n}/bundle`;
    expect((got.json.set_aside as SetAside).map((s) => [s.code, s.message, s.attempts])).toEqual([
      ['AUDITOR_FETCH_FAILED', coded('AUDITOR_FETCH_FAILED', url(100), 'HTTP 429 (after 4 attempts)'), 4],
      ['AUDITOR_MALFORMED_JSON', coded('AUDITOR_MALFORMED_JSON', url(101), 'HTTP 200: the answer is not JSON'), 1],
      ['AUDITOR_FETCH_FAILED', coded('AUDITOR_FETCH_FAILED', url(102), 'HTTP 304'), 1],
      [
        'AUDITOR_FETCH_FAILED',
        coded(
          'AUDITOR_FETCH_FAILED',
          url(103),
          'the answer is larger than 67108864 bytes; the limit is --max-bundle-bytes 67108864: raise it (at most 268435456) to allow more',
        ),
        1,
      ],
    ]);
    expect([100, 101, 102, 103].map((n) => hits.get(`/statuses/v1/epochs/${n}/bundle`))).toEqual([4, 1, 1, 1]);
  }, 20_000);
});
