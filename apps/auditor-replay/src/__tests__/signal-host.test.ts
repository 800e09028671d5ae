import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { tempDir } from '@subnet/vitest-config/temp-dir';
import { afterEach, describe, expect, it } from 'vitest';

import { saveBundle } from '../save-bundle.js';
import { writeReport } from '../write-report.js';

/**
 * `saveBundle` and `writeReport` clean up and end the process on Ctrl-C only where nobody else handles the signal (the
 * CLI). A program that uses them as a library and handles SIGINT itself keeps its handling: the signal reaches its
 * handler once (it was sent a second, real SIGINT before), and the write it asked for finishes (the report's
 * temporary file was removed under it, and the call failed). The signal is emitted in this process while the write is
 * under way, as Node delivers one.
 */
const seen: string[] = [];
const host = (signal: NodeJS.Signals): void => {
  seen.push(signal);
};
afterEach(() => {
  process.removeListener('SIGINT', host);
  seen.length = 0;
});

const settle = (): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, 200);
  });

describe('a host program that handles SIGINT itself', () => {
  it('writeReport: the host sees one SIGINT and the report is written whole', async () => {
    process.on('SIGINT', host);
    const path = join(tempDir('auditor-signal-'), 'audit.html');
    const html = `<!doctype html><p>${'x'.repeat(100_000)}</p>`;
    const writing = writeReport(path, html);
    process.emit('SIGINT', 'SIGINT');
    await writing;
    await settle();
    expect(seen).toEqual(['SIGINT']);
    expect(readFileSync(path, 'utf8')).toBe(html);
  });

  it('saveBundle: the host sees one SIGINT and the bundle is saved whole', async () => {
    process.on('SIGINT', host);
    const dir = tempDir('auditor-signal-');
    const bytes = new TextEncoder().encode(JSON.stringify({ bundle: { epoch: 3 }, pad: 'a'.repeat(100_000) }));
    const saving = saveBundle(dir, 3, bytes, JSON.parse(new TextDecoder().decode(bytes)));
    process.emit('SIGINT', 'SIGINT');
    expect(await saving).toEqual({ file: join(dir, 'epoch-3.json') });
    await settle();
    expect(seen).toEqual(['SIGINT']);
    expect(readFileSync(join(dir, 'epoch-3.json'))).toEqual(Buffer.from(bytes));
  });
});
