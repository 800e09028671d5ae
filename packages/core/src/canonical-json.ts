import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

import { invalidArgument } from './arguments.js';
import { CORE_ERROR_CODES } from './error-codes.js';
import { SubnetError } from './errors.js';

/** 2^53: integers whose magnitude exceeds it are written as decimal strings (SPEC 0). */
const TWO_POW_53 = 2 ** 53;

/** Code of every canonical-JSON rejection. */
export const CANONICAL_JSON_UNSUPPORTED = CORE_ERROR_CODES.canonicalJsonUnsupported;

/** Code raised when a value nests deeper than {@link CANONICAL_JSON_MAX_DEPTH}. */
export const CANONICAL_JSON_TOO_DEEP = CORE_ERROR_CODES.canonicalJsonTooDeep;

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
  try {
    return fast(value, 0);
  } catch (error) {
    if (error !== UNSUPPORTED) throw error;
  }
  // Only for a value that cannot be serialised: walk it again keeping the keys to here, so the error
  // names the path and value (and a cycle is told from a value that is merely too deep).
  const state: Writer = { out: [], ancestors: [], path: [] };
  write(state, value, 0);
  return state.out.join('');
}

/**
 * What JSON.stringify escapes in a string: a quote, a backslash, a control character, or a surrogate (it
 * writes a lone one as `\udxxx`; pairs match too and simply take the JSON.stringify path).
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Thrown by {@link fast} for anything it cannot write; never escapes {@link canonicalJson}. */
const UNSUPPORTED = new Error('canonical JSON: unsupported value');

/**
 * Quoted object keys, remembered: bundles repeat the same few hundred keys (`miner_hotkey`, `score`, ...)
 * thousands of times. Bounded: emptied when full, so it never changes output, only skips work.
 */
const quotedKeys = new Map<string, string>();

function quoteKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (quotedKeys.size >= 4096) quotedKeys.clear();
    quotedKeys.set(key, quoted);
  }
  return quoted;
}

/**
 * An object's keys in canonical order, and the text before each value: `{"a":`, then `,"b":`, ... (internal:
 * `canonical-json-bytes.ts` keeps the same heads as UTF-8 bytes in `bytes`, filled on first use).
 */
export interface Shape {
  readonly keys: readonly string[];
  readonly sorted: readonly string[];
  readonly heads: readonly string[];
  bytes: unknown;
}

/**
 * The last {@link SHAPES_PER_DEPTH} shapes seen at each depth: arrays of records repeat a few shapes thousands
 * of times (a record and the objects inside it alternate at one depth), so an object whose `Object.keys` equal
 * one of them (same keys, same order) reuses its sort and key texts. Pure memo: it never changes output, only
 * skips work.
 */
const SHAPES_PER_DEPTH = 4;
const lastShapes: (Shape | undefined)[] = [];
/** Per depth, the slot the next new shape replaces (round robin). */
const nextSlot: number[] = [];

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `Object.prototype.propertyIsEnumerable`: whether a key is an own, enumerable property (what `Object.keys` lists). */
// eslint-disable-next-line @typescript-eslint/unbound-method -- always called with .call
const isOwnEnumerable = Object.prototype.propertyIsEnumerable;

/**
 * The canonical order and key texts of an object's keys (`Object.keys` order in `keys`), remembered per depth
 * (internal, shared with `canonical-json-bytes.ts`).
 *
 * @param keys - the object's own enumerable keys, as `Object.keys` lists them
 * @param depth - the object's depth (the memo's slot)
 * @returns the shape
 */
export function shapeOf(keys: readonly string[], depth: number): Shape {
  const base = depth * SHAPES_PER_DEPTH;
  for (let j = 0; j < SHAPES_PER_DEPTH; j++) {
    const seen = lastShapes[base + j];
    if (seen === undefined) break;
    if (sameKeys(seen.keys, keys)) return seen;
  }
  const sorted = keys.slice();
  if (allBelowSurrogates(sorted)) sorted.sort();
  else sorted.sort(compareCodePoints);
  const heads = sorted.map((key, i) => `${i === 0 ? '{' : ','}${quoteKey(key)}:`);
  const shape: Shape = { keys, sorted, heads, bytes: undefined };
  const slot = nextSlot[depth] ?? 0;
  lastShapes[base + slot] = shape;
  nextSlot[depth] = (slot + 1) % SHAPES_PER_DEPTH;
  return shape;
}

