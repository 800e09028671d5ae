import { compareCodePoints } from '@subnet/core';

import type { Majority, Tally } from './group-tally.js';
import { intersectionSize, memberExtras, memberMisses, memberSize } from './group-tally.js';
import type { ConsensusExplanation } from './consensus-types.js';
import { decode } from './document-sets.js';
import type { Verdict } from './sssa-schema.js';

/** Internal: what {@link explainMember} reads of a scored group. */
export interface GroupView {
  readonly n: number;
  readonly keys: Tally;
  readonly groupKeys: Majority;
  readonly capabilities: Tally;
  readonly groupCapabilities: Majority;
  readonly dependencies: Tally;
  readonly groupDependencies: Majority;
  readonly cves: Tally;
  readonly groupCves: Majority;
  readonly rules: Tally;
  readonly groupRules: Majority;
  readonly verdict: Verdict;
  readonly verdictCounts: Readonly<Record<Verdict, number>>;
  readonly riskMean: number;
}

/** Internal: the member's own values. */
export interface MemberView {
  readonly index: number;
  readonly verdict: Verdict;
  readonly risk: number;
  readonly riskAgreement: number;
}

/** At most this many items are named per list; the rest are counted. */
const LIST_LIMIT = 3;

/** Names the first items in code point order (so no input order shows), and counts the rest. */
function listed(items: readonly string[], separator = ', '): string {
  const shown = [...items].sort(compareCodePoints).slice(0, LIST_LIMIT).join(separator);
  return items.length > LIST_LIMIT ? `${shown}${separator}and ${items.length - LIST_LIMIT} more` : shown;
}

/** A number for people: at most 3 decimals (the exact values are in `components`). */
function num(x: number): string {
  return String(Math.round(x * 1000) / 1000);
}

interface FindingParts {
  readonly category: string;
  readonly severity: string;
  readonly ref: string;
  readonly path: string;
  readonly range: string;
  readonly cves: string;
  readonly target: string;
}

/** Splits a preimage (`category|severity|ref|cves|target`; only the target may hold `|`). */
function parts(preimage: string): FindingParts {
  const a = preimage.indexOf('|');
  const b = preimage.indexOf('|', a + 1);
  const c = preimage.indexOf('|', b + 1);
  const d = preimage.indexOf('|', c + 1);
  const ref = preimage.slice(b + 1, c);
  const hash = /#L[0-9]+-L[0-9]+$/.exec(ref);
  return {
    category: preimage.slice(0, a),
    severity: preimage.slice(a + 1, b),
    ref,
    path: hash === null ? ref : ref.slice(0, hash.index),
    range: hash === null ? '' : hash[0].slice(1),
    cves: preimage.slice(c + 1, d),
    target: preimage.slice(d + 1),
  };
}

function describe(f: FindingParts): string {
  return `${f.ref} (${f.category}, ${f.severity}${f.cves === '' ? '' : `, ${f.cves}`}, target ${f.target})`;
}

/** How the member's closest own finding at the same path differs from a finding the group agreed on. */
function nearMiss(agreed: FindingParts, own: readonly FindingParts[]): string {
  const samePath = own.filter((f) => f.path === agreed.path);
  const exact = samePath.find((f) => f.category === agreed.category && f.severity === agreed.severity && f.cves === agreed.cves && f.target === agreed.target);
  if (exact !== undefined) return `, you reported ${exact.range === '' ? 'no line range' : exact.range}`;
  const other = samePath[0];
  return other === undefined ? ', you reported nothing at that path' : `, you reported ${describe(other)}`;
}

function recallSentence(g: GroupView, m: number): string {
  const total = g.groupKeys.size;
  if (total === 0) return 'the group agreed on no finding, so recall is 1';
  const matched = intersectionSize(g.keys, g.groupKeys.inGroup, m);
  const head = `you reported ${matched} of the ${total} findings the group agreed on`;
  const missed = memberMisses(g.keys, g.groupKeys.inGroup, m);
  if (missed.length === 0) return head;
  const own = memberExtras(g.keys, g.groupKeys.inGroup, m).map((id) => parts(g.keys.payloads[id] ?? ''));
  const pieces = missed.map((id) => {
    const agreed = parts(g.keys.payloads[id] ?? '');
    return `the group agreed on ${describe(agreed)}${nearMiss(agreed, own)}`;
  });
  return `${head}: ${listed(pieces, '; ')}`;
}

