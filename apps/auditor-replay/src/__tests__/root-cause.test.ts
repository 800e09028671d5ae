import { beforeAll, describe, expect, it } from 'vitest';

import { buildBundle, signBundle } from '@subnet/bundle';

import { auditBundle, buildReport, downstreamMismatches, formatReport } from '../index.js';
import type { BundleAudit } from '../index.js';
import { signatureVerifier } from '../signature-verifier.js';
import { dryRun, keys, minerHotkey, resign, signedBundle, sssaTaskInputs } from './fixtures.js';
import type { Keys } from './fixtures.js';

let k: Keys;
let verify: Awaited<ReturnType<typeof signatureVerifier>>;

type Doc = {
  bundle: {
    inputs: { term_results: { record_id: string; results: { tests_passed: number; tests_total: number }[] }[]; peer_scores: { score: number }[] };
    config: { challenges: { alpha: number }[] };
    result: { u16: { weights: number[] } };
  };
};

function fresh(epoch = 2): Doc {
  return signedBundle(k, { miners: 5, epoch }) as unknown as Doc;
}

function audit(doc: unknown): BundleAudit {
  return auditBundle(doc, 'bundle.json', verify).audit;
}

beforeAll(async () => {
  k = await keys();
  verify = await signatureVerifier();
});