/**
 * The serialiser of every value canonical JSON can hold: the same text as {@link write}, with no path,
 * no list of ancestors and no error built. It throws {@link UNSUPPORTED} on anything else (a cycle
 * reaches the depth limit), and the caller walks the value again with {@link write} to name the path.
 */
function fast(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      // Most strings (hotkeys, ids) need no escape: quoting them is cheaper than JSON.stringify's call.
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return `"${value.toString()}"`;
    case 'number':
      if (!Number.isFinite(value)) throw UNSUPPORTED;
      return Number.isInteger(value) && Math.abs(value) > TWO_POW_53 ? `"${BigInt(value).toString()}"` : String(value);
    case 'object': {
      if (value === null) return 'null';
      if (depth >= CANONICAL_JSON_MAX_DEPTH) throw UNSUPPORTED;
      if (Array.isArray(value)) {
        const n = value.length;
        if (n === 0) return '[]';
        let out = '[';
        for (let i = 0; i < n; i++) {
          if (!(i in value)) throw UNSUPPORTED;
          if (i > 0) out += ',';
          out += fast(value[i], depth + 1);
        }
        return `${out}]`;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw UNSUPPORTED;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      if (keys.length === 0) return '{}';
      const shape = shapeOf(keys, depth);
      const sorted = shape.sorted;
      const heads = shape.heads;
      let out = '';
      for (let i = 0; i < sorted.length; i++) {
        out += heads[i] as string;
        out += fast(record[sorted[i] as string], depth + 1);
      }
      return `${out}}`;
    }
    default:
      throw UNSUPPORTED;
  }
}

/**
 * Whether two values have the same canonical JSON, without writing either: `true` exactly when
 * `canonicalJson(a) === canonicalJson(b)` and both can be serialised, `false` otherwise (a value canonical
 * JSON rejects is never the same as anything). It walks both values once and stops at the first
 * difference, so checking an 800 KB recomputation against a claim costs a fraction of serialising both.
 *
 * @param a - a value
 * @param b - another value
 * @returns whether their canonical JSON texts are equal
 * @example sameCanonicalJson({ a: 1, b: 2 }, { b: 2, a: 1 }) // true
 * @example sameCanonicalJson(2 ** 60, String(2n ** 60n)) // true: both are written "1152921504606846976"
 */
export function sameCanonicalJson(a: unknown, b: unknown): boolean {
  try {
    return sameValue(a, b, 0);
  } catch (error) {
    if (error !== UNSUPPORTED) throw error;
    return false;
  }
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function sameValue(a: unknown, b: unknown, depth: number): boolean {
  if (isContainer(a) || isContainer(b)) {
    // A container's text starts with `[` or `{`, a leaf's never does.
    if (!isContainer(a) || !isContainer(b)) return false;
    if (depth >= CANONICAL_JSON_MAX_DEPTH) throw UNSUPPORTED;
    const arrayA = Array.isArray(a);
    if (arrayA !== Array.isArray(b)) return false;
    if (arrayA) {
      const x = a as readonly unknown[];
      const y = b as readonly unknown[];
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) {
        if (!(i in x) || !(i in y)) throw UNSUPPORTED;
        if (!sameValue(x[i], y[i], depth + 1)) return false;
      }
      return true;
    }
    const protoA: unknown = Object.getPrototypeOf(a);
    const protoB: unknown = Object.getPrototypeOf(b);
    if ((protoA !== Object.prototype && protoA !== null) || (protoB !== Object.prototype && protoB !== null)) throw UNSUPPORTED;
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const keysA = Object.keys(x);
    const keysB = Object.keys(y);
    if (keysA.length !== keysB.length) return false;
    let sameOrder = true;
    for (let i = 0; i < keysA.length; i++) {
      if (keysA[i] !== keysB[i]) {
        sameOrder = false;
        break;
      }
    }
    // In another order (a recomputed object against a parsed, sorted one): the same set exactly when each
    // key of one is an own enumerable key (what `Object.keys` lists) of the other, as the counts are equal.
    if (!sameOrder) for (const key of keysA) if (!isOwnEnumerable.call(y, key)) return false;
    for (const key of keysA) if (!sameValue(x[key], y[key], depth + 1)) return false;
    return true;
  }
  if (typeof a === 'string' && typeof b === 'string') return a === b; // JSON.stringify is one-to-one on strings
  if (typeof a === 'number' && typeof b === 'number' && inPlainRange(a) && inPlainRange(b)) return a === b; // -0 === 0, both "0"
  return fast(a, depth) === fast(b, depth); // booleans, null, bigints, integers beyond 2^53 written as strings
}

