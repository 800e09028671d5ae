import { beforeAll, describe, expect, it } from 'vitest';

import { computeEpochWeightsWire, parseEpochInput } from '@subnet/aggregation';
import { canonicalJson } from '@subnet/core';

import { buildBundle, computeEpoch, recomputeBundle } from '../index.js';
import type { ComputeEpochInput, EpochComputation } from '../index.js';
import { keys, plan, record, sssa, task } from './helpers.js';

// docs/spec.md C.5 "winner_takes_all (ties: earlier submission, then hotkey)" and G.4 "A miner's submission
// in an epoch": the earlier submission is the smallest seq among the miner's records the epoch used.

let A: string;
let B: string;
let C: string;
let V: string;
let P: string;
/** The lower and the higher hotkey of A and B (code point order). */
let low: string;
let high: string;
beforeAll(async () => {
  const k = await keys();
  [A, B, C] = k.miners.map((m) => m.address) as [string, string, string];
  V = k.validator.address;
  P = k.peer.address;
  [low, high] = [A, B].sort() as [string, string];
});

const BLOCK = `0x${'cd'.repeat(32)}`;
const wta = { strategy: 'winner_takes_all' };
const single = { min_validators: 1, min_stake_fraction: 0 };
const stakes = () => [{ validator_hotkey: V, stake: 1 }];
const metagraph = () => [
  { hotkey: low, uid: 1 },
  { hotkey: high, uid: 2 },
];
/** The uids with a non-zero u16 weight. */
const paid = (out: EpochComputation): number[] => out.u16.uids.filter((_, i) => out.u16.weights[i] !== 0);
const passAll = (id: string) => [{ task_id: id, tests_passed: 2, tests_total: 2, timed_out: false }];

/** computeEpoch, then an auditor's recomputation of the built bundle, which must give identical bytes. */
function computeAndAudit(input: ComputeEpochInput): EpochComputation {
  const out = computeEpoch(input);
  const bundle = buildBundle({ ...input, netuid: 3, submission: { status: 'dry_run', block: null, extrinsic_hash: null, call: null, error: null } });
  expect(canonicalJson(bundle.result)).toBe(canonicalJson(out));
  expect(recomputeBundle(JSON.parse(canonicalJson(bundle)) as typeof bundle).identical).toBe(true);
  return out;
}

function termEpoch(records: readonly { record_id: string; seq: number; miner_hotkey: string; results: unknown }[], normalisation: unknown = wta) {
  return {
    config: { pipeline: single, challenges: [{ id: 'term', kind: 'term_pass_rate', alpha: 1, weight_cap: 1, total_tasks: 1, normalisation }] },
    epoch: 4,
    validatorHotkey: V,
    inputs: { term_results: records },
    stakes: stakes(),
    metagraph: metagraph(),
  };
}

