import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { epochInputSchema, parseEpochInput } from '../index.js';
import { fastEpochInput } from '../fast-epoch-input.js';
import { expectError, hotkey } from './helpers.js';

/**
 * The hand-written reading of the epoch input (`fast-epoch-input.ts`) against `epochInputSchema`: it may
 * only accept what the schema accepts, with the schema's output (same keys in the same order), must accept
 * valid input, and `parseEpochInput` still names the field path of the first issue for invalid input.
 */
const validators = [hotkey(900), hotkey(901)];
const miners = Array.from({ length: 6 }, (_, i) => hotkey(i));

function wire(): Record<string, unknown> {
  return {
    config: { weight_cap: 0.4, decay: { grace_epochs: 2 } },
    epoch: 12,
    challenges: [
      {
        id: 'term',
        kind: 'evaluations',
        alpha: 0.75,
        decay: true,
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

function withKeyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withKeyOrder);
  if (typeof value === 'object' && value !== null) return Object.entries(value).map(([k, v]) => [k, withKeyOrder(v)]);
  return value;
}

function agrees(input: unknown): boolean {
  const fast = fastEpochInput(input);
  // Twice: the configuration and the challenge settings of the second reading come from those remembered.
  const again = fastEpochInput(input);
  expect(again === undefined).toBe(fast === undefined);
  if (fast === undefined) return false;
  const reference = epochInputSchema.safeParse(input);
  expect(
    reference.success,
    `the fast reading accepted what the schema refuses: ${JSON.stringify(input, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`,
  ).toBe(true);
  expect(withKeyOrder(fast)).toEqual(withKeyOrder(reference.data));
  expect(withKeyOrder(again)).toEqual(withKeyOrder(reference.data));
  // A fresh value each time, never the remembered one (a caller may change what it was given).
  expect(again?.config).not.toBe(fast.config);
  expect(Object.isFrozen(again?.config)).toBe(false);
  return true;
}

type Json = Record<string, unknown>;
const challengeOf = (x: Json, i: number): Json => (x.challenges as Json[])[i] as Json;

const hostile: unknown[] = [
  -0,
  0,
  1,
  '0',
  '01',
  '1e3',
  '9'.repeat(400),
  5n,
  -1n,
  Number.POSITIVE_INFINITY,
  undefined,
  null,
  -1,
  1.5,
  2 ** 53,
  65536,
  Number.NaN,
  '',
  '\ud800',
  'x',
  true,
  [],
  {},
  Object.create(null),
  `${miners[0]?.slice(0, -1)}x`,
];

describe('fastEpochInput agrees with epochInputSchema', () => {
  it('reads valid input as the schema does (defaults filled in, same key order)', () => {
    expect(agrees(wire())).toBe(true);
    const { config: _config, ...noConfig } = wire();
    expect(agrees(noConfig)).toBe(true);
    expect(agrees({ ...wire(), challenges: [] })).toBe(true);
  });

  it('declines each field replaced by a hostile value unless the schema accepts it', () => {
    const paths: ((x: Json, v: unknown) => void)[] = [
      (x, v) => (x.epoch = v),
      (x, v) => (x.config = v),
      (x, v) => (x.stakes = v),
      (x, v) => (x.metagraph = v),
      (x, v) => ((x.metagraph as Json[])[2] = { hotkey: v, uid: 2 }),
      (x, v) => ((x.metagraph as Json[])[2] = { hotkey: miners[2], uid: v }),
      (x, v) => (challengeOf(x, 0).alpha = v),
      (x, v) => (challengeOf(x, 0).kind = v),
      (x, v) => (challengeOf(x, 0).decay = v),
      (x, v) => (challengeOf(x, 0).evaluations = v),
      (x, v) => (((challengeOf(x, 0).evaluations as Json[])[3] as Json).score = v),
      (x, v) => (((challengeOf(x, 0).evaluations as Json[])[3] as Json).epoch = v),
      (x, v) => (((challengeOf(x, 0).evaluations as Json[])[3] as Json).miner_hotkey = v),
      (x, v) => (((challengeOf(x, 1).records as Json[])[1] as Json).valid_issues = v),
      (x, v) => (((challengeOf(x, 1).records as Json[])[1] as Json).hotkey = v),
      (x, v) => (challengeOf(x, 1).records = v),
      (x, v) => (challengeOf(x, 1).decay = v),
      (x, v) => ((x.stakes as Json[])[1] = { validator_hotkey: validators[1], stake: v }),
      (x, v) => ((x.stakes as Json[])[1] = { validator_hotkey: v, stake: 5 }),
      (x, v) => ((x.stakes as Json[])[1] = { validator_hotkey: validators[0], stake: v }),
      (x, v) => (challengeOf(x, 0).decay_state = v),
      (x, v) => (challengeOf(x, 0).decay_state = { top_score: v, top_epoch: 9, top_hotkey: miners[1] }),
      (x, v) => (challengeOf(x, 0).decay_state = { top_score: 0.5, top_epoch: v, top_hotkey: miners[1] }),
      (x, v) => (challengeOf(x, 0).decay_state = { top_score: 0.5, top_epoch: 9, top_hotkey: v }),
      (x, v) => (challengeOf(x, 0).decay_state = { top_score: 0.5, top_epoch: 9, top_hotkey: miners[1], extra: v }),
      (x, v) => (challengeOf(x, 0).normalisation = v),
      (x, v) => ((x.config as Json).weight_cap = v),
    ];
    for (const set of paths) {
      for (const v of hostile) {
        const x = wire();
        set(x, v);
        agrees(x);
      }
    }
  });

  it('declines extra keys, an own `__proto__` key, duplicate evaluations and non-plain objects', () => {
    expect(agrees({ ...wire(), extra: 1 })).toBe(false);
    const proto = JSON.parse(`{"__proto__":{"a":1},${JSON.stringify(wire()).slice(1)}`) as unknown;
    expect(agrees(proto)).toBe(false);
    const x = wire();
    (challengeOf(x, 0).evaluations as Json[]).push({ ...((challengeOf(x, 0).evaluations as Json[])[0] as Json) });
    expect(agrees(x)).toBe(false);
    const y = wire();
    (y.challenges as Json[])[0] = JSON.parse(`{"__proto__":1,${JSON.stringify(challengeOf(y, 0)).slice(1)}`) as Json;
    expect(agrees(y)).toBe(false);
    const z = wire();
    (z.metagraph as Json[])[0] = Object.assign(Object.create(null), (z.metagraph as Json[])[0]);
    expect(agrees(z)).toBe(false);
    expect(agrees(Object.assign(Object.create(null), wire()))).toBe(false);
  });

  it('agrees on generated mutations (fast-check)', () => {
    const mutate = fc.tuple(
      fc.nat(),
      fc.oneof(fc.constantFrom(...hostile), fc.double(), fc.integer({ min: -2, max: 70000 }), fc.string(), fc.constantFrom(...miners)),
    );
    fc.assert(
      fc.property(fc.array(mutate, { maxLength: 4 }), (edits) => {
        const x = wire();
        // Collect every (object, key) of the input and overwrite the chosen ones.
        const slots: [Json, string][] = [];
        const walk = (v: unknown): void => {
          if (typeof v === 'object' && v !== null)
            for (const [k, inner] of Object.entries(v)) {
              slots.push([v as Json, k]);
              walk(inner);
            }
        };
        walk(x);
        for (const [at, value] of edits) {
          const [obj, key] = slots[at % slots.length] as [Json, string];
          obj[key] = value;
        }
        agrees(x);
      }),
      { numRuns: 1500 },
    );
  });

  it('leaves the error of invalid input to the schema: the first issue and its field path', () => {
    const x = wire();
    ((challengeOf(x, 0).evaluations as Json[])[4] as Json).score = 1.5;
    expectError(() => parseEpochInput(x), 'AGGREGATION_INVALID_INPUT', 'input.challenges[0].evaluations[4].score');
    const y = wire();
    (y.metagraph as Json[])[1] = { hotkey: miners[1], uid: 70000 };
    expectError(() => parseEpochInput(y), 'AGGREGATION_INVALID_INPUT', 'input.metagraph[1].uid');
    const z = wire();
    (challengeOf(z, 0).evaluations as Json[]).push({ ...((challengeOf(z, 0).evaluations as Json[])[0] as Json) });
    expectError(() => parseEpochInput(z), 'AGGREGATION_INVALID_INPUT', 'input.challenges[0].evaluations[12]');
  });
});
