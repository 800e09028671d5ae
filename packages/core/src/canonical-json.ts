import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

import { SubnetError } from './errors.js';

/** 2^53: integers whose magnitude exceeds it are written as decimal strings (SPEC 0). */
const TWO_POW_53 = 2 ** 53;

/** Code of every canonical-JSON rejection. */
export const CANONICAL_JSON_UNSUPPORTED = 'CORE_CANONICAL_JSON_UNSUPPORTED_VALUE';

/** Code raised when a value nests deeper than {@link CANONICAL_JSON_MAX_DEPTH}. */
export const CANONICAL_JSON_TOO_DEEP = 'CORE_CANONICAL_JSON_TOO_DEEP';

/**
 * The deepest nesting canonical JSON serialises: 128 containers. Input is limited to 64 levels at every
 * boundary (SPEC 0), and a bundle wraps a record in a few levels of its own, so every honest value fits;
 * anything deeper fails with the coded {@link CANONICAL_JSON_TOO_DEEP} at the same depth on every machine,
 * never with a RangeError whose threshold depends on the stack size.
 */
export const CANONICAL_JSON_MAX_DEPTH = 128;

/**
 * Serialises a value to the canonical JSON of SPEC section 0: UTF-8 text, object keys sorted by Unicode
 * code point, no whitespace, numbers in their shortest round-trip form (`JSON.stringify` of a finite
 * double), every bigint and every integer beyond 2^53 in magnitude as a decimal string.
 *
 * Only JSON's own values are accepted: plain objects, arrays, strings, finite numbers, booleans, null
 * (and bigint, as above). NaN, ±Infinity, undefined (also as an object property or array hole),
 * functions, symbols, class instances (Date, Map, Uint8Array, ...) and cycles are rejected.
 *
 * @param value - the value to serialise
 * @returns the canonical JSON text
 * @throws SubnetError `CORE_CANONICAL_JSON_UNSUPPORTED_VALUE`, naming the path (`$.a[2].b`) and value;
 *   `CORE_CANONICAL_JSON_TOO_DEEP` beyond {@link CANONICAL_JSON_MAX_DEPTH} nested containers
 * @example canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, '$', out, new Set(), 0);
  return out.join('');
}

/**
 * The digest of a value: lowercase hex sha256 of the UTF-8 bytes of {@link canonicalJson}.
 *
 * @param value - the value to digest
 * @returns 64 lowercase hex characters
 * @throws SubnetError `CORE_CANONICAL_JSON_UNSUPPORTED_VALUE` as {@link canonicalJson}
 * @example digest({}) // '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'
 */
export function digest(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/**
 * Lowercase hex sha256 of a string's UTF-8 bytes (or of raw bytes).
 *
 * @param input - text (encoded as UTF-8) or bytes
 * @returns 64 lowercase hex characters
 * @example sha256Hex('abc') // 'ba7816bf...'
 */
export function sha256Hex(input: string | Uint8Array): string {
  return bytesToHex(sha256(typeof input === 'string' ? utf8ToBytes(input) : input));
}

/** Orders strings by Unicode code point (not UTF-16 code unit, which is what `<` does). */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done === true) return y.done === true ? 0 : -1;
    if (y.done === true) return 1;
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx - cy;
  }
}

function reject(path: string, value: unknown, why: string): never {
  throw new SubnetError(CANONICAL_JSON_UNSUPPORTED, `canonical JSON cannot hold ${why}`, {
    context: { path, value },
  });
}

function write(value: unknown, path: string, out: string[], ancestors: Set<object>, depth: number): void {
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'bigint':
      out.push(`"${value.toString()}"`);
      return;
    case 'number':
      if (!Number.isFinite(value)) reject(path, value, 'a non-finite number');
      if (Number.isInteger(value) && Math.abs(value) > TWO_POW_53) out.push(`"${BigInt(value).toString()}"`);
      else out.push(JSON.stringify(value));
      return;
    case 'undefined':
      reject(path, value, 'undefined');
      break;
    case 'function':
      reject(path, value, 'a function');
      break;
    case 'symbol':
      reject(path, value, 'a symbol');
      break;
    case 'object': {
      if (value === null) {
        out.push('null');
        return;
      }
      if (ancestors.has(value)) reject(path, '[cycle]', 'a cycle');
      if (depth >= CANONICAL_JSON_MAX_DEPTH) {
        throw new SubnetError(CANONICAL_JSON_TOO_DEEP, `canonical JSON nests at most ${CANONICAL_JSON_MAX_DEPTH} levels`, {
          context: { path, value: Array.isArray(value) ? '[array]' : '[object]', limit: CANONICAL_JSON_MAX_DEPTH },
        });
      }
      ancestors.add(value);
      if (Array.isArray(value)) writeArray(value, path, out, ancestors, depth + 1);
      else writeObject(value, path, out, ancestors, depth + 1);
      ancestors.delete(value);
      return;
    }
  }
}

function writeArray(value: readonly unknown[], path: string, out: string[], ancestors: Set<object>, depth: number): void {
  out.push('[');
  for (let i = 0; i < value.length; i++) {
    if (i > 0) out.push(',');
    if (!(i in value)) reject(`${path}[${i}]`, undefined, 'an array hole');
    write(value[i], `${path}[${i}]`, out, ancestors, depth);
  }
  out.push(']');
}

function writeObject(value: object, path: string, out: string[], ancestors: Set<object>, depth: number): void {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
    reject(path, `[${name}]`, `an instance of ${name} (only plain objects)`);
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort(compareCodePoints);
  out.push('{');
  keys.forEach((key, i) => {
    if (i > 0) out.push(',');
    out.push(JSON.stringify(key), ':');
    write(record[key], `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`, out, ancestors, depth);
  });
  out.push('}');
}
