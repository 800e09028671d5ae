import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { toPy } from '../py-convert.js';
import type { PyType } from '../py-value.js';
import { PY_NONE } from '../py-value.js';
import { parseSynapseHeaders } from '../synapse-headers.js';

/** How JS values become the Python values of a declared type, and what header integers and floats read as. */

/** The error `toPy` throws, as `{ code, path, value }`; fails the test when it does not throw. */
function refusal(value: unknown, type: PyType): { code: string; path: unknown; message: string } {
  try {
    toPy(value, type, 'synapse.field');
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    return { code: error.code, path: error.context['path'], message: error.message };
  }
  throw new Error(`toPy accepted ${String(value)}`);
}

describe('toPy under `any`: each JS value as the Python value it stands for', () => {
  it('bigint and safe integers are int; other numbers float (1e300 and 2 ** 53 were 301- and 16-digit ints)', () => {
    expect(toPy(12n, 'any', 'p')).toEqual({ t: 'int', v: 12n });
    expect(toPy(-7, 'any', 'p')).toEqual({ t: 'int', v: -7n });
    expect(toPy(Number.MAX_SAFE_INTEGER, 'any', 'p')).toEqual({ t: 'int', v: BigInt(Number.MAX_SAFE_INTEGER) });
    expect(toPy(0.5, 'any', 'p')).toEqual({ t: 'float', v: 0.5 });
    expect(toPy(2 ** 53, 'any', 'p')).toEqual({ t: 'float', v: 2 ** 53 });
    expect(toPy(1e300, 'any', 'p')).toEqual({ t: 'float', v: 1e300 });
    expect(toPy(Infinity, 'any', 'p')).toEqual({ t: 'float', v: Infinity });
  });

  it('strings, booleans, null and undefined, lists, plain objects (`__proto__` a key like any other) and Maps', () => {
    expect(toPy('x', 'any', 'p')).toEqual({ t: 'str', v: 'x' });
    expect(toPy(false, 'any', 'p')).toEqual({ t: 'bool', v: false });
    expect(toPy(null, 'any', 'p')).toBe(PY_NONE);
    expect(toPy(undefined, 'any', 'p')).toBe(PY_NONE);
    expect(toPy([1, 'a'], 'any', 'p')).toEqual({
      t: 'list',
      v: [
        { t: 'int', v: 1n },
        { t: 'str', v: 'a' },
      ],
    });
    expect(toPy(JSON.parse('{"__proto__": 1, "b": 0.5}'), 'any', 'p')).toEqual({
      t: 'dict',
      v: new Map<string, unknown>([
        ['__proto__', { t: 'int', v: 1n }],
        ['b', { t: 'float', v: 0.5 }],
      ]),
    });
    expect(toPy(new Map([[3, 'three']]), 'any', 'p')).toEqual({ t: 'dict', v: new Map([['3', { t: 'str', v: 'three' }]]) });
  });

  it('a value with no Python counterpart is AXON_INVALID_VALUE naming its path (it was an empty dict, or a dict of indices)', () => {
    class Point {
      x = 1;
    }
    for (const value of [() => 1, Symbol('s'), new Date(0), new Set([1]), new Uint8Array([7]), new Point()]) {
      expect(refusal(value, 'any')).toMatchObject({ code: 'AXON_INVALID_VALUE', path: 'synapse.field' });
    }
    expect(refusal([1, () => 1], 'any')).toMatchObject({ code: 'AXON_INVALID_VALUE', path: 'synapse.field[1]' });
    expect(refusal({ a: { b: new Date(0) } }, 'any')).toMatchObject({ code: 'AXON_INVALID_VALUE', path: 'synapse.field.a.b' });
  });
});

describe('toPy of a declared dict or model: only a plain object or a Map', () => {
  it('a string, a number or a list for a dict is refused (each was an empty dict)', () => {
    for (const value of ['x', 5, [1, 2]]) {
      const refused = refusal(value, { dict: 'int' });
      expect(refused).toMatchObject({ code: 'AXON_INVALID_VALUE', path: 'synapse.field' });
      expect(refused.message).toContain('expected a plain object or Map');
    }
  });

  it('a number for a model is refused as not an object, not as its first field missing', () => {
    const refused = refusal(5, { model: [['a', 'str']] });
    expect(refused).toMatchObject({ code: 'AXON_INVALID_VALUE', path: 'synapse.field' });
    expect(refused.message).toContain('expected a plain object or Map');
  });
});

describe('parseSynapseHeaders: integers, floats and the timeout', () => {
  it('the nonce stays a bigint beyond 2^53; other integers are numbers, within ±(2^53 - 1)', () => {
    const parsed = parseSynapseHeaders({
      bt_header_dendrite_nonce: '1800000000000000000123',
      bt_header_dendrite_version: '10002000',
      bt_header_axon_port: String(Number.MIN_SAFE_INTEGER),
    });
    expect(parsed.dendrite.nonce).toBe(1800000000000000000123n);
    expect(parsed.dendrite.version).toBe(10002000);
    expect(parsed.axon.port).toBe(Number.MIN_SAFE_INTEGER);
    expect(() => parseSynapseHeaders({ bt_header_axon_port: String(BigInt(Number.MIN_SAFE_INTEGER) - 1n) })).toThrow(/integer out of range/);
    expect(() => parseSynapseHeaders({ bt_header_axon_port: String(BigInt(Number.MAX_SAFE_INTEGER) + 1n) })).toThrow(/integer out of range/);
  });

  it('timeout: read as Python float() reads it, null when absent', () => {
    expect(parseSynapseHeaders({ timeout: '12.5' }).timeout).toBe(12.5);
    expect(parseSynapseHeaders({ timeout: ' inf' }).timeout).toBe(Infinity);
    expect(parseSynapseHeaders({}).timeout).toBeNull();
    expect(() => parseSynapseHeaders({ timeout: 'soon' })).toThrow(/not a float/);
  });
});
