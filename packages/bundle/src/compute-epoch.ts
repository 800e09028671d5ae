import { compareCodePoints, isHotkey, parseInput } from '@subnet/core';
import { computeEpochWeightsWire } from '@subnet/aggregation';
import { parseReputationTable } from '@subnet/consensus';
import type { ReputationEntry } from '@subnet/consensus';
import { z } from 'zod';

import type { ChallengeSettings, EpochConfig } from './epoch-config.js';
import { parseEpochConfig } from './epoch-config.js';
import { eachNeuronOnce, neuronEntrySchema, readEpochInputs, stakeEntrySchema } from './epoch-inputs.js';
import { BUNDLE_ERROR_CODES } from './errors.js';
import type { ExcludedRecord, Exclusions, RecordList } from './exclusion.js';
import { createExclusions } from './exclusion.js';
import type { OwnScore } from './own-score.js';
import { routePeerScores } from './route-peer-scores.js';
import { scoreSssaTasks } from './score-sssa-tasks.js';
import { scoreTermResults } from './score-term-results.js';
import { scoreWorkflowRuns } from './score-workflow-runs.js';
import type { ScreenedRecords } from './screen-records.js';
import { screenRecords } from './screen-records.js';
import { latestPerMiner } from './select-latest.js';
import { deepFreeze, toWire } from './wire.js';
import { fastMetagraph, fastStakes } from './fast-validator-set.js';
import type { EvaluationRow } from './epoch-weights-input.js';
import { mergeEvaluations, parseEpochWeightsInput } from './epoch-weights-input.js';
import type { WinnerTie } from './submission-order.js';
import { submissionsWire, winnerTie } from './submission-order.js';

/** What {@link computeEpoch} takes: everything on the wire (snake_case JSON), as a bundle stores it. */
export interface ComputeEpochInput {
  /** The scoring configuration ({@link parseEpochConfig}). */
  readonly config: unknown;
  /** The epoch number (integer >= 0). */
  readonly epoch: number;
  /** The hotkey of the validator computing the epoch: its own scores are evaluations by this hotkey. */
  readonly validatorHotkey: string;
  /** Every input record (as `parseEpochInputs` reads them; computeEpoch leaves the given objects unfrozen). */
  readonly inputs: unknown;
  /** The epoch's validator set with stakes: `[{ validator_hotkey, stake }]`. */
  readonly stakes: unknown;
  /** The metagraph: `[{ hotkey, uid }]`. */
  readonly metagraph: unknown;
}

export type { OwnScore } from './own-score.js';

/** One challenge's own scores and how they were reached (snake_case, as stored in the bundle). */
export interface ChallengeOutcome {
  readonly id: string;
  readonly kind: ChallengeSettings['kind'];
  /** This validator's score per miner, by hotkey (bounty: empty, its records go in directly). */
  readonly own_scores: readonly OwnScore[];
  /** The kind's intermediate values (task scores, consensus groups, emissions, pass rates, bounty records). */
  readonly details: unknown;
  /**
   * Only when the challenge normalises by `winner_takes_all` and two or more miners share the top score
   * exactly: how the tie was decided, each tied miner with its submission seq (docs/spec.md G.4).
   */
  readonly winner_tie?: WinnerTie;
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
  /** The per-type reputation table after this epoch (docs/spec.md G.3), to carry into the next. */
  readonly reputations: readonly ReputationEntry[];
  /** The reputation observations of this epoch, in the order they were applied. */
  readonly reputation_observations: readonly unknown[];
  /** Per task type used this epoch: every candidate's reputation and eligibility, by type. */
  readonly eligibility: readonly unknown[];
  /** Every registered task with its block hash, seed and drawn group (members and roles), by task id. */
  readonly tasks: readonly unknown[];
  /** Every accepted record that was not scored, with a stable code and a sentence (SPEC 0 isolation). */
  readonly excluded: readonly ExcludedRecord[];
  /** The aggregation pipeline's full explanation (`@subnet/aggregation` computeEpochWeights). */
  readonly aggregation: unknown;
  /** The vector to set: uids ascending and their u16 weights. */
  readonly u16: { readonly uids: readonly number[]; readonly weights: readonly number[] };
}