/** A finite number canonical JSON writes as itself (not as a decimal string); its shortest form is one-to-one up to -0. */
function inPlainRange(x: number): boolean {
  return Number.isFinite(x) && !(Number.isInteger(x) && Math.abs(x) > TWO_POW_53);
}

/**
 * Whether `text` is the canonical JSON of `value`: `true` exactly when `canonicalJson(value) === text`,
 * and `false` when it is not or `value` cannot be serialised. For a value parsed from that very text (a
 * bundle file as published) it is several times cheaper than writing the canonical JSON again: one walk
 * proves every object's keys are in code-point order and no number needs the decimal-string form, after
 * which canonical JSON and `JSON.stringify` write the same text, and the native `JSON.stringify` does it.
 * Meant for plain data: an accessor property is read once by the walk and again by `JSON.stringify`.
 *
 * @param value - a value
 * @param text - the text to check
 * @returns whether `text` is the value's canonical JSON
 * @example isCanonicalJsonOf(JSON.parse('{"a":1,"b":2}'), '{"a":1,"b":2}') // true
 * @example isCanonicalJsonOf(JSON.parse('{"b":2,"a":1}'), '{"b":2,"a":1}') // false: keys out of order
 */
export function isCanonicalJsonOf(value: unknown, text: string): boolean {
  try {
    return writesAsStringify(value, 0) ? JSON.stringify(value) === text : fast(value, 0) === text;
  } catch (error) {
    if (error !== UNSUPPORTED) throw error;
    return false;
  }
}

/**
 * Whether `JSON.stringify` writes this value exactly as canonical JSON does: plain objects whose own keys
 * (in `Object.keys` order, which `JSON.stringify` follows) are already in code-point order, arrays without
 * holes, strings, booleans, null, and numbers canonical JSON writes as themselves. Throws {@link UNSUPPORTED}
 * for what canonical JSON rejects; false for a value it writes otherwise (unsorted keys, a bigint, an
 * integer beyond 2^53, -0), which the caller then serialises the slow way.
 */
function writesAsStringify(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      if (!Number.isFinite(value)) throw UNSUPPORTED;
      return inPlainRange(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (depth >= CANONICAL_JSON_MAX_DEPTH) throw UNSUPPORTED;
      // A toJSON method (own or inherited) would make JSON.stringify write something else.
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) throw UNSUPPORTED;
          if (!writesAsStringify(value[i], depth + 1)) return false;
        }
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw UNSUPPORTED;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      if (keys.length === 0) return true;
      const sorted = shapeOf(keys, depth).sorted;
      for (let i = 0; i < keys.length; i++) if (sorted[i] !== keys[i]) return false;
      for (const key of keys) if (!writesAsStringify(record[key], depth + 1)) return false;
      return true;
    }
    default:
      // undefined, functions, symbols, bigints: canonical JSON rejects all but the bigint (a decimal string).
      if (typeof value === 'bigint') return false;
      throw UNSUPPORTED;
  }
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
 * @throws SubnetError `CORE_INVALID_ARGUMENT` when `input` is neither a string nor bytes
 * @example sha256Hex('abc') // 'ba7816bf...'
 */
