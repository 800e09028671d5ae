import { afterEach, describe, expect, it } from 'vitest';

import type { ValidatorService } from '../service.js';
import { handleSignals } from '../service.js';

/**
 * handleSignals on a service whose stop() resolves when `finish` is called, with what it logged and the exit codes
 * it asked for.
 */
function handled(): { finish: () => void; stops: () => number; lines: string[]; exits: number[] } {
  let finish = (): void => undefined;
  let stops = 0;
  const service = {
    stop: () => {
      stops += 1;
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    },
  } as unknown as ValidatorService;
  const lines: string[] = [];
  const exits: number[] = [];
  handleSignals(
    service,
    (line) => lines.push(line),
    (code) => exits.push(code),
  );
  return {
    finish: () => {
      finish();
    },
    stops: () => stops,
    lines,
    exits,
  };
}

describe('handleSignals: SIGTERM or SIGINT stops the service; the same signal again exits at once', () => {
  const before = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
  afterEach(() => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      for (const listener of process.listeners(signal)) if (!before[signal].includes(listener)) process.off(signal, listener);
    }
  });

  it('the first signal finishes in-flight work, then exits 0', async () => {
    const { finish, stops, lines, exits } = handled();
    process.emit('SIGTERM', 'SIGTERM');
    expect(stops()).toBe(1);
    expect(lines).toEqual(['SIGTERM: finishing in-flight work (send it again to exit at once)']);
    expect(exits).toEqual([]);
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(exits).toEqual([0]);
  });

  it('a second signal while stopping (Ctrl-C twice) exits 1 at once and does not stop twice', () => {
    const { stops, lines, exits } = handled();
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGINT', 'SIGINT');
    expect(stops()).toBe(1);
    expect(exits).toEqual([1]);
    expect(lines[1]).toBe('SIGINT again: exiting now without finishing in-flight work (the next start reconciles an interrupted submission)');
  });
});
