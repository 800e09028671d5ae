import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { tempDir } from '@subnet/vitest-config/temp-dir';
import { beforeAll, describe, expect, it } from 'vitest';

import type { AuditReport } from '../index.js';
import { runCli } from '../index.js';
import { keys, signedBundle } from './fixtures.js';
import { captureIo } from './capture-io.js';

let dir: string;
let file: string;
let size: number;
let sizes: number[];

async function verify(args: string[]): Promise<{ code: number; report: AuditReport }> {
  const t = captureIo();
  const code = await runCli(['verify', dir, '--json', ...args], t);
  return { code, report: JSON.parse(t.out()) as AuditReport };
}

beforeAll(async () => {
  const k = await keys();
  dir = join(tempDir('auditor-limits-', 'file'), 'bundles');
  await mkdir(dir);
  file = join(dir, 'epoch-1.json');
  await writeFile(file, JSON.stringify(signedBundle(k, { miners: 5, epoch: 1 })));
  size = (await stat(file)).size;
  // A second file, so that --jobs 2 really verifies one on a worker process; `size` is the smaller one's.
  await writeFile(join(dir, 'epoch-2.json'), JSON.stringify(signedBundle(k, { miners: 5, epoch: 2 })));
  sizes = [size, (await stat(join(dir, 'epoch-2.json'))).size];
  size = Math.min(...sizes);
});

describe('configured bundle size limits (verify --max-*, docs/spec.md G.6)', () => {
  it('bundle limits: an honest bundle passes the default limits', async () => {
    const { code, report } = await verify([]);
    expect(code).toBe(0);
    expect(report.bundles.map((b) => b.status)).toEqual(['ok', 'ok']);
  });

  it('bundle limits: a file over --max-bundle-bytes is invalid (exit 2) with CORE_INPUT_TOO_LARGE naming its size and the limit, also on worker processes', async () => {
    for (const jobs of ['1', '2']) {
      const { code, report } = await verify(['--max-bundle-bytes', String(size - 1), '--jobs', jobs]);
      expect(code).toBe(2);
      expect(report.bundles).toHaveLength(2);
      for (const [i, audit] of report.bundles.entries()) {
        expect(audit.status).toBe('invalid');
        expect(audit.error?.code).toBe('CORE_INPUT_TOO_LARGE');
        expect(audit.error?.message).toContain(`${sizes[i]} bytes`);
        expect(audit.error?.message).toContain(String(size - 1));
      }
    }
    expect((await verify(['--max-bundle-bytes', String(Math.max(...sizes))])).code).toBe(0);
  });

  it('decision (docs/spec.md G.42 (c)): a file over --max-bundle-bytes ends with the option, its value and its most, also on worker processes', async () => {
    for (const jobs of ['1', '2']) {
      const { report } = await verify(['--max-bundle-bytes', String(size - 1), '--jobs', jobs]);
      for (const [i, audit] of report.bundles.entries())
        expect(audit.error?.message).toBe(
          `${join(dir, `epoch-${i + 1}.json`)} has ${sizes[i]} bytes, more than the limit of ${size - 1}; the limit is --max-bundle-bytes ${size - 1}: raise it (at most 268435456) to allow more`,
        );
    }
  });

  it('bundle limits: --max-depth, --max-list-length, --max-string-length and --max-object-keys refuse a document beyond them, naming the path', async () => {
    const deep = await verify(['--max-depth', '3']);
    expect(deep.code).toBe(2);
    expect(deep.report.bundles[0]?.error).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_DEEP' }));
    expect(deep.report.bundles[0]?.error?.path).toMatch(/^signed\.bundle\.[a-z_]+\.[a-z_]+/);

    const list = await verify(['--max-list-length', '2']);
    expect(list.report.bundles[0]?.error).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_LARGE' }));
    expect(list.report.bundles[0]?.error?.path).toMatch(/^signed\.bundle\./);

    const string = await verify(['--max-string-length', '40']);
    expect(string.report.bundles[0]?.error).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_LARGE' }));

    const keysLimit = await verify(['--max-object-keys', '2']);
    expect(keysLimit.report.bundles[0]?.error).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_LARGE', path: 'signed' }));
  });

  it('bundle limits: a refusal for going over one names the option that sets it and its value, also on worker processes', async () => {
    for (const jobs of ['1', '2']) {
      const list = await verify(['--max-list-length', '2', '--jobs', jobs]);
      for (const audit of list.report.bundles)
        expect(audit.error?.message).toMatch(/; the limit is --max-list-length 2: raise it \(at most 100000000\) to allow more$/);
    }
    const deep = await verify(['--max-depth', '3']);
    expect(deep.report.bundles[0]?.error?.message).toMatch(/; the limit is --max-depth 3: raise it \(at most 128\) to allow more$/);
    const keysLimit = await verify(['--max-object-keys', '2']);
    expect(keysLimit.report.bundles[0]?.error?.message).toMatch(/; the limit is --max-object-keys 2: raise it \(at most 100000000\) to allow more$/);
    const string = await verify(['--max-string-length', '40']);
    expect(string.report.bundles[0]?.error?.message).toMatch(/; the limit is --max-string-length 40: raise it \(at most 268435456\) to allow more$/);
  });

  it('bundle limits: a limit flag outside its range is refused (exit 2) naming the flag and the value', async () => {
    for (const [flag, value] of [
      ['--max-depth', '129'],
      ['--max-bundle-bytes', '0'],
      ['--max-list-length', '1.5'],
    ] as const) {
      const t = captureIo();
      expect(await runCli(['verify', dir, flag, value], t)).toBe(2);
      expect(t.err()).toContain(flag);
      expect(t.err()).toContain(JSON.stringify(value));
    }
  });
});
