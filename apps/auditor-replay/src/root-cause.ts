import { sameCanonicalJson } from '@subnet/core';

import type { Mismatch } from './audit-bundle.js';
import { formatJsonPath } from './json-diff.js';

/**
 * The earliest value of a bundle that the recomputation does not reproduce, and the configuration value or
 * input record it is computed from: what an auditor should look at first.
 */
export interface RootCause {
  /**
   * `config`: a configuration value; `input`: an input record (or a stake); `rule`: the bundle was computed under
   * an earlier rule of the spec (see `rule`); `result`: no input explains it, the claimed value itself differs.
   */
  readonly kind: 'config' | 'input' | 'rule' | 'result';
  /**
   * Exact path into the signed bundle of that configuration value or input record (for `rule`, the claimed
   * value that shows the earlier rule; for `result`, the value's own path).
   */
  readonly path: string;
  /** Identifies the input record when it has one (`record_id`, or `validator -> miner` for a peer score). */
  readonly record: string | null;
  /** The earliest differing value (also the first value mismatch of the bundle's list). */
  readonly mismatch: Mismatch;
  /** One sentence for people. */
  readonly sentence: string;
  /** For `kind: "rule"` only: the rule the bundle was computed under, and what it claims because of it. */
  readonly rule?: EarlierRule;
}

/**
 * A bundle computed before a rule of docs/spec.md G.4 or G.9 changed what an epoch computes; nothing in it was
 * edited, yet it recomputes differently today. `title` says which rule; the other fields hold what the bundle
 * shows of it.
 */
export type EarlierRule = EarlierMissingHotkeyRule | EarlierWinnerTieRule | EarlierDecayTopRule;

/**
 * Before docs/spec.md G.4 "A hotkey missing from the metagraph takes no share of its challenge": the bundle's uid
 * mapping dropped hotkeys the epoch's metagraph does not list, after they had taken their share of their
 * challenges, and spread that share over the other miners and the burn.
 */
export interface EarlierMissingHotkeyRule {
  /** The spec section whose rule changed (`docs/spec.md G.4`). */
  readonly spec: string;
  /** The rule's title in that section. */
  readonly title: typeof MISSING_HOTKEY_TITLE;
  /** The hotkeys the bundle's uid mapping dropped, each with the share it claims they had (`result.aggregation.mapping.dropped`). */
  readonly dropped: readonly { readonly hotkey: string; readonly weight: number }[];
  /** Their claimed share together (spread over the other miners and the burn by that mapping). */
  readonly share: number;
}

/**
 * Before docs/spec.md G.4 "A miner's submission in an epoch is the smallest seq among its records the epoch
 * used": an exact tie at the top of a `winner_takes_all` challenge went to the lower hotkey, whoever submitted
 * first, and the bundle recorded no `winner_tie`.
 */
export interface EarlierWinnerTieRule {
  /** The spec section whose rule changed (`docs/spec.md G.4`). */
  readonly spec: string;
  /** The rule's title in that section. */
  readonly title: typeof WINNER_TIE_TITLE;
  /** Each challenge whose tie the bundle decided by the lower hotkey, in the bundle's challenge order. */
  readonly ties: readonly EarlierTie[];
}

/** One tie at the top of a `winner_takes_all` challenge, as the bundle decided it and as the rule decides it. */
export interface EarlierTie {
  readonly challenge_id: string;
  /** The tied top score. */
  readonly score: number;
  /** The miner the bundle gave the challenge to: the lowest of the tied hotkeys. */
  readonly claimed_winner: string;
  /** The miner the rule gives it to (the recomputed `winner_tie.winner`); the same miner when the lower hotkey also submitted first. */
  readonly winner: string;
  /** The tied miners with their submission seqs, in the order the rule ranks them (the recomputed `winner_tie.tied`). */
  readonly tied: readonly { readonly miner_hotkey: string; readonly submitted_seq: number | null }[];
}

/**
 * Before docs/spec.md G.9 "A new decay top names the miner the challenge ranks first among those tied at the best
 * score": reward decay named the lowest of the hotkeys tied at the epoch's best score (its `candidate`, and the
 * `top_hotkey` of the state it carries when that score set a new top), whoever the challenge ranked first. Only
 * who is named differs; no weight or burn does.
 */
