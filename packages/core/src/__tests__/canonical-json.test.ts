import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { canonicalJson, compareCodePoints, digest, isSubnetError } from '../index.js';

// Expected digests were computed outside this code (Python hashlib over the expected text).
const golden: { name: string; value: unknown; json: string; sha256: string }[] = [
  { name: 'empty object', value: {}, json: '{}', sha256: '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a' },
  {
    name: 'keys sorted, arrays kept in order',
    value: { b: 1, a: [true, null, 'x'] },
    json: '{"a":[true,null,"x"],"b":1}',
    sha256: '54a65415ad370228851a1da4b31b6fd42dc58b19a50d35cae759325f7388ce64',
  },
  {
    name: 'numbers: shortest round trip, -0 as 0, integers beyond 2^53 as decimal strings',
    value: [0, -0, 1.5, 1e21, -1e21, 1e-7, 0.1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53 - 1), 1.5e-300],
    json: '[0,0,1.5,"1000000000000000000000","-1000000000000000000000",1e-7,0.1,9007199254740992,"9007199254740994",-9007199254740991,1.5e-300]',
    sha256: 'c0c4ef785a0008380cc20aac30ee945821a0bb19cf6ca519429f412f3079e014',
  },
  {
    name: 'bigint as decimal strings',
    value: { stake: 18446744073709551615n, rao: 5n },
    json: '{"rao":"5","stake":"18446744073709551615"}',
    sha256: 'b7fe91c20e4716926e88af774a457ef7a9628832d8a021c16c590295a6018076',
  },
  {
    name: 'keys sorted by code point, not UTF-16 unit (U+FFFF before U+1F600)',
    value: { '\u{1F600}': 5, '\uFFFF': 4, é: 3, a: 2, B: 1 },
    json: '{"B":1,"a":2,"é":3,"\uFFFF":4,"\u{1F600}":5}',
    sha256: 'f691876a6864388c5375fc9a015ed20edd69a3f378e020c9c5f79c92e1dd457d',
  },
  {
    name: 'strings escaped as JSON does',
    value: { s: 'line\nbreak "q" \\ \u0001' },
    json: '{"s":"line\\nbreak \\"q\\" \\\\ \\u0001"}',
    sha256: '2e17dca30d52c350721b3f80b414a72fc073f043658cbb9ba80539d1e202cd77',
  },
  {
    name: 'nested objects sorted at every depth',
    value: { z: { y: [{ b: 2, a: 1 }] } },
    json: '{"z":{"y":[{"a":1,"b":2}]}}',
    sha256: 'b25fb5eb8665f895081b32139d8c242999ed1a03be0cd558d4417e085379c99b',
  },
];

describe('canonicalJson and digest: golden vectors (SPEC 0)', () => {
  for (const vector of golden) {
    it(vector.name, () => {
      expect(canonicalJson(vector.value)).toBe(vector.json);
      expect(digest(vector.value)).toBe(vector.sha256);
    });
  }
});

describe('canonicalJson rejects what JSON cannot hold, naming the path', () => {
  const cases: { name: string; value: unknown; path: string }[] = [
    { name: 'NaN', value: { a: [1, Number.NaN] }, path: '$.a[1]' },
    { name: 'Infinity', value: { score: Number.POSITIVE_INFINITY }, path: '$.score' },
    { name: '-Infinity', value: [Number.NEGATIVE_INFINITY], path: '$[0]' },
    { name: 'undefined property', value: { a: { b: undefined } }, path: '$.a.b' },
    { name: 'array hole', value: [1, , 3], path: '$[1]' }, // eslint-disable-line no-sparse-arrays
    { name: 'function', value: { f: () => 1 }, path: '$.f' },
    { name: 'symbol', value: { s: Symbol('x') }, path: '$.s' },
    { name: 'Date instance', value: { when: new Date(0) }, path: '$.when' },
    { name: 'Map instance', value: { m: new Map() }, path: '$.m' },
    { name: 'key that is not an identifier', value: { 'a b': Number.NaN }, path: '$["a b"]' },
  ];
  for (const c of cases) {
    it(`rejects ${c.name} at ${c.path}`, () => {
      let caught: unknown;
      try {
        canonicalJson(c.value);
      } catch (error) {
        caught = error;
      }
      expect(isSubnetError(caught, 'CORE_CANONICAL_JSON_UNSUPPORTED_VALUE')).toBe(true);
      expect((caught as Error).message).toContain(c.path);
    });
  }
  it('rejects a cycle instead of looping forever', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => canonicalJson(a)).toThrow(/cycle.*\$\.self/);
  });
  it('reports a cycle where a container first repeats, however deep the loop', () => {
    const outer: Record<string, unknown> = {};
    const inner = { b: [outer] };
    outer.a = inner;
    try {
      canonicalJson({ root: outer });
      expect.unreachable();
    } catch (error) {
      expect(isSubnetError(error, 'CORE_CANONICAL_JSON_UNSUPPORTED_VALUE')).toBe(true);
      expect((error as { context: { path: string } }).context.path).toBe('$.root.a.b[0]');
    }
  });
  it('accepts the same object twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
  it('accepts objects with a null prototype', () => {
    const bare = Object.create(null) as Record<string, number>;
    bare.b = 2;
    bare.a = 1;
    expect(canonicalJson(bare)).toBe('{"a":1,"b":2}');
  });
});