describe('winner_takes_all: an exact tie at the top goes to the earlier submission (SPEC C.5, G.4)', () => {
  it('term_pass_rate: two miners at 1.0, the later submitter holds the lower hotkey: the earlier submitter wins', () => {
    const out = computeAndAudit(
      termEpoch([
        { record_id: 'early', seq: 2, miner_hotkey: high, results: passAll('a') },
        { record_id: 'late', seq: 5, miner_hotkey: low, results: passAll('a') },
      ]),
    );
    expect(paid(out)).toEqual([2]);
    expect(out.u16.weights[out.u16.uids.indexOf(2)]).toBe(65535);
    expect((out.aggregation as { challenges: { normalisation: { winner: string } }[] }).challenges[0]!.normalisation.winner).toBe(high);
    expect(out.challenges[0]!.winner_tie).toEqual({
      score: 1,
      winner: high,
      broken_by: 'earlier_submission',
      tied: [
        { miner_hotkey: high, submitted_seq: 2 },
        { miner_hotkey: low, submitted_seq: 5 },
      ],
    });
  });

  it("term_pass_rate: a miner's submission is the record the epoch used (its latest), not an earlier superseded one", () => {
    // high sent first (seq 1) but replaced it at seq 6; the record used is seq 6, later than low's seq 5.
    const out = computeAndAudit(
      termEpoch([
        { record_id: 'h1', seq: 1, miner_hotkey: high, results: passAll('a') },
        { record_id: 'l1', seq: 5, miner_hotkey: low, results: passAll('a') },
        { record_id: 'h2', seq: 6, miner_hotkey: high, results: passAll('a') },
      ]),
    );
    expect(paid(out)).toEqual([1]);
    expect(out.challenges[0]!.winner_tie?.tied).toEqual([
      { miner_hotkey: low, submitted_seq: 5 },
      { miner_hotkey: high, submitted_seq: 6 },
    ]);
  });

  it('workflow: the earliest arrival held in the rolling window counts, carried windows included', () => {
    const config = { pipeline: single, challenges: [{ id: 'workflow', kind: 'workflow', alpha: 1, weight_cap: 1, normalisation: wta }] };
    // Epoch 0: only high runs (seq 3). Epoch 1: low runs the same task with the same result (seq 4).
    const first = computeEpoch({
      config,
      epoch: 0,
      validatorHotkey: V,
      inputs: { workflow_runs: [{ record_id: 'r3', seq: 3, miner_uid: 2, miner_hotkey: high, task: task('t1'), plan, record: record() }] },
      stakes: stakes(),
      metagraph: metagraph(),
    });
    const out = computeAndAudit({
      config,
      epoch: 1,
      validatorHotkey: V,
      inputs: {
        workflow_runs: [{ record_id: 'r4', seq: 4, miner_uid: 1, miner_hotkey: low, task: task('t1'), plan, record: record() }],
        window_state: JSON.parse(JSON.stringify(first.window_state)) as unknown,
      },
      stakes: stakes(),
      metagraph: metagraph(),
    });
    const own = out.challenges[0]!.own_scores;
    expect(own.map((s) => s.score)).toEqual([own[0]!.score, own[0]!.score]); // an exact tie
    expect(paid(out)).toEqual([2]);
    expect(out.challenges[0]!.winner_tie).toMatchObject({
      winner: high,
      broken_by: 'earlier_submission',
      tied: [
        { miner_hotkey: high, submitted_seq: 3 },
        { miner_hotkey: low, submitted_seq: 4 },
      ],
    });
  });

  it('sssa: the smallest seq among the SSSAs that earned the miner emission counts', () => {
    // Two primaries (the two lower hotkeys of A, B, C) and one auditor; identical SSSAs give both primaries 1.
    const [p1, p2, auditor] = [A, B, C].sort() as [string, string, string];
    const uid = (h: string) => [A, B, C].indexOf(h) + 1;
    const out = computeAndAudit({
      config: {
        pipeline: single,
        challenges: [{ id: 'sssa', kind: 'sssa', alpha: 1, weight_cap: 1, normalisation: wta, assignment: { primaries: 2, auditors: 1 } }],
      },
      epoch: 2,
      validatorHotkey: V,
      inputs: {
        tasks: [{ task_id: 't1', task_type: 'mcp_server', block_hash: BLOCK, seq: 0 }],
        candidates: [A, B, C].map((h) => ({ hotkey: h, uid: uid(h) })),
        sssa_submissions: [
          { record_id: 's1', seq: 1, task_id: 't1', miner_uid: uid(p2), miner_hotkey: p2, sssa: sssa() },
          { record_id: 's2', seq: 2, task_id: 't1', miner_uid: uid(auditor), miner_hotkey: auditor, sssa: sssa() },
          { record_id: 's3', seq: 3, task_id: 't1', miner_uid: uid(p1), miner_hotkey: p1, sssa: sssa() },
        ],
      },
      stakes: stakes(),
      metagraph: [A, B, C].map((h) => ({ hotkey: h, uid: uid(h) })),
    });
    const own = Object.fromEntries(out.challenges[0]!.own_scores.map((s) => [s.miner_hotkey, s.score]));
    expect(own).toEqual({ [p1]: 1, [p2]: 1, [auditor]: 0.6 });
    expect(paid(out)).toEqual([uid(p2)]);
    expect(out.challenges[0]!.winner_tie).toEqual({
      score: 1,
      winner: p2,
      broken_by: 'earlier_submission',
      tied: [
        { miner_hotkey: p2, submitted_seq: 1 },
        { miner_hotkey: p1, submitted_seq: 3 },
      ],
    });
  });

  it('a miner known only from a peer score has no submission and sorts after every miner with one, then by hotkey', () => {
    // low is scored 1.0 by the peer only; high by this validator at 1.0 (record seq 9).
    const out = computeAndAudit({
      ...termEpoch([{ record_id: 'h', seq: 9, miner_hotkey: high, results: passAll('a') }]),
      inputs: {
        term_results: [{ record_id: 'h', seq: 9, miner_hotkey: high, results: passAll('a') }],
        peer_scores: [{ record_id: 'peer', seq: 1, validator_hotkey: P, challenge_id: 'term', miner_hotkey: low, score: 1 }],
      },
      stakes: [
        { validator_hotkey: V, stake: 1 },
        { validator_hotkey: P, stake: 1 },
      ],
    });
    expect(paid(out)).toEqual([2]);
    expect(out.challenges[0]!.winner_tie).toEqual({
      score: 1,
      winner: high,
      broken_by: 'earlier_submission',
      tied: [
        { miner_hotkey: high, submitted_seq: 9 },
        { miner_hotkey: low, submitted_seq: null },
      ],
    });
  });

  it('two tied miners without a submission (peers only) are ordered by hotkey, and the tie says so', () => {
    const out = computeAndAudit({
      ...termEpoch([]),
      inputs: {
        peer_scores: [
          { record_id: 'peer', seq: 1, validator_hotkey: P, challenge_id: 'term', miner_hotkey: high, score: 1 },
          { record_id: 'peer', seq: 1, validator_hotkey: P, challenge_id: 'term', miner_hotkey: low, score: 1 },
        ],
      },
      stakes: [
        { validator_hotkey: V, stake: 1 },
        { validator_hotkey: P, stake: 1 },
      ],
    });
    expect(paid(out)).toEqual([1]);
    expect(out.challenges[0]!.winner_tie).toEqual({
      score: 1,
      winner: low,
      broken_by: 'hotkey',
      tied: [
        { miner_hotkey: low, submitted_seq: null },
        { miner_hotkey: high, submitted_seq: null },
      ],
    });
  });
});