export interface EarlierDecayTopRule {
  /** The spec section of the rule (`docs/spec.md G.9`). */
  readonly spec: string;
  /** The rule's title in that section. */
  readonly title: typeof DECAY_TOP_TITLE;
  /** Each challenge whose decay names another miner today, in the bundle's challenge order. */
  readonly tops: readonly EarlierDecayTop[];
}

/** One challenge's decay top among miners tied at the best score, as the bundle names it and as the rule does. */
export interface EarlierDecayTop {
  readonly challenge_id: string;
  /** The tied best score of the epoch. */
  readonly score: number;
  /** The miner the bundle names: the lowest of the tied hotkeys. */
  readonly claimed_hotkey: string;
  /** The miner the rule names (the recomputed decay candidate): the one the challenge ranks first. */
  readonly hotkey: string;
  /** True when that score set a new top, so the carried state (`decay_states[].state.top_hotkey`) names it too. */
  readonly replaced_top: boolean;
}

const EARLIER_RULE_SPEC = 'docs/spec.md G.4';
const DECAY_TOP_SPEC = 'docs/spec.md G.9';
const DECAY_TOP_TITLE = 'A new decay top names the miner the challenge ranks first among those tied at the best score';
const MISSING_HOTKEY_TITLE = 'A hotkey missing from the metagraph takes no share of its challenge';
const WINNER_TIE_TITLE = "A miner's submission in an epoch is the smallest seq among its records the epoch used";
/** Dropped hotkeys named in the sentence (the rule's `dropped` lists every one). */
const NAMED_DROPPED = 5;

function mappingDropped(doc: unknown): unknown {
  return childOf(childOf(childOf(childOf(childOf(doc, 'bundle'), 'result'), 'aggregation'), 'mapping'), 'dropped');
}

/**
 * The earlier rule of spec G.4, when the claimed bundle shows it: its uid mapping dropped hotkeys with weight
 * (`result.aggregation.mapping.dropped`) while the recomputation's dropped none, and each one dropped is what a
 * build before that rule wrote for a hotkey missing from the metagraph: not in the bundle's metagraph, and listed
 * among the claimed miners with uid null and exactly the dropped weight as its allocation. Anything else in
 * the dropped list is an edited value, not an earlier build's (null then).
 */
function earlierRule(claimed: unknown, recomputed: unknown): EarlierMissingHotkeyRule | null {
  const dropped = mappingDropped(claimed);
  const now = mappingDropped(recomputed);
  if (!Array.isArray(dropped) || dropped.length === 0 || !Array.isArray(now) || now.length > 0) return null;
  const bundle = childOf(claimed, 'bundle');
  const metagraph = childOf(bundle, 'metagraph');
  const listed = new Set(Array.isArray(metagraph) ? metagraph.map((n) => childOf(n, 'hotkey')) : []);
  const miners = childOf(childOf(childOf(bundle, 'result'), 'aggregation'), 'miners');
  const minerOf = new Map<unknown, unknown>(Array.isArray(miners) ? miners.map((m) => [childOf(m, 'hotkey'), m]) : []);
  const out: { hotkey: string; weight: number }[] = [];
  let share = 0;
  for (const d of dropped) {
    const hotkey = childOf(d, 'hotkey');
    const weight = childOf(d, 'weight');
    if (typeof hotkey !== 'string' || typeof weight !== 'number' || !(weight > 0) || listed.has(hotkey)) return null;
    const miner = minerOf.get(hotkey);
    if (childOf(miner, 'uid') !== null || childOf(miner, 'allocated') !== weight) return null;
    out.push({ hotkey, weight });
    share += weight;
  }
  return Object.freeze({ spec: EARLIER_RULE_SPEC, title: MISSING_HOTKEY_TITLE, dropped: Object.freeze(out.map((d) => Object.freeze(d))), share });
}

function earlierRuleSentence(rule: EarlierMissingHotkeyRule): string {
  const named = rule.dropped.slice(0, NAMED_DROPPED).map((d) => `${d.hotkey} (claimed share ${d.weight})`);
  const more = rule.dropped.length - named.length;
  const which = `${rule.dropped.length === 1 ? '1 hotkey' : `${rule.dropped.length} hotkeys`} the epoch's metagraph does not list`;
  return (
    `the bundle was computed under the earlier rule of ${rule.spec} "${rule.title}": its uid mapping dropped ${which}, ` +
    `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}, and spread their share (${rule.share} in all) over the other miners and the burn; ` +
    `this build leaves such a hotkey out of its challenge before normalisation and drops nothing at the mapping, so every value that ` +
    `share reached differs (to check the inputs themselves, replay the bundle with a build from before the rule)`
  );
}

