import { AXON_ERROR_CODES, axonError } from './errors.js';

/** A JSON value as written: numbers keep their text, objects their key order (duplicate keys: first place, last value, as Python's dict). */
export type JsonNode =
  | { readonly kind: 'null' }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'array'; readonly items: readonly JsonNode[] }
  | { readonly kind: 'object'; readonly entries: ReadonlyMap<string, JsonNode> };

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;

/**
 * The most digits CPython converts from text to `int` (`sys.int_info.default_max_str_digits`, Python 3.11+ and
 * the 3.10.7 / 3.9.14 security releases): `json.loads` raises `ValueError` ("Exceeds the limit (4300 digits) for
 * integer string conversion") for a longer integer literal, so the SDK dendrite's `response.json()` fails and
 * records 422. Beyond it, converting the text to a bigint costs time that grows faster than its length.
 */
export const MAX_INTEGER_DIGITS = 4300;
const WS = /[ \t\n\r]*/y;

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
    WS.lastIndex = i;
    WS.exec(text);
    i = WS.lastIndex;
  };
  const string = (): string => {
    i++;
    let out = '';
    for (;;) {
      const ch = text[i];
      if (ch === undefined) return fail('unterminated string');
      if (ch === '"') {
        i++;
        return out;
      }
      if (ch === '\\') {
        const esc = text[i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (esc !== undefined && Object.hasOwn(simple, esc)) {
          out += simple[esc] ?? '';
          i += 2;
        } else if (esc === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else fail('bad escape');
      } else if (ch < ' ') fail('control character in string');
      else {
        out += ch;
        i++;
      }
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
    for (const [word, node] of [
      ['true', { kind: 'bool', value: true }],
      ['false', { kind: 'bool', value: false }],
      ['null', { kind: 'null' }],
      ['NaN', { kind: 'number', text: 'NaN' }],
      ['Infinity', { kind: 'number', text: 'Infinity' }],
      ['-Infinity', { kind: 'number', text: '-Infinity' }],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return node;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) return fail('unexpected character');
    const literal = m[0];
    if (!/[.eE]/.test(literal)) {
      const digits = literal.length - (literal.startsWith('-') ? 1 : 0);
      if (digits > MAX_INTEGER_DIGITS) fail(`an integer literal of ${digits} digits (Python's json.loads converts at most ${MAX_INTEGER_DIGITS})`);
    }
    i = NUMBER.lastIndex;
    return { kind: 'number', text: literal };
  };
  const root = value(0);
  ws();
  if (i !== text.length) fail('trailing characters');
  return root;
}
