import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { MAX_VALID_ISSUES } from '@subnet/aggregation';
import { EDGE_KEYS, EDGE_NUMBERS, edgeSlots } from '@subnet/vitest-config/edge-values';
import { canonicalJson, checkInputShape, encodeSs58 } from '@subnet/core';

import { metagraphSchema, stakesSchema } from '../compute-epoch.js';
import { bountyInputSchema, epochInputsSchema, parseEpochInputs, peerScoreSchema, taskRecordSchema, termResultSchema } from '../epoch-inputs.js';
import type { RecordList } from '../exclusion.js';
import { FAST_RECORDS } from '../fast-records.js';
import { fastMetagraph, fastStakes } from '../fast-validator-set.js';
import { computeEpoch } from '../index.js';

/**
 * The hand-written readers of the bundle (`fast-records.ts`, `fast-validator-set.ts`, the record lists of
 * `parseEpochInputs`) against their zod schemas at the edges the other tests do not reach: every numeric field
 * at a double's boundary (-0, subnormals, 1 ± one ulp, 2^53 ± 1, the u16 bound and MAX_VALID_ISSUES with their
 * neighbours), `Object.prototype`'s names as own keys, and a sparse record list. What a reader accepts, the
 * schema accepts, with the same output to the bit (-0 told apart, keys in order, a hole apart from undefined).
 */
type Json = Record<string, unknown>;
const hotkeys = [1, 2, 3].map((i) => encodeSs58(new Uint8Array(32).fill(i)));

/** Keys in order, -0 apart from 0, a hole apart from an undefined element. */
function exact(value: unknown): unknown {
  if (Array.isArray(value)) return Array.from({ length: value.length }, (_, i) => (i in value ? exact(value[i]) : '<hole>'));
  if (typeof value === 'object' && value !== null) return Object.entries(value).map(([k, v]) => [k, exact(v)]);
  return Object.is(value, -0) ? '-0' : value;
}

const NUMBERS: readonly number[] = [...EDGE_NUMBERS, MAX_VALID_ISSUES - 1, MAX_VALID_ISSUES, MAX_VALID_ISSUES + 1];

const RECORDS: {
  readonly [L in Exclude<RecordList, 'workflow_runs' | 'sssa_submissions'>]: { schema: { safeParse(v: unknown): unknown }; valid: () => Json };
} = {
  tasks: { schema: taskRecordSchema, valid: () => ({ task_id: 't-1', task_type: 'code', block_hash: `0x${'ab'.repeat(32)}`, seq: 0 }) },
  term_results: {
    schema: termResultSchema,
    valid: () => ({
      record_id: 'term:1',
      seq: 1,
      miner_hotkey: hotkeys[2],
      results: [
        { task_id: 'a', tests_passed: 1, tests_total: 2, timed_out: true },
        { task_id: 'b', tests_passed: 0, tests_total: 1 },
      ],
    }),
  },
  bounty_records: {
    schema: bountyInputSchema,
    valid: () => ({ record_id: 'b-1', seq: 2, miner_hotkey: hotkeys[0], valid_issues: 4, invalid_issues: 0, starred_repos: 9 }),
  },
  peer_scores: {
    schema: peerScoreSchema,
    valid: () => ({ record_id: 'p-1', seq: 5, validator_hotkey: hotkeys[1], challenge_id: 'term', miner_hotkey: hotkeys[2], score: 0.25 }),
  },
};
const LISTS = Object.keys(RECORDS) as (keyof typeof RECORDS)[];

/** The slow path's decision on a record: the shape check, then the schema. */
function slow(list: keyof typeof RECORDS, item: unknown): { value: unknown } | undefined {
  try {
    checkInputShape(item, { maxDepth: 64 }, list);
  } catch {
    return undefined;
  }
  const parsed = RECORDS[list].schema.safeParse(item) as { success: boolean; data?: unknown };
  return parsed.success ? { value: parsed.data } : undefined;
}

const editArb = fc.tuple(fc.nat(), fc.constantFrom(...NUMBERS));
const keyArb = fc.oneof(
  { arbitrary: fc.constant(null), weight: 4 },
  { arbitrary: fc.tuple(fc.nat(), fc.constantFrom(...EDGE_KEYS), fc.constantFrom<unknown>(1, null, 'x')), weight: 1 },
);
const addKey = (objects: Json[], key: [number, string, unknown] | null): void => {
  if (key === null) return;
  const [at, name, value] = key;
  Object.defineProperty(objects[at % objects.length], name, { value, enumerable: true, writable: true, configurable: true });
};

