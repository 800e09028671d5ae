import { redactUrl } from '@subnet/core';

type ConsoleMethod = 'log' | 'info' | 'warn' | 'error' | 'debug' | 'trace';
const METHODS: readonly ConsoleMethod[] = ['log', 'info', 'warn', 'error', 'debug', 'trace'];
const INSTALLED = Symbol.for('@subnet/chain.console-redaction');

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

/**
 * Makes the process console redact endpoint credentials (`wss://user:pass@host` -> `wss://***@host`,
 * credential-looking query parameters -> `key=***`: `@subnet/core`'s `redactUrl`) in every string and `Error` it prints. `@polkadot/api` logs socket failures and
 * disconnects straight to `console` with the full endpoint URL (`@polkadot/util` `logger`); this package
 * cannot reroute those lines, so it installs this filter once per process when it connects. Idempotent; other
 * output is unchanged.
 *
 * @example installConsoleRedaction(); console.error('disconnected from wss://u:p@h'); // prints wss://***@h
 */
export function installConsoleRedaction(): void {
  const target = console as unknown as Record<string | symbol, unknown>;
  if (target[INSTALLED] === true) return;
  for (const method of METHODS) {
    const original = console[method].bind(console) as (...args: unknown[]) => void;
    target[method] = (...args: unknown[]): void => {
      original(...args.map(redactValue));
    };
  }
  target[INSTALLED] = true;
}
