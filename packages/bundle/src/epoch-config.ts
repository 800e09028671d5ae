/**
 * The scoring configuration (`config` in a bundle, `scoring` in a validator's configuration). Also the
 * `@subnet/bundle/epoch-config` subpath, built into a file of its own without the bundle's signing: a program that only
 * checks a configuration (the validator's `run`, before it starts anything) loads no `@polkadot/*` module. Its errors
 * carry `BUNDLE_*` codes, which `@subnet/bundle/records` exports as `BUNDLE_ERROR_CODES`, also without `@polkadot`.
 */
import { compareCodePoints, hotkeySchema, nonNegativeFiniteSchema, parseInput, plainJsonKey, unitIntervalSchema } from '@subnet/core';
import { normalisationConfigSchema, pipelineConfigSchema } from '@subnet/aggregation';
import { z } from 'zod';

import { BUNDLE_ERROR_CODES } from './errors.js';
import { deepFreeze, toWire } from './wire.js';

/** The challenge kinds a validator can run (SPEC A, B, C.1, C.8). */
export const CHALLENGE_KINDS = Object.freeze(['workflow', 'sssa', 'term_pass_rate', 'bounty'] as const);
/** One of {@link CHALLENGE_KINDS}. */
export type ChallengeKind = (typeof CHALLENGE_KINDS)[number];

const pipelineWire = z.unknown().transform((value, ctx) => {
  const parsed = pipelineConfigSchema.safeParse(value ?? {});
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  }
  return toWire(parsed.data) as Record<string, unknown>;
});

const normalisationWire = z.unknown().transform((value, ctx) => {
  const parsed = normalisationConfigSchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  }
  return toWire(parsed.data) as Record<string, unknown>;
});

const common = {
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'a challenge id is 1-64 of a-z 0-9 _ -'),
  alpha: unitIntervalSchema,
  weight_cap: z.number().gt(0).max(1).optional(),
  normalisation: normalisationWire.optional(),
};

/**
 * The largest emission factor (docs/spec.md G.6): the product of the six configured factors is then at most
 * 1e36 and a miner's emission total over any number of tasks stays finite, so no record count can turn a
 * configuration the parser accepted into an own score of NaN.
 */
const MAX_EMISSION_FACTOR = 1e6;

const positiveFactor = nonNegativeFiniteSchema.max(MAX_EMISSION_FACTOR, `an emission factor is at most ${MAX_EMISSION_FACTOR}`);

/**
 * A table keyed by data (task types, hotkeys): a JSON object whose every own key is kept, `__proto__` and
 * `constructor` included (zod's record would drop `__proto__`), values checked with `value`.
 */
function dataRecord<V extends z.ZodType>(keySchema: z.ZodType<string>, value: V) {
  return z.unknown().transform((input, ctx): Record<string, z.output<V>> => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      ctx.addIssue({ code: 'custom', message: 'expected an object' });
      return z.NEVER;
    }
    const out: Record<string, z.output<V>> = {};
    for (const key of Object.keys(input).sort(compareCodePoints)) {
      const k = keySchema.safeParse(key);
      if (!k.success) {
        ctx.addIssue({ code: 'custom', path: [key], message: k.error.issues[0]?.message ?? 'invalid key' });
        continue;
      }
      const v = value.safeParse((input as Record<string, unknown>)[key]);
      if (!v.success) {
        ctx.addIssue({ code: 'custom', path: [key], message: v.error.issues[0]?.message ?? 'invalid value' });
        continue;
      }
      Object.defineProperty(out, key, { value: v.data, enumerable: true, writable: true, configurable: true });
    }
    return out;
  });
}

/** How tasks are assigned and reputations move (docs/spec.md B and G.3); every field has a default. */
const assignmentSchema = z.strictObject({
  primaries: z.number().int().min(0).max(256).default(3),
  auditors: z.number().int().min(0).max(256).default(2),
  min_reputation: unitIntervalSchema.default(0.2 as z.infer<typeof unitIntervalSchema>),
  initial_reputation: unitIntervalSchema.default(0.5 as z.infer<typeof unitIntervalSchema>),
  reputation_rate: unitIntervalSchema.default(0.1 as z.infer<typeof unitIntervalSchema>),
});

/** Configuration of the composite workflow challenge (SPEC A): cap defaults to 0.15. */
const workflowChallengeSchema = z.strictObject({
  ...common,
  kind: z.literal('workflow'),
  weight_cap: z.number().gt(0).max(1).default(0.15),
  decay: z.boolean().default(true),
});