/** The epoch number (exported for the agreement test of the hand-read fields). */
export const epochSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * Computes one epoch from its records and configuration, the one composition both the validator and the
 * auditor run: per-challenge scores with `@subnet/composite` (workflow rolling window, SPEC A),
 * `@subnet/consensus` (SSSA consensus and emission, SPEC B) and `@subnet/aggregation` (pass rates, bounty
 * W, SPEC C.1 and C.8), then the epoch weights with `computeEpochWeights` (aggregation across validators,
 * normalisation, caps, decay, allocation, uid mapping, u16; SPEC C). Pure: no clock, no I/O; identical
 * input gives identical output, and `canonicalJson` of the output gives identical bytes.
 *
 * Isolation (SPEC 0): it never throws because of a record's content. Every record is screened (shape,
 * schema, unique id) and then scored or listed under `excluded` with its list, id, seq, miner, a stable
 * code and a sentence. It throws only for what the validator itself provides: the configuration, the
 * epoch number, the stakes, the metagraph, the candidates and the carried state.
 *
 * @param input - configuration, epoch, validator hotkey, inputs, stakes and metagraph, all wire JSON
 * @returns every intermediate and final value, frozen, snake_case
 * @throws SubnetError `BUNDLE_INVALID_CONFIG`, `BUNDLE_INVALID_INPUT` naming the field (never for a
 *   record); `COMPOSITE_INVALID_WINDOW_STATE` or `CONSENSUS_INVALID_SELECTION` for an invalid carried state
 * @example
 * const out = computeEpoch({ config, epoch: 7, validatorHotkey, inputs: { bounty_records }, stakes, metagraph });
 * out.u16 // { uids: [0, 3], weights: [...] }
 */
