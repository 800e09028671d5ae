import { canonicalJson, encodeSs58, sha256Hex } from '@subnet/core';

import { scoring } from './helpers.js';

/**
 * A large, realistic epoch for the close's worker tests (not a test file): the computation's input as the runner
 * gives it to `computeEpoch` (wire JSON, records in arrival order), with every challenge kind of {@link scoring}:
 * workflow runs, SSSA tasks answered by every candidate (each with findings), term results, bounty records, and the
 * peers' scores of every miner in each scored challenge (expanded per miner, as `inputsFromRecords` does).
 */
export interface LargeEpochOptions {
  readonly miners: number;
  /** Validators with stakes, this one included (the others send peer scores). */
  readonly validators: number;
  readonly workflowRunsPerMiner: number;
  readonly sssaTasks: number;
  readonly findingsPerSssa: number;
  readonly epoch?: number;
  /** This validator's hotkey (validator 0); default: a generated one. */
  readonly self?: string;
}

/** A deterministic, checksum-valid hotkey (public key = sha256 of the label). */
export function labelHotkey(label: string): string {
  return encodeSs58(Buffer.from(sha256Hex(label), 'hex'));
}

/** A small deterministic generator (no Math.random: the epoch is the same on every run). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const findingOf = (i: number, rand: () => number) => ({
  id: `f${i}`,
  category: ['tool_poison', 'exfiltration', 'prompt_injection'][i % 3],
  severity: ['low', 'medium', 'high', 'critical'][Math.floor(rand() * 4)],
  description: `finding ${i}`,
  evidence_ref: `span-${i % 7}:tools/file${i % 11}.py#L${1 + (i % 40)}-L${50 + (i % 40)}`,
  cve_ids: [],
  target_pattern: `tools/file${i % 11}.py`,
});

/**
 * The epoch's `computeEpoch` input (config, epoch, validator hotkey, inputs, stakes, metagraph) and how many records
 * it holds.
 */
export function largeEpochInput(options: LargeEpochOptions) {
  const epoch = options.epoch ?? 5;
  const rand = lcg(options.miners * 7919 + options.validators);
  const validators = Array.from({ length: options.validators }, (_, i) =>
    i === 0 && options.self !== undefined ? options.self : labelHotkey(`validator-${i}`),
  );
  const miners = Array.from({ length: options.miners }, (_, i) => labelHotkey(`miner-${i}`));
  const self = validators[0] ?? '';
  const uidOf = new Map(miners.map((hotkey, i) => [hotkey, options.validators + i]));
  let seq = 0;
  const workflow_runs = miners.flatMap((hotkey, m) =>
    Array.from({ length: options.workflowRunsPerMiner }, (_, r) => ({
      record_id: `wf-${m}-${r}`,
      miner_hotkey: hotkey,
      miner_uid: uidOf.get(hotkey),
      task: { task_id: `wt-${m}-${r}`, constraints: { max_budget_tao: 1, max_latency_seconds: 60 } },
      plan: {
        nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
        edges: [
          { from: 'a', to: 'b' },
          { from: 'b', to: 'c' },
        ],
      },
      record: {
        output_quality_score: Math.round(rand() * 1000) / 1000,
        actual_tao: Math.round(rand() * 900) / 1000,
        actual_seconds: 1 + Math.floor(rand() * 59),
        steps_completed: 1 + Math.floor(rand() * 3),
        actual_retries: Math.floor(rand() * 2),
        timeouts: 0,
        hard_failures: 0,
      },
      seq: seq++,
    })),
  );
  const tasks = Array.from({ length: options.sssaTasks }, (_, t) => ({
    task_id: `st-${t}`,
    task_type: 'mcp_server',
    block_hash: `0x${sha256Hex(`block-${t}`)}`,
    seq: seq++,
  }));
  const sssa_submissions = tasks.flatMap((task) =>
    miners.map((hotkey, m) => ({
      record_id: `ss-${task.task_id}-${m}`,
      task_id: task.task_id,
      miner_uid: uidOf.get(hotkey),
      miner_hotkey: hotkey,
      sssa: {
        verdict: rand() < 0.8 ? 'ALLOW' : 'BLOCK',
        risk_score: Math.round(rand() * 1000) / 1000,
        findings: Array.from({ length: options.findingsPerSssa }, (_, f) => findingOf(f + (rand() < 0.2 ? 1 : 0), rand)),
        capabilities: ['fs.read'],
        dependencies: [],
        policy: { rules: [] },
      },
      seq: seq++,
    })),
  );
  const term_results = miners.map((hotkey, m) => ({
    record_id: `term-${m}`,
    miner_hotkey: hotkey,
    results: Array.from({ length: 4 }, (_, t) => {
      const total = 1 + Math.floor(rand() * 4);
      return { task_id: `task-${t}`, tests_passed: Math.floor(rand() * (total + 1)), tests_total: total, timed_out: false };
    }),
    seq: seq++,
  }));
  const bounty_records = miners.map((hotkey, m) => ({
    record_id: `bounty-${m}`,
    miner_hotkey: hotkey,
    valid_issues: Math.floor(rand() * 25),
    invalid_issues: Math.floor(rand() * 4),
    starred_repos: Math.floor(rand() * 6),
    seq: seq++,
  }));
  const peer_scores = validators.slice(1).flatMap((validator, v) =>
    ['workflow', 'sssa', 'term'].flatMap((challenge) => {
      const doc = { record_id: `peer-${v}-${challenge}`, seq: seq++ };
      return miners.map((hotkey) => ({
        ...doc,
        validator_hotkey: validator,
        challenge_id: challenge,
        miner_hotkey: hotkey,
        score: Math.round(rand() * 1000) / 1000,
      }));
    }),
  );
  const candidates = miners.map((hotkey) => ({ hotkey, uid: uidOf.get(hotkey) }));
  const reputations = [...miners].sort().map((hotkey, i) => ({ task_type: 'mcp_server', hotkey, reputation: 0.3 + (0.6 * i) / Math.max(1, miners.length) }));
  const input = {
    config: scoring,
    epoch,
    validatorHotkey: self,
    inputs: {
      workflow_runs,
      tasks,
      sssa_submissions,
      term_results,
      bounty_records,
      peer_scores,
      candidates,
      window_state: null,
      decay_states: [],
      reputations,
    },
    stakes: validators.map((validator_hotkey, i) => ({ validator_hotkey, stake: String(1_000_000_000_000 + i * 1_000_000_000) })),
    metagraph: [...validators.map((hotkey, uid) => ({ hotkey, uid })), ...miners.map((hotkey) => ({ hotkey, uid: uidOf.get(hotkey) ?? 0 }))],
  };
  // As the runner's inputs are: read back from stored JSON (canonical), so numbers and key spelling are what storage gives.
  const stored = JSON.parse(canonicalJson(input)) as typeof input;
  const records = workflow_runs.length + tasks.length + sssa_submissions.length + term_results.length + bounty_records.length + peer_scores.length;
  return { input: stored, records };
}