export function sha256Hex(input: string | Uint8Array): string {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) invalidArgument('input', 'must be a string or a Uint8Array', input);
  if (nativeSha256Hex !== undefined) return nativeSha256Hex(input);
  return bytesToHex(sha256(typeof input === 'string' ? utf8ToBytes(input) : input));
}

/** The part of `node:crypto` the native hash needs (typed here: core does not depend on Node's types). */
interface NodeCryptoHash {
  readonly hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string;
  readonly createHash: (algorithm: string) => { update(data: string | Uint8Array): { digest(encoding: 'hex'): string } };
}

/**
 * Node's own sha256 (OpenSSL, about 10x the pure-JS hash on a bundle), found without an import so this
 * package stays portable: `process.getBuiltinModule` exists on Node.js >= 20.16, and where it does not
 * (browsers, other runtimes) the pure-JS hash above is used. Both hash the same UTF-8 bytes: a string's
 * lone surrogate becomes U+FFFD in each (`TextEncoder` and Node's UTF-8 encoder agree), and
 * `sha256-native.test.ts` checks the two against each other.
 */
const nativeSha256Hex: ((input: string | Uint8Array) => string) | undefined = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (typeof proc?.getBuiltinModule !== 'function') return undefined;
  let crypto: NodeCryptoHash | undefined;
  try {
    crypto = proc.getBuiltinModule('node:crypto') as NodeCryptoHash | undefined;
  } catch {
    return undefined;
  }
  if (crypto === undefined) return undefined;
  const oneShot = crypto.hash;
  if (typeof oneShot === 'function') return (input) => oneShot('sha256', input, 'hex');
  const { createHash } = crypto;
  return (input) => createHash('sha256').update(input).digest('hex');
})();

/**
 * Lowercase hex sha256 with the portable pure-JS implementation only, whatever the runtime offers: the
 * reference the native path is tested against (internal).
 *
 * @param input - text (encoded as UTF-8) or bytes
 * @returns 64 lowercase hex characters
 */
export function portableSha256Hex(input: string | Uint8Array): string {
  return bytesToHex(sha256(typeof input === 'string' ? utf8ToBytes(input) : input));
}

/** Whether {@link sha256Hex} uses the runtime's native hash (internal, for tests and benchmarks). */
export const sha256IsNative: boolean = nativeSha256Hex !== undefined;

/**
 * Orders strings by Unicode code point (not UTF-16 code unit, which is what `<` and the default sort
 * do: `'\uFFFF' < '\u{1F600}'` by code point, but not by code unit). A lone surrogate counts as its own
 * code point. Compares code units up to the first difference and looks at code points only there.
 *
 * @param a - a string
 * @param b - a string
 * @returns negative when `a` comes first, 0 when equal, positive when `b` comes first
 * @throws SubnetError `CORE_INVALID_ARGUMENT` when an argument is not a string
 * @example ['\u{1F600}', '\uFFFF'].sort(compareCodePoints) // ['\uFFFF', '\u{1F600}']
 */
export function compareCodePoints(a: string, b: string): number {
  if (typeof a !== 'string') invalidArgument('a', 'must be a string', a);
  if (typeof b !== 'string') invalidArgument('b', 'must be a string', b);
  const n = a.length < b.length ? a.length : b.length;
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  const ca = a.charCodeAt(i);
  const cb = b.charCodeAt(i);
  if (ca < 0xd800 && cb < 0xd800) return ca - cb;
  // A surrogate is involved: compare the code points that start one unit earlier when that unit is a high
  // surrogate (the difference may be inside a pair), else those that start at the difference.
  // When both hold the same lone high surrogate there, the next code points start at the difference.
  if (i > 0 && (a.charCodeAt(i - 1) & 0xfc00) === 0xd800) {
    const order = (a.codePointAt(i - 1) ?? 0) - (b.codePointAt(i - 1) ?? 0);
    if (order !== 0) return order;
  }
  return (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0);
}

