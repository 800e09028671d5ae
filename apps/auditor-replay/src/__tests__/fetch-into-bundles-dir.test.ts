import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { canonicalJson } from '@subnet/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { runCli } from '../index.js';
import { captureIo } from './capture-io.js';
import { keys, signedBundle } from './fixtures.js';

/**
 * A validator writes each bundle to its `bundles.dir` as the bytes it serves and one newline (docs/spec.md G.28). An
 * operator or miner who fetches into that folder, or a copy of it, gets the document already there: before, every
 * epoch was saved a second time beside it as "the same signed bundle (same digest) in other bytes".
 */
let dir: string;
let server: Server | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'auditor-bundles-dir-'));
});
afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (server === undefined) resolve();
    else
      server.close(() => {
        resolve();
      });
  });
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function serve(bytes: string): Promise<string> {
  server = createServer((req, res) => {
    if (req.url === '/v1/epochs/5/bundle') res.writeHead(200, { 'content-type': 'application/json' }).end(bytes);
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("fetch into a validator's own bundles.dir", () => {
  it('an epoch file holding the served bytes and one newline is that bundle: nothing is saved beside it', async () => {
    const served = canonicalJson(signedBundle(await keys(), { miners: 4, epoch: 5, seed: 1 }));
    const url = await serve(served);
    await writeFile(join(dir, 'epoch-5.json'), `${served}\n`);
    const t = captureIo();
    expect(await runCli(['fetch', '--validator', url, '--from', '5', '--to', '5', '--out', dir, '--quiet'], t)).toBe(0);
    expect(t.out()).not.toContain('other bytes');
    expect(t.out()).toContain('1/1 bundle(s) saved');
    expect(await readdir(dir)).toEqual(['epoch-5.json']);
    expect(await readFile(join(dir, 'epoch-5.json'), 'utf8')).toBe(`${served}\n`);
  });

  it('two newlines, or another byte after the bundle, are other bytes: kept, and the answer saved beside them', async () => {
    const served = canonicalJson(signedBundle(await keys(), { miners: 4, epoch: 5, seed: 1 }));
    const url = await serve(served);
    for (const tail of ['\n\n', ' ']) {
      await rm(dir, { recursive: true, force: true });
      await writeFile(join((dir = await mkdtemp(join(tmpdir(), 'auditor-bundles-dir-'))), 'epoch-5.json'), `${served}${tail}`);
      const t = captureIo();
      expect(await runCli(['fetch', '--validator', url, '--from', '5', '--to', '5', '--out', dir, '--quiet'], t)).toBe(0);
      expect(t.out()).toContain('holds the same signed bundle (same digest) in other bytes');
      expect((await readdir(dir)).sort()).toHaveLength(2);
    }
  });
});
