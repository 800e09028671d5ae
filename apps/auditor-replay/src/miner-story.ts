import { SubnetError } from '@subnet/core';

import { AUDITOR_ERROR_CODES } from './errors.js';

/** One evaluation of a miner by a validator, as the aggregation used or excluded it. */
export interface StoryEvaluation {
  readonly validator_hotkey: string;
  readonly score: number;
  readonly stake: number;
  /** The outlier statistic M_i (or z_i) of an excluded evaluation; null for a used one. */
  readonly m: number | null;
}

/** A miner's path through one challenge, read from the bundle's explanation. */
export interface ChallengeStory {
  readonly id: string;
  /** The configured kind (`workflow`, `sssa`, `term_pass_rate`, `bounty`). */
  readonly kind: string;
  readonly alpha: number | null;
  /** The validator's own score of the miner in this challenge (null when it has none: bounty, or unscored). */
  readonly own_score: number | null;
  /** The miner's entries in the challenge's own details (pass rate, window, consensus emission, bounty record), as stored. */
  readonly own_details: readonly Readonly<Record<string, unknown>>[];
  /** Evaluations challenges: the stake-weighted aggregation across validators (null for bounty). */
  readonly consensus: {
    readonly score: number | null;
    readonly unscored_reason: string | null;
    readonly used: readonly StoryEvaluation[];
    readonly excluded: readonly StoryEvaluation[];
    readonly zero_stake_ignored: readonly string[];
    readonly outlier_method: string | null;
    readonly outlier_threshold: number | null;
    readonly outlier_basis: string | null;
    readonly outlier_centre: number | null;
    readonly outlier_spread: number | null;
    readonly stake_behind: number | null;
    readonly stake_fraction: number | null;
  } | null;
  /** Bounty challenges: the miner's points, base, stars and W, and the challenge's total W (null otherwise). */
  readonly bounty: {
    readonly points: number | null;
    readonly base: number | null;
    readonly stars: number | null;
    readonly w: number | null;
    readonly penalised: boolean | null;
    readonly total_w: number | null;
  } | null;
  /** The score entering normalisation (aggregated score or W), null when unscored. */
  readonly score: number | null;
  readonly normalisation: {
    readonly strategy: string | null;
    readonly numerator: number | null;
    readonly denominator: number | null;
    readonly normalised: number;
  };
  readonly cap: { readonly cap: number | null; readonly capped: boolean; readonly value: number };
  readonly decay: { readonly applies: boolean; readonly epochs_stale: number | null; readonly burn: number; readonly value: number };
  /** alpha x decayed: the challenge's contribution to the miner's weight. */
  readonly allocated: number;
  /**
   * The challenge's `winner_tie` (docs/spec.md G.4) when the miner is one of the miners tied at the top score
   * of a winner_takes_all challenge, as stored; null otherwise.
   */
  readonly winner_tie: {
    readonly winner: string | null;
    readonly broken_by: string | null;
    readonly tied: readonly { readonly miner_hotkey: string | null; readonly submitted_seq: number | null }[];
  } | null;
}

/** Everything a bundle says about why one miner got its weight in one epoch. */
export interface MinerStory {
  readonly epoch: number;
  readonly netuid: number | null;
  readonly validator_hotkey: string | null;
  readonly hotkey: string;
  readonly uid: number | null;
  readonly challenges: readonly ChallengeStory[];
  /** Σ of the challenge contributions, before the uid mapping. */
  readonly allocated: number;
  /** The weight of its uid after the mapping (0 for a hotkey the metagraph does not list). */
  readonly mapped: number;
  readonly u16: number;
  /** u16 / Σ u16 of the vector: the share the chain will see. */
  readonly share: number;
  readonly burn: { readonly uid: number | null; readonly weight: number | null };
  readonly u16_mode: string | null;
  readonly dropped: boolean;
  /** Records of this miner the validator excluded, with their code and reason (when the bundle lists them). */
  readonly excluded: readonly ExcludedRecord[];
  /** The story in words, one sentence per step. */
  readonly sentences: readonly string[];
}

