import { AXON_ERROR_CODES, axonError } from './errors.js';
import type { TerminalInfo } from './terminal-info.js';
import { TERMINAL_FIELDS } from './terminal-info.js';

/** What the `bt_header_*` headers of a request or response say. */
export interface HeaderSynapse {
  readonly name: string | undefined;
  readonly timeout: number | null;
  readonly computedBodyHash: string;
  /** Only the fields present in the headers. */
  readonly axon: Partial<TerminalInfo>;
  readonly dendrite: Partial<TerminalInfo>;
}

type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return typeof v === 'string' ? v : undefined;
}

function parseFloatHeader(text: string, path: string): number {
  if (!/^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$|^[-+]?(?:inf|infinity|nan)$/i.test(text.trim()))
    throw axonError(AXON_ERROR_CODES.invalidHeader, 'not a float', path, text);
  const t = text.trim().toLowerCase();
  if (t.endsWith('nan')) return NaN;
  if (t.endsWith('inf') || t.endsWith('infinity')) return t.startsWith('-') ? -Infinity : Infinity;
  return Number(t);
}

/**
 * Reads the synapse metadata of request or response headers as `Synapse.from_headers` does
 * (`bittensor/core/synapse.py:729-854`), names matched in lower case: `name`, `timeout`,
 * `computed_body_hash` and the `bt_header_axon_*` / `bt_header_dendrite_*` fields. Integers must be canonical
 * decimal (stricter than Python's `int()`).
 *
 * @param headers - lowercase header names (node's `IncomingHttpHeaders`, or a plain record)
 * @returns what they say
 * @throws SubnetError `AXON_INVALID_HEADER` naming the header
 * @example parseSynapseHeaders(request.headers).dendrite.hotkey
 */
export function parseSynapseHeaders(headers: Headers): HeaderSynapse {
  const sides = { axon: {} as Record<string, unknown>, dendrite: {} as Record<string, unknown> };
  for (const side of ['axon', 'dendrite'] as const) {
    for (const [wire, key, type] of TERMINAL_FIELDS) {
      const name = `bt_header_${side}_${wire}`;
      const text = header(headers, name);
      if (text === undefined) continue;
      if (type === 'str') sides[side][key] = text;
      else if (type === 'float') sides[side][key] = parseFloatHeader(text, name);
      else {
        if (!/^-?[0-9]+$/.test(text)) throw axonError(AXON_ERROR_CODES.invalidHeader, 'not a canonical decimal integer', name, text);
        const n = BigInt(text);
        if (key !== 'nonce' && (n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER)))
          throw axonError(AXON_ERROR_CODES.invalidHeader, 'integer out of range', name, text);
        sides[side][key] = key === 'nonce' ? n : Number(n);
      }
    }
  }
  const timeoutText = header(headers, 'timeout');
  return Object.freeze({
    name: header(headers, 'name'),
    timeout: timeoutText === undefined ? null : parseFloatHeader(timeoutText, 'timeout'),
    computedBodyHash: header(headers, 'computed_body_hash') ?? '',
    axon: Object.freeze(sides.axon),
    dendrite: Object.freeze(sides.dendrite),
  });
}