/** Tied miners named in the sentence per challenge (the rule's `ties` lists every one). */
const NAMED_TIED = 4;

/**
 * The earlier winner-tie rule of spec G.4, when the claimed bundle shows it: the first differing value is a
 * `winner_tie` the recomputation writes and the claimed challenge lacks, no claimed challenge has one (a build
 * after the rule writes every one), and for each challenge the recomputation finds tied, the claimed
 * normalisation is `winner_takes_all` with the same miners at the same top score and gave the challenge to
 * the lowest of their hotkeys, as a build before the rule did. Anything else is an edited value (null then).
 */
function earlierTieRule(segments: readonly (string | number)[], mismatch: Mismatch, claimed: unknown, recomputed: unknown): EarlierWinnerTieRule | null {
  if (mismatch.kind !== 'missing' || segments.length !== 5 || segments[0] !== 'bundle' || segments[1] !== 'result') return null;
  if (segments[2] !== 'challenges' || typeof segments[3] !== 'number' || segments[4] !== 'winner_tie') return null;
  const result = childOf(childOf(claimed, 'bundle'), 'result');
  const claimedChallenges = childOf(result, 'challenges');
  const recomputedChallenges = childOf(childOf(childOf(recomputed, 'bundle'), 'result'), 'challenges');
  const explained = childOf(childOf(result, 'aggregation'), 'challenges');
  if (!Array.isArray(claimedChallenges) || !Array.isArray(recomputedChallenges) || !Array.isArray(explained)) return null;
  if (claimedChallenges.some((c) => isObject(c) && Object.hasOwn(c, 'winner_tie'))) return null;
  const ties: EarlierTie[] = [];
  for (const [i, recomputedChallenge] of recomputedChallenges.entries()) {
    const tie = childOf(recomputedChallenge, 'winner_tie');
    if (tie === undefined) continue;
    const id = childOf(claimedChallenges[i], 'id');
    const score = childOf(tie, 'score');
    const winner = childOf(tie, 'winner');
    const tied = childOf(tie, 'tied');
    if (typeof id !== 'string' || id !== childOf(recomputedChallenge, 'id') || typeof score !== 'number' || typeof winner !== 'string') return null;
    if (!Array.isArray(tied) || tied.length < 2) return null;
    const normalisation = childOf(
      explained.find((c) => childOf(c, 'id') === id),
      'normalisation',
    );
    const miners = childOf(normalisation, 'miners');
    if (childOf(normalisation, 'strategy') !== 'winner_takes_all' || !Array.isArray(miners)) return null;
    // The claimed miners at the top score: the same ones the recomputation finds tied, and the lowest hotkey won.
    let top = 0;
    for (const m of miners) {
      const s = childOf(m, 'score');
      if (typeof s === 'number' && s > top) top = s;
    }
    const atTop = miners.filter((m) => childOf(m, 'score') === top).map((m) => childOf(m, 'hotkey'));
    const tiedHotkeys = tied.map((t) => childOf(t, 'miner_hotkey'));
    if (top !== score || atTop.length !== tiedHotkeys.length || !atTop.every((h) => typeof h === 'string' && tiedHotkeys.includes(h))) return null;
    const lowest = lowestHotkeyAt(miners, top);
    if (lowest === null || childOf(normalisation, 'winner') !== lowest) return null;
    ties.push(
      Object.freeze({
        challenge_id: id,
        score,
        claimed_winner: lowest,
        winner,
        tied: Object.freeze(
          tied.map((t) => Object.freeze({ miner_hotkey: childOf(t, 'miner_hotkey') as string, submitted_seq: childOf(t, 'submitted_seq') as number | null })),
        ),
      }),
    );
  }
  if (!ties.some((t) => t.challenge_id === childOf(claimedChallenges[segments[3] as number], 'id'))) return null;
  return Object.freeze({ spec: EARLIER_RULE_SPEC, title: WINNER_TIE_TITLE, ties: Object.freeze(ties) });
}

