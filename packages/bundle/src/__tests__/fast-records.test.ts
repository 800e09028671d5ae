import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { checkInputShape, encodeSs58 } from '@subnet/core';

import { bountyInputSchema, peerScoreSchema, sssaSubmissionSchema, taskRecordSchema, termResultSchema, workflowRunSchema } from '../epoch-inputs.js';
import { createExclusions } from '../exclusion.js';
import { FAST_RECORDS } from '../fast-records.js';
import type { RecordList } from '../exclusion.js';
import { screenRecords } from '../screen-records.js';
import { parseEpochInputs } from '../epoch-inputs.js';

/**
 * The hand-written record acceptors (`fast-records.ts`) against the zod schemas they stand in for: the
 * acceptor may only accept what the shape check and the schema both accept, must give the schema's output
 * (same keys in the same order, same values), and must accept valid records (or it would be no fast path).
 */
const SCHEMAS = {
  workflow_runs: workflowRunSchema,
  tasks: taskRecordSchema,
  sssa_submissions: sssaSubmissionSchema,
  term_results: termResultSchema,
  bounty_records: bountyInputSchema,
  peer_scores: peerScoreSchema,
} as const;

const hotkeys = [1, 2, 3].map((i) => encodeSs58(new Uint8Array(32).fill(i)));
const badHotkey = `${(hotkeys[0] as string).slice(0, -1)}x`;

/** What the slow path decides: the shape check, then the schema (undefined = refused). */
function slow(list: RecordList, item: unknown): { value: unknown } | undefined {
  if (!shapeOk(list, item)) return undefined;
  const parsed = SCHEMAS[list].safeParse(item);
  return parsed.success ? { value: parsed.data } : undefined;
}

function shapeOk(list: RecordList, item: unknown): boolean {
  try {
    checkInputShape(item, { maxDepth: 64 }, list);
    return true;
  } catch {
    return false;
  }
}

/** Keys in order at every level, so an output with the same values but another key order differs. */
function withKeyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withKeyOrder);
  if (typeof value === 'object' && value !== null) return Object.entries(value).map(([k, v]) => [k, withKeyOrder(v)]);
  return value;
}

function agrees(list: RecordList, item: unknown): { accepted: boolean } {
  const fast = FAST_RECORDS[list];
  const reference = slow(list, item);
  // As `screenRecords` composes them: for the lists with free-form fields the shape check runs first.
  const accepted = fast.shapeFirst && !shapeOk(list, item) ? undefined : fast.accept(item);
  if (accepted !== undefined) {
    expect(reference, `${list}: the acceptor took a record the schema refuses: ${JSON.stringify(item)}`).toBeDefined();
    expect(withKeyOrder(accepted)).toEqual(withKeyOrder(reference?.value));
  }
  return { accepted: accepted !== undefined };
}

const valid: { [L in RecordList]: () => Record<string, unknown> } = {
  workflow_runs: () => ({ record_id: 'run-1', seq: 3, miner_uid: 7, miner_hotkey: hotkeys[0], task: { a: [1, { b: null }] }, plan: [], record: 'x' }),
  tasks: () => ({ task_id: 't-1', task_type: 'code', block_hash: `0x${'ab'.repeat(32)}`, seq: 0 }),
  sssa_submissions: () => ({ record_id: 'sub.1', seq: 9, task_id: 't-1', miner_uid: 0, miner_hotkey: hotkeys[1], sssa: { verdict: 'ALLOW' } }),
  term_results: () => ({
    record_id: 'term:1',
    seq: 1,
    miner_hotkey: hotkeys[2],
    results: [
      { task_id: 'a', tests_passed: 1, tests_total: 2, timed_out: true },
      { task_id: 'b', tests_passed: 0, tests_total: 1 },
    ],
  }),
  bounty_records: () => ({ record_id: 'b-1', seq: 2, miner_hotkey: hotkeys[0], valid_issues: 4, invalid_issues: 0, starred_repos: 9 }),
  peer_scores: () => ({ record_id: 'p-1', seq: 5, validator_hotkey: hotkeys[1], challenge_id: 'term', miner_hotkey: hotkeys[2], score: 0.25 }),
};
const LISTS = Object.keys(valid) as RecordList[];

/** Hostile values a field may be replaced with. */
const hostileValues: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  '\ud800',
  'a\udc00b',
  'x'.repeat(300),
  -1,
  -0,
  0.5,
  1.5,
  2 ** 53,
  65536,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '1',
  true,
  [],
  {},
  [{}],
  badHotkey,
  hotkeys[0],
  `0x${'AB'.repeat(32)}`,
  Object.create(null),
  new Date(0),
];