/** A record the validator excluded, as the bundle lists it (optional in a bundle). */
export interface ExcludedRecord {
  readonly code: string;
  readonly reason: string;
  /** The record's identity: its record id, or the list and index. */
  readonly record: string;
  readonly miner_hotkey: string | null;
}

type Json = Readonly<Record<string, unknown>>;

function obj(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}
function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
function get(o: Json | null, key: string): unknown {
  return o !== null && Object.hasOwn(o, key) ? o[key] : undefined;
}
function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
function entryOf(items: unknown, hotkey: string): Json | null {
  for (const item of list(items)) {
    const o = obj(item);
    if (o !== null && (get(o, 'hotkey') === hotkey || get(o, 'miner_hotkey') === hotkey)) return o;
  }
  return null;
}
function byId(items: unknown, id: string, key = 'id'): Json | null {
  for (const item of list(items)) {
    const o = obj(item);
    if (o !== null && get(o, key) === id) return o;
  }
  return null;
}

/**
 * A number as people read it: integers as they are, others to 6 significant digits, an exponent only for
 * very small or very large values.
 *
 * @param value - the number (null or undefined print `-`)
 * @returns the text
 * @example formatNumber(0.1592018623212504) // '0.159202'
 */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return '-';
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e15)) return value.toExponential(4);
  return String(Number(value.toPrecision(6)));
}

/**
 * A share as a percentage with two decimals.
 *
 * @param value - a share in [0, 1] (null or undefined print `-`)
 * @returns the text
 * @example formatPercent(0.25) // '25.00%'
 */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : `${(value * 100).toFixed(2)}%`;
}

/**
 * Every excluded record of a bundle, wherever the bundle lists them (`bundle.excluded` or
 * `bundle.result.excluded`; both optional): each with its code, its reason and the record it concerns.
 * Entries that are not objects are skipped; the shape is read leniently because it is optional.
 *
 * @param bundle - the bundle (wire JSON)
 * @returns the excluded records in the bundle's order (empty when it lists none)
 * @example excludedRecords(bundle).map((e) => e.code) // ['BUNDLE_RECORD_SUPERSEDED', ...]
 */
export function excludedRecords(bundle: unknown): readonly ExcludedRecord[] {
  const b = obj(bundle);
  const lists = [get(b, 'excluded'), get(obj(get(b, 'result')), 'excluded')];
  const out: ExcludedRecord[] = [];
  for (const l of lists) {
    list(l).forEach((item, i) => {
      const e = obj(item);
      if (e === null) return;
      const record = obj(get(e, 'record'));
      const code = str(get(e, 'code')) ?? str(get(obj(get(e, 'error')), 'code')) ?? 'unknown';
      const reason = str(get(e, 'sentence')) ?? str(get(e, 'reason')) ?? str(get(e, 'message')) ?? str(get(obj(get(e, 'error')), 'message')) ?? '';
      const id = str(get(e, 'record_id')) ?? str(get(record, 'record_id')) ?? `${str(get(e, 'list')) ?? 'excluded'}[${num(get(e, 'index')) ?? i}]`;
      const miner = str(get(e, 'miner_hotkey')) ?? str(get(record, 'miner_hotkey')) ?? str(get(e, 'hotkey'));
      out.push(Object.freeze({ code, reason, record: id, miner_hotkey: miner }));
    });
  }
  return Object.freeze(out);
}

/**
 * The hotkeys a bundle scores: every miner of its aggregation explanation, in the bundle's order.
 *
 * @param bundle - the bundle (wire JSON)
 * @returns the hotkeys
 * @example minerHotkeys(bundle).length // 5
 */
export function minerHotkeys(bundle: unknown): readonly string[] {
  const miners = get(obj(get(obj(get(obj(bundle), 'result')), 'aggregation')), 'miners');
  return Object.freeze(list(miners).flatMap((m) => (typeof get(obj(m), 'hotkey') === 'string' ? [get(obj(m), 'hotkey') as string] : [])));
}

