import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declareRuntime, encodeRuntimeMetadata } from '../metadata/build-metadata.js';
import { createTypeBuilder } from '../metadata/type-builder.js';

describe('type builder', () => {
  it('assigns ids in declaration order starting at 0', () => {
    const b = createTypeBuilder();
    const u8 = b.primitive('U8');
    const u16 = b.primitive('U16');
    const vec = b.sequence(u16);
    expect([u8, u16, vec]).toEqual([0, 1, 2]);
    expect(b.types().map((t) => t.id)).toEqual([0, 1, 2]);
    expect(b.types()[2]?.type.def).toEqual({ sequence: { type: 1 } });
  });

  it('returns the existing id for a structurally identical declaration (dedup, as scale-info)', () => {
    const b = createTypeBuilder();
    const u16 = b.primitive('U16');
    expect(b.sequence(u16)).toBe(b.sequence(u16));
    expect(b.composite(['a', 'B'], [['x', u16]])).toBe(b.composite(['a', 'B'], [['x', u16]]));
    expect(b.composite(['a', 'B'], [['x', u16]])).not.toBe(b.composite(['a', 'C'], [['x', u16]]));
    expect(b.option(u16)).toBe(b.option(u16));
    expect(b.types().length).toBe(5);
  });

  it('rejects a reference to an id that was not declared yet', () => {
    const b = createTypeBuilder();
    expect(() => b.sequence(0)).toThrow(/undeclared type id 0/);
    const u8 = b.primitive('U8');
    expect(() => b.composite(['p', 'Q'], [['f', u8 + 1]])).toThrow(/undeclared type id 1 in p::Q/);
  });

  it('rejects duplicate or out-of-range variant indices', () => {
    const b = createTypeBuilder();
    expect(() =>
      b.variant(
        ['E'],
        [
          [0, 'A'],
          [0, 'B'],
        ],
      ),
    ).toThrow(/duplicate index 0/);
    expect(() => b.variant(['E'], [[256, 'A']])).toThrow(/invalid or duplicate index 256/);
  });

  it('option and result follow scale-info: None = 0 / Some = 1, Ok = 0 / Err = 1', () => {
    const b = createTypeBuilder();
    const u8 = b.primitive('U8');
    const unit = b.tuple();
    const opt = b.types()[b.option(u8)]!.type;
    const res = b.types()[b.result(unit, u8)]!.type;
    expect(opt.path).toEqual(['Option']);
    expect('variant' in opt.def && opt.def.variant.variants.map((v) => [v.index, v.name])).toEqual([
      [0, 'None'],
      [1, 'Some'],
    ]);
    expect('variant' in res.def && res.def.variant.variants.map((v) => [v.index, v.name])).toEqual([
      [0, 'Ok'],
      [1, 'Err'],
    ]);
  });

  it('property: any sequence of declarations, replayed, yields the same ids and no duplicate entries', () => {
    type Op =
      | { kind: 'seq'; of: number }
      | { kind: 'compact'; of: number }
      | { kind: 'opt'; of: number }
      | { kind: 'tuple'; of: number[] }
      | { kind: 'struct'; name: string; of: number };
    const op = fc.oneof(
      fc.record({ kind: fc.constant('seq' as const), of: fc.nat() }),
      fc.record({ kind: fc.constant('compact' as const), of: fc.nat() }),
      fc.record({ kind: fc.constant('opt' as const), of: fc.nat() }),
      fc.record({ kind: fc.constant('tuple' as const), of: fc.array(fc.nat(), { maxLength: 3 }) }),
      fc.record({ kind: fc.constant('struct' as const), name: fc.constantFrom('A', 'B', 'C'), of: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops: Op[]) => {
        const run = () => {
          const b = createTypeBuilder();
          const ids = [b.primitive('U8'), b.primitive('U64')];
          for (const o of ops) {
            const pick = (n: number) => ids[n % ids.length]!;
            switch (o.kind) {
              case 'seq':
                ids.push(b.sequence(pick(o.of)));
                break;
              case 'compact':
                ids.push(b.compact(pick(o.of)));
                break;
              case 'opt':
                ids.push(b.option(pick(o.of)));
                break;
              case 'tuple':
                ids.push(b.tuple(...o.of.map(pick)));
                break;
              case 'struct':
                ids.push(b.composite(['m', o.name], [['f', pick(o.of)]]));
                break;
            }
          }
          return { ids, types: b.types() };
        };
        const a = run();
        const b = run();
        expect(b.ids).toEqual(a.ids);
        const keys = a.types.map((t) => JSON.stringify([t.type.path, t.type.params, t.type.def]));
        expect(new Set(keys).size).toBe(keys.length);
        a.types.forEach((t, i) => {
          expect(t.id).toBe(i);
        });
      }),
      { numRuns: 100 },
    );
  });
});

describe('declareRuntime', () => {
  it('is deterministic: two declarations encode to identical metadata', () => {
    expect(Buffer.from(encodeRuntimeMetadata(declareRuntime())).equals(Buffer.from(encodeRuntimeMetadata(declareRuntime())))).toBe(true);
  });
});
