import { CANONICAL_JSON_MAX_DEPTH, canonicalJson, shapeOf } from './canonical-json.js';
import type { Shape } from './canonical-json.js';
import type { CanonicalJsonTextShape } from './canonical-json-text.js';
import { findLoneSurrogate } from './text.js';

/** A value's canonical JSON as UTF-8 bytes, with the sizes `checkInputShape` limits (see {@link canonicalJsonBytes}). */
export interface CanonicalJsonBytes extends CanonicalJsonTextShape {
  /** The UTF-8 bytes of `canonicalJson(value)`: a view of the scratch array given, or of a new one when it was too small. */
  readonly bytes: Uint8Array;
}

/** 2^53: integers whose magnitude exceeds it are written as decimal strings (SPEC 0). */
const TWO_POW_53 = 2 ** 53;

/** Thrown inside the writer for anything canonical JSON does not hold; never escapes {@link canonicalJsonBytes}. */
const UNSUPPORTED = new Error('canonical JSON bytes: unsupported value');

const encoder = new TextEncoder();

/** An object shape's heads (`{"a":`, `,"b":`, ...) as UTF-8, and the sizes of its keys. */
interface ShapeBytes {
  readonly heads: readonly Uint8Array[];
  readonly longestKey: number;
  readonly loneSurrogate: boolean;
}

// The writer's state (module level: one write runs at a time; a getter that writes again is sent to canonicalJson).
// One object with fixed fields: its loads and stores compile to plain memory accesses.
interface State {
  out: Uint8Array;
  at: number;
  writing: boolean;
  depthSeen: number;
  longestList: number;
  longestString: number;
  mostKeys: number;
  loneSurrogate: boolean;
}
const w: State = { out: new Uint8Array(0), at: 0, writing: false, depthSeen: 0, longestList: 0, longestString: 0, mostKeys: 0, loneSurrogate: false };

/**
 * Writes the canonical JSON of a value (`canonicalJson`, SPEC 0) straight as UTF-8 bytes, without building the
 * text: exactly the bytes of `new TextEncoder().encode(canonicalJson(value))`, written into `scratch` when they
 * fit (a caller checking many values reuses one array and no large string is allocated), and the sizes
 * `checkInputShape` limits of the value, measured on the way (depth with the outermost container counting 1,
 * longest list, longest string or key in UTF-16 code units, most keys, whether a string or key holds a lone
 * surrogate). It accepts and rejects exactly what `canonicalJson` does, with the same coded errors.
 *
 * @param value - the value to serialise
 * @param scratch - an array to write into (a new one is made when the bytes do not fit)
 * @returns the bytes (a view of `scratch` or of the new array) and the sizes
 * @throws SubnetError `CORE_CANONICAL_JSON_UNSUPPORTED_VALUE` / `CORE_CANONICAL_JSON_TOO_DEEP` as `canonicalJson`
 * @example new TextDecoder().decode(canonicalJsonBytes({ b: 1, a: 'x' }).bytes) // '{"a":"x","b":1}'
 */
export function canonicalJsonBytes(value: unknown, scratch?: Uint8Array): CanonicalJsonBytes {
  // A write from inside a write (an accessor property that serialises): the plain form, which shares no state.
  if (w.writing) return measuredBytes(value);
  w.out = scratch ?? new Uint8Array(1024);
  w.at = 0;
  w.depthSeen = 0;
  w.longestList = 0;
  w.longestString = 0;
  w.mostKeys = 0;
  w.loneSurrogate = false;
  w.writing = true;
  try {
    writeValue(value, 0);
    return Object.freeze({
      bytes: w.out.subarray(0, w.at),
      depth: w.depthSeen,
      longestList: w.longestList,
      longestString: w.longestString,
      mostKeys: w.mostKeys,
      loneSurrogate: w.loneSurrogate,
    });
  } catch (error) {
    if (error !== UNSUPPORTED) throw error;
  } finally {
    w.writing = false;
    w.out = new Uint8Array(0); // holds no caller's array between calls
  }
  // Not serialisable: canonicalJson names the path and value in its coded error.
  return measuredBytes(value);
}

