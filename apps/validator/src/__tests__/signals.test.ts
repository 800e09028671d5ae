import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import type { ValidatorService } from '../service.js';
import { handleSignals, STOP_BOUND_MS } from '../service.js';
import { expectBuiltCli } from './helpers.js';

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
    expect(lines).toEqual(['SIGTERM: finishing in-flight work for up to 3 s, then stopping (send it again to exit at once)']);
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

describe('handleSignals: one SIGTERM ends the process within its bound (docs/spec.md G.10)', () => {
  const before = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
  afterEach(() => {
    vi.useRealTimers();
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      for (const listener of process.listeners(signal)) if (!before[signal].includes(listener)) process.off(signal, listener);
    }
  });

  it('a stop that has not ended 5 s after the signal (closing hangs) exits 1, saying so', () => {
    vi.useFakeTimers();
    // stop() never ends: a chain connection whose close waits on a node that no longer answers.
    const { stops, lines, exits } = handled();
    process.emit('SIGTERM', 'SIGTERM');
    expect(stops()).toBe(1);
    vi.advanceTimersByTime(STOP_BOUND_MS - 1);
    expect(exits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(STOP_BOUND_MS).toBe(5_000);
    expect(exits).toEqual([1]);
    expect(lines[1]).toBe(
      'the stop did not end within 5 s of SIGTERM (closing storage or the chain connection hangs): exiting now (the next start reconciles an interrupted submission)',
    );
  });
});

describe("handleSignals: taking over from the start's listener drops no signal (a real SIGTERM, in a child process)", () => {
  beforeAll(expectBuiltCli);

  it("a SIGTERM that arrived just before the hand-over, not yet dispatched, stops the service (the start's listener is not called)", () => {
    const index = pathToFileURL(join(fileURLToPath(new URL('../..', import.meta.url)), 'dist', 'index.js')).href;
    // The CLI's sequence: the start's listener, "listening" printed, the signal sent by whoever read it, the hand-over in
    // the same turn of the event loop (the signal is dispatched after it). Before, the CLI removed the start's listener
    // first, which stopped Node's signal watcher and dropped the signal: the service ran on ("still running").
    const script = `
      import { handleSignals } from ${JSON.stringify(index)};
      const starting = () => console.log('the start listener ran');
      process.on('SIGTERM', starting);
      process.kill(process.pid, 'SIGTERM');
      // the signal has arrived (its handler wrote to the event loop's pipe), not yet dispatched
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
      handleSignals({ stop: async () => console.log('service stopped') }, (line) => console.log(line), (code) => process.exit(code), starting);
      setTimeout(() => { console.log('still running'); process.exit(3); }, 3000);
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.stdout.trim().split('\n')).toEqual([
      'SIGTERM: finishing in-flight work for up to 3 s, then stopping (send it again to exit at once)',
      'service stopped',
    ]);
    expect(run.status, run.stderr).toBe(0);
  });
});
