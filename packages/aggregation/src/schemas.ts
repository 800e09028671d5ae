/**
 * Wire schemas (snake_case JSON) for everything this package reads. Each parses to the camelCase types
 * the functions take, with SPEC C's defaults filled in. Parse once at the boundary with
 * {@link parseEpochInput} (or `parseInput` from `@subnet/core` and any schema here), then pass typed values.
 */
import { findLoneSurrogate, hotkeySchema, parseInput, uidSchema, unitIntervalSchema } from '@subnet/core';
import { z } from 'zod';

import type { Evaluation, ValidatorStake } from './aggregate.js';
import type { BountyRecord } from './bounty.js';
import { MAX_VALID_ISSUES, MAX_VALID_ISSUES_MESSAGE } from './bounty.js';
import type { DecayOptions, DecayState } from './decay.js';
import { MIN_EXPONENTIAL_RHO } from './decay.js';
import { AGGREGATION_ERROR_CODES } from './errors.js';
import { fastEpochInput } from './fast-epoch-input.js';
import type { NormalisationOptions } from './normalise.js';
import type { OutlierOptions } from './outliers.js';
import type { U16Mode } from './u16.js';
import type { Neuron } from './uid-mapping.js';

const epochNumber = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const positiveFinite = z.number().gt(0);

/** One evaluation on the wire: `{ validator_hotkey, miner_hotkey, epoch, score }`, score in [0, 1]. */
export const evaluationSchema = z
  .strictObject({
    validator_hotkey: hotkeySchema,
    miner_hotkey: hotkeySchema,
    epoch: epochNumber,
    score: unitIntervalSchema,
  })
  .transform((e): Evaluation => ({ validatorHotkey: e.validator_hotkey, minerHotkey: e.miner_hotkey, epoch: e.epoch, score: e.score }));

/** A list of evaluations; a second one for the same (validator, miner, epoch) is rejected (SPEC C.2). */
export const evaluationsSchema = z.array(evaluationSchema).superRefine((list, ctx) => {
  const seen = new Map<string, number>();
  list.forEach((e, i) => {
    const key = `${e.validatorHotkey}\u0000${e.minerHotkey}\u0000${e.epoch}`;
    const first = seen.get(key);
    if (first !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [i],
        message: `duplicate evaluation: the same validator already scored this miner in epoch ${e.epoch} (entry ${first}); a second score is rejected, not averaged`,
      });
    } else seen.set(key, i);
  });
});

/** Stake as given: a finite number >= 0, a bigint, or a decimal string (rao); parsed to a double. */
export const stakeAmountSchema = z
  .union([z.number().min(0), z.bigint().min(0n), z.string().regex(/^(0|[1-9][0-9]*)$/, 'a stake string is decimal digits')])
  .transform((v) => Number(v))
  .refine((v) => Number.isFinite(v), 'the stake is too large for a double');

/** One validator of the epoch's validator set: `{ validator_hotkey, stake }`. */
export const stakeSchema = z
  .strictObject({ validator_hotkey: hotkeySchema, stake: stakeAmountSchema })
  .transform((s): ValidatorStake => ({ validatorHotkey: s.validator_hotkey, stake: s.stake }));

/** The validator set; each validator once. */
export const stakesSchema = z.array(stakeSchema).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((s, i) => {
    if (seen.has(s.validatorHotkey)) ctx.addIssue({ code: 'custom', path: [i, 'validator_hotkey'], message: 'a validator appears twice' });
    seen.add(s.validatorHotkey);
  });
});

/** Outlier rule: `{ method: 'modified_z' | 'zscore', threshold? }`; threshold defaults to 3.5 / 2.0. */
export const outlierConfigSchema = z
  .strictObject({ method: z.enum(['modified_z', 'zscore']).default('modified_z'), threshold: positiveFinite.optional() })
  .transform((o): OutlierOptions => ({ method: o.method, threshold: o.threshold ?? (o.method === 'modified_z' ? 3.5 : 2.0) }));

/** Normalisation: `{ strategy, temperature? }` (temperature > 0, default 1, read by softmax). */
export const normalisationConfigSchema = z
  .strictObject({
    strategy: z.enum(['linear', 'softmax', 'winner_takes_all', 'quadratic', 'ranked']).default('linear'),
    temperature: positiveFinite.default(1),
  })
  .transform((n): NormalisationOptions => ({ strategy: n.strategy, temperature: n.temperature }));

/** Reward decay: grace 10, ρ 0.05, max burn 0.80, linear curve, improvement 0.02 absolute (SPEC C.6). */
export const decayConfigSchema = z
  .strictObject({
    grace_epochs: count.default(10),
    rho: unitIntervalSchema.default(0.05 as z.infer<typeof unitIntervalSchema>),
    max_burn: unitIntervalSchema.default(0.8 as z.infer<typeof unitIntervalSchema>),
    curve: z.enum(['linear', 'exponential']).default('linear'),
    improvement_threshold: z.number().min(0).default(0.02),
    improvement_mode: z.enum(['absolute', 'relative']).default('absolute'),
  })
  .refine((d) => d.curve !== 'exponential' || d.rho === 0 || d.rho >= MIN_EXPONENTIAL_RHO, {
    message: `the exponential curve takes rho = 0 or rho >= ${MIN_EXPONENTIAL_RHO} (it multiplies once per stale epoch, about 37/rho times at most)`,
    path: ['rho'],
  })
  .transform((d): DecayOptions => ({
    graceEpochs: d.grace_epochs,
    rho: d.rho,
    maxBurn: d.max_burn,
    curve: d.curve,
    improvementThreshold: d.improvement_threshold,
    improvementMode: d.improvement_mode,
  }));