/** The plain form: the text's UTF-8 bytes and the sizes its scan reads off (a canonical text has no duplicate key). */
function measuredBytes(value: unknown): CanonicalJsonBytes {
  const text = canonicalJson(value);
  const sizes = measure(value, 0, { depth: 0, longestList: 0, longestString: 0, mostKeys: 0, loneSurrogate: false });
  return Object.freeze({ bytes: encoder.encode(text), ...sizes });
}

interface Sizes {
  depth: number;
  longestList: number;
  longestString: number;
  mostKeys: number;
  loneSurrogate: boolean;
}

function measure(v: unknown, depth: number, sizes: Sizes): Sizes {
  if (typeof v === 'string') {
    sizes.longestString = Math.max(sizes.longestString, v.length);
    if (findLoneSurrogate(v) >= 0) sizes.loneSurrogate = true;
  } else if (typeof v === 'object' && v !== null) {
    sizes.depth = Math.max(sizes.depth, depth + 1);
    if (Array.isArray(v)) {
      sizes.longestList = Math.max(sizes.longestList, v.length);
      for (const x of v) measure(x, depth + 1, sizes);
    } else {
      const keys = Object.keys(v);
      sizes.mostKeys = Math.max(sizes.mostKeys, keys.length);
      for (const k of keys) {
        measure(k, depth + 1, sizes);
        measure((v as Record<string, unknown>)[k], depth + 1, sizes);
      }
    }
  }
  return sizes;
}

/** Makes room for `n` more bytes. */
function reserve(n: number): void {
  if (w.at + n <= w.out.length) return;
  const next = new Uint8Array(Math.max(w.at + n, w.out.length * 2, 1024));
  next.set(w.out.subarray(0, w.at));
  w.out = next;
}

function writeAscii(text: string): void {
  const n = text.length;
  reserve(n);
  const o = w.out;
  const p = w.at;
  for (let i = 0; i < n; i++) o[p + i] = text.charCodeAt(i);
  w.at = p + n;
}

