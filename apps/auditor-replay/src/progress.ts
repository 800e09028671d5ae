/** Where progress goes: stderr in the CLI (a TTY gets a bar, anything else plain lines). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(chunk: string): unknown;
}

/** A progress reporter for `total` steps. */
export interface Progress {
  /** Marks one more step done, naming it (e.g. the file) and its outcome. */
  tick(item: string, outcome?: string): void;
  /** Ends the progress display (clears the bar line on a TTY). */
  done(): void;
  /** Says something between two steps (a retry and its wait): a line of its own, above the bar on a TTY. */
  note?(text: string): void;
}

/**
 * Progress on a stream: a redrawn bar (`[#####-----] 12/100 epoch-12.json`) when the stream is a TTY,
 * one plain line per step otherwise (`verify 12/100 epoch-12.json ok`), nothing when disabled (`--json`).
 *
 * @param stream - usually `process.stderr`
 * @param total - the number of steps
 * @param label - the verb shown on plain lines (`verify`, `fetch`)
 * @param enabled - false prints nothing
 * @returns the reporter
 * @example const p = createProgress(process.stderr, files.length, 'verify', !json); p.tick(file, 'ok'); p.done()
 */
export function createProgress(stream: ProgressStream, total: number, label: string, enabled = true): Progress {
  let count = 0;
  const tty = stream.isTTY === true;
  return {
    tick(item, outcome) {
      count += 1;
      if (!enabled) return;
      if (tty) {
        const width = 30;
        const filled = total === 0 ? width : Math.round((count / total) * width);
        const columns = stream.columns ?? 80;
        const text = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${count}/${total} ${item}`;
        stream.write(`\r\x1b[2K${text.slice(0, Math.max(10, columns - 1))}`);
      } else {
        stream.write(`${label} ${count}/${total} ${item}${outcome === undefined ? '' : ` ${outcome}`}\n`);
      }
    },
    done() {
      if (enabled && tty) stream.write('\r\x1b[2K');
    },
    note(text) {
      if (!enabled) return;
      // On a TTY the bar's line is cleared first; the next step draws it again below.
      stream.write(tty ? `\r\x1b[2K${label}: ${text}\n` : `${label}: ${text}\n`);
    },
  };
}