/** Configuration of the SSSA consensus challenge (SPEC B): the emission tables. */
const sssaChallengeSchema = z.strictObject({
  ...common,
  kind: z.literal('sssa'),
  decay: z.boolean().default(true),
  emission: z
    .strictObject({
      role: z.strictObject({ primary: positiveFactor, auditor: positiveFactor }).default({ primary: 1, auditor: 0.6 }),
      base_weights: dataRecord(z.string().min(1).max(128), positiveFactor).default({}),
      default_base_weight: positiveFactor.default(1),
      tier_multipliers: dataRecord(hotkeySchema, positiveFactor).default({}),
      default_tier_multiplier: positiveFactor.default(1),
      composite_q: positiveFactor.default(1),
      early_bonus: positiveFactor.default(1),
      bootstrap: positiveFactor.default(1),
    })
    .default({
      role: { primary: 1, auditor: 0.6 },
      base_weights: {},
      default_base_weight: 1,
      tier_multipliers: {},
      default_tier_multiplier: 1,
      composite_q: 1,
      early_bonus: 1,
      bootstrap: 1,
    }),
  assignment: assignmentSchema.default(() => assignmentSchema.parse({})),
});

/** Configuration of the term pass-rate challenge (SPEC C.1): the benchmark's task count. */
const termChallengeSchema = z.strictObject({
  ...common,
  kind: z.literal('term_pass_rate'),
  decay: z.boolean().default(true),
  total_tasks: z.number().int().min(1).max(1_000_000),
});

/** Configuration of the bounty challenge (SPEC C.8); reward decay never applies. */
const bountyChallengeSchema = z.strictObject({
  ...common,
  kind: z.literal('bounty'),
});

/** One challenge's configuration on the wire. */
export const challengeSettingsSchema = z.discriminatedUnion('kind', [workflowChallengeSchema, sssaChallengeSchema, termChallengeSchema, bountyChallengeSchema]);
/** One challenge's configuration, defaults filled in (snake_case, as stored in the bundle). */
export type ChallengeSettings = z.output<typeof challengeSettingsSchema>;

/**
 * The scoring configuration of an epoch on the wire: the aggregation pipeline (SPEC C, every field
 * optional, defaults of `@subnet/aggregation`) and the challenges that run, each kind at most once, with
 * emission shares α summing to at most 1 (SPEC C.7). Parsed output is snake_case with every default
 * filled in: this is the "full configuration" a bundle carries.
 *
 * @example epochConfigSchema.parse({ challenges: [{ id: 'bounty', kind: 'bounty', alpha: 1 }] })
 */
export const epochConfigSchema = z
  .strictObject({
    pipeline: pipelineWire.optional().transform((v) => v ?? (toWire(pipelineConfigSchema.parse({})) as Record<string, unknown>)),
    challenges: z.array(challengeSettingsSchema).min(1).max(64),
  })
  .superRefine((config, ctx) => {
    const kinds = new Set<string>();
    const ids = new Set<string>();
    let alphaSum = 0;
    config.challenges.forEach((c, i) => {
      if (kinds.has(c.kind)) ctx.addIssue({ code: 'custom', path: ['challenges', i, 'kind'], message: 'each challenge kind runs at most once' });
      if (ids.has(c.id)) ctx.addIssue({ code: 'custom', path: ['challenges', i, 'id'], message: 'duplicate challenge id' });
      kinds.add(c.kind);
      ids.add(c.id);
      alphaSum += c.alpha;
    });
    if (alphaSum > 1 + 1e-12) ctx.addIssue({ code: 'custom', path: ['challenges'], message: `emission shares sum to ${alphaSum}, more than 1` });
  })
  // Canonical order (SPEC E): challenges by id, so the order of a configuration file never changes a digest.
  .transform((config) => ({ ...config, challenges: [...config.challenges].sort((a, b) => compareCodePoints(a.id, b.id)) }));
/** A parsed scoring configuration (snake_case, defaults filled in). */
export type EpochConfig = z.output<typeof epochConfigSchema>;

/**
 * Parses and completes a scoring configuration.
 *
 * @param input - untrusted configuration (snake_case JSON)
 * @returns the configuration with every default filled in, frozen
 * @throws SubnetError `BUNDLE_INVALID_CONFIG` naming the first bad field (`config.challenges[1].alpha`)
 * @example parseEpochConfig({ challenges: [{ id: 'bounty', kind: 'bounty', alpha: 1 }] }).pipeline.weight_cap // 0.5
 */
export function parseEpochConfig(input: unknown): EpochConfig {
  // A validator's configuration is the same in every epoch, and the auditor parses it once per bundle:
  // a parsed configuration is kept under its exact JSON text (`plainJsonKey`), frozen, and given again.
  const key = plainJsonKey(input);
  const known = key === undefined ? undefined : parsedConfigs.get(key);
  if (known !== undefined) return known;
  const parsed = deepFreeze(parseInput(epochConfigSchema, input, BUNDLE_ERROR_CODES.invalidConfig, 'config'));
  if (key !== undefined) {
    if (parsedConfigs.size >= PARSED_CONFIGS_MAX) parsedConfigs.clear();
    parsedConfigs.set(key, parsed);
  }
  return parsed;
}

/** Configurations parsed so far, by their JSON text (bounded; a refused one is never kept). */
const parsedConfigs = new Map<string, EpochConfig>();
const PARSED_CONFIGS_MAX = 64;
