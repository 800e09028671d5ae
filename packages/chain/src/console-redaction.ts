import { redactUrl } from '@subnet/core';

type ConsoleMethod = 'log' | 'info' | 'warn' | 'error' | 'debug' | 'trace';
const METHODS: readonly ConsoleMethod[] = ['log', 'info', 'warn', 'error', 'debug', 'trace'];
const INSTALLED = Symbol.for('@subnet/chain.console-redaction');

/** How long a repeated `@polkadot/api` console line is summarised instead of printed again (ms). */
export const CONSOLE_REPEAT_WINDOW_MS = 60_000;

/** The two leading arguments `@polkadot/util`'s `logger` prints: its date (`CCYY-MM-DD HH:MM:SS`) and its padded type (`RPC-CORE:`). */
const POLKADOT_DATE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const POLKADOT_TYPE = /^ *[A-Z0-9][A-Z0-9/_-]*:$/;
/** Lines remembered at most before those outside the window are forgotten (their texts vary, e.g. with a block number). */
const MAX_REMEMBERED = 256;

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactUrl(value);
  if (value instanceof Error) {
    const copy = new Error(redactUrl(value.message));
    copy.name = value.name;
    if (value.stack !== undefined) copy.stack = redactUrl(value.stack);
    return copy;
  }
  return value;
}

/** The text a `@polkadot/util` logger line is recognised by when it repeats (without its date), or undefined for any other line. */
function polkadotLineKey(method: ConsoleMethod, args: readonly unknown[]): string | undefined {
  const [date, type] = args;
  if (typeof date !== 'string' || typeof type !== 'string' || !POLKADOT_DATE.test(date) || !POLKADOT_TYPE.test(type)) return undefined;
  const parts: string[] = [method, type];
  for (const value of args.slice(2)) {
    if (typeof value === 'string') parts.push(value);
    else if (value instanceof Error) parts.push(`${value.name}: ${value.message}`);
    else return undefined;
  }
  return parts.join('\u0000');
}

/**
 * Internal: wraps each console method of `target` to redact credentials in what it prints, and to print a repeated
 * `@polkadot/api` line once per {@link CONSOLE_REPEAT_WINDOW_MS}: the repeats in between are counted, and the next line
 * printed after the window says how many there were.
 *
 * @param target - the console (tests pass their own)
 * @param now - the clock (ms)
 */
export function filterConsole(target: Record<ConsoleMethod, (...args: unknown[]) => void>, now: () => number = Date.now): void {
  const seen = new Map<string, { printedAtMs: number; suppressed: number }>();
  for (const method of METHODS) {
    const original = target[method].bind(target);
    target[method] = (...args: unknown[]): void => {
      const redacted = args.map(redactValue);
      const key = polkadotLineKey(method, redacted);
      if (key === undefined) {
        original(...redacted);
        return;
      }
      const at = now();
      const last = seen.get(key);
      if (last !== undefined && at - last.printedAtMs < CONSOLE_REPEAT_WINDOW_MS) {
        last.suppressed++;
        return;
      }
      if (last === undefined && seen.size >= MAX_REMEMBERED) {
        for (const [k, v] of seen) if (at - v.printedAtMs >= CONSOLE_REPEAT_WINDOW_MS) seen.delete(k);
      }
      const suppressed = last?.suppressed ?? 0;
      seen.set(key, { printedAtMs: at, suppressed: 0 });
      if (suppressed === 0) original(...redacted);
      else original(...redacted, `(printed once a minute: ${suppressed} more like this since ${Math.round((at - (last?.printedAtMs ?? at)) / 1000)} s ago)`);
    };
  }
}

/**
 * Makes the process console redact endpoint credentials (`wss://user:pass@host` -> `wss://***@host`,
 * credential-looking query parameters -> `key=***`: `@subnet/core`'s `redactUrl`) in every string and `Error` it prints. `@polkadot/api` logs socket failures and
 * disconnects straight to `console` with the full endpoint URL (`@polkadot/util` `logger`); this package
 * cannot reroute those lines, so it installs this filter once per process when it connects. A line of
 * `@polkadot/util`'s logger that repeats (a node that is down: every request and reconnect attempt prints one, several
 * a second) is printed once a minute, the next one saying how many were not. Idempotent; other output is unchanged.
 *
 * @example installConsoleRedaction(); console.error('disconnected from wss://u:p@h'); // prints wss://***@h
 */
export function installConsoleRedaction(): void {
  const target = console as unknown as Record<string | symbol, unknown>;
  if (target[INSTALLED] === true) return;
  filterConsole(console);
  target[INSTALLED] = true;
}
