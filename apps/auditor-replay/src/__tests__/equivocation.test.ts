import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { canonicalJson, sha256Hex } from '@subnet/core';

import type { AuditReport } from '../index.js';
import { runCli } from '../index.js';
import { keys, signedBundle } from './fixtures.js';
import type { Keys } from './fixtures.js';
import { captureIo } from './capture-io.js';

let k: Keys;
let dir: string;

beforeAll(async () => {
  k = await keys();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'auditor-equivocation-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(folder: string, name: string, doc: unknown): Promise<string> {
  await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, folder), { recursive: true }));
  const file = join(dir, folder, name);
  await writeFile(file, JSON.stringify(doc));
  return file;
}

describe('equivocation (SPEC E: two different signed bundles of one validator for one (netuid, epoch))', () => {
  it('two honest, validly signed but different bundles for the same epoch, in two folders: reported with both digests, exit 1', async () => {
    // Same validator, same netuid and epoch, different inputs (another seed): each bundle verifies on its own.
    const a = signedBundle(k, { miners: 4, epoch: 7, seed: 1 });
    const b = signedBundle(k, { miners: 4, epoch: 7, seed: 2 });
    const digests = [sha256Hex(canonicalJson(a.bundle)), sha256Hex(canonicalJson(b.bundle))].sort();
    expect(digests[0]).not.toBe(digests[1]);
    const fa = await write('from-api', 'epoch-7.json', a);
    const fb = await write('from-mirror', 'epoch-7.json', b);
    const t = captureIo();
    expect(await runCli(['verify', join(dir, 'from-api'), join(dir, 'from-mirror'), '--json'], t)).toBe(1);
    const report = JSON.parse(t.out()) as AuditReport;
    expect(report.bundles.map((x) => x.status)).toEqual(['ok', 'ok']);
    expect(report.summary.equivocations).toBe(1);
    expect(report.equivocations).toEqual([
      {
        validator_hotkey: k.validator.address,
        netuid: 1,
        epoch: 7,
        bundles: digests.map((d) => ({ digest: d, sources: [d === sha256Hex(canonicalJson(a.bundle)) ? fa : fb] })),
      },
    ]);
    const text = captureIo();
    expect(await runCli(['verify', fa, fb], text)).toBe(1);
    expect(text.out()).toContain(`EQUIVOCATION validator ${k.validator.address} netuid 1 epoch 7: 2 different signed bundles`);
    for (const d of digests) expect(text.out()).toContain(`digest ${d}`);
  });

  it('the same bundle twice, bundles of other epochs, or a second bundle not signed by the validator are no equivocation', async () => {
    const a = signedBundle(k, { miners: 4, epoch: 7, seed: 1 });
    const forged = signedBundle(k, { miners: 4, epoch: 7, seed: 2 });
    const byStranger = { ...forged, signature: signedBundle(k, { miners: 4, epoch: 7, seed: 2 }).signature.replace(/.$/, (c) => (c === '0' ? '1' : '0')) };
    const files = [
      await write('x', 'a.json', a),
      await write('y', 'a.json', a),
      await write('x', 'other-epoch.json', signedBundle(k, { miners: 4, epoch: 8, seed: 2 })),
      await write('x', 'forged.json', byStranger),
    ];
    const t = captureIo();
    await runCli(['verify', ...files, '--json'], t);
    const report = JSON.parse(t.out()) as AuditReport;
    expect(report.bundles[3]?.checks.signature).toBe(false);
    expect(report.equivocations).toEqual([]);
  });
});

describe('equivocation across sources fetched with several --validator (real HTTP on 127.0.0.1)', () => {
  it('two sources serving different signed bundles for one epoch: fetch saves each in its folder, verify of both folders reports the equivocation', async () => {
    const served = [signedBundle(k, { miners: 4, epoch: 5, seed: 1 }), signedBundle(k, { miners: 4, epoch: 5, seed: 2 })];
    const servers = served.map((doc) =>
      createServer((req, res) => {
        if (req.url === '/v1/epochs/5/bundle') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
        else res.writeHead(404).end('{}');
      }),
    );
    const urls: string[] = [];
    for (const s of servers) {
      await new Promise<void>((resolve) => {
        s.listen(0, '127.0.0.1', resolve);
      });
      urls.push(`http://127.0.0.1:${(s.address() as AddressInfo).port}`);
    }
    try {
      const out = join(dir, 'seen');
      const t = captureIo();
      expect(await runCli(['fetch', '--validator', urls[0]!, '--validator', urls[1]!, '--from', '5', '--to', '5', '--out', out, '--quiet'], t)).toBe(0);
      expect(t.out()).toContain(`verify them together to find equivocations: auditor-replay verify ${join(out, 'source-1')} ${join(out, 'source-2')}`);
      const v = captureIo();
      expect(await runCli(['verify', join(out, 'source-1'), join(out, 'source-2'), '--json'], v)).toBe(1);
      const report = JSON.parse(v.out()) as AuditReport;
      expect(report.equivocations[0]?.bundles.map((b) => b.digest)).toEqual(served.map((d) => sha256Hex(canonicalJson(d.bundle))).sort());
    } finally {
      for (const s of servers) {
        await new Promise<void>((resolve) => {
          s.close(() => {
            resolve();
          });
        });
      }
    }
  });
});