function seqText(seq: number | null): string {
  return seq === null ? 'no submission' : `seq ${seq}`;
}

function earlierTieSentence(rule: EarlierWinnerTieRule): string {
  const challenges = rule.ties.map((t) => {
    const named = t.tied.slice(0, NAMED_TIED).map((m) => `${m.miner_hotkey} (${seqText(m.submitted_seq)})`);
    const more = t.tied.length - named.length;
    const outcome =
      t.winner === t.claimed_winner
        ? 'this build gives it to the same miner and only adds the tie as winner_tie'
        : `this build gives it to ${t.winner}, the earlier submission, so every value that weight reached differs`;
    return (
      `challenge ${t.challenge_id}: ${t.tied.length} miners tied at ${t.score}, ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}; ` +
      `the bundle gave it to ${t.claimed_winner}, the lowest hotkey; ${outcome}`
    );
  });
  return (
    `the bundle was computed under the earlier rule of ${rule.spec} "${rule.title}": an exact tie at the top of a ` +
    `winner_takes_all challenge went to the lowest hotkey, whoever submitted first, and the bundle recorded no winner_tie; ` +
    `${challenges.join('; ')} (to check the inputs themselves, replay the bundle with a build from before the rule)`
  );
}

/**
 * The rule of spec G.9 before it, when the claimed bundle shows it: for each evaluation challenge whose
 * recomputed decay candidate is not the lowest of the hotkeys at its score in the normalisation (the miners that
 * entered decay), the claimed bundle names that lowest hotkey instead, as its candidate and, when the score set a
 * new top, as the carried state's `top_hotkey`; and with exactly those values put back, the recomputed result is
 * the claimed one byte for byte. Anything else (another miner named, another value differing) is not what a
 * build before the rule wrote (null then).
 */
function earlierDecayTopRule(claimed: unknown, recomputed: unknown): EarlierDecayTopRule | null {
  const result = childOf(childOf(recomputed, 'bundle'), 'result');
  const explained = childOf(childOf(result, 'aggregation'), 'challenges');
  const states = childOf(result, 'decay_states');
  if (!Array.isArray(explained) || !Array.isArray(states)) return null;
  const tops: EarlierDecayTop[] = [];
  // The recomputed result with what a build before the rule named instead.
  let before: unknown = result;
  for (const [i, c] of explained.entries()) {
    const decay = childOf(c, 'decay');
    const hotkey = childOf(childOf(decay, 'candidate'), 'hotkey');
    const score = childOf(childOf(decay, 'candidate'), 'score');
    const miners = childOf(childOf(c, 'normalisation'), 'miners');
    if (typeof hotkey !== 'string' || typeof score !== 'number' || !Array.isArray(miners)) continue;
    const lowest = lowestHotkeyAt(miners, score);
    if (lowest === null || lowest === hotkey) continue;
    const id = childOf(c, 'id');
    if (typeof id !== 'string') return null;
    const replaced = childOf(decay, 'replaced_top') === true;
    before = withValueAt(before, ['aggregation', 'challenges', i, 'decay', 'candidate', 'hotkey'], lowest);
    if (replaced) {
      const j = states.findIndex((d) => childOf(d, 'challenge_id') === id);
      if (j < 0 || childOf(childOf(states[j], 'state'), 'top_hotkey') !== hotkey) return null;
      before = withValueAt(before, ['decay_states', j, 'state', 'top_hotkey'], lowest);
    }
    tops.push(Object.freeze({ challenge_id: id, score, claimed_hotkey: lowest, hotkey, replaced_top: replaced }));
  }
  if (tops.length === 0 || !sameCanonicalJson(before, childOf(childOf(claimed, 'bundle'), 'result'))) return null;
  return Object.freeze({ spec: DECAY_TOP_SPEC, title: DECAY_TOP_TITLE, tops: Object.freeze(tops) });
}

