import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { encodeSs58 } from '@subnet/core';

import { epochSchema, metagraphSchema, stakesSchema } from '../compute-epoch.js';
import { fastMetagraph, fastStakes } from '../fast-validator-set.js';

/**
 * The hand-read validator set and metagraph (`fast-validator-set.ts`) against the schemas they stand in
 * for: they may only accept what the schema accepts, with its output (same keys in the same order, same
 * order of entries, -0 kept), and must accept valid input.
 */
const hotkeys = [5, 1, 4, 2, 3].map((i) => encodeSs58(new Uint8Array(32).fill(i)));
const badHotkey = `${(hotkeys[0] as string).slice(0, -1)}x`;

function withKeyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withKeyOrder);
  if (typeof value === 'object' && value !== null) return Object.entries(value).map(([k, v]) => [k, withKeyOrder(v)]);
  // -0 apart from 0.
  return Object.is(value, -0) ? '-0' : value;
}

function agrees(fast: (v: unknown) => unknown, schema: { safeParse(v: unknown): { success: boolean; data?: unknown } }, input: unknown): boolean {
  const accepted = fast(input);
  const reference = schema.safeParse(input);
  if (accepted === undefined) return false;
  expect(reference.success, `accepted what the schema refuses: ${JSON.stringify(input)}`).toBe(true);
  expect(withKeyOrder(accepted)).toEqual(withKeyOrder(reference.data));
  return true;
}

const hostile: unknown[] = [
  undefined,
  null,
  -0,
  0,
  -1,
  1.5,
  65535,
  65536,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  '0',
  '01',
  '12',
  '1e3',
  'x',
  true,
  [],
  {},
  5n,
  badHotkey,
  '__proto__',
  Object.create(null),
];

const stakes = (): Record<string, unknown>[] =>
  hotkeys.slice(0, 3).map((validator_hotkey, i) => ({ validator_hotkey, stake: i === 1 ? '2500000000000' : 4 + i }));
const metagraph = (): Record<string, unknown>[] => hotkeys.map((hotkey, uid) => ({ hotkey, uid: uid * 7 }));

describe('fastStakes and fastMetagraph agree with the schemas', () => {
  it('read valid input as the schemas do (sorted by hotkey), sorted or not', () => {
    expect(agrees(fastStakes, stakesSchema, stakes())).toBe(true);
    expect(agrees(fastStakes, stakesSchema, [])).toBe(true);
    expect(agrees(fastMetagraph, metagraphSchema, metagraph())).toBe(true);
    expect(
      agrees(
        fastMetagraph,
        metagraphSchema,
        [...metagraph()].sort((a, b) => ((a.hotkey as string) < (b.hotkey as string) ? -1 : 1)),
      ),
    ).toBe(true);
    expect(agrees(fastStakes, stakesSchema, [{ validator_hotkey: hotkeys[0], stake: -0 }])).toBe(true);
  });

  it('decline each field replaced by a hostile value unless the schema accepts it, and duplicates, extra keys, __proto__ keys, non-plain objects', () => {
    for (const v of hostile) {
      const cases: [typeof fastStakes | typeof fastMetagraph, typeof stakesSchema | typeof metagraphSchema, unknown][] = [];
      const s1 = stakes();
      s1[1] = { validator_hotkey: hotkeys[1], stake: v };
      const s2 = stakes();
      s2[1] = { validator_hotkey: v, stake: 1 };
      const m1 = metagraph();
      m1[2] = { hotkey: hotkeys[2], uid: v };
      const m2 = metagraph();
      m2[2] = { hotkey: v, uid: 3 };
      cases.push([fastStakes, stakesSchema, s1], [fastStakes, stakesSchema, s2], [fastStakes, stakesSchema, v]);
      cases.push([fastMetagraph, metagraphSchema, m1], [fastMetagraph, metagraphSchema, m2], [fastMetagraph, metagraphSchema, v]);
      for (const [fast, schema, input] of cases) agrees(fast, schema, input);
    }
    const duplicateHotkey = metagraph();
    duplicateHotkey[1] = { hotkey: hotkeys[0], uid: 99 };
    const duplicateUid = metagraph();
    duplicateUid[1] = { hotkey: hotkeys[1], uid: 0 };
    const duplicateValidator = stakes();
    duplicateValidator[2] = { validator_hotkey: hotkeys[0], stake: 1 };
    for (const input of [duplicateHotkey, duplicateUid]) expect(agrees(fastMetagraph, metagraphSchema, input)).toBe(false);
    expect(agrees(fastStakes, stakesSchema, duplicateValidator)).toBe(false);
    expect(agrees(fastMetagraph, metagraphSchema, [{ hotkey: hotkeys[0], uid: 1, extra: 1 }])).toBe(false);
    expect(agrees(fastMetagraph, metagraphSchema, JSON.parse(`[{"__proto__":1,"hotkey":"${hotkeys[0]}","uid":1}]`))).toBe(false);
    expect(agrees(fastStakes, stakesSchema, [Object.assign(Object.create(null), { validator_hotkey: hotkeys[0], stake: 1 })])).toBe(false);
    expect(
      agrees(
        fastMetagraph,
        metagraphSchema,
        Array.from({ length: 65537 }, (_, uid) => ({ hotkey: hotkeys[0], uid })),
      ),
    ).toBe(false);
  });

  it('agree on generated lists (fast-check)', () => {
    const entry = fc.record({
      hotkey: fc.constantFrom<unknown>(...hotkeys, badHotkey, 7),
      uid: fc.oneof(fc.integer({ min: -1, max: 8 }), fc.constantFrom(...hostile)),
    });
    const stake = fc.record({
      validator_hotkey: fc.constantFrom<unknown>(...hotkeys, badHotkey),
      stake: fc.oneof(fc.double(), fc.constantFrom(...hostile), fc.nat().map(String)),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), fc.array(stake, { maxLength: 4 }), (m, s) => {
        agrees(fastMetagraph, metagraphSchema, m);
        agrees(fastStakes, stakesSchema, s);
      }),
      { numRuns: 1000 },
    );
  });

  it('the epoch read by hand is what the epoch schema accepts', () => {
    for (const v of [...hostile, 7, 2 ** 53 - 1, 2 ** 53]) {
      const byHand = Number.isSafeInteger(v) && (v as number) >= 0;
      expect(byHand).toBe(epochSchema.safeParse(v).success);
    }
  });
});