function precisionSentence(g: GroupView, m: number): string {
  const mine = memberSize(g.keys, m);
  const total = g.groupKeys.size;
  if (mine === 0) {
    return total === 0
      ? 'you reported no finding and the group agreed on none, so precision is 1'
      : `you reported no finding while the group agreed on ${total}, so precision is 0`;
  }
  const matched = intersectionSize(g.keys, g.groupKeys.inGroup, m);
  const head = `${matched} of your ${mine} findings are in the group set`;
  const extras = memberExtras(g.keys, g.groupKeys.inGroup, m);
  if (extras.length === 0) return head;
  const pieces = extras.map((id) => `${describe(parts(g.keys.payloads[id] ?? ''))}, reported by ${g.keys.counts[id] ?? 0} of ${g.n}`);
  return `${head}; not agreed by a majority: ${listed(pieces, '; ')}`;
}

function verdictSentence(g: GroupView, mine: Verdict): string {
  const c = g.verdictCounts;
  const top = Math.max(c.ALLOW, c.BLOCK, c.REVIEW);
  const tie = [c.ALLOW, c.BLOCK, c.REVIEW].filter((x) => x === top).length > 1;
  const head = `the group verdict is ${g.verdict} (ALLOW ${c.ALLOW}, BLOCK ${c.BLOCK}, REVIEW ${c.REVIEW}${tie ? ': a tie for most frequent gives REVIEW' : ''}); you said ${mine}`;
  if (mine === g.verdict) return head;
  return mine === 'REVIEW' ? `${head}, which earns half credit` : `${head}, which earns nothing`;
}

/** Jaccard sentence for capabilities and policy rules. */
function setSentence(what: string, t: Tally, g: Majority, m: number, show: (name: string) => string): string {
  const inter = intersectionSize(t, g.inGroup, m);
  const union = memberSize(t, m) + g.size - inter;
  if (union === 0) return `neither you nor the group reported any ${what}, so agreement is 1`;
  let sentence = `you share ${inter} of the ${union} ${what} in your set and the group's together`;
  const missed = memberMisses(t, g.inGroup, m).map((id) => show(t.names[id] ?? ''));
  const extra = memberExtras(t, g.inGroup, m).map((id) => show(t.names[id] ?? ''));
  if (missed.length > 0) sentence += `; the group agreed on ${listed(missed)}, which you did not report`;
  if (extra.length > 0) sentence += `; you reported ${listed(extra)}, which the group did not agree on`;
  return sentence;
}

function riskSentence(g: GroupView, member: MemberView): string {
  const distance = Math.abs(member.risk - g.riskMean);
  const tail = member.riskAgreement === 0 ? ', so agreement is 0' : '';
  return `your risk_score ${num(member.risk)} is ${num(distance)} from the group mean ${num(g.riskMean)}${tail}`;
}

function dependencySentence(g: GroupView, m: number): string {
  const deps = g.groupDependencies.size;
  const cves = g.groupCves.size;
  const depsMatched = intersectionSize(g.dependencies, g.groupDependencies.inGroup, m);
  const cvesMatched = intersectionSize(g.cves, g.groupCves.inGroup, m);
  let sentence =
    (deps === 0 ? 'the group agreed on no dependency' : `you reported ${depsMatched} of the group's ${deps} dependencies`) +
    (cves === 0 ? ' and on no CVE annotation' : ` and ${cvesMatched} of its ${cves} CVE annotations`);
  const missedDeps = memberMisses(g.dependencies, g.groupDependencies.inGroup, m).map((id) => decode(g.dependencies.names[id] ?? '').join(' '));
  const missedCves = memberMisses(g.cves, g.groupCves.inGroup, m).map((id) => {
    const [name = '', version = '', cve = ''] = decode(g.cves.names[id] ?? '');
    return `${cve} on ${name} ${version}`;
  });
  if (missedDeps.length > 0) sentence += `; missing: ${listed(missedDeps)}`;
  if (missedCves.length > 0) sentence += `; missing annotations: ${listed(missedCves)}`;
  return sentence;
}

/**
 * Internal: one sentence per component for a member of a scored group, naming what it matched and
 * missed (the group's finding by its normalised evidence reference, and the member's nearest own finding
 * at the same path: "the group agreed on tools/getfile.py#L12-L18 (...), you reported L12-L19").
 */
export function explainMember(g: GroupView, member: MemberView): ConsensusExplanation {
  const m = member.index;
  return Object.freeze({
    findingsRecall: recallSentence(g, m),
    findingsPrecision: precisionSentence(g, m),
    verdictAgreement: verdictSentence(g, member.verdict),
    capabilitiesAgreement: setSentence('capabilities', g.capabilities, g.groupCapabilities, m, (name) => name),
    riskAgreement: riskSentence(g, member),
    dependenciesAgreement: dependencySentence(g, m),
    policyAgreement: setSentence('policy rules', g.rules, g.groupRules, m, (name) => decode(name).join(' ')),
  });
}