/** The whole pipeline's configuration (camelCase). */
export interface PipelineConfig {
  readonly minValidators: number;
  readonly minStakeFraction: number;
  readonly outlier: OutlierOptions;
  readonly normalisation: NormalisationOptions;
  readonly weightCap: number;
  readonly burnUid: number;
  readonly decay: DecayOptions;
  readonly u16Mode: U16Mode;
}

/**
 * Pipeline configuration on the wire; every field optional, defaults as SPEC C: `min_validators` 3,
 * `min_stake_fraction` 0.30, outlier `modified_z` 3.5, strategy `linear`, `weight_cap` 0.50, `burn_uid` 0,
 * decay as {@link decayConfigSchema}, `u16_mode` `sum`.
 *
 * @example pipelineConfigSchema.parse({}).weightCap // 0.5
 */
export const pipelineConfigSchema = z
  .strictObject({
    min_validators: z.number().int().min(1).max(65535).default(3),
    min_stake_fraction: unitIntervalSchema.default(0.3 as z.infer<typeof unitIntervalSchema>),
    outlier: outlierConfigSchema.default({ method: 'modified_z', threshold: 3.5 }),
    normalisation: normalisationConfigSchema.default({ strategy: 'linear', temperature: 1 }),
    weight_cap: z.number().gt(0).max(1).default(0.5),
    burn_uid: uidSchema.default(0 as z.infer<typeof uidSchema>),
    decay: decayConfigSchema.default({ graceEpochs: 10, rho: 0.05, maxBurn: 0.8, curve: 'linear', improvementThreshold: 0.02, improvementMode: 'absolute' }),
    u16_mode: z.enum(['sum', 'max']).default('sum'),
  })
  .transform((c): PipelineConfig => ({
    minValidators: c.min_validators,
    minStakeFraction: c.min_stake_fraction,
    outlier: c.outlier,
    normalisation: c.normalisation,
    weightCap: c.weight_cap,
    burnUid: c.burn_uid,
    decay: c.decay,
    u16Mode: c.u16_mode,
  }));

/** SPEC C's defaults, as {@link pipelineConfigSchema} gives them for `{}`. */
export const DEFAULT_PIPELINE_CONFIG: PipelineConfig = Object.freeze({
  minValidators: 3,
  minStakeFraction: 0.3,
  outlier: Object.freeze({ method: 'modified_z', threshold: 3.5 }),
  normalisation: Object.freeze({ strategy: 'linear', temperature: 1 }),
  weightCap: 0.5,
  burnUid: 0,
  decay: Object.freeze({ graceEpochs: 10, rho: 0.05, maxBurn: 0.8, curve: 'linear', improvementThreshold: 0.02, improvementMode: 'absolute' }),
  u16Mode: 'sum',
} as const);

/** How a challenge is configured (camelCase). */
export interface ChallengeConfig {
  readonly id: string;
  /** `evaluations` (validators score miners, e.g. pass rates) or `bounty` (SPEC C.8). */
  readonly kind: 'evaluations' | 'bounty';
  /** Its share α of the emission (SPEC C.7). */
  readonly alpha: number;
  /** Whether reward decay applies (SPEC C.6; default true for `evaluations`, always false for `bounty`). */
  readonly decay: boolean;
  /** Overrides the pipeline's weight cap for this challenge. */
  readonly weightCap?: number;
  /** Overrides the pipeline's normalisation for this challenge (`evaluations` only). */
  readonly normalisation?: NormalisationOptions;
}

const challengeConfigShape = {
  id: z
    .string()
    .min(1)
    .refine((id) => findLoneSurrogate(id) === -1, 'a challenge id must be well-formed text (no lone surrogate)'),
  kind: z.enum(['evaluations', 'bounty']).default('evaluations'),
  alpha: unitIntervalSchema,
  decay: z.boolean().optional(),
  weight_cap: z.number().gt(0).max(1).optional(),
  normalisation: normalisationConfigSchema.optional(),
};

function toChallengeConfig(c: {
  id: string;
  kind: 'evaluations' | 'bounty';
  alpha: number;
  decay?: boolean | undefined;
  weight_cap?: number | undefined;
  normalisation?: NormalisationOptions | undefined;
}): ChallengeConfig {
  return {
    id: c.id,
    kind: c.kind,
    alpha: c.alpha,
    decay: c.kind === 'evaluations' ? (c.decay ?? true) : false,
    ...(c.weight_cap === undefined ? {} : { weightCap: c.weight_cap }),
    ...(c.normalisation === undefined ? {} : { normalisation: c.normalisation }),
  };
}

