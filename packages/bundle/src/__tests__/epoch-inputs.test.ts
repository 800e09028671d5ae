import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { encodeSs58, isSubnetError } from '@subnet/core';

import { epochInputsSchema, parseEpochInputs } from '../epoch-inputs.js';

/**
 * `parseEpochInputs` reads valid inputs by hand and leaves everything else to `epochInputsSchema`: the
 * value (keys in the same order, records the very objects given, -0 kept) and the coded error must be the
 * schema's either way.
 */
const hotkeys = [1, 2].map((i) => encodeSs58(new Uint8Array(32).fill(i)));

function withKeyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withKeyOrder);
  if (typeof value === 'object' && value !== null) return Object.entries(value).map(([k, v]) => [k, withKeyOrder(v)]);
  return Object.is(value, -0) ? '-0' : value;
}

function outcome(run: () => unknown): unknown {
  try {
    return { value: withKeyOrder(run()) };
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    return { code: error.code, message: error.message };
  }
}

const bySchema = (input: unknown): unknown => {
  const parsed = epochInputsSchema.safeParse(input);
  if (!parsed.success) throw Object.assign(new Error('refused'), { refused: true });
  return parsed.data;
};

const hostile: unknown[] = [undefined, null, -0, 0, 1.5, Number.NaN, '', 'x', true, [], {}, Object.create(null), `${hotkeys[0]?.slice(0, -1)}x`, 2 ** 53];

function inputs(): Record<string, unknown> {
  return {
    term_results: [{ record_id: 'a' }, 7],
    peer_scores: [],
    candidates: [{ hotkey: hotkeys[0], uid: 3 }],
    window_state: { anything: [1, 2] },
    decay_states: [
      { challenge_id: 'term', state: { top_score: 0.5, top_epoch: 4, top_hotkey: hotkeys[1] } },
      { challenge_id: 'x', state: null },
    ],
  };
}

describe('parseEpochInputs', () => {
  it('reads valid inputs as the schema does, keeps each record object, and freezes the result', () => {
    const input = inputs();
    const out = parseEpochInputs(input);
    expect(withKeyOrder(out)).toEqual(withKeyOrder(bySchema(inputs())));
    expect(out.term_results[0]).toBe((input.term_results as unknown[])[0]);
    expect(Object.isFrozen(out.decay_states[0]?.state)).toBe(true);
    expect(withKeyOrder(parseEpochInputs({}))).toEqual(withKeyOrder(bySchema({})));
  });

  it('agrees with the schema on each field replaced by a hostile value (same value or same coded error)', () => {
    type Json = Record<string, unknown>;
    const paths: ((x: Json, v: unknown) => void)[] = [
      (x, v) => (x.term_results = v),
      (x, v) => (x.workflow_runs = v),
      (x, v) => (x.candidates = v),
      (x, v) => ((x.candidates as Json[])[0] = { hotkey: v, uid: 1 }),
      (x, v) => ((x.candidates as Json[])[0] = { hotkey: hotkeys[0], uid: v }),
      (x, v) => (x.window_state = v),
      (x, v) => (x.decay_states = v),
      (x, v) => ((x.decay_states as Json[])[0] = { challenge_id: v, state: null }),
      (x, v) => ((x.decay_states as Json[])[0] = { challenge_id: 'term', state: v }),
      (x, v) => ((x.decay_states as Json[])[0] = { challenge_id: 'term', state: { top_score: v, top_epoch: 1, top_hotkey: hotkeys[0] } }),
      (x, v) => ((x.decay_states as Json[])[0] = { challenge_id: 'term', state: { top_score: 1, top_epoch: v, top_hotkey: hotkeys[0] } }),
      (x, v) => ((x.decay_states as Json[])[0] = { challenge_id: 'term', state: { top_score: 1, top_epoch: 1, top_hotkey: v } }),
      (x, v) => (x.reputations = v),
      (x, v) => (x.extra = v),
    ];
    for (const set of paths) {
      for (const v of hostile) {
        const a = inputs();
        set(a, v);
        const b = inputs();
        set(b, v);
        const expected = (() => {
          try {
            return { value: withKeyOrder(bySchema(b)) };
          } catch {
            return 'refused';
          }
        })();
        const actual = outcome(() => parseEpochInputs(a));
        if (expected === 'refused') expect(actual).toMatchObject({ code: 'BUNDLE_INVALID_INPUT' });
        else expect(actual).toEqual(expected);
      }
    }
    // Key tricks: an own __proto__ key and a null-prototype object are the schema's to judge.
    for (const make of [() => JSON.parse('{"__proto__": [], "tasks": []}') as unknown, () => Object.assign(Object.create(null), { tasks: [] }) as unknown]) {
      let expected: unknown;
      try {
        expected = { value: withKeyOrder(bySchema(make())) };
      } catch {
        expected = 'refused';
      }
      const actual = outcome(() => parseEpochInputs(make()));
      if (expected === 'refused') expect(actual).toMatchObject({ code: 'BUNDLE_INVALID_INPUT' });
      else expect(actual).toEqual(expected);
    }
  });

  it('agrees with the schema on generated inputs (fast-check)', () => {
    const value = fc.oneof(fc.constantFrom(...hostile), fc.constant([]), fc.constant(hotkeys[0]), fc.double());
    fc.assert(
      fc.property(
        fc.record(
          {
            tasks: fc.oneof(fc.array(value, { maxLength: 3 }), value),
            candidates: fc.oneof(
              fc.array(fc.record({ hotkey: fc.oneof(fc.constantFrom(...hotkeys), value), uid: fc.oneof(fc.nat(70000), value) }), { maxLength: 2 }),
              value,
            ),
            window_state: value,
            decay_states: fc.array(fc.record({ challenge_id: fc.oneof(fc.string(), value), state: fc.oneof(fc.constant(null), value) }), { maxLength: 2 }),
          },
          { requiredKeys: [] },
        ),
        (input) => {
          let expected: unknown;
          try {
            expected = { value: withKeyOrder(bySchema(input)) };
          } catch {
            expected = 'refused';
          }
          const actual = outcome(() => parseEpochInputs(input));
          if (expected === 'refused') expect(actual).toMatchObject({ code: 'BUNDLE_INVALID_INPUT' });
          else expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
