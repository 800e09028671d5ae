import { isHotkey, plainJsonKey } from '@subnet/core';
import type { z } from 'zod';

import type { Evaluation, ValidatorStake } from './aggregate.js';
import type { DecayState } from './decay.js';
import { deepFreeze } from './order.js';
import type { BountyRecord } from './bounty.js';
import { MAX_VALID_ISSUES } from './bounty.js';
import type { ChallengeInput, EpochInput, PipelineConfig } from './schemas.js';
import { challengeInputSchema, DEFAULT_PIPELINE_CONFIG, pipelineConfigSchema } from './schemas.js';
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
function configOf(value: unknown): PipelineConfig | undefined {
  configSchema ??= pipelineConfigSchema.default(DEFAULT_PIPELINE_CONFIG as never) as unknown as z.ZodType<PipelineConfig>;
  const schema = configSchema;
  return remembered(parsedConfigs, value, () => schema.safeParse(value));
}

/**
 * The small parts (the pipeline configuration, a challenge's settings) are the same in every epoch of a
 * validator: a schema's successful parse is kept under the value's exact JSON text (`plainJsonKey`;
 * bounded, frozen) and each call gets a fresh copy of it, as a parse gives. Values without a key and
 * refusals are parsed every time (undefined: the schema reads the whole input for its error).
 */
function remembered<T>(table: Map<string, T>, value: unknown, parse: () => { success: true; data: T } | { success: false }): T | undefined {
  const key = plainJsonKey(value);
  const known = key === undefined ? undefined : table.get(key);
  if (known !== undefined) return copyPlain(known);
  const parsed = parse();
  if (!parsed.success) return undefined;
  if (key !== undefined) {
    if (table.size >= REMEMBERED_MAX) table.clear();
    table.set(key, deepFreeze(copyPlain(parsed.data)));
  }
  return parsed.data;
}
const REMEMBERED_MAX = 64;
const parsedConfigs = new Map<string, PipelineConfig>();
const parsedSettings = new Map<string, ChallengeInput>();

/** A copy of a parsed value (plain objects and arrays, keys as data). */
function copyPlain<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => copyPlain(item)) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyPlain((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out as T;
}

const DECAY_STATE_KEYS = new Set(['top_score', 'top_epoch', 'top_hotkey']);

/** `decayStateSchema.optional()`: `{ value }` (undefined, null or the typed state), or undefined for the schema to read. */
function readDecayState(v: unknown): { value: DecayState | null | undefined } | undefined {
  if (v === undefined || v === null) return { value: v };
  if (!isPlainObject(v) || keyCount(v, DECAY_STATE_KEYS) !== 3) return undefined;
  const { top_score, top_epoch, top_hotkey } = v;
  if (typeof top_score !== 'number' || !(top_score >= 0 && top_score <= 1) || !isCount(top_epoch) || !isHotkey(top_hotkey)) return undefined;
  return { value: { topScore: top_score, topEpoch: top_epoch, topHotkey: top_hotkey } };
}

const STAKE_KEYS = new Set(['validator_hotkey', 'stake']);
const STAKE_TEXT = /^(0|[1-9][0-9]*)$/;

/** `stakesSchema`: each validator once, the stake a number >= 0, a bigint >= 0 or decimal text, as a finite double. */
function stakes(list: unknown): ValidatorStake[] | undefined {
  if (!isPlainArray(list)) return undefined;
  const out = new Array<ValidatorStake>(list.length);
  const seen = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    const s = list[i];
    if (!isPlainObject(s) || keyCount(s, STAKE_KEYS) !== 2) return undefined;
    const { validator_hotkey, stake } = s;
    if (!isHotkey(validator_hotkey) || seen.has(validator_hotkey)) return undefined;
    seen.add(validator_hotkey);
    let amount: number;
    if (typeof stake === 'number') {
      if (!(stake >= 0) || !Number.isFinite(stake)) return undefined;
      amount = stake;
    } else if (typeof stake === 'string' && STAKE_TEXT.test(stake)) amount = Number(stake);
    else if (typeof stake === 'bigint' && stake >= 0n) amount = Number(stake);
    else return undefined;
    if (!Number.isFinite(amount)) return undefined;
    out[i] = { validatorHotkey: validator_hotkey, stake: amount };
  }
  return out;
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
    if (!isHotkey(hotkey) || !isCount(valid_issues) || valid_issues > MAX_VALID_ISSUES || !isCount(invalid_issues) || !isCount(starred_repos)) return undefined;
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
  for (const name of CHALLENGE_SETTINGS) if (name in wire && name !== 'decay_state') settings[name] = wire[name];
  // The decay state changes every epoch: it is read by hand, the other settings are remembered. A valid
  // decay state never changes the schema's verdict on the rest (no refinement reads it).
  const state = readDecayState(wire.decay_state);
  if (state === undefined) return undefined;
  const parsedSettings_ = remembered(
    parsedSettings,
    settings,
    () => challengeInputSchema.safeParse(settings) as { success: true; data: ChallengeInput } | { success: false },
  );
  if (parsedSettings_ === undefined) return undefined;
  const parsed = { data: state.value === undefined ? parsedSettings_ : { ...parsedSettings_, decayState: state.value } };
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
  if (config === undefined || !isCount(input.epoch) || !isPlainArray(input.challenges)) return undefined;
  const challenges = new Array<ChallengeInput>(input.challenges.length);
  for (let i = 0; i < input.challenges.length; i++) {
    const c = challenge(input.challenges[i]);
    if (c === undefined) return undefined;
    challenges[i] = c;
  }
  const validators = stakes(input.stakes);
  const neurons = metagraph(input.metagraph);
  if (validators === undefined || neurons === undefined) return undefined;
  return { config, epoch: input.epoch, challenges, stakes: validators, metagraph: neurons };
}
