import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { fetchBundles } from '../index.js';
import { listenLocal, writeEndlessly } from '@subnet/vitest-config/local-server';
import { tempDir } from '@subnet/vitest-config/temp-dir';

/**
 * A validator's API is not trusted by the auditor: a bundle answer larger than a bundle may be (`maxBytes`,
 * default the verifier's 64 MiB) is refused while it is read, never buffered whole or written to disk.
 */
let base: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ url: base, close } = await listenLocal((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    if (request.url === '/v1/epochs/1/bundle') {
      // 10 KB of valid JSON.
      response.end(JSON.stringify({ padding: 'x'.repeat(10_000) }));
      return;
    }
    // Endless: a JSON string that never closes, 64 KB every 10 ms until the client goes away.
    response.write('{"padding":"');
    writeEndlessly(response);
  }));
});
afterAll(() => close());

describe('auditor-replay fetch: a bundle answer is read up to maxBytes', () => {
  it('an answer over maxBytes is failed, not saved', async () => {
    const outDir = tempDir('auditor-fetch-cap-', 'file');
    const [got] = await fetchBundles({ validator: base, from: 1, to: 1, outDir, maxBytes: 1024, retries: 0 });
    expect(got).toMatchObject({ epoch: 1, status: 'failed', file: null });
    expect(got?.error).toContain('larger than 1024 bytes');
    expect(existsSync(join(outDir, 'epoch-1.json'))).toBe(false);
  });

  it('an answer of exactly maxBytes is saved, one byte more is not; maxBytes 0 takes no answer with a body (0 is a limit, not the default)', async () => {
    const size = Buffer.byteLength(JSON.stringify({ padding: 'x'.repeat(10_000) }));
    const outDir = tempDir('auditor-fetch-cap-', 'file');
    const [exact] = await fetchBundles({ validator: base, from: 1, to: 1, outDir, maxBytes: size, retries: 0 });
    expect(exact).toMatchObject({ epoch: 1, status: 'saved', file: join(outDir, 'epoch-1.json') });
    for (const maxBytes of [size - 1, 0]) {
      const [got] = await fetchBundles({ validator: base, from: 1, to: 1, outDir: tempDir('auditor-fetch-cap-', 'file'), maxBytes, retries: 0 });
      expect(got).toMatchObject({ epoch: 1, status: 'failed', file: null, code: 'AUDITOR_FETCH_FAILED' });
      expect(got?.error).toContain(`the answer is larger than ${maxBytes} bytes`);
    }
  });

  it('an answer that never ends is failed once it passes maxBytes, not read until the timeout', async () => {
    const outDir = tempDir('auditor-fetch-cap-', 'file');
    const [got] = await fetchBundles({ validator: base, from: 2, to: 2, outDir, maxBytes: 256 * 1024, retries: 0, timeoutMs: 20_000 });
    expect(got).toMatchObject({ epoch: 2, status: 'failed', file: null });
    expect(got?.error).toContain('larger than 262144 bytes');
  }, 60_000);
});