/**
 * Tells, from one audit bundle, why a miner's weight is what it is: for each challenge the validator's own
 * score and how it was reached (pass rate, window, consensus emission, bounty record), the aggregation
 * across validators (evaluations used and excluded as outliers with their M values, stake behind it) or
 * the bounty W, normalisation, the cap, reward decay and the alpha allocation; then the uid mapping, the
 * u16 value and the share of the vector, and the miner's excluded records. Only reads the explanation
 * values the bundle pipeline (`computeEpoch` of `@subnet/bundle`, `computeEpochWeights` of
 * `@subnet/aggregation`) already produced: no formula is evaluated here.
 *
 * @param bundle - the bundle (wire JSON, `signed.bundle`)
 * @param hotkey - the miner's hotkey
 * @returns the frozen story
 * @throws SubnetError `AUDITOR_MINER_NOT_FOUND` when the bundle's explanation has no such miner
 * @example explainMiner(signed.bundle, '5F…').sentences.join('\n')
 */
export function explainMiner(bundle: unknown, hotkey: string): MinerStory {
  const b = obj(bundle);
  const result = obj(get(b, 'result'));
  const aggregation = obj(get(result, 'aggregation'));
  const epoch = num(get(b, 'epoch')) ?? num(get(result, 'epoch')) ?? -1;
  const miner = entryOf(get(aggregation, 'miners'), hotkey);
  if (miner === null) {
    throw new SubnetError(AUDITOR_ERROR_CODES.minerNotFound, `no miner ${hotkey} in the bundle of epoch ${epoch}`, {
      context: { path: 'hotkey', value: hotkey, epoch },
    });
  }
  const configured = list(get(obj(get(b, 'config')), 'challenges'));
  const pipeline = obj(get(aggregation, 'config'));
  const outlier = obj(get(pipeline, 'outlier'));
  const challenges: ChallengeStory[] = [];
  for (const stage of list(get(miner, 'challenges'))) {
    const s = obj(stage);
    const id = str(get(s, 'challenge_id'));
    if (s === null || id === null) continue;
    const explained = byId(get(aggregation, 'challenges'), id);
    const own = byId(get(result, 'challenges'), id);
    const kind = str(get(byId(configured, id), 'kind')) ?? str(get(own, 'kind')) ?? str(get(explained, 'kind')) ?? '?';
    const agg = entryOf(get(obj(get(explained, 'aggregation')), 'miners'), hotkey);
    const bountyExplanation = obj(get(explained, 'bounty'));
    const bountyEntry = entryOf(get(bountyExplanation, 'miners'), hotkey);
    const normalisation = obj(get(explained, 'normalisation'));
    const normEntry = entryOf(get(normalisation, 'miners'), hotkey);
    const cap = obj(get(explained, 'cap'));
    const decay = obj(get(explained, 'decay'));
    const ownScore = entryOf(get(own, 'own_scores'), hotkey);
    const details = obj(get(own, 'details'));
    const ownDetails: Json[] = [];
    for (const key of details === null ? [] : Object.keys(details)) {
      const value = get(details, key);
      if (Array.isArray(value)) {
        for (const item of value) {
          const o = obj(item);
          if (o !== null && (get(o, 'hotkey') === hotkey || get(o, 'miner_hotkey') === hotkey)) ownDetails.push(Object.freeze({ from: key, ...o }));
          // SSSA consensus groups hold the miner inside their members and emissions.
          const emission = entryOf(get(o, 'emissions'), hotkey);
          if (emission !== null) ownDetails.push(Object.freeze({ from: key, task_id: get(o, 'task_id'), task_type: get(o, 'task_type'), ...emission }));
        }
      }
    }
    const used = list(get(agg, 'evaluations_used')).map((e) => evaluation(e, null));
    const excluded = list(get(agg, 'outliers_excluded')).map((e) => evaluation(e, num(get(obj(e), 'statistic'))));
    challenges.push(
      Object.freeze({
        id,
        kind,
        alpha: num(get(explained, 'alpha')),
        own_score: num(get(ownScore, 'score')),
        own_details: Object.freeze(ownDetails),
        consensus:
          agg === null
            ? null
            : Object.freeze({
                score: num(get(agg, 'score')),
                unscored_reason: str(get(agg, 'reason')),
                used: Object.freeze(used),
                excluded: Object.freeze(excluded),
                zero_stake_ignored: Object.freeze(list(get(agg, 'zero_stake_ignored')).filter((h): h is string => typeof h === 'string')),
                outlier_method: str(get(outlier, 'method')),
                outlier_threshold: num(get(outlier, 'threshold')),
                outlier_basis: str(get(agg, 'outlier_basis')),
                outlier_centre: num(get(agg, 'outlier_centre')),
                outlier_spread: num(get(agg, 'outlier_spread')),
                stake_behind: num(get(agg, 'stake_behind')),
                stake_fraction: num(get(agg, 'stake_fraction')),
              }),
        bounty:
          bountyExplanation === null
            ? null
            : Object.freeze({
                points: num(get(bountyEntry, 'points')),
                base: num(get(bountyEntry, 'base')),
                stars: num(get(bountyEntry, 'stars')),
                w: num(get(bountyEntry, 'w')),
                penalised: typeof get(bountyEntry, 'penalised') === 'boolean' ? (get(bountyEntry, 'penalised') as boolean) : null,
                total_w: num(get(bountyExplanation, 'total_w')),
              }),
        score: num(get(s, 'score')),
        normalisation: Object.freeze({
          strategy: str(get(normalisation, 'strategy')),
          numerator: num(get(normEntry, 'numerator')),
          denominator: num(get(normalisation, 'denominator')),
          normalised: num(get(s, 'normalised')) ?? 0,
        }),
        cap: Object.freeze({ cap: num(get(cap, 'cap')), capped: list(get(cap, 'capped')).includes(hotkey), value: num(get(s, 'capped')) ?? 0 }),
        decay: Object.freeze({
          applies: decay !== null,
          epochs_stale: num(get(decay, 'epochs_stale')),
          burn: num(get(explained, 'decay_burn')) ?? 0,
          value: num(get(s, 'decayed')) ?? 0,
        }),
        allocated: num(get(s, 'allocated')) ?? 0,
        winner_tie: winnerTie(obj(get(own, 'winner_tie')), hotkey),
      }),
    );
  }
  const u16 = obj(get(result, 'u16'));
  const total = list(get(u16, 'weights')).reduce<number>((a, w) => a + (num(w) ?? 0), 0);
  const uid = num(get(miner, 'uid'));
  const mapping = obj(get(aggregation, 'mapping'));
  const burnUid = num(get(mapping, 'burn_uid')) ?? num(get(pipeline, 'burn_uid'));
  // The burn uid has no entry in `uid_weights` when nothing burned this epoch: its weight is 0, not unknown.
  const uidWeights = get(aggregation, 'uid_weights');
  const burnEntry = Array.isArray(uidWeights)
    ? (list(uidWeights)
        .map(obj)
        .find((w) => get(w, 'uid') === burnUid) ?? null)
    : undefined;
  const burnWeight = burnUid === null || burnEntry === undefined ? null : burnEntry === null ? 0 : num(get(burnEntry, 'weight'));
  const minerU16 = num(get(miner, 'u16')) ?? 0;
  const story = {
    epoch,
    netuid: num(get(b, 'netuid')),
    validator_hotkey: str(get(b, 'validator_hotkey')),
    hotkey,
    uid,
    challenges: Object.freeze(challenges),
    allocated: num(get(miner, 'allocated')) ?? 0,
    mapped: num(get(miner, 'mapped')) ?? 0,
    u16: minerU16,
    share: total > 0 ? minerU16 / total : 0,
    burn: Object.freeze({ uid: burnUid, weight: burnWeight }),
    u16_mode: str(get(obj(get(aggregation, 'u16')), 'mode')),
    dropped: uid === null,
    excluded: Object.freeze(excludedRecords(bundle).filter((e) => e.miner_hotkey === hotkey)),
  };
  return Object.freeze({ ...story, sentences: Object.freeze(storySentences(story)) });
}

