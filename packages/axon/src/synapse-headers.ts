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

const PY_DIGITS = String.raw`[0-9](?:_?[0-9])*`;
const PY_INT_TEXT = new RegExp(String.raw`^[-+]?${PY_DIGITS}$`);
const PY_FLOAT_TEXT = new RegExp(String.raw`^[-+]?(?:(?:${PY_DIGITS})(?:\.(?:${PY_DIGITS})?)?|\.${PY_DIGITS})(?:[eE][-+]?${PY_DIGITS})?$`);
const PY_FLOAT_WORD = /^[-+]?(?:inf|infinity|nan)$/i;
/** The whitespace Python's `int()` / `float()` skip at the ends of a latin-1 header value (not \x1c-\x1f). */
const PY_STRIP = /^[\t\n\v\f\r \x85\xa0]+|[\t\n\v\f\r \x85\xa0]+$/g;

/**
 * Python's `int(text)` (the `cast_int` validator of `bittensor/core/synapse.py:52-65`): surrounding
 * whitespace, a sign, leading zeros and single `_` between digits are taken; at most 4300 digits
 * (`sys.int_info.default_max_str_digits`). Only ASCII digits (Python also takes other Unicode decimals).
 *
 * @param text - the header value
 * @param path - the header name, for errors
 * @returns the integer
 * @throws SubnetError `AXON_INVALID_HEADER` naming the header, where Python raises `ValueError`
 * @example pyIntText(' +0_200 ', 'bt_header_axon_status_code') // 200n
 */
export function pyIntText(text: string, path: string): bigint {
  const t = text.replace(PY_STRIP, '');
  if (!PY_INT_TEXT.test(t)) throw axonError(AXON_ERROR_CODES.invalidHeader, 'not an integer (Python int())', path, text);
  const digits = t.replace(/[-+_]/g, '');
  if (digits.length > 4300) throw axonError(AXON_ERROR_CODES.invalidHeader, 'more than 4300 digits (Python int())', path, text);
  return BigInt(t.replace(/[+_]/g, ''));
}

/**
 * Python's `float(text)` (the `cast_float` validator of `bittensor/core/synapse.py:68-81`): surrounding
 * whitespace, `_` between digits, `inf`/`infinity`/`nan` in any case.
 *
 * @param text - the header value
 * @param path - the header name, for errors
 * @returns the double
 * @throws SubnetError `AXON_INVALID_HEADER` naming the header, where Python raises `ValueError`
 * @example pyFloatText('1_0.5', 'timeout') // 10.5
 */
export function pyFloatText(text: string, path: string): number {
  const t = text.replace(PY_STRIP, '');
  if (PY_FLOAT_WORD.test(t)) {
    const w = t.toLowerCase();
    if (w.endsWith('nan')) return NaN;
    return w.startsWith('-') ? -Infinity : Infinity;
  }
  if (!PY_FLOAT_TEXT.test(t)) throw axonError(AXON_ERROR_CODES.invalidHeader, 'not a float (Python float())', path, text);
  return Number(t.replace(/_/g, ''));
}

/**
 * Reads a response's headers as the SDK dendrite does (`Synapse.from_headers(server_response.headers)`,
 * `bittensor/core/dendrite.py:766`; `parse_headers_to_inputs`, `bittensor/core/synapse.py:764-819`), from
 * node's `rawHeaders` (names as sent, in order): a name *containing* `bt_header_axon_` (else
 * `bt_header_dendrite_`) sets the `TerminalInfo` field named by the text after it, up to a second occurrence
 * (`key.split(marker)[1]`), matched case-sensitively as aiohttp's header names keep their case, a later
 * header overriding an earlier; unknown fields are ignored. `timeout`, `header_size`, `total_size` are the
 * first header of that name in any case (`CIMultiDict.get`). Every value is converted as pydantic's
 * validators do (`int()`, `float()`), including `header_size` and `total_size`, whose failure fails the call.
 *
 * @param rawHeaders - node's `IncomingMessage.rawHeaders`
 * @returns what they say
 * @throws SubnetError `AXON_INVALID_HEADER` naming the header, where the SDK's `from_headers` raises
 * @example parseResponseHeaders(res.rawHeaders).axon.statusCode
 */
export function parseResponseHeaders(rawHeaders: readonly string[]): HeaderSynapse {
  const found = { axon: new Map<string, [string, string]>(), dendrite: new Map<string, [string, string]>() };
  const first = new Map<string, string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const key = rawHeaders[i] ?? '';
    const value = rawHeaders[i + 1] ?? '';
    const lower = key.toLowerCase();
    if (!first.has(lower)) first.set(lower, value);
    for (const side of ['axon', 'dendrite'] as const) {
      const marker = `bt_header_${side}_`;
      const at = key.indexOf(marker);
      if (at < 0) continue;
      const rest = key.slice(at + marker.length);
      const next = rest.indexOf(marker);
      found[side].set(next < 0 ? rest : rest.slice(0, next), [key, value]);
      break;
    }
  }
  const sides = { axon: {} as Record<string, unknown>, dendrite: {} as Record<string, unknown> };
  for (const side of ['axon', 'dendrite'] as const) {
    for (const [wire, key, type] of TERMINAL_FIELDS) {
      const hit = found[side].get(wire);
      if (hit === undefined) continue;
      const [name, text] = hit;
      if (type === 'str') sides[side][key] = text;
      else if (type === 'float') sides[side][key] = pyFloatText(text, name);
      else {
        const n = pyIntText(text, name);
        sides[side][key] = key === 'nonce' ? n : Number(n);
      }
    }
  }
  const timeoutText = first.get('timeout');
  for (const name of ['header_size', 'total_size']) {
    const text = first.get(name);
    if (text !== undefined) pyIntText(text, name);
  }
  return Object.freeze({
    name: first.get('name'),
    timeout: timeoutText === undefined ? null : pyFloatText(timeoutText, 'timeout'),
    computedBodyHash: first.get('computed_body_hash') ?? '',
    axon: Object.freeze(sides.axon),
    dendrite: Object.freeze(sides.dendrite),
  });
}

/**
 * A content-type header as Python's `email.message.Message.get_content_type()` reads it (used by aiohttp's
 * `content_type` and FastAPI's body parsing): the part before `;`, trimmed and lowercased; `text/plain` unless
 * it has exactly one `/`.
 *
 * @param value - the header value
 * @returns the media type
 * @example emailContentType('Application/JSON; charset=utf-8') // 'application/json'
 */
export function emailContentType(value: string): string {
  const type = (value.split(';')[0] ?? '').trim().toLowerCase();
  return type.split('/').length === 2 ? type : 'text/plain';
}
