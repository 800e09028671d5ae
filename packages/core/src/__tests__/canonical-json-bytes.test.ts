import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { canonicalJson, canonicalJsonBytes, CORE_ERROR_CODES } from '../index.js';
import { hostileValue as hostileValueOf, plainSizes } from './hostile-json.js';

/** The straightforward form: the canonical text, encoded as UTF-8. */
function plainBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalJson(value));
}

const hostileValue = hostileValueOf({ bigints: true });

describe('canonicalJsonBytes', () => {
  it('writes the UTF-8 bytes of canonicalJson and the sizes a plain walk finds, for hostile values', () => {
    fc.assert(
      fc.property(hostileValue, (value) => {
        const { bytes, ...sizes } = canonicalJsonBytes(value);
        expect(bytes).toEqual(plainBytes(value));
        expect(sizes).toEqual(plainSizes(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('writes the same bytes into one reused scratch array, value after value, growing it when they do not fit', () => {
    let scratch: Uint8Array = new Uint8Array(16);
    fc.assert(
      fc.property(hostileValue, (value) => {
        const { bytes } = canonicalJsonBytes(value, scratch);
        expect(bytes).toEqual(plainBytes(value));
        // Into the scratch, or (when its worst-case room did not fit) into a new, larger array.
        if (bytes.buffer !== scratch.buffer) expect(bytes.buffer.byteLength).toBeGreaterThan(scratch.byteLength);
        scratch = new Uint8Array(bytes.buffer);
      }),
      { numRuns: 1000 },
    );
    const small = new Uint8Array(32);
    expect(canonicalJsonBytes({ b: [1, -2.5, 'x'], a: null }, small).bytes.buffer).toBe(small.buffer);
  });

  it('keeps __proto__ keys, -0, 1e21, integers beyond 2^53, bigints and lone surrogates as canonicalJson does', () => {
    const value = JSON.parse('{"__proto__":{"b":-0,"a":1e21},"x":["\\ud800","\\udc00\\ud800","\ud83d\ude00"]}') as unknown;
    const nulls = Object.assign(Object.create(null) as object, { z: 2 ** 60, y: 10n ** 30n, x: -(2 ** 31) });
    for (const v of [value, nulls, -0, 1e21, 2 ** 53 + 2, [0.1, -1.5e-7, 123456.789]]) {
      expect(new TextDecoder().decode(canonicalJsonBytes(v).bytes)).toBe(canonicalJson(v));
    }
    expect(canonicalJsonBytes(value).loneSurrogate).toBe(true);
    expect(canonicalJsonBytes({ a: '\ud83d\ude00' }).loneSurrogate).toBe(false);
    expect(canonicalJsonBytes({ ['\udc00']: 1 }).loneSurrogate).toBe(true);
  });

  it('writes huge strings, ASCII or not, and reports their length', () => {
    const ascii = 'a'.repeat(1 << 20);
    const wide = `${'\u00e9'.repeat(1 << 19)}\ud83d\ude00"\n`;
    for (const s of [ascii, wide]) {
      const { bytes, longestString } = canonicalJsonBytes([s], new Uint8Array(64));
      const plain = plainBytes([s]);
      // Compared in one pass (toEqual walks a megabyte element by element for seconds).
      expect(bytes.length).toBe(plain.length);
      expect(bytes.findIndex((b, i) => b !== plain[i])).toBe(-1);
      expect(longestString).toBe(s.length);
    }
  });

  it('writes 128 nested containers and refuses 129 with the coded error canonicalJson raises', () => {
    let ok: unknown = 1;
    for (let i = 0; i < 128; i++) ok = i % 2 === 0 ? [ok] : { k: ok };
    const written = canonicalJsonBytes(ok);
    expect(written.bytes).toEqual(plainBytes(ok));
    expect(written.depth).toBe(128);
    expect(() => canonicalJsonBytes([ok])).toThrow(expect.objectContaining({ code: CORE_ERROR_CODES.canonicalJsonTooDeep }));
  });

  it('refuses what canonicalJson refuses, with the same code and message naming the path', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    const bad: unknown[] = [{ a: [1, NaN] }, { a: Infinity }, [undefined], { f: () => 1 }, [Symbol('s')], { d: new Date(0) }, { m: new Map() }, cycle];
    // eslint-disable-next-line no-sparse-arrays -- a hole is what it refuses
    bad.push([1, , 2]);
    for (const value of bad) {
      let expected: unknown;
      try {
        canonicalJson(value);
      } catch (error) {
        expected = error;
      }
      expect(expected).toBeDefined();
      expect(() => canonicalJsonBytes(value)).toThrow(
        expect.objectContaining({ code: (expected as { code: string }).code, message: (expected as Error).message }),
      );
    }
  });

  it('sorts every object of a list that cycles through more key orders than the shape memo holds', () => {
    // Seven shapes at one depth, some the same keys in another order, some other keys of the same count: each
    // object is written with its own keys sorted, whichever shapes came before it (the memo keeps a few per depth).
    const orders = [['b', 'a'], ['a', 'b'], ['c', 'b', 'a'], ['z'], ['y', 'x'], ['a', 'c', 'b'], ['b', 'c', 'a', 'd']];
    const list = Array.from({ length: 60 }, (_, i) => Object.fromEntries((orders[(i * 3) % orders.length] ?? []).map((k, j) => [k, i * 10 + j])));
    const expected = `[${list
      .map(
        (o) =>
          `{${Object.keys(o)
            .sort()
            .map((k) => `"${k}":${String(o[k])}`)
            .join(',')}}`,
      )
      .join(',')}]`;
    expect(canonicalJson(list)).toBe(expected);
    expect(new TextDecoder().decode(canonicalJsonBytes(list).bytes)).toBe(expected);
  });

  it('writes right when an accessor property serialises another value while it is written', () => {
    const inner = { b: ['\u00e9', 2.5], a: 'x' };
    const value = {
      z: 1,
      get y(): string {
        return new TextDecoder().decode(canonicalJsonBytes(inner).bytes);
      },
      x: 'tail',
    };
    expect(canonicalJsonBytes(value, new Uint8Array(8)).bytes).toEqual(plainBytes(value));
  });
});