export function computeEpoch(input: ComputeEpochInput): EpochComputation {
  const config = parseEpochConfig(input.config);
  // Valid input is read by hand (`fast-validator-set.ts`, isHotkey); anything else by the schemas, for their coded errors.
  const epoch =
    Number.isSafeInteger(input.epoch) && input.epoch >= 0 ? input.epoch : parseInput(epochSchema, input.epoch, BUNDLE_ERROR_CODES.invalidInput, 'epoch');
  const self = isHotkey(input.validatorHotkey)
    ? input.validatorHotkey
    : parseInput(neuronEntrySchema.shape.hotkey, input.validatorHotkey, BUNDLE_ERROR_CODES.invalidInput, 'validator_hotkey');
  const inputs = readEpochInputs(input.inputs);
  const stakes = fastStakes(input.stakes) ?? parseInput(stakesSchema, input.stakes, BUNDLE_ERROR_CODES.invalidInput, 'stakes');
  const metagraph = fastMetagraph(input.metagraph) ?? parseInput(metagraphSchema, input.metagraph, BUNDLE_ERROR_CODES.invalidInput, 'metagraph');
  const reputationsBefore = parseReputationTable(inputs.reputations, 'inputs.reputations');

  const excluded = createExclusions();
  const records = screenRecords(inputs, excluded);
  excludeUnconfigured(config, records, excluded);
  const peers = routePeerScores(records.peerScores, config, self, new Set(stakes.map((s) => s.validator_hotkey)), excluded);

  // Each outcome in its wire form (frozen, snake_case), as `toWire` of the camelCase outcome gives it.
  const outcomes: unknown[] = [];
  const challengesWire: Record<string, unknown>[] = [];
  const rows = new Map<number, readonly EvaluationRow[]>();
  let windowState: unknown = inputs.window_state;
  let reputations: readonly ReputationEntry[] = reputationsBefore.entries;
  let observations: readonly unknown[] = [];
  let eligibility: readonly unknown[] = [];
  let tasks: readonly unknown[] = [];
  // Per evaluation challenge id, each miner's submission seq (docs/spec.md G.4), for winner_takes_all ties.
  const submissions = new Map<string, ReadonlyMap<string, number>>();
  for (const challenge of config.challenges) {
    const base: Record<string, unknown> = {
      id: challenge.id,
      kind: challenge.kind === 'bounty' ? 'bounty' : 'evaluations',
      alpha: challenge.alpha,
      ...(challenge.weight_cap === undefined ? {} : { weight_cap: challenge.weight_cap }),
      ...(challenge.normalisation === undefined ? {} : { normalisation: challenge.normalisation }),
    };
    if (challenge.kind === 'bounty') {
      const latest = latestPerMiner('bounty_records', records.bountyRecords, excluded);
      const bountyRecords = latest.map((r) => ({
        hotkey: r.miner_hotkey,
        valid_issues: r.valid_issues,
        invalid_issues: r.invalid_issues,
        starred_repos: r.starred_repos,
      }));
      outcomes.push(
        Object.freeze({
          id: challenge.id,
          kind: challenge.kind,
          own_scores: Object.freeze([]),
          details: Object.freeze({ records_used: Object.freeze(latest.map((r) => r.record_id)) }),
        }),
      );
      challengesWire.push({ ...base, records: bountyRecords });
      continue;
    }
    let own: OwnScore[];
    let details: unknown;
    let seqs: ReadonlyMap<string, number>;
    /** The term scorer gives its details in wire form already. */
    let detailsWire = false;
    if (challenge.kind === 'workflow') {
      const scored = scoreWorkflowRuns(records.workflowRuns, inputs.window_state, metagraph, excluded);
      windowState = scored.windowState;
      own = scored.own;
      details = scored.details;
      seqs = scored.submissions;
    } else if (challenge.kind === 'sssa') {
      const scored = scoreSssaTasks(
        {
          tasks: records.tasks,
          submissions: records.sssaSubmissions,
          candidates: inputs.candidates,
          reputations: reputationsBefore,
          metagraphHotkeys: new Set(metagraph.map((n) => n.hotkey)),
          settings: challenge,
        },
        excluded,
      );
      own = scored.own;
      details = scored.details;
      seqs = scored.submissions;
      reputations = scored.reputations as readonly ReputationEntry[];
      observations = scored.observations as readonly unknown[];
      eligibility = scored.eligibility;
      tasks = scored.tasks;
    } else {
      const scored = scoreTermResults(records.termResults, challenge.total_tasks, excluded);
      own = scored.own;
      details = scored.details;
      seqs = scored.submissions;
      detailsWire = true;
    }
    // By (miner, validator); they go on the wire (or straight to their typed form) in parseEpochWeightsInput.
    rows.set(
      challengesWire.length,
      mergeEvaluations(
        own.map((s) => ({ validator_hotkey: self, miner_hotkey: s.miner_hotkey, score: s.score })),
        peers.get(challenge.id) ?? [],
      ),
    );
    const carried = inputs.decay_states.find((d) => d.challenge_id === challenge.id);
    // Only winner_takes_all reads submissions (SPEC C.5 ties); other strategies get the input they always had.
    const wta = normalisationStrategy(challenge.normalisation ?? config.pipeline.normalisation) === 'winner_takes_all';
    if (wta) submissions.set(challenge.id, seqs);
    challengesWire.push({
      ...base,
      decay: challenge.decay,
      evaluations: [],
      ...(wta ? { submissions: submissionsWire(seqs) } : {}),
      ...(challenge.decay ? { decay_state: carried?.state ?? null } : {}),
    });
    outcomes.push(
      detailsWire
        ? Object.freeze({
            id: challenge.id,
            kind: challenge.kind,
            own_scores: Object.freeze(own.map((o) => Object.freeze({ miner_hotkey: o.miner_hotkey, score: o.score }))),
            details,
          })
        : toWire({ id: challenge.id, kind: challenge.kind, own_scores: own, details }),
    );
  }

  const weights = computeEpochWeightsWire(parseEpochWeightsInput({ config: config.pipeline, epoch, challenges: challengesWire, stakes, metagraph, rows }));
  return deepFreeze({
    epoch,
    config,
    challenges: Object.freeze(withWinnerTies(outcomes as ChallengeOutcome[], weights.explanation.challenges, submissions)),
    window_state: windowState,
    decay_states: weights.decayStates,
    reputations: [...reputations],
    reputation_observations: [...observations],
    eligibility: [...eligibility],
    tasks: [...tasks],
    excluded: excluded.sorted(),
    aggregation: weights.explanation,
    u16: { uids: [...weights.uids], weights: [...weights.weights] },
  });
}