/** The serialiser's state: the text so far, the containers being written, and the keys to here. */
interface Writer {
  /** The text in pieces, joined once at the end. */
  readonly out: string[];
  /**
   * The containers from the root to here (pushed and popped). A cycle nests without end, so it always
   * reaches the depth limit; only then is this list searched for the first repeated container.
   */
  readonly ancestors: object[];
  /** Keys and indexes from the root to the value being written; turned into a path only on an error. */
  readonly path: (string | number)[];
}

function pathOf(state: Writer, length = state.path.length): string {
  let path = '$';
  for (let i = 0; i < length; i++) {
    const segment = state.path[i] as string | number;
    path += typeof segment === 'number' ? `[${segment}]` : /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  }
  return path;
}

function reject(state: Writer, value: unknown, why: string, pathLength?: number): never {
  throw new SubnetError(CANONICAL_JSON_UNSUPPORTED, `canonical JSON cannot hold ${why}`, {
    context: { path: pathOf(state, pathLength), value },
  });
}

/** At the depth limit: a cycle (reported where a container first repeats), or a value simply too deep. */
function tooDeep(state: Writer, value: object): never {
  const chain = [...state.ancestors, value];
  for (let j = 1; j < chain.length; j++) if (chain.indexOf(chain[j] as object) < j) reject(state, '[cycle]', 'a cycle', j);
  throw new SubnetError(CANONICAL_JSON_TOO_DEEP, `canonical JSON nests at most ${CANONICAL_JSON_MAX_DEPTH} levels`, {
    context: { path: pathOf(state), value: Array.isArray(value) ? '[array]' : '[object]', limit: CANONICAL_JSON_MAX_DEPTH },
  });
}

function write(state: Writer, value: unknown, depth: number): void {
  switch (typeof value) {
    case 'string':
      state.out.push(JSON.stringify(value));
      return;
    case 'boolean':
      state.out.push(value ? 'true' : 'false');
      return;
    case 'bigint':
      state.out.push(`"${value.toString()}"`);
      return;
    case 'number':
      if (!Number.isFinite(value)) reject(state, value, 'a non-finite number');
      if (Number.isInteger(value) && Math.abs(value) > TWO_POW_53) state.out.push(`"${BigInt(value).toString()}"`);
      else state.out.push(String(value)); // a finite double as JSON writes it (-0 as 0)
      return;
    case 'undefined':
      reject(state, value, 'undefined');
      break;
    case 'function':
      reject(state, value, 'a function');
      break;
    case 'symbol':
      reject(state, value, 'a symbol');
      break;
    case 'object': {
      if (value === null) {
        state.out.push('null');
        return;
      }
      if (depth >= CANONICAL_JSON_MAX_DEPTH) tooDeep(state, value);
      state.ancestors.push(value);
      if (Array.isArray(value)) writeArray(state, value, depth + 1);
      else writeObject(state, value, depth + 1);
      state.ancestors.pop();
      return;
    }
  }
}

function writeArray(state: Writer, value: readonly unknown[], depth: number): void {
  state.out.push('[');
  const path = state.path;
  for (let i = 0; i < value.length; i++) {
    if (i > 0) state.out.push(',');
    path.push(i);
    if (!(i in value)) reject(state, undefined, 'an array hole');
    write(state, value[i], depth);
    path.pop();
  }
  state.out.push(']');
}

/** Whether every key is below U+D800, where code unit order (the default sort) is code point order. */
function allBelowSurrogates(keys: readonly string[]): boolean {
  for (const key of keys) {
    for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) >= 0xd800) return false;
  }
  return true;
}

function writeObject(state: Writer, value: object, depth: number): void {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
    reject(state, `[${name}]`, `an instance of ${name} (only plain objects)`);
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (allBelowSurrogates(keys)) keys.sort();
  else keys.sort(compareCodePoints);
  state.out.push('{');
  const path = state.path;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (i > 0) state.out.push(',');
    state.out.push(JSON.stringify(key));
    state.out.push(':');
    path.push(key);
    write(state, record[key], depth);
    path.pop();
  }
  state.out.push('}');
}
