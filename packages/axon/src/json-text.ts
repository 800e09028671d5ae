import { AXON_ERROR_CODES, axonError } from './errors.js';

/** A JSON value as written: numbers keep their text, objects their key order (duplicate keys: first place, last value, as Python's dict). */
export type JsonNode =
  | { readonly kind: 'null' }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'array'; readonly items: readonly JsonNode[] }
  | { readonly kind: 'object'; readonly entries: ReadonlyMap<string, JsonNode> };

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * The most digits CPython converts from text to `int` (`sys.int_info.default_max_str_digits`, Python 3.11+ and
 * the 3.10.7 / 3.9.14 security releases): `json.loads` raises `ValueError` ("Exceeds the limit (4300 digits) for
 * integer string conversion") for a longer integer literal, so the SDK dendrite's `response.json()` fails and
 * records 422. Beyond it, converting the text to a bigint costs time that grows faster than its length.
 */
export const MAX_INTEGER_DIGITS = 4300;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = Object.freeze({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' });
const WORDS: readonly (readonly [string, JsonNode])[] = Object.freeze([
  ['true', Object.freeze({ kind: 'bool', value: true })],
  ['false', Object.freeze({ kind: 'bool', value: false })],
  ['null', Object.freeze({ kind: 'null' })],
  ['NaN', Object.freeze({ kind: 'number', text: 'NaN' })],
  ['Infinity', Object.freeze({ kind: 'number', text: 'Infinity' })],
  ['-Infinity', Object.freeze({ kind: 'number', text: '-Infinity' })],
] as const);

/**
 * Parses JSON text losslessly, as Python's stdlib `json.loads` accepts it (also `NaN`, `Infinity`,
 * `-Infinity`): integers up to {@link MAX_INTEGER_DIGITS} digits (CPython's limit), `1.0` distinct from `1`,
 * key order kept, so body hashes can be recomputed as the Python axon computes them.
 *
 * @param text - JSON text
 * @returns the tree
 * @throws SubnetError `AXON_INVALID_JSON` with the offset of the first error (also for an integer literal of more
 *   than 4300 digits)
 * @example parseJsonText('{"a": 1.0}')
 */
export function parseJsonText(text: string): JsonNode {
  let i = 0;
  const fail = (what: string): never => {
    throw axonError(AXON_ERROR_CODES.invalidJson, `invalid JSON: ${what}`, 'body', i);
  };
  const ws = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      i++;
    }
  };
  const string = (): string => {
    i++;
    let out = '';
    let start = i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c === 0x5c) {
        out += text.slice(start, i);
        const esc = text[i + 1];
        if (esc !== undefined && Object.hasOwn(SIMPLE_ESCAPES, esc)) {
          out += SIMPLE_ESCAPES[esc] ?? '';
          i += 2;
        } else if (esc === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else fail('bad escape');
        start = i;
      } else if (c < 0x20) fail('control character in string');
      else if (Number.isNaN(c)) fail('unterminated string');
      else i++;
    }
  };
  const value = (depth: number): JsonNode => {
    if (depth > 512) fail('nested too deeply');
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      const entries = new Map<string, JsonNode>();
      ws();
      if (text[i] === '}') {
        i++;
        return { kind: 'object', entries };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const key = string();
        ws();
        if (text[i] !== ':') fail('expected :');
        i++;
        entries.set(key, value(depth + 1));
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return { kind: 'object', entries };
        } else fail('expected , or }');
      }
    }
    if (ch === '[') {
      i++;
      const items: JsonNode[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { kind: 'array', items };
      }
      for (;;) {
        items.push(value(depth + 1));
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return { kind: 'array', items };
        } else fail('expected , or ]');
      }
    }
    if (ch === '"') return { kind: 'string', value: string() };
    if (ch === 't' || ch === 'f' || ch === 'n' || ch === 'N' || ch === 'I' || ch === '-') {
      for (const [word, node] of WORDS) {
        if (text.startsWith(word, i)) {
          i += word.length;
          return node;
        }
      }
    }
    // The grammar of -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?, longest match, scanned by hand.
    const from = i;
    let j = i;
    if (text.charCodeAt(j) === 0x2d) j++;
    const first = text.charCodeAt(j);
    if (first === 0x30) j++;
    else if (first >= 0x31 && first <= 0x39) {
      j++;
      while (isDigit(text.charCodeAt(j))) j++;
    } else return fail('unexpected character');
    let integer = true;
    if (text.charCodeAt(j) === 0x2e && isDigit(text.charCodeAt(j + 1))) {
      j += 2;
      while (isDigit(text.charCodeAt(j))) j++;
      integer = false;
    }
    const e = text.charCodeAt(j);
    if (e === 0x65 || e === 0x45) {
      let k = j + 1;
      const sign = text.charCodeAt(k);
      if (sign === 0x2b || sign === 0x2d) k++;
      if (isDigit(text.charCodeAt(k))) {
        k++;
        while (isDigit(text.charCodeAt(k))) k++;
        j = k;
        integer = false;
      }
    }
    if (integer) {
      const digits = j - from - (text.charCodeAt(from) === 0x2d ? 1 : 0);
      if (digits > MAX_INTEGER_DIGITS) fail(`an integer literal of ${digits} digits (Python's json.loads converts at most ${MAX_INTEGER_DIGITS})`);
    }
    const literal = text.slice(from, j);
    i = j;
    return { kind: 'number', text: literal };
  };
  const root = value(0);
  ws();
  if (i !== text.length) fail('trailing characters');
  return root;
}
