import { compareCodePoints, parseInput } from '@subnet/core';
import { computeEpochWeights, parseEpochInput, passRate } from '@subnet/aggregation';
import { addTaskScores, emptyWindowState, scoreWorkflow, windowScores } from '@subnet/composite';
import { computeConsensus, emission } from '@subnet/consensus';
import { z } from 'zod';

import type { ChallengeSettings, EpochConfig } from './epoch-config.js';
import { parseEpochConfig } from './epoch-config.js';
import type { EpochInputs } from './epoch-inputs.js';
import { neuronEntrySchema, parseEpochInputs, stakeEntrySchema } from './epoch-inputs.js';
import { BUNDLE_ERROR_CODES, fail } from './errors.js';
import { deepFreeze, toWire } from './wire.js';

/** What {@link computeEpoch} takes: everything on the wire (snake_case JSON), as a bundle stores it. */
export interface ComputeEpochInput {
  /** The scoring configuration ({@link parseEpochConfig}). */
  readonly config: unknown;
  /** The epoch number (integer >= 0). */
  readonly epoch: number;
  /** The hotkey of the validator computing the epoch: its own scores are evaluations by this hotkey. */
  readonly validatorHotkey: string;
  /** Every input record ({@link parseEpochInputs}). */
  readonly inputs: unknown;
  /** The epoch's validator set with stakes: `[{ validator_hotkey, stake }]`. */
  readonly stakes: unknown;
  /** The metagraph: `[{ hotkey, uid }]`. */
  readonly metagraph: unknown;
}

/** One miner's score from this validator in one challenge. */
export interface OwnScore {
  readonly miner_hotkey: string;
  readonly score: number;
}

/** One challenge's own scores and how they were reached (snake_case, as stored in the bundle). */
export interface ChallengeOutcome {
  readonly id: string;
  readonly kind: ChallengeSettings['kind'];
  /** This validator's score per miner, by hotkey (bounty: empty, its records go in directly). */
  readonly own_scores: readonly OwnScore[];
  /** The kind's intermediate values (task scores, consensus groups, emissions, pass rates, bounty records). */
  readonly details: unknown;
}

/** The result of {@link computeEpoch}: every intermediate and final value, snake_case, frozen. */
export interface EpochComputation {
  readonly epoch: number;
  /** The configuration as used, defaults filled in. */
  readonly config: EpochConfig;
  readonly challenges: readonly ChallengeOutcome[];
  /** The workflow rolling-window state after this epoch (null without a workflow challenge). */
  readonly window_state: unknown;
  /** Reward-decay states to carry into the next epoch. */
  readonly decay_states: readonly { readonly challenge_id: string; readonly state: unknown }[];
  /** The aggregation pipeline's full explanation (`@subnet/aggregation` computeEpochWeights). */
  readonly aggregation: unknown;
  /** The vector to set: uids ascending and their u16 weights. */
  readonly u16: { readonly uids: readonly number[]; readonly weights: readonly number[] };
}

const epochSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * Computes one epoch from its records and configuration, the one composition both the validator and the
 * auditor run: per-challenge scores with `@subnet/composite` (workflow rolling window, SPEC A),
 * `@subnet/consensus` (SSSA consensus and emission, SPEC B) and `@subnet/aggregation` (pass rates, bounty
 * W, SPEC C.1 and C.8), then the epoch weights with `computeEpochWeights` (aggregation across validators,
 * normalisation, caps, decay, allocation, uid mapping, u16; SPEC C). Pure: no clock, no I/O; identical
 * input gives identical output, and `canonicalJson` of the output gives identical bytes.
 *
 * @param input - configuration, epoch, validator hotkey, inputs, stakes and metagraph, all wire JSON
 * @returns every intermediate and final value, frozen, snake_case
 * @throws SubnetError `BUNDLE_INVALID_CONFIG`, `BUNDLE_INVALID_INPUT` naming the field; the scoring
 *   packages' codes (`COMPOSITE_*`, `CONSENSUS_*`, `AGGREGATION_*`) for records they reject
 * @example
 * const out = computeEpoch({ config, epoch: 7, validatorHotkey, inputs: { bounty_records }, stakes, metagraph });
 * out.u16 // { uids: [0, 3], weights: [...] }
 */
