import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';

import { passRate } from '@subnet/aggregation';
import { canonicalJson } from '@subnet/core';

import { computeEpoch } from '../index.js';
import { keys, plan, record, sssa, task } from './helpers.js';

let k: Awaited<ReturnType<typeof keys>>;
let A: string;
let B: string;
let C: string;
let D: string;
let V: string;
let P: string;
beforeAll(async () => {
  k = await keys();
  [A, B, C, D] = k.miners.map((m) => m.address) as [string, string, string, string];
  V = k.validator.address;
  P = k.peer.address;
});

const single = { min_validators: 1, min_stake_fraction: 0 };
const BLOCK = `0x${'cd'.repeat(32)}`;
const nonZero = (u16: { uids: readonly number[]; weights: readonly number[] }): Record<string, number | undefined> =>
  Object.fromEntries(u16.uids.map((uid, i): [string, number] => [String(uid), u16.weights[i] ?? 0]).filter(([, w]) => w !== 0));

describe('computeEpoch', () => {
  it('bounty: W = min(points/100, 1) + star bonus, weights W / ΣW, u16 by largest remainder (SPEC C.8, C.10)', () => {
    const out = computeEpoch({
      config: { pipeline: single, challenges: [{ id: 'bounty', kind: 'bounty', alpha: 1, weight_cap: 1 }] },
      epoch: 3,
      validatorHotkey: V,
      inputs: {
        bounty_records: [
          { record_id: 'b1', seq: 1, miner_hotkey: A, valid_issues: 20, invalid_issues: 0, starred_repos: 1 },
          { record_id: 'b2', seq: 2, miner_hotkey: B, valid_issues: 10, invalid_issues: 0, starred_repos: 0 },
        ],
      },
      stakes: [{ validator_hotkey: V, stake: 1 }],
      metagraph: [
        { hotkey: V, uid: 0 },
        { hotkey: A, uid: 1 },
        { hotkey: B, uid: 2 },
      ],
    });
    // A: W = 1 + 0.25 = 1.25, B: W = 0.5; 65535·5/7 = 46810.71, 65535·2/7 = 18724.29 -> 46811 + 18724.
    expect(nonZero(out.u16)).toEqual({ 1: 46811, 2: 18724 });
  });

  it('bounty: the latest record per hunter (highest seq) is the one used', () => {
    const out = computeEpoch({
      config: { pipeline: single, challenges: [{ id: 'bounty', kind: 'bounty', alpha: 1, weight_cap: 1 }] },
      epoch: 3,
      validatorHotkey: V,
      inputs: {
        bounty_records: [
          { record_id: 'late', seq: 9, miner_hotkey: A, valid_issues: 0, invalid_issues: 5, starred_repos: 0 },
          { record_id: 'early', seq: 1, miner_hotkey: A, valid_issues: 20, invalid_issues: 0, starred_repos: 0 },
          { record_id: 'b', seq: 2, miner_hotkey: B, valid_issues: 10, invalid_issues: 0, starred_repos: 0 },
        ],
      },
      stakes: [{ validator_hotkey: V, stake: 1 }],
      metagraph: [
        { hotkey: A, uid: 1 },
        { hotkey: B, uid: 2 },
      ],
    });
    // A's latest record is penalised (invalid > valid: W = 0), so B holds everything.
    expect(nonZero(out.u16)).toEqual({ 2: 65535 });
    // records_used lists the chosen record per hunter, by hotkey.
    expect(out.challenges[0]!.details).toEqual({ records_used: A < B ? ['late', 'b'] : ['b', 'late'] });
  });

  it('workflow: composite score per run, rolling window mean carried across epochs (SPEC A)', () => {
    const config = { pipeline: single, challenges: [{ id: 'workflow', kind: 'workflow', alpha: 1, weight_cap: 1 }] };
    const metagraph = [
      { hotkey: A, uid: 1 },
      { hotkey: B, uid: 2 },
    ];
    const stakes = [{ validator_hotkey: V, stake: 1 }];
    const first = computeEpoch({
      config,
      epoch: 0,
      validatorHotkey: V,
      inputs: {
        workflow_runs: [
          { record_id: 'r1', seq: 1, miner_uid: 1, miner_hotkey: A, task: task('t1'), plan, record: record() },
          { record_id: 'r2', seq: 2, miner_uid: 2, miner_hotkey: B, task: task('t1'), plan, record: record(1, 60) },
        ],
      },
      stakes,
      metagraph,
    });
    // A: 0.5·1 + 0.25·0.5 + 0.15·0.5 + 0.10·1 (= 0.8 up to IEEE rounding); B: 0.5 + 0 + 0 + 0.1 = 0.6.
    expect(first.challenges[0]!.own_scores).toEqual(
      [
        { miner_hotkey: A, score: 0.5 * 1 + 0.25 * 0.5 + 0.15 * 0.5 + 0.1 * 1 },
        { miner_hotkey: B, score: 0.5 * 1 + 0.25 * 0 + 0.15 * 0 + 0.1 * 1 },
      ].sort((x, y) => (x.miner_hotkey < y.miner_hotkey ? -1 : 1)),
    );
    // 65535·4/7 = 37448.57, 65535·3/7 = 28086.43 -> 37449 + 28086.
    expect(nonZero(first.u16)).toEqual({ 1: 37449, 2: 28086 });
    const second = computeEpoch({
      config,
      epoch: 1,
      validatorHotkey: V,
      inputs: {
        workflow_runs: [{ record_id: 'r3', seq: 3, miner_uid: 1, miner_hotkey: A, task: task('t2'), plan, record: record(1, 60) }],
        window_state: JSON.parse(JSON.stringify(first.window_state)),
        decay_states: first.decay_states,
      },
      stakes,
      metagraph,
    });
    const a = second.challenges[0]!.own_scores.find((s) => s.miner_hotkey === A);
    expect(a?.score).toBeCloseTo(0.7, 15); // (0.8 + 0.6) / 2
  });

  it('term pass-rate: own pass rate and a peer score aggregate by stake (SPEC C.1, C.4)', () => {
    const out = computeEpoch({
      config: {
        pipeline: { min_validators: 2, min_stake_fraction: 0 },
        challenges: [{ id: 'term', kind: 'term_pass_rate', alpha: 1, weight_cap: 1, total_tasks: 4 }],
      },
      epoch: 5,
      validatorHotkey: V,
      inputs: {
        term_results: [
          {
            record_id: 'x',
            seq: 1,
            miner_hotkey: A,
            results: [
              { task_id: 'a', tests_passed: 3, tests_total: 3, timed_out: false },
              { task_id: 'b', tests_passed: 2, tests_total: 2, timed_out: false },
              { task_id: 'c', tests_passed: 1, tests_total: 2, timed_out: false },
            ],
          },
        ],
        peer_scores: [{ record_id: 'peer-1', seq: 2, validator_hotkey: P, challenge_id: 'term', miner_hotkey: A, score: 0.9 }],
      },
      stakes: [
        { validator_hotkey: V, stake: 3 },
        { validator_hotkey: P, stake: 1 },
      ],
      metagraph: [{ hotkey: A, uid: 4 }],
    });
    expect(out.challenges[0]!.own_scores).toEqual([{ miner_hotkey: A, score: 0.5 }]); // 2 of 4 tasks pass
    const miners = (out.aggregation as { challenges: { aggregation: { miners: { hotkey: string; score: number }[] } }[] }).challenges[0]!.aggregation.miners;
    expect(miners[0]!.score).toBeCloseTo((3 * 0.5 + 1 * 0.9) / 4, 15);
  });

  it("leaves the caller's records unfrozen and freezes every node of its result", () => {
    const task = { task_id: 'a', tests_passed: 1, tests_total: 1, timed_out: false };
    const term = { record_id: 'x', seq: 1, miner_hotkey: A, results: [task] };
    const peer = { record_id: 'peer-1', seq: 2, validator_hotkey: P, challenge_id: 'term', miner_hotkey: A, score: 0.9 };
    const bounty = { record_id: 'b', seq: 3, miner_hotkey: B, valid_issues: 2, invalid_issues: 0, starred_repos: 1 };
    const windowState = null;
    const out = computeEpoch({
      config: {
        pipeline: single,
        challenges: [
          { id: 'term', kind: 'term_pass_rate', alpha: 0.5, total_tasks: 1 },
          { id: 'bounty', kind: 'bounty', alpha: 0.5 },
        ],
      },
      epoch: 5,
      validatorHotkey: V,
      inputs: { term_results: [term], peer_scores: [peer], bounty_records: [bounty], window_state: windowState },
      stakes: [
        { validator_hotkey: V, stake: 3 },
        { validator_hotkey: P, stake: 1 },
      ],
      metagraph: [
        { hotkey: A, uid: 4 },
        { hotkey: B, uid: 5 },
      ],
    });
    for (const given of [task, term, term.results, peer, bounty]) expect(Object.isFrozen(given)).toBe(false);
    const deeplyFrozen = (v: unknown): boolean => typeof v !== 'object' || v === null || (Object.isFrozen(v) && Object.values(v).every(deeplyFrozen));
    expect(deeplyFrozen(out)).toBe(true);
    expect(out.challenges.map((c) => c.id)).toEqual(['bounty', 'term']); // by id
  });

  it('term pass-rate details are the snake_case of @subnet/aggregation passRate per latest record, key order kept, every node frozen', () => {
    // The reference: passRate of the aggregation package, with camelCase keys written in snake_case here.
    const snake = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(snake)
        : typeof v === 'object' && v !== null
          ? Object.fromEntries(Object.entries(v).map(([key, x]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snake(x)]))
          : v;
    const deeplyFrozen = (v: unknown): boolean => typeof v !== 'object' || v === null || (Object.isFrozen(v) && Object.values(v).every(deeplyFrozen));
    const taskResult = fc.record({
      // Ids past the BMP ('😀', a surrogate pair) sort after '\uffee' by code point, before it by code unit.
      task_id: fc.constantFrom('t1', 't2', 't3', '__proto__', 'é', '\uffee', '😀'),
      tests_passed: fc.integer({ min: 0, max: 3 }),
      tests_total: fc.integer({ min: 1, max: 3 }),
      timed_out: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(fc.array(taskResult, { maxLength: 5 }), { minLength: 4, maxLength: 4 }), fc.integer({ min: 1, max: 5 }), (lists, totalTasks) => {
        const records = lists.map((results, i) => ({ record_id: `r${i}`, seq: i, miner_hotkey: [A, B, C, D][i] as string, results }));
        const out = computeEpoch({
          config: { pipeline: single, challenges: [{ id: 'term', kind: 'term_pass_rate', alpha: 1, total_tasks: totalTasks }] },
          epoch: 1,
          validatorHotkey: V,
          inputs: { term_results: records },
          stakes: [{ validator_hotkey: V, stake: 1 }],
          metagraph: [A, B, C, D].map((hotkey, uid) => ({ hotkey, uid: uid + 1 })),
        });
        const expected = records
          .flatMap((r) => {
            try {
              const rate = passRate(
                r.results.map((t) => ({ taskId: t.task_id, testsPassed: t.tests_passed, testsTotal: t.tests_total, timedOut: t.timed_out })),
                totalTasks,
              );
              return [{ record_id: r.record_id, miner_hotkey: r.miner_hotkey, ...rate }];
            } catch {
              return [];
            }
          })
          .sort((a, b) => (a.miner_hotkey < b.miner_hotkey ? -1 : 1));
        const outcome = out.challenges[0]!;
        expect(JSON.stringify(outcome.details)).toBe(JSON.stringify({ pass_rates: snake(expected) }));
        expect(JSON.stringify(outcome.own_scores)).toBe(JSON.stringify(expected.map((r) => ({ miner_hotkey: r.miner_hotkey, score: r.passRate }))));
        expect(deeplyFrozen(outcome)).toBe(true);
        expect(out.excluded.length).toBe(records.length - expected.length);
      }),
      { numRuns: 150 },
    );
  });

  it('a second score of one peer for one miner in one challenge is excluded, the earliest by seq counts; other triples are kept (SPEC C.2)', () => {
    const peer = (record_id: string, seq: number, validator_hotkey: string, miner_hotkey: string, score: number, challenge_id = 'term') => ({
      record_id,
      seq,
      validator_hotkey,
      challenge_id,
      miner_hotkey,
      score,
    });
    const out = computeEpoch({
      config: {
        pipeline: single,
        challenges: [
          { id: 'term', kind: 'term_pass_rate', alpha: 1, weight_cap: 1, total_tasks: 1 },
          { id: 'other', kind: 'bounty', alpha: 0 },
        ],
      },
      epoch: 2,
      validatorHotkey: V,
      inputs: {
        peer_scores: [peer('late', 9, P, A, 0.1), peer('early', 3, P, A, 0.8), peer('early', 3, P, B, 0.4), peer('c', 5, P, A, 0.3, 'other')],
      },
      stakes: [
        { validator_hotkey: V, stake: 1 },
        { validator_hotkey: P, stake: 1 },
      ],
      metagraph: [A, B].map((hotkey, uid) => ({ hotkey, uid: uid + 1 })),
    });
    expect(out.excluded.map((e) => [e.record_id, e.miner_hotkey, e.code])).toEqual([
      ['c', A, 'BUNDLE_CHALLENGE_NOT_CONFIGURED'],
      ['late', A, 'BUNDLE_DUPLICATE_PEER_SCORE'],
    ]);
    const miners = (out.aggregation as { challenges: { id: string; aggregation: { miners: { hotkey: string; score: number }[] } | null }[] }).challenges.find(
      (c) => c.id === 'term',
    )!.aggregation!.miners;
    expect(Object.fromEntries(miners.map((m) => [m.hotkey, m.score]))).toEqual({ [A]: 0.8, [B]: 0.4 });
  });

  it('sssa: consensus per task group, emission with the roles of the draw, own score = emission / max (SPEC B)', () => {
    // Two primaries and one auditor among three candidates of equal (initial) reputation: primaries are
    // the first two hotkeys, the auditor the third (SPEC B: ties by hotkey).
    const [p1, p2, auditor] = [A, B, C].sort() as [string, string, string];
    const out = computeEpoch({
      config: { pipeline: single, challenges: [{ id: 'sssa', kind: 'sssa', alpha: 1, weight_cap: 1, assignment: { primaries: 2, auditors: 1 } }] },
      epoch: 2,
      validatorHotkey: V,
      inputs: {
        tasks: [{ task_id: 't1', task_type: 'mcp_server', block_hash: BLOCK, seq: 0 }],
        candidates: [
          { hotkey: A, uid: 1 },
          { hotkey: B, uid: 2 },
          { hotkey: C, uid: 3 },
        ],
        sssa_submissions: [
          { record_id: 's1', seq: 1, task_id: 't1', miner_uid: 1, miner_hotkey: A, sssa: sssa() },
          { record_id: 's2', seq: 2, task_id: 't1', miner_uid: 2, miner_hotkey: B, sssa: sssa() },
          { record_id: 's3', seq: 3, task_id: 't1', miner_uid: 3, miner_hotkey: C, sssa: sssa() },
        ],
      },
      stakes: [{ validator_hotkey: V, stake: 1 }],
      metagraph: [
        { hotkey: A, uid: 1 },
        { hotkey: B, uid: 2 },
        { hotkey: C, uid: 3 },
      ],
    });
    // Three identical SSSAs: consensus 1 for all; emission 1, 1 and 0.6 (auditor role).
    const own = Object.fromEntries(out.challenges[0]!.own_scores.map((s) => [s.miner_hotkey, s.score]));
    expect(own).toEqual({ [p1]: 1, [p2]: 1, [auditor]: 0.6 });
    expect(out.excluded).toEqual([]);
  });

  it('sssa: a group of fewer than 3 uses the neutral consensus factor 1 (SPEC B)', () => {
    const [primary, auditor] = [A, D].sort() as [string, string];
    const out = computeEpoch({
      config: { pipeline: single, challenges: [{ id: 'sssa', kind: 'sssa', alpha: 1, weight_cap: 1, assignment: { primaries: 1, auditors: 1 } }] },
      epoch: 2,
      validatorHotkey: V,
      inputs: {
        tasks: [{ task_id: 't2', task_type: 'x', block_hash: BLOCK, seq: 0 }],
        candidates: [
          { hotkey: A, uid: 1 },
          { hotkey: D, uid: 4 },
        ],
        sssa_submissions: [
          { record_id: 's1', seq: 1, task_id: 't2', miner_uid: 1, miner_hotkey: A, sssa: sssa('ALLOW') },
          { record_id: 's4', seq: 4, task_id: 't2', miner_uid: 4, miner_hotkey: D, sssa: sssa('BLOCK') },
        ],
      },
      stakes: [{ validator_hotkey: V, stake: 1 }],
      metagraph: [
        { hotkey: A, uid: 1 },
        { hotkey: D, uid: 4 },
      ],
    });
    const own = Object.fromEntries(out.challenges[0]!.own_scores.map((s) => [s.miner_hotkey, s.score]));
    expect(own).toEqual({ [primary]: 1, [auditor]: 0.6 });
  });

  it('decision (docs/spec.md G.38): a bounty record whose points would pass 2^53 - 1 is excluded with a code; at the bound its points are an exact number', () => {
    const max = Math.floor(Number.MAX_SAFE_INTEGER / 5);
    const out = computeEpoch({
      config: { pipeline: single, challenges: [{ id: 'bounty', kind: 'bounty', alpha: 1, weight_cap: 1 }] },
      epoch: 3,
      validatorHotkey: V,
      inputs: {
        bounty_records: [
          { record_id: 'over', seq: 1, miner_hotkey: A, valid_issues: max + 1, invalid_issues: 0, starred_repos: 0 },
          { record_id: 'at', seq: 2, miner_hotkey: B, valid_issues: max, invalid_issues: 0, starred_repos: 0 },
        ],
      },
      stakes: [{ validator_hotkey: V, stake: 1 }],
      metagraph: [
        { hotkey: A, uid: 1 },
        { hotkey: B, uid: 2 },
      ],
    });
    expect(out.excluded.map((e) => [e.list, e.record_id, e.code, e.reason])).toEqual([
      [
        'bounty_records',
        'over',
        'BUNDLE_INVALID_RECORD',
        `the record does not match the bounty_records schema: at most ${max} valid issues, so that 5 points an issue stay at most 2^53 - 1 at bounty_records[0].valid_issues`,
      ],
    ]);
    expect(nonZero(out.u16)).toEqual({ 2: 65535 });
    // 5 * 1801439850948198 = 9007199254740990: written as a number, not as the decimal string canonical JSON gives a larger integer.
    expect(canonicalJson(out.aggregation)).toContain('"points":9007199254740990');
  });

  it("decision (docs/spec.md G.42 (b)): a stored workflow run composite refuses is excluded with composite's own path, which the validator's ingest answer restates under body.", () => {
    const max = Number.MAX_SAFE_INTEGER;
    const out = computeEpoch({
      config: { pipeline: single, challenges: [{ id: 'workflow', kind: 'workflow', alpha: 1, weight_cap: 1 }] },
      epoch: 2,
      validatorHotkey: V,
      inputs: {
        workflow_runs: [
          {
            record_id: 'budget',
            seq: 1,
            miner_uid: 1,
            miner_hotkey: A,
            task: task('t1'),
            plan: { ...plan, error_handling: { a: { retry_count: max }, b: { retry_count: max } } },
            record: record(),
          },
          { record_id: 'self', seq: 2, miner_uid: 1, miner_hotkey: A, task: task('t2'), plan: { ...plan, edges: [{ from: 'a', to: 'a' }] }, record: record() },
        ],
      },
      stakes: [{ validator_hotkey: V, stake: 1 }],
      metagraph: [{ hotkey: A, uid: 1 }],
    });
    // The reasons of bundles already published: an auditor replaying one recomputes these exact sentences.
    expect(out.excluded.map((e) => [e.record_id, e.code, e.reason])).toEqual([
      [
        'budget',
        'COMPOSITE_INVALID_PLAN',
        'invalid workflow plan: the retry_count values of error_handling sum to more than 9007199254740991 (2^53 - 1), the largest declared_retry_budget a number holds exactly at plan.error_handling.b.retry_count (got 9007199254740991)',
      ],
      ['self', 'COMPOSITE_INVALID_DAG', 'invalid workflow DAG: self edge (a node cannot depend on itself) at plan.edges[0] (got {"from":"a","to":"a"})'],
    ]);
  });

  it('excludes, with a code, a peer score under its own hotkey, records of an unconfigured kind and a reused record id', () => {
    const out = computeEpoch({
      config: { pipeline: single, challenges: [{ id: 'term', kind: 'term_pass_rate', alpha: 1, total_tasks: 1 }] },
      epoch: 1,
      validatorHotkey: V,
      stakes: [{ validator_hotkey: V, stake: 1 }],
      metagraph: [{ hotkey: A, uid: 1 }],
      inputs: {
        peer_scores: [{ record_id: 'p', seq: 1, validator_hotkey: V, challenge_id: 'term', miner_hotkey: A, score: 1 }],
        bounty_records: [{ record_id: 'b', seq: 2, miner_hotkey: A, valid_issues: 1, invalid_issues: 0, starred_repos: 0 }],
        term_results: [
          { record_id: 'same', seq: 3, miner_hotkey: A, results: [] },
          { record_id: 'same', seq: 4, miner_hotkey: A, results: [] },
        ],
      },
    });
    expect(out.excluded.map((e) => [e.list, e.record_id, e.code])).toEqual([
      ['peer_scores', 'p', 'BUNDLE_OWN_PEER_SCORE'],
      ['bounty_records', 'b', 'BUNDLE_CHALLENGE_NOT_CONFIGURED'],
      ['term_results', 'same', 'BUNDLE_DUPLICATE_RECORD'],
    ]);
    expect(out.excluded[2]?.seq).toBe(4);
    expect(out.challenges[0]!.own_scores).toEqual([{ miner_hotkey: A, score: 0 }]);
  });

  it('is deterministic and independent of record order (SPEC 0: identical input, identical bytes)', () => {
    const records = [A, B, C, D].map((hotkey, i) => ({
      record_id: `b${i}`,
      seq: i,
      miner_hotkey: hotkey,
      valid_issues: 3 + i * 7,
      invalid_issues: i,
      starred_repos: i,
    }));
    const run = (list: typeof records) =>
      canonicalJson(
        computeEpoch({
          config: { pipeline: single, challenges: [{ id: 'bounty', kind: 'bounty', alpha: 0.9 }] },
          epoch: 1,
          validatorHotkey: V,
          inputs: { bounty_records: list },
          stakes: [{ validator_hotkey: V, stake: 1 }],
          metagraph: [A, B, C, D].map((hotkey, uid) => ({ hotkey, uid: uid + 1 })),
        }),
      );
    const reference = run(records);
    fc.assert(
      fc.property(fc.shuffledSubarray(records, { minLength: 4, maxLength: 4 }), (shuffled) => {
        expect(run(shuffled)).toBe(reference);
      }),
      { numRuns: 25 },
    );
  });
});
