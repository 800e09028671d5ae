import type { CliIo } from '../index.js';

/**
 * The CLI's output streams as strings, for a test that runs `runCli` in this process: what it wrote to
 * standard output (`out`) and to standard error (`err`), which is not a terminal unless `tty` (then the
 * progress line is drawn, 100 columns wide).
 */
export function captureIo(tty = false): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { isTTY: tty, columns: 100, write: (s: string) => (err += s) },
    out: () => out,
    err: () => err,
  };
}