describe('winner_takes_all: submissions do not matter without an exact tie at the top', () => {
  /** What the aggregation gives for the epoch's own scores when no submission is passed (the weights before this rule). */
  function withoutSubmissions(out: EpochComputation, normalisation: unknown) {
    return computeEpochWeightsWire(
      parseEpochInput({
        config: out.config.pipeline,
        epoch: out.epoch,
        challenges: [
          {
            id: 'term',
            kind: 'evaluations',
            alpha: 1,
            weight_cap: 1,
            normalisation,
            decay: true,
            decay_state: null,
            evaluations: out.challenges[0]!.own_scores.map((s) => ({ validator_hotkey: V, miner_hotkey: s.miner_hotkey, epoch: out.epoch, score: s.score })),
          },
        ],
        stakes: stakes(),
        metagraph: metagraph(),
      }),
    );
  }

  it('no tie: the same weights and explanation bit for bit as the aggregation without submissions, and no winner_tie', () => {
    const out = computeAndAudit(
      termEpoch([
        { record_id: 'early', seq: 2, miner_hotkey: high, results: [{ task_id: 'a', tests_passed: 1, tests_total: 2, timed_out: false }] },
        { record_id: 'late', seq: 5, miner_hotkey: low, results: passAll('a') },
      ]),
    );
    const before = withoutSubmissions(out, wta);
    expect(paid(out)).toEqual([1]);
    expect(canonicalJson(out.u16)).toBe(canonicalJson({ uids: before.uids, weights: before.weights }));
    expect(canonicalJson(out.aggregation)).toBe(canonicalJson(before.explanation));
    expect(Object.keys(out.challenges[0]!)).not.toContain('winner_tie');
  });

  it('docs/spec.md G.9: the decay state and explanation name the tie winner, the earlier submitter, not the lower hotkey', () => {
    const out = computeAndAudit(
      termEpoch([
        { record_id: 'early', seq: 2, miner_hotkey: high, results: passAll('a') },
        { record_id: 'late', seq: 5, miner_hotkey: low, results: passAll('a') },
      ]),
    );
    const explained = (out.aggregation as { challenges: { decay: { candidate: unknown; replaced_top: boolean } }[] }).challenges[0]!.decay;
    expect(out.challenges[0]!.winner_tie?.winner).toBe(high);
    expect(explained).toMatchObject({ candidate: { hotkey: high, score: 1 }, replaced_top: true });
    expect(out.decay_states).toEqual([{ challenge_id: 'term', state: { top_score: 1, top_epoch: 4, top_hotkey: high } }]);
    // Under linear the submissions are not passed: the lower hotkey, as before the rule.
    const linear = computeAndAudit(
      termEpoch(
        [
          { record_id: 'early', seq: 2, miner_hotkey: high, results: passAll('a') },
          { record_id: 'late', seq: 5, miner_hotkey: low, results: passAll('a') },
        ],
        { strategy: 'linear' },
      ),
    );
    expect(linear.decay_states).toEqual([{ challenge_id: 'term', state: { top_score: 1, top_epoch: 4, top_hotkey: low } }]);
  });

  it('a tie under linear: submissions are not read, the result is the aggregation without them, and no winner_tie', () => {
    const linear = { strategy: 'linear' };
    const out = computeAndAudit(
      termEpoch(
        [
          { record_id: 'early', seq: 2, miner_hotkey: high, results: passAll('a') },
          { record_id: 'late', seq: 5, miner_hotkey: low, results: passAll('a') },
        ],
        linear,
      ),
    );
    const before = withoutSubmissions(out, linear);
    expect(canonicalJson(out.u16)).toBe(canonicalJson({ uids: before.uids, weights: before.weights }));
    expect(canonicalJson(out.aggregation)).toBe(canonicalJson(before.explanation));
    expect(Object.keys(out.challenges[0]!)).not.toContain('winner_tie');
  });
});