/** A value nested `depth` levels (arrays inside arrays). */
function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe('fast record acceptors agree with the zod schemas', () => {
  it('accept every valid record, with the schema output (timed_out defaults to false)', () => {
    for (const list of LISTS) expect(agrees(list, valid[list]()).accepted, list).toBe(true);
    const term = FAST_RECORDS.term_results.accept(valid.term_results()) as { results: { timed_out: boolean }[] };
    expect(term.results.map((r) => r.timed_out)).toEqual([true, false]);
  });

  it('decline a record with any field replaced by a hostile value where the schema refuses it', () => {
    for (const list of LISTS) {
      for (const key of Object.keys(valid[list]())) {
        for (const bad of hostileValues) {
          const item = { ...valid[list](), [key]: bad };
          agrees(list, item);
        }
        // The field missing altogether.
        const { [key]: _gone, ...rest } = valid[list]();
        agrees(list, rest);
      }
    }
  });

  it('decline extra keys, `__proto__` and `constructor` as own keys, non-plain objects and non-objects', () => {
    for (const list of LISTS) {
      agrees(list, { ...valid[list](), extra: 1 });
      const withProto = JSON.parse(`{"__proto__":{"x":1},${JSON.stringify(valid[list]()).slice(1)}`) as unknown;
      expect(agrees(list, withProto).accepted, `${list} with an own __proto__ key`).toBe(false);
      expect(agrees(list, { ...valid[list](), constructor: 'x' }).accepted).toBe(false);
      expect(agrees(list, Object.assign(Object.create(null), valid[list]())).accepted).toBe(false);
      for (const item of [null, 1, 'x', [], [valid[list]()], new Map()]) expect(agrees(list, item).accepted).toBe(false);
    }
  });

  it('decline term task results that are hostile (lone surrogates, holes, undefined timed_out, extra keys)', () => {
    const base = valid.term_results();
    const results = base.results as Record<string, unknown>[];
    const cases: unknown[] = [
      [{ ...results[0], task_id: '\udfff' }],
      [{ ...results[0], timed_out: undefined }],
      [{ ...results[0], timed_out: 'no' }],
      [{ ...results[0], tests_total: 0 }],
      [{ ...results[0], extra: 1 }],
      [{ task_id: 'a', tests_passed: 1, timed_out: false, extra: 2 }],
      // eslint-disable-next-line no-sparse-arrays
      [results[0], , results[1]],
      [JSON.parse('{"__proto__":1,"task_id":"a","tests_passed":1,"tests_total":1}')],
      [Object.assign(Object.create(null), results[0])],
    ];
    for (const c of cases) expect(agrees('term_results', { ...base, results: c }).accepted, JSON.stringify(c)).toBe(false);
  });

  it('agree on free-form fields nested deeper than 64 levels (the shape check runs first for those lists)', () => {
    expect(slow('workflow_runs', { ...valid.workflow_runs(), task: nested(64) })).toBeUndefined();
    expect(slow('workflow_runs', { ...valid.workflow_runs(), task: nested(62) })).toBeDefined();
    expect(FAST_RECORDS.workflow_runs.shapeFirst && FAST_RECORDS.sssa_submissions.shapeFirst).toBe(true);
  });

  it('agree on generated records (fast-check: random field values over each list)', () => {
    const anyValue = fc.oneof(
      fc.constantFrom(...hostileValues),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 140 }),
      fc.double(),
      fc.integer({ min: -5, max: 70000 }),
      fc.boolean(),
      fc.constantFrom(...hotkeys),
      fc.json().map((t) => JSON.parse(t) as unknown),
    );
    fc.assert(
      fc.property(fc.constantFrom(...LISTS), fc.array(anyValue, { maxLength: 8 }), (list, values) => {
        const item: Record<string, unknown> = valid[list]();
        const keys = Object.keys(item);
        values.forEach((v, i) => {
          item[keys[i % keys.length] as string] = v;
        });
        agrees(list, item);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('screenRecords keeps the first error and its field path with the fast path in front', () => {
  it('names the field path of the first schema issue of a refused record', () => {
    const term = valid.term_results() as { results: Record<string, unknown>[] };
    const inputs = parseEpochInputs({
      term_results: [valid.term_results(), { ...term, record_id: 'term:2', results: [term.results[0], { ...term.results[1], tests_total: -3 }] }],
      peer_scores: [{ ...valid.peer_scores(), score: 1.5 }],
      bounty_records: [{ ...valid.bounty_records(), miner_hotkey: badHotkey }],
      tasks: [{ ...valid.tasks(), task_type: '\ud800' }],
    });
    const excluded = createExclusions();
    const screened = screenRecords(inputs, excluded);
    expect(screened.termResults.map((r) => r.record_id)).toEqual(['term:1']);
    const reasons = excluded.sorted().map((e) => `${e.list} ${e.code} ${e.reason}`);
    expect(reasons).toContainEqual(expect.stringMatching(/^term_results BUNDLE_INVALID_RECORD .* at term_results\[1\]\.results\[1\]\.tests_total$/));
    expect(reasons).toContainEqual(expect.stringMatching(/^peer_scores BUNDLE_INVALID_RECORD .* at peer_scores\[0\]\.score$/));
    expect(reasons).toContainEqual(expect.stringMatching(/^bounty_records BUNDLE_INVALID_RECORD .* at bounty_records\[0\]\.miner_hotkey$/));
    // A lone surrogate is the shape check's refusal (not JSON text), as before the fast path.
    expect(reasons).toContainEqual(expect.stringMatching(/^tasks CORE_INPUT_NOT_JSON .*lone UTF-16 surrogate/));
  });
});

describe('screenRecords orders each list by (seq, id) in code-point order (SPEC 0)', () => {
  it('orders ids with surrogate pairs by code point, not by UTF-16 unit, and ASCII ids as text', () => {
    // U+1F600 is written \ud83d\ude00: by code unit it sorts before U+FFFF, by code point after.
    const ids = ['b', 'a\u{1F600}', 'a\uffff', 'a', 'A', 'a\u{10000}'];
    const inputs = parseEpochInputs({ tasks: ids.map((task_id) => ({ ...valid.tasks(), task_id, seq: 4 })) });
    const screened = screenRecords(inputs, createExclusions());
    const byCodePoint = [...ids].sort((x, y) => {
      const a = Array.from(x, (c) => c.codePointAt(0) as number);
      const b = Array.from(y, (c) => c.codePointAt(0) as number);
      for (let i = 0; i < Math.min(a.length, b.length); i += 1) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
      return a.length - b.length;
    });
    expect(screened.tasks.map((t) => t.task_id)).toEqual(byCodePoint);
    expect(byCodePoint.indexOf('a\uffff')).toBeLessThan(byCodePoint.indexOf('a\u{1F600}'));
  });
});

describe('screenRecords orders and de-duplicates peer scores by their id text', () => {
  it('keeps, per (record id, challenge, miner), the first by (seq, `${record_id}\\0${challenge_id}\\0${miner_hotkey}` by code point)', () => {
    const peer = fc.record({
      record_id: fc.constantFrom('p', 'p1', 'p.', 'P', 'p1-a'),
      seq: fc.integer({ min: 0, max: 3 }),
      validator_hotkey: fc.constantFrom(...hotkeys),
      // Challenge ids are any text: a \0 inside, units past the BMP and just below it.
      challenge_id: fc.constantFrom('term', 'te', 'te\u0000rm', '\uffee', '😀', 'term\u0000'),
      miner_hotkey: fc.constantFrom(...hotkeys),
      score: fc.constantFrom(0, 0.5, 1),
    });
    const byCodePoint = (a: string, b: string): number => {
      const x = Array.from(a, (c) => c.codePointAt(0) as number); // by code point
      const y = Array.from(b, (c) => c.codePointAt(0) as number);
      for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
      return x.length - y.length;
    };
    fc.assert(
      fc.property(fc.array(peer, { maxLength: 40 }), (peers) => {
        const excluded = createExclusions();
        const screened = screenRecords(parseEpochInputs({ peer_scores: peers }), excluded);
        const idText = (p: (typeof peers)[number]) => `${p.record_id}\u0000${p.challenge_id}\u0000${p.miner_hotkey}`;
        const ordered = peers.map((p, index) => ({ p, index })).sort((a, b) => a.p.seq - b.p.seq || byCodePoint(idText(a.p), idText(b.p)));
        const seen = new Set<string>();
        const kept = ordered.filter(({ p }) => {
          if (seen.has(idText(p))) return false;
          seen.add(idText(p));
          return true;
        });
        expect(screened.peerScores).toEqual(kept.map(({ p }) => p));
        expect(excluded.sorted().length).toBe(peers.length - kept.length);
      }),
      { numRuns: 500 },
    );
  });
});

describe('decision (docs/spec.md G.46 (d)): a task id or type is blank by SPEC 0 ASCII trimming, on both readers', () => {
  /** SPEC 0 written out: blank is nothing but U+0009-U+000D and U+0020. */
  const specBlank = (text: string) => /^[\t\n\v\f\r ]*$/.test(text);
  const unicodeOnly = ['\u00a0', '\ufeff', '\u2028', ' \u00a0\t'];
  const asciiBlank = ['\t', ' ', '\t \n\r\v\f'];

  it('U+00A0, U+FEFF, U+2028 are characters: a task and an SSSA submission naming one are taken by the acceptor and the schema alike', () => {
    for (const id of unicodeOnly) {
      expect(specBlank(id)).toBe(false);
      for (const item of [
        { ...valid.tasks(), task_id: id },
        { ...valid.tasks(), task_type: id },
        { ...valid.sssa_submissions(), task_id: id },
      ]) {
        const list: RecordList = 'sssa' in item ? 'sssa_submissions' : 'tasks';
        expect(slow(list, item), `${list} ${JSON.stringify(item)}`).toBeDefined();
        expect(agrees(list, item)).toEqual({ accepted: true });
      }
    }
  });

  it('ASCII tab and space are blank: refused by both', () => {
    for (const id of asciiBlank) {
      expect(specBlank(id)).toBe(true);
      for (const item of [
        { ...valid.tasks(), task_id: id },
        { ...valid.tasks(), task_type: id },
        { ...valid.sssa_submissions(), task_id: id },
      ]) {
        const list: RecordList = 'sssa' in item ? 'sssa_submissions' : 'tasks';
        expect(slow(list, item)).toBeUndefined();
        expect(agrees(list, item)).toEqual({ accepted: false });
      }
    }
  });
});