/** The stored `winner_tie` of a challenge when it names the miner among the tied, else null. */
function winnerTie(tie: Json | null, hotkey: string): ChallengeStory['winner_tie'] {
  const tied = list(get(tie, 'tied')).map((t) =>
    Object.freeze({ miner_hotkey: str(get(obj(t), 'miner_hotkey')), submitted_seq: num(get(obj(t), 'submitted_seq')) }),
  );
  if (!tied.some((t) => t.miner_hotkey === hotkey)) return null;
  return Object.freeze({ winner: str(get(tie, 'winner')), broken_by: str(get(tie, 'broken_by')), tied: Object.freeze(tied) });
}

/** The sentence part for a miner tied at the top of a winner_takes_all challenge. */
function tieSentence(t: NonNullable<ChallengeStory['winner_tie']>, hotkey: string): string {
  const seq = (x: number | null) => (x === null ? 'no submission' : `seq ${x}`);
  const others = t.tied.filter((x) => x.miner_hotkey !== hotkey);
  const self = t.tied.find((x) => x.miner_hotkey === hotkey);
  const how = t.broken_by === 'earlier_submission' ? 'the earlier submission' : 'the lower hotkey (no earlier submission decided it)';
  return `tied at the top with ${others.map((x) => `${x.miner_hotkey ?? '?'} (${seq(x.submitted_seq)})`).join(', ')} as ${seq(self?.submitted_seq ?? null)}; ${how} takes the challenge: ${t.winner === hotkey ? 'this miner' : (t.winner ?? '?')}`;
}