function writeValue(value: unknown, depth: number): void {
  // Tests of `typeof x === '...'` compile to direct checks (a switch on `typeof` calls the builtin).
  if (typeof value === 'string') writeString(value);
  else if (typeof value === 'number') writeNumber(value);
  else if (typeof value === 'object') {
    if (value === null) {
      writeAscii('null');
      return;
    }
    if (depth >= CANONICAL_JSON_MAX_DEPTH) throw UNSUPPORTED;
    if (depth + 1 > w.depthSeen) w.depthSeen = depth + 1;
    if (Array.isArray(value)) {
      writeArray(value, depth);
      return;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw UNSUPPORTED;
    writeObject(value as Record<string, unknown>, depth);
  } else if (typeof value === 'boolean') writeAscii(value ? 'true' : 'false');
  else if (typeof value === 'bigint') writeAscii(`"${value.toString()}"`);
  else throw UNSUPPORTED;
}

function writeArray(value: readonly unknown[], depth: number): void {
  const n = value.length;
  if (n > w.longestList) w.longestList = n;
  reserve(1);
  w.out[w.at++] = 0x5b; // [
  for (let i = 0; i < n; i++) {
    // A hole reads as undefined (or as what a polluted Array.prototype holds there, which `i in value` would
    // accept too), and writeValue rejects undefined: no separate test for holes is needed.
    if (i > 0) {
      reserve(1);
      w.out[w.at++] = 0x2c; // ,
    }
    writeValue(value[i], depth + 1);
  }
  reserve(1);
  w.out[w.at++] = 0x5d; // ]
}

function writeObject(record: Record<string, unknown>, depth: number): void {
  const keys = Object.keys(record);
  const n = keys.length;
  if (n === 0) {
    writeAscii('{}');
    return;
  }
  if (n > w.mostKeys) w.mostKeys = n;
  const shape = shapeOf(keys, depth);
  const bytes = shapeBytes(shape);
  if (bytes.longestKey > w.longestString) w.longestString = bytes.longestKey;
  if (bytes.loneSurrogate) w.loneSurrogate = true;
  const sorted = shape.sorted;
  const heads = bytes.heads;
  for (let i = 0; i < n; i++) {
    const head = heads[i] as Uint8Array;
    reserve(head.length);
    w.out.set(head, w.at); // one native copy: cheaper than a loop over the head's bytes
    w.at += head.length;
    writeValue(record[sorted[i] as string], depth + 1);
  }
  reserve(1);
  w.out[w.at++] = 0x7d; // }
}

/**
 * Heads already encoded: a value's objects take a few dozen shapes, and the memo of the last shape per depth
 * misses a few hundred times a bundle. Bounded: emptied when full, so it never changes output, only skips work.
 */
const encodedHeads = new Map<string, Uint8Array>();

function headBytes(head: string): Uint8Array {
  let bytes = encodedHeads.get(head);
  if (bytes === undefined) {
    bytes = encoder.encode(head);
    if (encodedHeads.size >= 4096) encodedHeads.clear();
    encodedHeads.set(head, bytes);
  }
  return bytes;
}

/** The shape's heads as UTF-8 (encoded once per shape; the heads are JSON.stringify-quoted, so well-formed). */
function shapeBytes(shape: Shape): ShapeBytes {
  let bytes = shape.bytes as ShapeBytes | undefined;
  if (bytes === undefined) {
    let longestKey = 0;
    let lone = false;
    for (const key of shape.keys) {
      if (key.length > longestKey) longestKey = key.length;
      if (findLoneSurrogate(key) >= 0) lone = true;
    }
    bytes = { heads: shape.heads.map(headBytes), longestKey, loneSurrogate: lone };
    shape.bytes = bytes;
  }
  return bytes;
}

/**
 * A string as `JSON.stringify` writes it, in UTF-8. Printable ASCII other than `"` and `\` is written as
 * itself by both, byte for byte, so such strings are copied; any other string (a quote, a backslash, a
 * control character, anything from U+0080 up) is quoted by `JSON.stringify` itself, whose text then holds no
 * lone surrogate (it writes one as `\udxxx`) and is encoded as UTF-8 exactly as `TextEncoder` would.
 */
function writeString(s: string): void {
  const n = s.length;
  if (n > w.longestString) w.longestString = n;
  reserve(n + 2);
  const o = w.out;
  const start = w.at;
  o[start] = 0x22;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7f) {
      writeQuoted(s);
      return;
    }
    o[start + 1 + i] = c;
  }
  o[start + 1 + n] = 0x22;
  w.at = start + n + 2;
}

function writeQuoted(s: string): void {
  if (findLoneSurrogate(s) >= 0) w.loneSurrogate = true;
  const quoted = JSON.stringify(s);
  // At most 3 UTF-8 bytes per UTF-16 code unit (a pair's 4 bytes are 2 units).
  reserve(quoted.length * 3);
  w.at += encoder.encodeInto(quoted, w.out.subarray(w.at)).written;
}

/** A finite number as canonical JSON writes it: `String(x)` (-0 as `0`), integers beyond 2^53 as quoted decimals. */
function writeNumber(x: number): void {
  if ((x | 0) === x) {
    writeInt32(x);
    return;
  }
  if (!Number.isFinite(x)) throw UNSUPPORTED;
  writeAscii(Number.isInteger(x) && Math.abs(x) > TWO_POW_53 ? `"${BigInt(x).toString()}"` : String(x));
}

/** An int32 in decimal (what `String` writes for it; -0 passes `(x | 0) === x` and is written `0`, as `String(-0)`). */
function writeInt32(x: number): void {
  reserve(11);
  let v = x;
  if (v < 0) {
    w.out[w.at++] = 0x2d; // -
    v = -v; // at most 2^31, exact
  }
  let digits = 1;
  for (let p = 10; p <= v; p *= 10) digits++;
  w.at += digits;
  for (let i = 1; i <= digits; i++) {
    w.out[w.at - i] = 0x30 + (v % 10);
    v = Math.floor(v / 10);
  }
}