describe('the record acceptors agree with the shape check and the schemas at numeric and key edges', () => {
  it('on boundary numbers in any numeric field and Object.prototype names as own keys', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.constantFrom(...LISTS), fc.array(editArb, { minLength: 1, maxLength: 2 }), keyArb, (list, edits, key) => {
        const item = RECORDS[list].valid();
        const { numbers, objects } = edgeSlots(item);
        for (const [at, value] of edits) {
          const [obj, field] = numbers[at % numbers.length] as [Json, string];
          obj[field] = value;
        }
        addKey(objects, key);
        const fast = FAST_RECORDS[list].accept(item);
        if (fast === undefined) return;
        accepted++;
        const reference = slow(list, item);
        expect(reference, `${list}: the acceptor took a record the schema refuses: ${JSON.stringify(item)}`).toBeDefined();
        expect(exact(fast)).toEqual(exact(reference?.value));
      }),
      { numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(200);
  });

  it('accept MAX_VALID_ISSUES valid issues and decline one more, which the schema refuses', () => {
    const at = (valid: number) => ({ ...RECORDS.bounty_records.valid(), valid_issues: valid, invalid_issues: 2 ** 53 - 1, starred_repos: 2 ** 53 - 1 });
    expect(exact(FAST_RECORDS.bounty_records.accept(at(MAX_VALID_ISSUES)))).toEqual(exact(slow('bounty_records', at(MAX_VALID_ISSUES))?.value));
    expect(FAST_RECORDS.bounty_records.accept(at(MAX_VALID_ISSUES + 1))).toBeUndefined();
    expect(slow('bounty_records', at(MAX_VALID_ISSUES + 1))).toBeUndefined();
  });
});

describe('the validator-set readers agree with the schemas at numeric and key edges', () => {
  const stakeArb = fc.oneof(fc.constantFrom<unknown>(...NUMBERS), fc.constantFrom('0', '00', '-0', '9007199254740993', `1${'0'.repeat(400)}`, '1e3', '\uff11'));
  it('on stakes and uids at a boundary, with Object.prototype names as own keys', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.array(stakeArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.constantFrom(...NUMBERS), { minLength: 1, maxLength: 3 }),
        keyArb,
        (stakes, uids, key) => {
          const stakeList = stakes.map((stake, i) => ({ validator_hotkey: hotkeys[i], stake }));
          const neurons = uids.map((uid, i) => ({ hotkey: hotkeys[2 - i], uid }));
          addKey([...stakeList, ...neurons] as Json[], key);
          for (const [fast, schema, input] of [
            [fastStakes, stakesSchema, stakeList],
            [fastMetagraph, metagraphSchema, neurons],
          ] as const) {
            const got = (fast as (v: unknown) => unknown)(input);
            if (got === undefined) continue;
            accepted++;
            const reference = (schema as { safeParse(v: unknown): { success: boolean; data?: unknown } }).safeParse(input);
            expect(reference.success, `accepted what the schema refuses: ${JSON.stringify(input)}`).toBe(true);
            expect(exact(got)).toEqual(exact(reference.data));
          }
        },
      ),
      { numRuns: 1500 },
    );
    expect(accepted).toBeGreaterThan(200);
  });
});

describe('a hole in a record list', () => {
  // eslint-disable-next-line no-sparse-arrays
  const sparse = (): unknown[] => [, RECORDS.bounty_records.valid()];

  it('decision (docs/spec.md G.44): is read as an undefined element by parseEpochInputs, as epochInputsSchema reads it', () => {
    const byHand = parseEpochInputs({ bounty_records: sparse() });
    const bySchema = epochInputsSchema.parse({ bounty_records: sparse() });
    expect(exact(byHand.bounty_records)).toEqual(exact(bySchema.bounty_records));
    expect(0 in byHand.bounty_records).toBe(true);
  });

  it('decision (docs/spec.md G.44): is excluded at its index as not JSON, whether the inputs were read by hand or by the schema', () => {
    const [validator, miner] = hotkeys as [string, string];
    const run = (candidate: Json) =>
      computeEpoch({
        config: { pipeline: { min_validators: 1, min_stake_fraction: 0 }, challenges: [{ id: 'bounty', kind: 'bounty', alpha: 1, weight_cap: 1 }] },
        epoch: 3,
        validatorHotkey: validator,
        inputs: { bounty_records: sparse(), candidates: [candidate] },
        stakes: [{ validator_hotkey: validator, stake: 1 }],
        metagraph: [
          { hotkey: validator, uid: 0 },
          { hotkey: miner, uid: 1 },
        ],
      });
    // A plain candidate: the inputs are read by hand. The same candidate without a prototype: the hand-written
    // reader declines it and the schema reads the inputs (it accepts such an object). Nothing else differs.
    const byHand = run({ hotkey: miner, uid: 1 });
    const bySchema = run(Object.assign(Object.create(null) as Json, { hotkey: miner, uid: 1 }));
    expect(canonicalJson(byHand)).toBe(canonicalJson(bySchema));
    expect(byHand.excluded).toEqual([
      expect.objectContaining({
        list: 'bounty_records',
        record_id: '#0',
        code: 'CORE_INPUT_NOT_JSON',
        reason: expect.stringMatching(/^undefined is not a JSON value/) as unknown,
      }),
    ]);
  });
});
