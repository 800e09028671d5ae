import { describe, expect, it } from 'vitest';

import { CONSOLE_REPEAT_WINDOW_MS, filterConsole } from '../console-redaction.js';

type Method = 'log' | 'info' | 'warn' | 'error' | 'debug' | 'trace';

/** A console that records what reaches it, filtered, on a clock the test moves. */
function filtered(): { out: Record<Method, (...args: unknown[]) => void>; printed: unknown[][]; clock: { ms: number } } {
  const printed: unknown[][] = [];
  const record = (...args: unknown[]): void => {
    printed.push(args);
  };
  const out = { log: record, info: record, warn: record, error: record, debug: record, trace: record };
  const clock = { ms: 1_000_000 };
  filterConsole(out, () => clock.ms);
  return { out, printed, clock };
}

// As @polkadot/util's logger prints: its date, its padded type, then the values.
const DATE = '2026-11-29 18:10:00';
const RPC = '       RPC-CORE:';
const NOT_CONNECTED = 'getHeader(hash?: BlockHash): Header:: WebSocket is not connected';

describe('the console filter @subnet/chain installs when it connects', () => {
  it('prints a repeated @polkadot/api line once a minute, and the next one after the minute says how many it held back', () => {
    const { out, printed, clock } = filtered();
    out.error(DATE, RPC, NOT_CONNECTED);
    for (let i = 0; i < 173; i++) {
      clock.ms += 200; // five a second, as a node that is down makes them
      out.error(DATE, RPC, NOT_CONNECTED);
    }
    expect(printed).toEqual([[DATE, RPC, NOT_CONNECTED]]);
    clock.ms += CONSOLE_REPEAT_WINDOW_MS;
    out.error(DATE, RPC, NOT_CONNECTED);
    expect(printed).toEqual([
      [DATE, RPC, NOT_CONNECTED],
      [DATE, RPC, NOT_CONNECTED, `(printed once a minute: 173 more like this since ${Math.round((173 * 200 + CONSOLE_REPEAT_WINDOW_MS) / 1000)} s ago)`],
    ]);
  });

  it('holds back only the same line: another text, type or method is printed, and so is every line not shaped as the logger prints', () => {
    const { out, printed } = filtered();
    out.error(DATE, RPC, NOT_CONNECTED);
    out.error(DATE, RPC, 'getBlockHash(blockNumber?: BlockNumber): BlockHash:: WebSocket is not connected');
    out.error(DATE, '         API-WS:', NOT_CONNECTED);
    out.warn(DATE, RPC, NOT_CONNECTED);
    out.error('plain output', RPC, NOT_CONNECTED);
    out.error('plain output', RPC, NOT_CONNECTED);
    out.error(DATE, RPC, { not: 'text' });
    out.error(DATE, RPC, { not: 'text' });
    expect(printed).toHaveLength(8);
  });

  it('redacts credentials in what it prints and in the text it compares', () => {
    const { out, printed } = filtered();
    out.error(DATE, '         API-WS:', 'disconnected from wss://user:pass@node.example/ws: 1006:: connection failed');
    out.error(DATE, '         API-WS:', new Error('connect wss://user:other@node.example/ws failed'));
    out.log('token at https://node.example/?token=abc123');
    expect(printed[0]).toEqual([DATE, '         API-WS:', 'disconnected from wss://***@node.example/ws: 1006:: connection failed']);
    expect((printed[1]?.[2] as Error).message).toBe('connect wss://***@node.example/ws failed');
    expect(JSON.stringify(printed)).not.toMatch(/pass|other|abc123/);
  });
});
