import { unlinkSync } from 'node:fs';
import { rename, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { constants } from 'node:os';

import { writeFailed } from './save-bundle.js';
import { endBySignal, takeStopSignals } from './signal-cleanup.js';

const NOT_WRITTEN = 'so verify wrote no report and printed no verdict (give --report a file in a folder this process can write)';

/**
 * Checks, before any bundle is verified, that `--report FILE` can be written where it points: its folder exists and is
 * a folder, and FILE is not a folder. A wrong path is then refused at once rather than after the whole run.
 *
 * @param path - the `--report` value
 * @throws SubnetError `AUDITOR_WRITE_FAILED` at `--report`, naming the path and the OS code (ENOENT, ENOTDIR, EISDIR)
 * @example await checkReportPath('audit.html')
 */
export async function checkReportPath(path: string): Promise<void> {
  const folder = dirname(path);
  let info;
  try {
    info = await stat(folder);
  } catch (error) {
    throw writeFailed(path, error, '--report', NOT_WRITTEN);
  }
  if (!info.isDirectory()) throw writeFailed(path, osError('ENOTDIR'), '--report', NOT_WRITTEN);
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory() === true) throw writeFailed(path, osError('EISDIR'), '--report', NOT_WRITTEN);
}

/**
 * Writes the HTML report through a temporary file beside it and a rename, so `FILE` is either the whole new report or
 * what it was before: a write that fails (a full disk) or a SIGINT/SIGTERM during the write leaves neither half a report
 * nor the temporary file.
 *
 * @param path - the `--report` value
 * @param html - the report
 * @throws SubnetError `AUDITOR_WRITE_FAILED` at `--report`, naming the path and the OS code
 * @example await writeReport('audit.html', renderHtmlReport(report, { bundles }))
 */
export async function writeReport(path: string, html: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const removeTmp = (): void => {
    try {
      unlinkSync(tmp);
    } catch {
      // not created, or already renamed
    }
  };
  // Ended as the signal would have ended it (130 for SIGINT, 143 for SIGTERM), without the temporary file.
  const stopListening = takeStopSignals((signal) => {
    removeTmp();
    endBySignal(signal, stopListening);
  });
  try {
    await writeFile(tmp, html);
    await rename(tmp, path);
  } catch (error) {
    removeTmp();
    throw writeFailed(path, error, '--report', NOT_WRITTEN);
  } finally {
    stopListening();
  }
}

function osError(code: 'ENOTDIR' | 'EISDIR'): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code, errno: -constants.errno[code] });
}