/**
 * The epoch's records as the validator stores them (kind, id, body without `seq`), in arrival order, so that
 * `inputsFromRecords` gives back the generated inputs: peer scores as one document per peer and challenge, the SSSA
 * candidates and reputations as the epoch's task snapshot.
 *
 * @param input - {@link largeEpochInput}'s input
 * @param epoch - the epoch the records are stored under
 * @returns the records, with their canonical bodies' digests
 */
export function storedRecordsOf(input: ReturnType<typeof largeEpochInput>['input'], epoch: number) {
  const out: { kind: string; seq: number; recordId: string; body: unknown }[] = [];
  const strip = ({ seq, ...body }: { seq: number }) => ({ seq, body });
  const add = (kind: string, list: readonly ({ seq: number; record_id?: string; task_id?: string } & Record<string, unknown>)[]) => {
    for (const r of list) {
      const { seq, body } = strip(r);
      out.push({ kind, seq, recordId: r.record_id ?? r.task_id ?? '', body });
    }
  };
  const inputs = input.inputs;
  add('workflow_run', inputs.workflow_runs);
  add('task', inputs.tasks);
  add('sssa', inputs.sssa_submissions);
  add('term_result', inputs.term_results);
  add('bounty', inputs.bounty_records);
  const docs = new Map<
    string,
    { seq: number; body: { validator_hotkey: string; challenge_id: string; epoch: number; scores: { miner_hotkey: string; score: number }[] } }
  >();
  for (const p of inputs.peer_scores) {
    let doc = docs.get(p.record_id);
    if (doc === undefined) {
      doc = { seq: p.seq, body: { validator_hotkey: p.validator_hotkey, challenge_id: p.challenge_id, epoch, scores: [] } };
      docs.set(p.record_id, doc);
    }
    doc.body.scores.push({ miner_hotkey: p.miner_hotkey, score: p.score });
  }
  for (const [recordId, doc] of docs) out.push({ kind: 'peer_score', seq: doc.seq, recordId, body: doc.body });
  out.sort((a, b) => a.seq - b.seq);
  const snapshot = { kind: 'task_snapshot', recordId: `snapshot-${epoch}`, body: { candidates: inputs.candidates, reputations: inputs.reputations } };
  return [snapshot, ...out].map((r) => {
    const body = canonicalJson(r.body);
    return { kind: r.kind, recordId: r.recordId, epoch, body, digest: sha256Hex(body) };
  });
}