function evaluation(e: unknown, m: number | null): StoryEvaluation {
  const o = obj(e);
  return Object.freeze({ validator_hotkey: str(get(o, 'validator_hotkey')) ?? '?', score: num(get(o, 'score')) ?? 0, stake: num(get(o, 'stake')) ?? 0, m });
}

function ownSentence(c: ChallengeStory): string | null {
  const d = c.own_details;
  const rate = d.find((x) => x.from === 'pass_rates');
  if (rate !== undefined) {
    const ex = obj(rate.explanation);
    return `the validator's own pass rate is ${formatNumber(num(rate.pass_rate))} (${formatNumber(num(get(ex, 'passed')))} of ${formatNumber(num(get(ex, 'total_tasks')))} tasks passed, ${list(get(ex, 'failed')).length} failed, ${formatNumber(num(get(ex, 'missing')))} missing; record ${str(rate.record_id) ?? '?'})`;
  }
  const window = d.find((x) => x.from === 'windows');
  if (window !== undefined)
    return `the validator's own rolling-window score is ${formatNumber(num(window.score))}, the mean of ${formatNumber(num(window.count))} task score(s)`;
  const emissions = d.filter((x) => x.from === 'groups');
  const total = d.find((x) => x.from === 'emission_totals');
  if (total !== undefined && c.own_score === null)
    return `the miner's SSSA emission is ${formatNumber(num(total.emission))} over ${emissions.length} consensus group(s) (${emissions.map((e) => `${String(e.task_id)} ${formatNumber(num(e.emission))}`).join(', ')}), but it has no own score: the epoch's metagraph does not list it, so its emission sets no scale for the others`;
  if (total !== undefined) {
    return `the validator's own SSSA score is ${formatNumber(c.own_score)}: emission ${formatNumber(num(total.emission))} over ${emissions.length} consensus group(s) (${emissions.map((e) => `${String(e.task_id)} ${formatNumber(num(e.emission))}`).join(', ')}), divided by the largest miner's emission`;
  }
  if (c.own_score !== null) return `the validator's own score is ${formatNumber(c.own_score)}`;
  return null;
}