function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => shuffleKeys(v, seed + i));
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    // deterministic rotation + reversal driven by the seed: a different insertion order
    const k = entries.length === 0 ? 0 : seed % entries.length;
    const reordered = [...entries.slice(k), ...entries.slice(0, k)];
    if (seed % 2 === 1) reordered.reverse();
    return Object.fromEntries(reordered.map(([key, v], i) => [key, shuffleKeys(v, seed + i)]));
  }
  return value;
}

describe('canonicalJson properties', () => {
  it('key insertion order never changes the digest', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.nat(1000), (value, seed) => {
        expect(digest(shuffleKeys(value, seed))).toBe(digest(value));
      }),
    );
  });

  it('writes every string as JSON.stringify does: quotes, backslashes, controls and lone surrogates escaped, the rest as itself', () => {
    const hostile = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom('"', '\\', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', '\udfff', '\ud83d\ude00', 'a\ud800b'),
    );
    fc.assert(
      fc.property(fc.array(hostile, { maxLength: 4 }), (strings) => {
        for (const s of strings) expect(canonicalJson(s)).toBe(JSON.stringify(s));
        expect(canonicalJson(strings)).toBe(JSON.stringify(strings));
      }),
      { numRuns: 2000 },
    );
  });

  it('changing any one value changes the digest', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.integer(), fc.string(), fc.boolean()), { minKeys: 1 }), fc.nat(), (record, pick) => {
        const keys = Object.keys(record);
        const key = keys[pick % keys.length]!;
        const old = record[key];
        const changed = typeof old === 'number' ? old + 1 : typeof old === 'string' ? `${old}!` : !(old as boolean);
        expect(digest({ ...record, [key]: changed })).not.toBe(digest(record));
      }),
    );
  });

  it('is idempotent through JSON.parse (canonical text is a fixed point)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });

  it('orders keys exactly as a code-point sort of Array.from(key)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' })), (keys) => {
        const reference = [...keys].sort((a, b) => {
          const x = Array.from(a, (c) => c.codePointAt(0)!);
          const y = Array.from(b, (c) => c.codePointAt(0)!);
          for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
          return x.length - y.length;
        });
        expect([...keys].sort(compareCodePoints)).toEqual(reference);
      }),
    );
  });
});

describe('canonicalJson on runs of records (the per-depth shape memo)', () => {
  /** An independent writer for ASCII keys: JSON.stringify of a copy whose keys were inserted sorted. */
  function reference(value: unknown): string {
    const sortDeep = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(sortDeep);
      if (typeof v === 'object' && v !== null) {
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(v).sort()) Object.defineProperty(out, key, { value: sortDeep((v as Record<string, unknown>)[key]), enumerable: true });
        return out;
      }
      return v;
    };
    return JSON.stringify(sortDeep(value));
  }
  // Few key names, so neighbouring records often share a shape, differ by one key, or list the same keys in another order.
  const key = fc.constantFrom('a', 'b', 'c', 'ab', 'B', '_', 'x1', 'stake', 'score');
  const leaf = fc.oneof(fc.integer(), fc.constantFrom('s', ''), fc.boolean(), fc.constant(null));
  const record = fc.letrec<{ rec: Record<string, unknown> }>((tie) => ({
    rec: fc.dictionary(key, fc.oneof({ depthSize: 'small' }, leaf, tie('rec'), fc.array(tie('rec'), { maxLength: 3 })), { maxKeys: 5 }),
  })).rec;

  it('writes every record of an array as if it were alone, whatever shapes came before it', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), (records) => {
        expect(canonicalJson(records)).toBe(reference(records));
        for (const r of records) expect(canonicalJson(r)).toBe(reference(r));
      }),
      { numRuns: 400 },
    );
  });

  it('does not reuse a shape for the same keys in another order or for other keys of the same count', () => {
    expect(
      canonicalJson([
        { b: 1, a: 2 },
        { a: 3, b: 4 },
        { a: 5, c: 6 },
        { c: 7, a: 8 },
      ]),
    ).toBe('[{"a":2,"b":1},{"a":3,"b":4},{"a":5,"c":6},{"a":8,"c":7}]');
  });
});