describe('root cause first (issue 19, item 1)', () => {
  it('one changed input record: the root cause is that record, and every other difference is listed after it as downstream', () => {
    for (const i of [0, 1, 3]) {
      const doc = fresh();
      const task = doc.bundle.inputs.term_results[i]!.results.find((t) => t.tests_passed > 0)!;
      task.tests_passed -= 1;
      const a = audit(doc);
      expect(a.root_cause?.kind).toBe('input');
      expect(a.root_cause?.path).toBe(`bundle.inputs.term_results[${i}]`);
      expect(a.root_cause?.record).toBe(doc.bundle.inputs.term_results[i]!.record_id);
      // The list is in pipeline order: digest check, then the root cause's value, then the downstream values.
      const values = a.mismatches.filter((m) => m.stage !== 'digest' && m.stage !== 'signature');
      expect(values[0]).toEqual(a.root_cause?.mismatch);
      expect(downstreamMismatches(a)).toHaveLength(values.length - 1);
      expect(values.at(-1)?.stage).toMatch(/^(u16|aggregation|decay_states)/);
    }
  });

  it('an input record the recomputation excludes and the bundle scores: the root cause says so first, with the code and reason', () => {
    const doc = fresh();
    // One key the term_results schema does not have: the pipeline refuses the record (BUNDLE_INVALID_RECORD).
    (doc.bundle.inputs.term_results[0] as unknown as Record<string, unknown>)['note'] = 'x';
    const a = audit(doc);
    expect(a.root_cause).toMatchObject({ kind: 'input', path: 'bundle.inputs.term_results[0]', record: doc.bundle.inputs.term_results[0]!.record_id });
    expect(a.root_cause?.sentence).toMatch(
      /^input record bundle\.inputs\.term_results\[0\] \(record [^)]+\) is excluded by the recomputation, \[BUNDLE_INVALID_RECORD\] the record does not match the term_results schema: Unrecognized key: "note" at term_results\[0\], but the bundle scores it: /,
    );
    // A record both sides score is told as before.
    const changed = fresh();
    changed.bundle.inputs.term_results[0]!.results.find((t) => t.tests_passed > 0)!.tests_passed -= 1;
    expect(audit(changed).root_cause?.sentence).toMatch(/^input record bundle\.inputs\.term_results\[0\] \(record [^)]+\) gives /);
  });

  it('a changed configuration value: the root cause is that value in bundle.config', () => {
    const doc = fresh();
    // Challenges are in canonical (id) order inside a bundle: find the one whose alpha is 0.6.
    const i = doc.bundle.config.challenges.findIndex((c) => c.alpha === 0.6);
    expect(i).toBeGreaterThanOrEqual(0);
    doc.bundle.config.challenges[i]!.alpha = 0.5;
    const a = audit(doc);
    expect(a.root_cause).toMatchObject({ kind: 'config', path: `bundle.config.challenges[${i}].alpha` });
    expect(a.root_cause?.mismatch).toMatchObject({ expected: 0.5, claimed: 0.6 });
  });

  it("a changed peer score: the root cause is that peer's score record", () => {
    const doc = fresh();
    doc.bundle.inputs.peer_scores[2]!.score = 0.01;
    const a = audit(doc);
    expect(a.root_cause).toMatchObject({ kind: 'input', path: 'bundle.inputs.peer_scores[2]' });
  });

  it("a miner with records of two kinds: a changed own score is traced to its record of that challenge's kind, not to its first record", () => {
    // SSSA submissions come before term results in a bundle's inputs; the term challenge's own score is the term record's.
    const miners = [0, 1, 2].map((i) => minerHotkey(i));
    const bundle = buildBundle({
      netuid: 1,
      config: {
        pipeline: { min_validators: 1, min_stake_fraction: 0 },
        challenges: [
          { id: 'sssa', kind: 'sssa', alpha: 0.5 },
          { id: 'term', kind: 'term_pass_rate', alpha: 0.5, total_tasks: 1 },
        ],
      },
      epoch: 4,
      validatorHotkey: k.validator.address,
      inputs: {
        ...sssaTaskInputs(miners),
        term_results: miners.map((hotkey, i) => ({
          record_id: `t${i}`,
          seq: 20 + i,
          miner_hotkey: hotkey,
          results: [{ task_id: 'a', tests_passed: i, tests_total: 2, timed_out: false }],
        })),
      },
      stakes: [{ validator_hotkey: k.validator.address, stake: '1000' }],
      metagraph: [{ hotkey: k.validator.address, uid: 0 }, ...miners.map((hotkey, i) => ({ hotkey, uid: i + 1 }))],
      submission: dryRun,
    });
    type Doc2 = {
      bundle: {
        inputs: { sssa_submissions: { miner_hotkey: string }[]; term_results: { miner_hotkey: string; record_id: string }[] };
        result: {
          challenges: { id: string; own_scores: { miner_hotkey: string; score: number }[] }[];
          aggregation: {
            challenges: { id: string; aggregation: { miners: { hotkey: string; evaluations_used: { validator_hotkey: string; score: number }[] }[] } }[];
          };
        };
      };
    };
    const fresh2 = () => JSON.parse(JSON.stringify(signBundle(bundle, k.validator))) as Doc2;
    const doc = fresh2();
    expect(Object.keys(doc.bundle.inputs).indexOf('sssa_submissions')).toBeLessThan(Object.keys(doc.bundle.inputs).indexOf('term_results'));
    const termRecord = (hotkey: string) => {
      const i = doc.bundle.inputs.term_results.findIndex((r) => r.miner_hotkey === hotkey);
      expect(doc.bundle.inputs.sssa_submissions.some((r) => r.miner_hotkey === hotkey)).toBe(true);
      return { kind: 'input', path: `bundle.inputs.term_results[${i}]`, record: doc.bundle.inputs.term_results[i]!.record_id };
    };
    // The validator's own score of the miner in the term challenge.
    const own = doc.bundle.result.challenges.find((c) => c.id === 'term')!.own_scores[0]!;
    own.score += 0.125;
    const a = audit(resign(doc, k.validator));
    expect(a.root_cause).toMatchObject(termRecord(own.miner_hotkey));
    expect(a.root_cause?.mismatch).toMatchObject({ stage: 'challenges[term].own_scores', miner: { hotkey: own.miner_hotkey }, field: 'score' });
    // The validator's own evaluation of the miner, as the term challenge's aggregation used it.
    const other = fresh2();
    const miner = other.bundle.result.aggregation.challenges.find((c) => c.id === 'term')!.aggregation.miners[0]!;
    const evaluation = miner.evaluations_used.find((e) => e.validator_hotkey === k.validator.address)!;
    evaluation.score /= 2;
    const b = audit(resign(other, k.validator));
    expect(b.root_cause).toMatchObject(termRecord(miner.hotkey));
    expect(b.root_cause?.mismatch).toMatchObject({ stage: 'aggregation.challenges[term].aggregation.miners', miner: { hotkey: miner.hotkey } });
  });

  it("a changed value of the carried window_state (a workflow bundle): the root cause is the window's miner's workflow run, not the claimed value", () => {
    // Only the result's window_state is edited (and re-signed): the rolling windows are the miners' own records, so the
    // difference is traced to the miner's workflow run, as a changed own score is traced to the miner's record.
    const miners = [0, 1, 2].map((i) => minerHotkey(i));
    const task = { task_id: 'task-1', constraints: { max_budget_tao: 1, max_latency_seconds: 60 } };
    const plan = { nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] };
    const bundle = buildBundle({
      netuid: 1,
      config: { pipeline: { min_validators: 1, min_stake_fraction: 0 }, challenges: [{ id: 'workflow', kind: 'workflow', alpha: 1 }] },
      epoch: 5,
      validatorHotkey: k.validator.address,
      inputs: {
        workflow_runs: miners.map((hotkey, i) => ({
          record_id: `w${i}`,
          seq: 30 + i,
          miner_uid: i + 1,
          miner_hotkey: hotkey,
          task,
          plan,
          record: {
            output_quality_score: 1 - i / 4,
            actual_tao: 0.5,
            actual_seconds: 30,
            steps_completed: 2,
            actual_retries: 0,
            timeouts: 0,
            hard_failures: 0,
          },
        })),
      },
      stakes: [{ validator_hotkey: k.validator.address, stake: '1000' }],
      metagraph: [{ hotkey: k.validator.address, uid: 0 }, ...miners.map((hotkey, i) => ({ hotkey, uid: i + 1 }))],
      submission: dryRun,
    });
    type Doc3 = {
      bundle: {
        inputs: { workflow_runs: { miner_hotkey: string; record_id: string }[] };
        result: { window_state: { windows: { hotkey: string; scores: number[] }[] } };
      };
    };
    const doc = JSON.parse(JSON.stringify(signBundle(bundle, k.validator))) as Doc3;
    const window = doc.bundle.result.window_state.windows[1]!;
    window.scores[0] = window.scores[0]! / 2;
    const a = audit(resign(doc, k.validator));
    expect(a.checks).toMatchObject({ digest: true, signature: true, recompute: false });
    const i = doc.bundle.inputs.workflow_runs.findIndex((r) => r.miner_hotkey === window.hotkey);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(a.root_cause).toMatchObject({ kind: 'input', path: `bundle.inputs.workflow_runs[${i}]`, record: doc.bundle.inputs.workflow_runs[i]!.record_id });
    expect(a.root_cause?.mismatch).toMatchObject({ path: 'bundle.result.window_state.windows[1].scores[0]', miner: { hotkey: window.hotkey } });
    expect(a.root_cause?.sentence).toContain(`of miner ${window.hotkey} gives`);
  });

  it('a claimed result value changed and re-signed: no input explains it, the root cause is the claimed value itself', () => {
    const doc = fresh();
    doc.bundle.result.u16.weights[1] = doc.bundle.result.u16.weights[1]! + 7;
    const a = audit(resign(doc, k.validator));
    expect(a.checks).toMatchObject({ digest: true, signature: true, recompute: false });
    expect(a.root_cause).toMatchObject({ kind: 'result', path: 'bundle.result.u16.weights[1]' });
    expect(downstreamMismatches(a)).toHaveLength(0);
  });

  it('text: the verdict of each check, then the root cause, then "N downstream values follow" with at most --max-lines of them (all with Infinity)', () => {
    const doc = fresh();
    doc.bundle.inputs.term_results[1]!.results[0]!.tests_passed = 0;
    doc.bundle.inputs.term_results[1]!.results[0]!.tests_total = 4;
    const a = audit(doc);
    const n = downstreamMismatches(a).length;
    expect(n).toBeGreaterThan(20);
    const lines = formatReport(buildReport([a])).split('\n');
    const checks = lines.findIndex((l) => l.trim() === 'checks: schema ok, digest FAIL, signature ok, recompute FAIL, chain -');
    const root = lines.findIndex((l) => l.trim().startsWith('root cause: input record bundle.inputs.term_results[1]'));
    const follow = lines.findIndex((l) => l.trim().startsWith(`${n} downstream value(s) follow (showing 20;`));
    expect(checks).toBeGreaterThan(0);
    expect(root).toBeGreaterThan(checks);
    expect(follow).toBeGreaterThan(root);
    expect(lines.slice(follow + 1).filter((l) => l.startsWith('    epoch 2 stage '))).toHaveLength(20);
    const all = formatReport(buildReport([a]), Number.POSITIVE_INFINITY).split('\n');
    expect(all.filter((l) => l.startsWith('    epoch 2 stage '))).toHaveLength(n);
  });
});