function earlierDecayTopSentence(rule: EarlierDecayTopRule): string {
  const challenges = rule.tops.map(
    (t) =>
      `challenge ${t.challenge_id}: miners tied at ${t.score}; the bundle names ${t.claimed_hotkey}, the lowest hotkey, this build names ${t.hotkey}, ` +
      `the miner the challenge ranks first, ${t.replaced_top ? 'as the decay candidate and the new top it carries' : 'as the decay candidate (the top was not replaced)'}`,
  );
  return (
    `the bundle was computed before the rule of ${rule.spec} "${rule.title}": its reward decay named the lowest of the hotkeys tied at the ` +
    `epoch's best score, whoever the challenge ranked first; ${challenges.join('; ')}; no weight or burn differs, only who is named ` +
    `(to check the inputs themselves, replay the bundle with a build from before the rule)`
  );
}

/**
 * The lowest hotkey (string order, `<`) of the normalisation's miners at `score`, as builds before spec G.4's
 * winner-tie rule and before G.9 named it; an entry without a string hotkey is passed over; null when none is there.
 */
function lowestHotkeyAt(miners: readonly unknown[], score: number): string | null {
  let lowest: string | null = null;
  for (const m of miners) {
    const h = childOf(m, 'hotkey');
    if (childOf(m, 'score') === score && typeof h === 'string' && (lowest === null || h < lowest)) lowest = h;
  }
  return lowest;
}

/** `root` with the value at `path` replaced, copying only the objects and arrays along the path. */
function withValueAt(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (typeof head === 'number' && Array.isArray(root)) {
    const copy: unknown[] = root.slice();
    copy[head] = withValueAt(root[head], rest, value);
    return copy;
  }
  if (typeof head === 'string' && isObject(root)) return { ...root, [head]: withValueAt(root[head], rest, value) };
  return root;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function childOf(container: unknown, segment: string | number): unknown {
  if (typeof segment === 'number') return Array.isArray(container) ? (container[segment] as unknown) : undefined;
  return isObject(container) && Object.hasOwn(container, segment) ? container[segment] : undefined;
}

/** The input lists of a bundle that hold records of one challenge kind. */
const INPUT_LIST_OF_KIND: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, {
    workflow: 'workflow_runs',
    sssa: 'sssa_submissions',
    term_pass_rate: 'term_results',
    bounty: 'bounty_records',
  }),
);

interface Found {
  readonly path: string;
  readonly record: string | null;
}

function inputLists(bundle: unknown): [string, unknown[]][] {
  const inputs = childOf(bundle, 'inputs');
  if (!isObject(inputs)) return [];
  return Object.keys(inputs)
    .filter((k) => Array.isArray(inputs[k]))
    .map((k) => [k, inputs[k] as unknown[]]);
}

function byRecordId(bundle: unknown, recordId: string): Found | null {
  for (const [name, list] of inputLists(bundle)) {
    const i = list.findIndex((r) => isObject(r) && r.record_id === recordId);
    if (i >= 0) return { path: formatJsonPath(['bundle', 'inputs', name, i]), record: recordId };
  }
  return null;
}

function peerScore(bundle: unknown, challengeId: string | null, validator: string, miner: string): Found | null {
  const list = childOf(childOf(bundle, 'inputs'), 'peer_scores');
  if (!Array.isArray(list)) return null;
  const i = list.findIndex(
    (p) => isObject(p) && p.validator_hotkey === validator && p.miner_hotkey === miner && (challengeId === null || p.challenge_id === challengeId),
  );
  return i < 0 ? null : { path: formatJsonPath(['bundle', 'inputs', 'peer_scores', i]), record: `peer score ${validator} -> ${miner}` };
}

function stakeOf(bundle: unknown, validator: string): Found | null {
  const list = childOf(bundle, 'stakes');
  if (!Array.isArray(list)) return null;
  const i = list.findIndex((s) => isObject(s) && s.validator_hotkey === validator);
  return i < 0 ? null : { path: formatJsonPath(['bundle', 'stakes', i]), record: `stake of ${validator}` };
}

function minerRecords(bundle: unknown, challengeKind: string | null, miner: string): Found | null {
  const listName = challengeKind === null ? undefined : INPUT_LIST_OF_KIND[challengeKind];
  for (const [name, list] of inputLists(bundle)) {
    if (listName !== undefined && name !== listName) continue;
    const i = list.findIndex((r) => isObject(r) && r.miner_hotkey === miner);
    if (i >= 0) {
      const r = list[i] as Record<string, unknown>;
      return { path: formatJsonPath(['bundle', 'inputs', name, i]), record: typeof r.record_id === 'string' ? r.record_id : null };
    }
  }
  return null;
}

