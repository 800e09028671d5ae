import { readdir } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runCli } from '../index.js';
import { captureIo } from './capture-io.js';
import { listenLocal, REFUSED_PORT } from '@subnet/vitest-config/local-server';
import { tempDir } from '@subnet/vitest-config/temp-dir';

/**
 * A new user's report: `fetch --validator http://127.0.0.1:8091 --from 10 --to 20` with no validator running took 20 s
 * (4 attempts for each of 11 epochs; half an hour at 1,000 epochs), printed every failure on stderr and again on stdout,
 * and ended `0/11 bundle(s) saved`, exit 1, with no hint. No validator at the first epoch (connection refused) now stops
 * the run: the later epochs are not asked, one sentence says what to check, exit 2. A validator that answers, or that goes
 * away after saving epochs, is asked for every epoch as before.
 */

/** A URL where nothing listens (a port out of the range handed out, so no other test can take it meanwhile). */
const refusing = `http://127.0.0.1:${REFUSED_PORT}`;
/** A validator that answers 503 to everything (retried, then failed: an answer, not a refusal). */
let busy: string;
let busyHits = 0;
let closeBusy: () => Promise<void>;

beforeAll(async () => {
  ({ url: busy, close: closeBusy } = await listenLocal((_request, response) => {
    busyHits += 1;
    response.writeHead(503).end();
  }));
});
afterAll(() => closeBusy());

describe('fetch: no validator at the --validator URL stops the run (exit 2)', () => {
  it('text: epoch 10 fails after its retries, epochs 11-20 are not asked, the refusal is said once, each failure printed once; exit 2', async () => {
    const out = tempDir('auditor-refused-');
    const t = captureIo(false);
    const started = Date.now();
    const code = await runCli(['fetch', '--validator', refusing, '--from', '10', '--to', '20', '--out', out], t);
    const took = Date.now() - started;
    expect(code).toBe(2);
    // One epoch's retries (250 + 500 + 1000 ms of waits), not eleven epochs' (about 20 s).
    expect(took).toBeLessThan(6000);
    const sentence = `the validator at ${refusing} refused the connection (is it running? is the URL right?)`;
    expect(t.out()).toBe(
      `epoch 10: failed: [AUDITOR_FETCH_FAILED] GET ${refusing}/v1/epochs/10/bundle: fetch failed (ECONNREFUSED) (after 4 attempts)\n` +
        `${sentence}; so fetch stopped: epochs 11-20 not asked\n` +
        `0/11 bundle(s) saved to ${out}\n`,
    );
    // The failure is on stdout; the progress line on stderr gives its status and code only, not the sentence again. Each
    // wait to ask again is said before it, so the seconds of retries are not silent.
    expect(t.err()).toBe(
      [250, 500, 1000].map((ms, i) => `fetch: epoch 10: fetch failed (ECONNREFUSED); asking again in ${ms} ms (attempt ${i + 2} of 4)\n`).join('') +
        'fetch 1/11 epoch 10 failed [AUDITOR_FETCH_FAILED]\n',
    );
    expect(await readdir(out)).toEqual([]);
  }, 40_000);

  it('--json: the same shape, exit_code 2, the source names the refusal, every later epoch is failed with 0 attempts, "not asked"', async () => {
    const out = tempDir('auditor-refused-');
    const t = captureIo(false);
    expect(await runCli(['fetch', '--validator', refusing, '--from', '10', '--to', '12', '--out', out, '--retries', '0', '--json'], t)).toBe(2);
    expect(t.err()).toBe('');
    const body = JSON.parse(t.out()) as {
      exit_code: number;
      saved: number;
      total: number;
      sources: { refused: string | null; epochs: { epoch: number; status: string; code: string | null; attempts: number; error: string | null }[] }[];
    };
    const sentence = `the validator at ${refusing} refused the connection (is it running? is the URL right?)`;
    expect(body).toMatchObject({ exit_code: 2, saved: 0, embargoed: 0, total: 3 });
    expect(body.sources[0]?.refused).toBe(sentence);
    expect(body.sources[0]?.epochs.map((e) => [e.epoch, e.status, e.code, e.attempts])).toEqual([
      [10, 'failed', 'AUDITOR_FETCH_FAILED', 1],
      [11, 'failed', 'AUDITOR_FETCH_FAILED', 0],
      [12, 'failed', 'AUDITOR_FETCH_FAILED', 0],
    ]);
    expect(body.sources[0]?.epochs[1]?.error).toBe(`GET ${refusing}/v1/epochs/11/bundle: not asked: ${sentence}`);
  }, 40_000);

  it('a validator that answers (503 to everything) is asked for every epoch, as before: exit 1, no refusal', async () => {
    const out = tempDir('auditor-refused-');
    const t = captureIo(false);
    busyHits = 0;
    expect(await runCli(['fetch', '--validator', busy, '--from', '1', '--to', '3', '--out', out, '--retries', '0', '--json'], t)).toBe(1);
    expect(busyHits).toBe(3);
    const body = JSON.parse(t.out()) as { exit_code: number; sources: { refused: string | null; epochs: { attempts: number }[] }[] };
    expect(body.exit_code).toBe(1);
    expect(body.sources[0]?.refused).toBeNull();
    expect(body.sources[0]?.epochs.map((e) => e.attempts)).toEqual([1, 1, 1]);
  }, 40_000);

  it('a validator that goes away after an epoch was saved: every later epoch is still asked (and fails), exit 1', async () => {
    const out = tempDir('auditor-refused-');
    const stop: { now?: () => void } = {};
    // Answers epoch 1 and stops listening as it does: every later request finds nothing there (ECONNREFUSED).
    const once = await listenLocal((_request, response) => {
      stop.now?.();
      response.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end('{"bundle":{"epoch":1}}');
    });
    stop.now = () => once.server.close();
    const t = captureIo(false);
    const run = runCli(['fetch', '--validator', once.url, '--from', '1', '--to', '3', '--out', out, '--retries', '0', '--json'], t);
    expect(await run).toBe(1);
    const body = JSON.parse(t.out()) as { saved: number; sources: { refused: string | null; epochs: { status: string; attempts: number }[] }[] };
    expect(body.saved).toBe(1);
    expect(body.sources[0]?.refused).toBeNull();
    expect(body.sources[0]?.epochs.map((e) => [e.status, e.attempts])).toEqual([
      ['saved', 1],
      ['failed', 1],
      ['failed', 1],
    ]);
  }, 40_000);
});