/** The validator set: each validator once, sorted by hotkey (SPEC E canonical order). */
export const stakesSchema = z
  .array(stakeEntrySchema)
  .max(65536)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((s, i) => {
      if (seen.has(s.validator_hotkey)) ctx.addIssue({ code: 'custom', path: [i, 'validator_hotkey'], message: 'a validator appears twice' });
      seen.add(s.validator_hotkey);
    });
  })
  .transform((list) => [...list].sort((a, b) => compareCodePoints(a.validator_hotkey, b.validator_hotkey)));

/** The metagraph: each hotkey and uid once, sorted by hotkey (SPEC E canonical order). */
export const metagraphSchema = z
  .array(neuronEntrySchema)
  .max(65536)
  .superRefine(eachNeuronOnce({ hotkey: 'a hotkey appears twice in the metagraph', uid: 'a uid appears twice in the metagraph' }))
  .transform((list) => [...list].sort((a, b) => compareCodePoints(a.hotkey, b.hotkey)));

/** The strategy of a normalisation setting on the wire (the configuration parser filled it in). */
function normalisationStrategy(setting: unknown): unknown {
  return typeof setting === 'object' && setting !== null ? (setting as { strategy?: unknown }).strategy : undefined;
}

/**
 * The outcomes with `winner_tie` added to each winner_takes_all challenge whose top score is shared
 * (docs/spec.md G.4); every other outcome is returned as it was, so its bytes do not change.
 */
function withWinnerTies(
  outcomes: readonly ChallengeOutcome[],
  explained: readonly { readonly id: string; readonly normalisation: Parameters<typeof winnerTie>[0] }[],
  submissions: ReadonlyMap<string, ReadonlyMap<string, number>>,
): readonly ChallengeOutcome[] {
  return outcomes.map((outcome) => {
    const seqs = submissions.get(outcome.id);
    if (seqs === undefined) return outcome;
    const tie = winnerTie(explained.find((c) => c.id === outcome.id)?.normalisation ?? null, seqs);
    return tie === null ? outcome : Object.freeze({ ...outcome, winner_tie: tie });
  });
}

/** Records of a challenge kind that is not configured are excluded (they cannot be scored here). */
function excludeUnconfigured(config: EpochConfig, records: ScreenedRecords, excluded: Exclusions): void {
  const kinds = new Set(config.challenges.map((c) => c.kind));
  const lists: [ChallengeSettings['kind'], RecordList, readonly unknown[]][] = [
    ['workflow', 'workflow_runs', records.workflowRuns],
    ['sssa', 'tasks', records.tasks],
    ['sssa', 'sssa_submissions', records.sssaSubmissions],
    ['term_pass_rate', 'term_results', records.termResults],
    ['bounty', 'bounty_records', records.bountyRecords],
  ];
  for (const [kind, list, items] of lists) {
    if (kinds.has(kind)) continue;
    for (const r of items) excluded.add(list, r, BUNDLE_ERROR_CODES.challengeNotConfigured, `no ${kind} challenge runs on this validator`);
  }
}