/** A challenge's configuration on the wire: `{ id, kind, alpha, decay?, weight_cap?, normalisation? }`. */
export const challengeConfigSchema = z
  .strictObject(challengeConfigShape)
  .refine((c) => !(c.kind === 'bounty' && c.decay === true), { message: 'reward decay applies to evaluation challenges only', path: ['decay'] })
  .transform(toChallengeConfig);

/** A challenge's decay state on the wire: `{ top_score, top_epoch, top_hotkey }` or null. */
export const decayStateSchema = z
  .strictObject({ top_score: unitIntervalSchema, top_epoch: epochNumber, top_hotkey: hotkeySchema })
  .transform((s): DecayState => ({ topScore: s.top_score, topEpoch: s.top_epoch, topHotkey: s.top_hotkey }))
  .nullable();

/** One bounty record on the wire: `{ hotkey, valid_issues, invalid_issues, starred_repos }`. */
export const bountyRecordSchema = z
  .strictObject({ hotkey: hotkeySchema, valid_issues: count.max(MAX_VALID_ISSUES, MAX_VALID_ISSUES_MESSAGE), invalid_issues: count, starred_repos: count })
  .transform((r): BountyRecord => ({ hotkey: r.hotkey, validIssues: r.valid_issues, invalidIssues: r.invalid_issues, starredRepos: r.starred_repos }));

/** One neuron on the wire: `{ hotkey, uid }`. */
export const neuronSchema = z.strictObject({ hotkey: hotkeySchema, uid: uidSchema }).transform((n): Neuron => ({ hotkey: n.hotkey, uid: n.uid }));

/** When a miner's current submission was made (for winner_takes_all ties): `{ hotkey, submitted_at }`. */
export const submissionSchema = z
  .strictObject({ hotkey: hotkeySchema, submitted_at: count })
  .transform((s) => ({ hotkey: s.hotkey, submittedAt: s.submitted_at }));

/** A challenge with its epoch data (camelCase), as {@link computeEpochWeights} takes it. */
export type ChallengeInput = ChallengeConfig & {
  /** `evaluations` challenges: this epoch's evaluations. */
  readonly evaluations?: readonly Evaluation[];
  /** `evaluations` challenges: submission times (winner_takes_all ties). */
  readonly submissions?: readonly { readonly hotkey: Evaluation['minerHotkey']; readonly submittedAt: number }[];
  /** `evaluations` challenges with decay: the state after the previous epoch (null or absent before any). */
  readonly decayState?: DecayState | null;
  /** `bounty` challenges: this epoch's records. */
  readonly records?: readonly BountyRecord[];
};

/** A challenge with its data on the wire. */
export const challengeInputSchema = z
  .strictObject({
    ...challengeConfigShape,
    evaluations: evaluationsSchema.optional(),
    submissions: z.array(submissionSchema).optional(),
    decay_state: decayStateSchema.optional(),
    records: z.array(bountyRecordSchema).optional(),
  })
  .refine((c) => !(c.kind === 'bounty' && c.decay === true), { message: 'reward decay applies to evaluation challenges only', path: ['decay'] })
  .transform((c): ChallengeInput => ({
    ...toChallengeConfig(c),
    ...(c.evaluations === undefined ? {} : { evaluations: c.evaluations }),
    ...(c.submissions === undefined ? {} : { submissions: c.submissions }),
    ...(c.decay_state === undefined ? {} : { decayState: c.decay_state }),
    ...(c.records === undefined ? {} : { records: c.records }),
  }));

/** Everything {@link computeEpochWeights} takes (camelCase). */
export interface EpochInput {
  readonly config: PipelineConfig;
  readonly epoch: number;
  readonly challenges: readonly ChallengeInput[];
  readonly stakes: readonly ValidatorStake[];
  readonly metagraph: readonly Neuron[];
}

/** The epoch input on the wire: `{ config, epoch, challenges, stakes, metagraph }`. */
export const epochInputSchema = z
  .strictObject({
    config: pipelineConfigSchema.default(DEFAULT_PIPELINE_CONFIG as never),
    epoch: epochNumber,
    challenges: z.array(challengeInputSchema),
    stakes: stakesSchema,
    metagraph: z.array(neuronSchema),
  })
  .transform((i): EpochInput => i);

/**
 * Parses an epoch's wire input (snake_case JSON) into the typed input of {@link computeEpochWeights}.
 *
 * @param input - untrusted JSON value
 * @returns the typed epoch input with defaults filled in
 * @throws SubnetError `AGGREGATION_INVALID_INPUT` naming the first bad field (`input.challenges[0].evaluations[3].score`)
 * @example computeEpochWeights(parseEpochInput(JSON.parse(text)))
 */
export function parseEpochInput(input: unknown): EpochInput {
  // Valid input is read by hand (`fast-epoch-input.ts`); anything else by the schema, for its coded error.
  return fastEpochInput(input) ?? parseInput(epochInputSchema, input, AGGREGATION_ERROR_CODES.invalidInput, 'input');
}