/**
 * Finds the configuration value or input record behind the earliest differing value of a bundle. The
 * bundle's configuration is echoed in the result (`result.config`, `result.aggregation.config`): a
 * difference there is the configuration's. Otherwise the entries along the value's path name the input:
 * a `record_id` (a task score, a pass rate, a bounty record), a peer's evaluation (`validator_hotkey` with a
 * miner: the peer score, or the stake for a `stake` field), or the miner's own records of that challenge's
 * kind. When nothing does, the claimed value itself differs (`result`). A bundle computed before the rule of
 * docs/spec.md G.4 "A hotkey missing from the metagraph takes no share of its challenge" (its uid mapping
 * dropped such hotkeys, the recomputation's drops none) is told as that (`rule`), with the dropped hotkeys and
 * their claimed share, whatever its first differing value; one computed before G.4's winner-tie rule (its first
 * differing value is a `winner_tie` it lacks, and each tie went to the lowest hotkey) is told as that, with
 * each tie as the bundle and as the rule decide it; one computed before G.9 (every difference is a decay
 * candidate or carried `top_hotkey` naming the lowest of the hotkeys tied at the best score where the rule
 * names another) is told as that, with each challenge, the hotkey the bundle names and the one the rule names.
 *
 * @param segments - path segments of the earliest differing value, from the document root (`bundle`, `result`, ...)
 * @param mismatch - that value's mismatch
 * @param claimed - the signed document `{ bundle }` as claimed
 * @param recomputed - the same document with the recomputed result
 * @param validatorHotkey - the bundle's validator (its own evaluations come from its own records)
 * @returns the root cause, frozen
 * @example findRootCause(['bundle', 'result', 'config', 'challenges', 0, 'alpha'], m, doc, redoc, hotkey).path // 'bundle.config.challenges[0].alpha'
 */