function storySentences(s: Omit<MinerStory, 'sentences'>): string[] {
  const out: string[] = [];
  out.push(
    `Epoch ${s.epoch}: miner ${s.hotkey}${s.uid === null ? " (not in the epoch's metagraph, so it takes no share of any challenge)" : ` (uid ${s.uid})`} gets u16 weight ${s.u16}, ${formatPercent(s.share)} of the vector the validator set.`,
  );
  for (const c of s.challenges) {
    const head = `Challenge ${c.id} (${c.kind}, alpha ${formatNumber(c.alpha)}):`;
    const own = ownSentence(c);
    const parts: string[] = [];
    if (own !== null) parts.push(own);
    if (c.consensus !== null) {
      const k = c.consensus;
      const used = k.used.map((e) => `${e.validator_hotkey} score ${formatNumber(e.score)} stake ${formatNumber(e.stake)}`).join('; ');
      parts.push(`${k.used.length} evaluation(s) used (${used || 'none'})`);
      if (k.excluded.length > 0) {
        parts.push(
          `${k.excluded.length} excluded as outlier(s) by ${k.outlier_method ?? 'the outlier rule'} (threshold ${formatNumber(k.outlier_threshold)}): ${k.excluded.map((e) => `${e.validator_hotkey} score ${formatNumber(e.score)} M ${formatNumber(e.m)}`).join('; ')}`,
        );
      } else
        parts.push(
          `none excluded as an outlier (${k.outlier_method ?? 'rule'} threshold ${formatNumber(k.outlier_threshold)}, centre ${formatNumber(k.outlier_centre)}, spread ${formatNumber(k.outlier_spread)})`,
        );
      if (k.zero_stake_ignored.length > 0) parts.push(`${k.zero_stake_ignored.length} zero-stake validator(s) ignored`);
      parts.push(
        k.score === null
          ? `unscored: ${k.unscored_reason ?? 'no reason given'} (stake behind ${formatPercent(k.stake_fraction)})`
          : `stake-weighted score ${formatNumber(k.score)} with ${formatPercent(k.stake_fraction)} of the stake behind it`,
      );
    }
    if (c.bounty !== null) {
      const b = c.bounty;
      parts.push(
        b.w === null
          ? 'no bounty record this epoch'
          : `bounty W ${formatNumber(b.w)} (points ${formatNumber(b.points)}, base ${formatNumber(b.base)}, stars ${formatNumber(b.stars)}${b.penalised === true ? ', penalised' : ''}) of a total W ${formatNumber(b.total_w)}`,
      );
    }
    const n = c.normalisation;
    if (s.uid === null && c.score !== null) parts.push("left out of normalisation, as a hotkey the epoch's metagraph does not list (SPEC C.9)");
    else
      parts.push(
        `normalised${n.strategy === null ? '' : ` (${n.strategy})`} to ${formatNumber(n.normalised)}${n.numerator !== null && n.denominator !== null ? ` = ${formatNumber(n.numerator)} / ${formatNumber(n.denominator)}` : ''}`,
      );
    if (c.winner_tie !== null) parts.push(tieSentence(c.winner_tie, s.hotkey));
    parts.push(
      c.cap.capped
        ? `capped at ${formatNumber(c.cap.cap)} to ${formatNumber(c.cap.value)}`
        : `under the cap ${formatNumber(c.cap.cap)} (${formatNumber(c.cap.value)})`,
    );
    parts.push(
      c.decay.applies
        ? `reward decay (${formatNumber(c.decay.epochs_stale)} epoch(s) stale, ${formatPercent(c.decay.burn)} of the challenge burned) leaves ${formatNumber(c.decay.value)}`
        : `no reward decay (${formatNumber(c.decay.value)})`,
    );
    parts.push(`times alpha gives ${formatNumber(c.allocated)}`);
    out.push(`${head} ${parts.join('; ')}.`);
  }
  out.push(
    `Allocation: the contributions sum to ${formatNumber(s.allocated)}; after the uid mapping its uid weighs ${formatNumber(s.mapped)}; converted to u16 (${s.u16_mode ?? '?'} mode) that is ${s.u16}.${s.burn.uid === null ? '' : ` ${s.burn.weight === 0 ? `The burn uid ${s.burn.uid} receives nothing: no weight is burned this epoch.` : `The burn uid ${s.burn.uid} receives ${formatNumber(s.burn.weight)}.`}`}`,
  );
  for (const e of s.excluded) out.push(`Excluded record ${e.record}: [${e.code}] ${e.reason}`);
  return out;
}