export function computeEpoch(input: ComputeEpochInput): EpochComputation {
  const config = parseEpochConfig(input.config);
  const epoch = parseInput(epochSchema, input.epoch, BUNDLE_ERROR_CODES.invalidInput, 'epoch');
  const self = parseInput(neuronEntrySchema.shape.hotkey, input.validatorHotkey, BUNDLE_ERROR_CODES.invalidInput, 'validator_hotkey');
  const inputs = parseEpochInputs(input.inputs);
  const stakes = parseInput(z.array(stakeEntrySchema), input.stakes, BUNDLE_ERROR_CODES.invalidInput, 'stakes');
  const metagraph = parseInput(z.array(neuronEntrySchema), input.metagraph, BUNDLE_ERROR_CODES.invalidInput, 'metagraph');

  checkRoutes(config, inputs, self);

  const outcomes: ChallengeOutcome[] = [];
  const challengesWire: Record<string, unknown>[] = [];
  let windowState: unknown = null;
  for (const challenge of config.challenges) {
    const base: Record<string, unknown> = {
      id: challenge.id,
      kind: challenge.kind === 'bounty' ? 'bounty' : 'evaluations',
      alpha: challenge.alpha,
      ...(challenge.weight_cap === undefined ? {} : { weight_cap: challenge.weight_cap }),
      ...(challenge.normalisation === undefined ? {} : { normalisation: challenge.normalisation }),
    };
    if (challenge.kind === 'bounty') {
      const latest = latestPerMiner(inputs.bounty_records);
      const records = latest.map((r) => ({
        hotkey: r.miner_hotkey,
        valid_issues: r.valid_issues,
        invalid_issues: r.invalid_issues,
        starred_repos: r.starred_repos,
      }));
      outcomes.push({ id: challenge.id, kind: challenge.kind, own_scores: [], details: { records_used: latest.map((r) => r.record_id) } });
      challengesWire.push({ ...base, records });
      continue;
    }
    let own: OwnScore[];
    let details: unknown;
    if (challenge.kind === 'workflow') {
      const scored = scoreWorkflows(inputs);
      windowState = scored.windowState;
      own = scored.own;
      details = scored.details;
    } else if (challenge.kind === 'sssa') {
      const scored = scoreSssa(inputs, challenge);
      own = scored.own;
      details = scored.details;
    } else {
      const scored = scoreTerms(inputs, challenge.total_tasks);
      own = scored.own;
      details = scored.details;
    }
    const evaluations = [
      ...own.map((s) => ({ validator_hotkey: self, miner_hotkey: s.miner_hotkey, epoch, score: s.score })),
      ...inputs.peer_scores
        .filter((p) => p.challenge_id === challenge.id)
        .map((p) => ({ validator_hotkey: p.validator_hotkey, miner_hotkey: p.miner_hotkey, epoch, score: p.score })),
    ].sort((a, b) => compareCodePoints(a.miner_hotkey, b.miner_hotkey) || compareCodePoints(a.validator_hotkey, b.validator_hotkey));
    const carried = inputs.decay_states.find((d) => d.challenge_id === challenge.id);
    challengesWire.push({
      ...base,
      decay: challenge.decay,
      evaluations,
      ...(challenge.decay ? { decay_state: carried?.state ?? null } : {}),
    });
    outcomes.push({ id: challenge.id, kind: challenge.kind, own_scores: own, details });
  }

  const weights = computeEpochWeights(
    parseEpochInput({ config: config.pipeline, epoch, challenges: challengesWire, stakes, metagraph }),
  );
  return deepFreeze({
    epoch,
    config,
    challenges: toWire(outcomes) as readonly ChallengeOutcome[],
    window_state: windowState,
    decay_states: weights.decayStates.map((d) => ({ challenge_id: d.challengeId, state: toWire(d.state) })),
    aggregation: toWire(weights.explanation),
    u16: { uids: [...weights.uids], weights: [...weights.weights] },
  });
}

function checkRoutes(config: EpochConfig, inputs: EpochInputs, self: string): void {
  const kinds = new Set(config.challenges.map((c) => c.kind));
  const lists: [ChallengeSettings['kind'], string, number][] = [
    ['workflow', 'workflow_runs', inputs.workflow_runs.length],
    ['sssa', 'sssa_submissions', inputs.sssa_submissions.length],
    ['term_pass_rate', 'term_results', inputs.term_results.length],
    ['bounty', 'bounty_records', inputs.bounty_records.length],
  ];
  for (const [kind, name, length] of lists) {
    if (length > 0 && !kinds.has(kind)) fail(BUNDLE_ERROR_CODES.invalidInput, `records for a challenge kind that is not configured (${kind})`, `inputs.${name}`, length);
  }
  const evaluationIds = new Set(config.challenges.filter((c) => c.kind !== 'bounty').map((c) => c.id));
  inputs.peer_scores.forEach((p, i) => {
    if (!evaluationIds.has(p.challenge_id)) {
      fail(BUNDLE_ERROR_CODES.invalidInput, 'peer score for a challenge that is not an evaluation challenge here', `inputs.peer_scores[${i}].challenge_id`, p.challenge_id);
    }
    if (p.validator_hotkey === self) {
      fail(BUNDLE_ERROR_CODES.invalidInput, "a peer score signed by this validator's own hotkey", `inputs.peer_scores[${i}].validator_hotkey`, p.validator_hotkey);
    }
  });
}

