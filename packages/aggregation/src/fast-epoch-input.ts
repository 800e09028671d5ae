import { isHotkey } from '@subnet/core';
import type { z } from 'zod';

import type { Evaluation } from './aggregate.js';
import type { BountyRecord } from './bounty.js';
import type { ChallengeInput, EpochInput, PipelineConfig } from './schemas.js';
import { challengeInputSchema, DEFAULT_PIPELINE_CONFIG, pipelineConfigSchema, stakesSchema } from './schemas.js';
import type { Neuron } from './uid-mapping.js';

/**
 * A hand-written reading of `epochInputSchema` (internal): the same output for input the schema accepts,
 * or undefined, and then {@link parseEpochInput} runs the schema, which gives the output or the coded error
 * with its field path. It never refuses for a reason of its own; it declines what it is unsure about. The
 * long lists (evaluations, bounty records, the metagraph) are read by hand; the small parts (the pipeline
 * configuration, each challenge's settings, the stakes) by their own schemas. `fast-epoch-input.test.ts`
 * checks it against the schema on valid and hostile input.
 */
let configSchema: z.ZodType<PipelineConfig> | undefined;
/** `epochInputSchema`'s `config` field (made on first use: this module and the schemas import each other). */
function configOf(value: unknown): { success: true; data: PipelineConfig } | { success: false } {
  configSchema ??= pipelineConfigSchema.default(DEFAULT_PIPELINE_CONFIG as never) as unknown as z.ZodType<PipelineConfig>;
  return configSchema.safeParse(value);
}

const TOP_KEYS = new Set(['config', 'epoch', 'challenges', 'stakes', 'metagraph']);
const CHALLENGE_KEYS = new Set(['id', 'kind', 'alpha', 'decay', 'weight_cap', 'normalisation', 'evaluations', 'submissions', 'decay_state', 'records']);
/** Each challenge's fields other than the long lists, read by `challengeInputSchema` itself. */
const CHALLENGE_SETTINGS = ['id', 'kind', 'alpha', 'decay', 'weight_cap', 'normalisation', 'submissions', 'decay_state'] as const;
const EVALUATION_KEYS = new Set(['validator_hotkey', 'miner_hotkey', 'epoch', 'score']);
const RECORD_KEYS = new Set(['hotkey', 'valid_issues', 'invalid_issues', 'starred_repos']);
const NEURON_KEYS = new Set(['hotkey', 'uid']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function isPlainArray(value: unknown): value is readonly unknown[] {
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;
}

/** Every enumerable key (own or inherited: zod reads them with `for...in`) is one of `names`; how many. */
function keyCount(item: Record<string, unknown>, names: ReadonlySet<string>): number {
  let n = 0;
  for (const key in item) {
    if (!names.has(key)) return -1;
    n++;
  }
  return n;
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function evaluations(list: unknown): Evaluation[] | undefined {
  if (!isPlainArray(list)) return undefined;
  const out = new Array<Evaluation>(list.length);
  const seen = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    if (!isPlainObject(e) || keyCount(e, EVALUATION_KEYS) !== 4) return undefined;
    const { validator_hotkey, miner_hotkey, epoch, score } = e;
    if (!isHotkey(validator_hotkey) || !isHotkey(miner_hotkey) || !isCount(epoch) || typeof score !== 'number' || !(score >= 0 && score <= 1)) return undefined;
    // A second evaluation of one (validator, miner, epoch) is the schema's to refuse, with its message.
    const key = `${validator_hotkey}\u0000${miner_hotkey}\u0000${epoch}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    out[i] = { validatorHotkey: validator_hotkey, minerHotkey: miner_hotkey, epoch, score: score };
  }
  return out;
}

function bountyRecords(list: unknown): BountyRecord[] | undefined {
  if (!isPlainArray(list)) return undefined;
  const out = new Array<BountyRecord>(list.length);
  for (let i = 0; i < list.length; i++) {
    const r = list[i];
    if (!isPlainObject(r) || keyCount(r, RECORD_KEYS) !== 4) return undefined;
    const { hotkey, valid_issues, invalid_issues, starred_repos } = r;
    if (!isHotkey(hotkey) || !isCount(valid_issues) || !isCount(invalid_issues) || !isCount(starred_repos)) return undefined;
    out[i] = { hotkey, validIssues: valid_issues, invalidIssues: invalid_issues, starredRepos: starred_repos };
  }
  return out;
}

function metagraph(list: unknown): Neuron[] | undefined {
  if (!isPlainArray(list)) return undefined;
  const out = new Array<Neuron>(list.length);
  for (let i = 0; i < list.length; i++) {
    const n = list[i];
    if (!isPlainObject(n) || keyCount(n, NEURON_KEYS) !== 2) return undefined;
    const { hotkey, uid } = n;
    if (!isHotkey(hotkey) || typeof uid !== 'number' || !Number.isInteger(uid) || uid < 0 || uid > 65535) return undefined;
    out[i] = { hotkey: hotkey, uid: uid };
  }
  return out;
}

function challenge(wire: unknown): ChallengeInput | undefined {
  if (!isPlainObject(wire) || keyCount(wire, CHALLENGE_KEYS) < 0) return undefined;
  // Present as undefined is the schema's to judge (an optional field may be undefined; zod keeps the key).
  const settings: Record<string, unknown> = {};
  for (const name of CHALLENGE_SETTINGS) if (name in wire) settings[name] = wire[name];
  const parsed = challengeInputSchema.safeParse(settings);
  if (!parsed.success) return undefined;
  const evaluationsWire = wire.evaluations;
  const recordsWire = wire.records;
  if (('evaluations' in wire && evaluationsWire === undefined) || ('records' in wire && recordsWire === undefined)) return undefined;
  const evaluated = evaluationsWire === undefined ? undefined : evaluations(evaluationsWire);
  const records = recordsWire === undefined ? undefined : bountyRecords(recordsWire);
  if ((evaluationsWire !== undefined && evaluated === undefined) || (recordsWire !== undefined && records === undefined)) return undefined;
  // The schema's key order: the settings, then evaluations, submissions, decay state and records.
  const { submissions, decayState, ...config } = parsed.data;
  return {
    ...config,
    ...(evaluated === undefined ? {} : { evaluations: evaluated }),
    ...(submissions === undefined ? {} : { submissions }),
    ...(decayState === undefined ? {} : { decayState }),
    ...(records === undefined ? {} : { records }),
  };
}

/**
 * `epochInputSchema`'s output for `input`, or undefined when the schema should read it (internal).
 *
 * @param input - the wire input
 * @returns the typed input, or undefined
 */
export function fastEpochInput(input: unknown): EpochInput | undefined {
  if (!isPlainObject(input) || keyCount(input, TOP_KEYS) < 0) return undefined;
  if (!('epoch' in input && 'challenges' in input && 'stakes' in input && 'metagraph' in input)) return undefined;
  const config = configOf(input.config);
  if (!config.success || !isCount(input.epoch) || !isPlainArray(input.challenges)) return undefined;
  const challenges = new Array<ChallengeInput>(input.challenges.length);
  for (let i = 0; i < input.challenges.length; i++) {
    const c = challenge(input.challenges[i]);
    if (c === undefined) return undefined;
    challenges[i] = c;
  }
  const stakes = stakesSchema.safeParse(input.stakes);
  const neurons = metagraph(input.metagraph);
  if (!stakes.success || neurons === undefined) return undefined;
  return { config: config.data, epoch: input.epoch, challenges, stakes: stakes.data, metagraph: neurons };
}
