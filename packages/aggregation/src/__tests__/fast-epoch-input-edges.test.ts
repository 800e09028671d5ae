import { EDGE_KEYS, EDGE_NUMBERS, edgeSlots } from '@subnet/vitest-config/edge-values';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { epochInputSchema, MAX_VALID_ISSUES } from '../index.js';
import { fastEpochInput } from '../fast-epoch-input.js';
import { hotkey } from './helpers.js';

/**
 * The hand-written reading of the epoch input against `epochInputSchema` at the edges `fast-epoch-input.test.ts`
 * does not reach: every numeric field set to a double at a boundary (-0, subnormals, 1 ± one ulp, 2^53 ± 1, the
 * u16 and MAX_VALID_ISSUES bounds and their neighbours), keys that name `Object.prototype` members added to any
 * object, and a sequence of readings that share the remembered configuration and settings (a -0 after a 0).
 * The fast reading may decline anything; what it accepts, the schema accepts, with the same output to the bit.
 */
type Json = Record<string, unknown>;
const validators = [hotkey(900), hotkey(901)];
const miners = Array.from({ length: 4 }, (_, i) => hotkey(i));

function wire(): Json {
  return {
    config: { min_validators: 2, min_stake_fraction: 0.3, weight_cap: 0.4, burn_uid: 0, decay: { grace_epochs: 2, rho: 0.05, max_burn: 0.8 } },
    epoch: 12,
    challenges: [
      {
        id: 'term',
        kind: 'evaluations',
        alpha: 0.75,
        weight_cap: 0.5,
        normalisation: { strategy: 'softmax', temperature: 2 },
        evaluations: validators.flatMap((v, j) => miners.map((m, i) => ({ validator_hotkey: v, miner_hotkey: m, epoch: 12, score: ((i + j) % 5) / 4 }))),
        submissions: [{ hotkey: miners[0], submitted_at: 3 }],
        decay_state: { top_score: 0.5, top_epoch: 9, top_hotkey: miners[1] },
      },
      {
        id: 'bounty',
        kind: 'bounty',
        alpha: 0.25,
        records: miners.slice(0, 3).map((m, i) => ({ hotkey: m, valid_issues: i, invalid_issues: 1, starred_repos: 0 })),
      },
    ],
    stakes: [
      { validator_hotkey: validators[0], stake: 100 },
      { validator_hotkey: validators[1], stake: '2500000000' },
    ],
    metagraph: miners.map((m, uid) => ({ hotkey: m, uid })),
  };
}

const NUMBERS: readonly number[] = [...EDGE_NUMBERS, MAX_VALID_ISSUES - 1, MAX_VALID_ISSUES, MAX_VALID_ISSUES + 1, MAX_VALID_ISSUES + 0.5];
const STAKE_TEXTS = ['0', '00', '-0', '9007199254740993', `1${'0'.repeat(308)}`, `1${'0'.repeat(309)}`, '1e3', ' 1', '\uff11', '\u0663'];

/** The value with -0 told apart from 0 and keys in order, for a comparison to the bit. */
const exact = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' ? (Object.is(v, -0) ? '-0' : `${v}`) : typeof v === 'bigint' ? `${v}n` : v));

function agrees(input: unknown): boolean {
  const fast = fastEpochInput(input);
  if (fast === undefined) return false;
  const reference = epochInputSchema.safeParse(input);
  expect(reference.success, `the fast reading accepted what the schema refuses: ${exact(input)}`).toBe(true);
  expect(exact(fast)).toBe(exact(reference.data));
  return true;
}

const editArb = fc.tuple(fc.nat(), fc.oneof(fc.constantFrom(...NUMBERS), fc.constantFrom<unknown>(...STAKE_TEXTS, 5n, 2n ** 64n)));
const keyArb = fc.tuple(fc.nat(), fc.constantFrom(...EDGE_KEYS), fc.constantFrom<unknown>(1, null, {}, 'x'));

describe('fastEpochInput agrees with epochInputSchema at numeric and key edges', () => {
  it('on boundary numbers in any numeric field and Object.prototype names as own keys of any object', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.array(editArb, { minLength: 1, maxLength: 2 }),
        fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: keyArb, weight: 1 }),
        (edits, key) => {
          const x = wire();
          const { numbers, objects } = edgeSlots(x);
          for (const [at, value] of edits) {
            const [obj, field] = numbers[at % numbers.length] as [Json, string];
            obj[field] = value;
          }
          if (key !== null) {
            const [at, name, value] = key;
            Object.defineProperty(objects[at % objects.length], name, { value, enumerable: true, writable: true, configurable: true });
          }
          if (agrees(x)) accepted++;
          // A second reading of the same input comes from the remembered settings: the same output.
          agrees(x);
        },
      ),
      { numRuns: 1500 },
    );
    // The edges are not all refused: the property compared accepted outputs too.
    expect(accepted).toBeGreaterThan(100);
  });

  it('reads a -0 after a 0 (and a 0 after a -0) in the remembered configuration and settings as the schema does', () => {
    for (const order of [
      [0, -0],
      [-0, 0],
    ]) {
      for (const value of order) {
        const x = wire();
        ((x.config as Json).decay as Json).rho = value;
        (x.config as Json).min_stake_fraction = value;
        ((x.challenges as Json[])[1] as Json).alpha = value;
        ((x.metagraph as Json[])[0] as Json).uid = value;
        expect(agrees(x)).toBe(true);
      }
    }
  });

  it('accepts MAX_VALID_ISSUES valid issues and leaves one more to the schema, which refuses it', () => {
    const at = (valid: number): Json => {
      const x = wire();
      (((x.challenges as Json[])[1] as Json).records as Json[])[0] = { hotkey: miners[0], valid_issues: valid, invalid_issues: 2 ** 53 - 1, starred_repos: 0 };
      return x;
    };
    expect(agrees(at(MAX_VALID_ISSUES))).toBe(true);
    expect(fastEpochInput(at(MAX_VALID_ISSUES + 1))).toBeUndefined();
    expect(epochInputSchema.safeParse(at(MAX_VALID_ISSUES + 1)).success).toBe(false);
  });
});