/** Per miner hotkey, the record with the highest seq (ties: record id), sorted by hotkey. */
function latestPerMiner<R extends { readonly miner_hotkey: string; readonly seq: number; readonly record_id: string }>(records: readonly R[]): R[] {
  const best = new Map<string, R>();
  for (const r of records) {
    const current = best.get(r.miner_hotkey);
    if (current === undefined || r.seq > current.seq || (r.seq === current.seq && compareCodePoints(r.record_id, current.record_id) > 0)) best.set(r.miner_hotkey, r);
  }
  return [...best.values()].sort((a, b) => compareCodePoints(a.miner_hotkey, b.miner_hotkey));
}

function scoreWorkflows(inputs: EpochInputs): { own: OwnScore[]; details: unknown; windowState: unknown } {
  const runs = [...inputs.workflow_runs].sort((a, b) => a.seq - b.seq || compareCodePoints(a.record_id, b.record_id));
  const tasks = runs.map((run) => {
    const scored = scoreWorkflow({ task: run.task, plan: run.plan, record: run.record });
    const taskId = (run.task as { task_id?: unknown }).task_id;
    return { run, taskId: typeof taskId === 'string' ? taskId : run.record_id, scored };
  });
  const state = addTaskScores(
    inputs.window_state ?? emptyWindowState(),
    tasks.map((t) => ({ uid: t.run.miner_uid, hotkey: t.run.miner_hotkey, taskId: t.taskId, arrival: t.run.seq, score: t.scored.score })),
  );
  const windows = windowScores(state);
  const own = windows
    .map((w) => ({ miner_hotkey: w.hotkey, score: w.score }))
    .sort((a, b) => compareCodePoints(a.miner_hotkey, b.miner_hotkey));
  return {
    own,
    windowState: JSON.parse(JSON.stringify(state)) as unknown,
    details: {
      task_scores: tasks.map((t) => ({ record_id: t.run.record_id, miner_uid: t.run.miner_uid, miner_hotkey: t.run.miner_hotkey, task_id: t.taskId, ...t.scored })),
      windows,
    },
  };
}

function scoreSssa(inputs: EpochInputs, challenge: Extract<ChallengeSettings, { kind: 'sssa' }>): { own: OwnScore[]; details: unknown } {
  const tables = challenge.emission;
  const byTask = new Map<string, EpochInputs['sssa_submissions'][number][]>();
  for (const s of inputs.sssa_submissions) {
    const list = byTask.get(s.task_id) ?? [];
    list.push(s);
    byTask.set(s.task_id, list);
  }
  const taskIds = [...byTask.keys()].sort(compareCodePoints);
  const totals = new Map<string, number>();
  const groups = taskIds.map((taskId) => {
    const members = byTask.get(taskId) ?? [];
    const types = new Set(members.map((m) => m.task_type));
    if (types.size > 1) fail(BUNDLE_ERROR_CODES.invalidInput, 'SSSAs of one task disagree on its task type', `inputs.sssa_submissions[task_id=${taskId}].task_type`, [...types].sort(compareCodePoints));
    const taskType = members[0]?.task_type ?? '';
    const consensus = computeConsensus({
      taskId,
      members: members.map((m) => ({ uid: m.miner_uid, hotkey: m.miner_hotkey, role: m.role, sssa: m.sssa })),
    });
    const emissions = consensus.members.map((member) => {
      const result = emission(
        {
          compositeQ: tables.composite_q,
          baseWeight: tables.base_weights[taskType] ?? tables.default_base_weight,
          tierMultiplier: tables.tier_multipliers[member.hotkey] ?? tables.default_tier_multiplier,
          earlyBonus: tables.early_bonus,
          role: member.role,
          consensus: member.consensus,
          bootstrap: tables.bootstrap,
        },
        { role: tables.role },
      );
      totals.set(member.hotkey, (totals.get(member.hotkey) ?? 0) + result.emission);
      return { hotkey: member.hotkey, ...result };
    });
    return { task_id: taskId, task_type: taskType, consensus, emissions };
  });
  const hotkeys = [...totals.keys()].sort(compareCodePoints);
  let max = 0;
  for (const h of hotkeys) max = Math.max(max, totals.get(h) ?? 0);
  const own = hotkeys.map((h) => ({ miner_hotkey: h, score: max > 0 ? (totals.get(h) ?? 0) / max : 0 }));
  return { own, details: { groups, emission_totals: hotkeys.map((h) => ({ miner_hotkey: h, emission: totals.get(h) ?? 0 })), max_emission: max } };
}

function scoreTerms(inputs: EpochInputs, totalTasks: number): { own: OwnScore[]; details: unknown } {
  const latest = latestPerMiner(inputs.term_results);
  const rates = latest.map((r) => ({
    record_id: r.record_id,
    miner_hotkey: r.miner_hotkey,
    ...passRate(
      r.results.map((t) => ({ taskId: t.task_id, testsPassed: t.tests_passed, testsTotal: t.tests_total, timedOut: t.timed_out })),
      totalTasks,
    ),
  }));
  return { own: rates.map((r) => ({ miner_hotkey: r.miner_hotkey, score: r.passRate })), details: { pass_rates: rates } };
}