export function findRootCause(
  segments: readonly (string | number)[],
  mismatch: Mismatch,
  claimed: unknown,
  recomputed: unknown,
  validatorHotkey: string,
): RootCause {
  const rest = segments.slice(2);
  const bundle = childOf(claimed, 'bundle');
  const done = (kind: RootCause['kind'], found: Found, sentence: string): RootCause =>
    Object.freeze({ kind, path: found.path, record: found.record, mismatch, sentence });
  const values = `recomputed ${show(mismatch.expected)}, the bundle claims ${show(mismatch.claimed)}`;
  if (rest[0] === 'config' || (rest[0] === 'aggregation' && rest[1] === 'config')) {
    const tail = rest[0] === 'config' ? rest.slice(1) : ['pipeline', ...rest.slice(2)];
    const path = formatJsonPath(['bundle', 'config', ...tail]);
    return done(
      'config',
      { path, record: null },
      `configuration value ${path} is ${show(mismatch.expected)} in the bundle, but its result was computed with ${show(mismatch.claimed)}`,
    );
  }
  // A bundle of a build before spec G.4's rule for hotkeys missing from the metagraph: every stage those
  // hotkeys took part in differs, none because of a record.
  const rule = earlierRule(claimed, recomputed);
  if (rule !== null) {
    const found = { path: 'bundle.result.aggregation.mapping.dropped', record: null };
    return Object.freeze({ kind: 'rule' as const, path: found.path, record: found.record, mismatch, sentence: earlierRuleSentence(rule), rule });
  }
  // A bundle of a build before spec G.4's winner-tie rule: its first differing value is the winner_tie it lacks.
  const tieRule = earlierTieRule(segments, mismatch, claimed, recomputed);
  if (tieRule !== null) {
    return Object.freeze({ kind: 'rule' as const, path: mismatch.path, record: null, mismatch, sentence: earlierTieSentence(tieRule), rule: tieRule });
  }
  // A bundle of a build before spec G.9: only the decay's named top differs, the lowest of the tied hotkeys.
  const decayTopRule = earlierDecayTopRule(claimed, recomputed);
  if (decayTopRule !== null) {
    return Object.freeze({
      kind: 'rule' as const,
      path: mismatch.path,
      record: null,
      mismatch,
      sentence: earlierDecayTopSentence(decayTopRule),
      rule: decayTopRule,
    });
  }
  // Walk the path in both documents, remembering the challenge and the deepest identifying entry.
  let c: unknown = claimed;
  let e: unknown = recomputed;
  let challengeId: string | null = null;
  let challengeKind: string | null = null;
  let recordId: string | null = null;
  let evaluator: string | null = null;
  let miner = mismatch.miner?.hotkey ?? null;
  for (const [depth, segment] of segments.entries()) {
    c = childOf(c, segment);
    e = childOf(e, segment);
    // Only entries inside the result identify anything (the bundle itself carries the validator hotkey).
    if (depth < 2) continue;
    const node = isObject(c) ? c : isObject(e) ? e : null;
    if (node === null) continue;
    if (typeof node.id === 'string' && typeof node.kind === 'string') {
      challengeId = node.id;
      challengeKind = node.kind;
    }
    if (typeof node.record_id === 'string') recordId = node.record_id;
    if (typeof node.validator_hotkey === 'string') evaluator = node.validator_hotkey;
    if (typeof node.hotkey === 'string' && miner === null) miner = node.hotkey;
  }
  const field = segments[segments.length - 1];
  const where = `${mismatch.stage}${mismatch.field === '' ? '' : ` ${mismatch.field}`}`;
  if (recordId !== null) {
    const found = byRecordId(bundle, recordId);
    if (found !== null) {
      // Excluded by the recomputation and not by the bundle: that is the cause, said first (it was cut off the line's end).
      const why = newExclusion(claimed, recomputed, found);
      if (why !== null) {
        return done(
          'input',
          found,
          `input record ${found.path} (record ${recordId}) is excluded by the recomputation, [${why.code}] ${why.reason}, but the bundle scores it: ${where}: ${values}`,
        );
      }
      return done('input', found, `input record ${found.path} (record ${recordId}) gives ${where}: ${values}`);
    }
  }
  if (evaluator !== null && miner !== null && evaluator !== validatorHotkey) {
    const found = field === 'stake' ? stakeOf(bundle, evaluator) : peerScore(bundle, challengeId, evaluator, miner);
    if (found !== null) return done('input', found, `input ${found.path} (${found.record ?? ''}) gives ${where}: ${values}`);
  }
  if (miner !== null && (rest[0] === 'challenges' || rest[0] === 'window_state' || evaluator === validatorHotkey)) {
    const kind = challengeKind === 'evaluations' ? ownKind(bundle, challengeId) : challengeKind;
    const found = minerRecords(bundle, kind, miner);
    if (found !== null)
      return done(
        'input',
        found,
        `input record ${found.path}${found.record === null ? '' : ` (record ${found.record})`} of miner ${miner} gives ${where}: ${values}`,
      );
  }
  return done('result', { path: mismatch.path, record: null }, `the claimed value ${mismatch.path} (${where}) is not what its inputs give: ${values}`);
}

/**
 * The exclusion of the record at `found` (a `bundle.inputs.<list>[i]` with a record id) that the recomputation made and
 * the bundle did not: its code and reason, or null.
 */
function newExclusion(claimed: unknown, recomputed: unknown, found: Found): { code: string; reason: string } | null {
  const list = /^bundle\.inputs\.([a-z_]+)\[/.exec(found.path)?.[1];
  if (list === undefined || found.record === null) return null;
  const exclusion = (doc: unknown): Record<string, unknown> | undefined => {
    const excluded = childOf(childOf(childOf(doc, 'bundle'), 'result'), 'excluded');
    if (!Array.isArray(excluded)) return undefined;
    return excluded.find((x): x is Record<string, unknown> => isObject(x) && x.list === list && x.record_id === found.record);
  };
  const redone = exclusion(recomputed);
  if (redone === undefined || exclusion(claimed) !== undefined) return null;
  return typeof redone.code === 'string' && typeof redone.reason === 'string' ? { code: redone.code, reason: redone.reason } : null;
}

/** The configured kind of an evaluation challenge (the aggregation explanation calls every one `evaluations`). */
function ownKind(bundle: unknown, challengeId: string | null): string | null {
  const challenges = childOf(childOf(bundle, 'config'), 'challenges');
  if (!Array.isArray(challenges) || challengeId === null) return null;
  const c = challenges.find((x) => isObject(x) && x.id === challengeId) as Record<string, unknown> | undefined;
  return typeof c?.kind === 'string' ? c.kind : null;
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
