import type { InputLimits } from '@subnet/core';
import { DEFAULT_INPUT_LIMITS } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { computeDocumentSets } from '../document-sets.js';
import { fastSssa } from '../fast-sssa.js';
import { createFreshGroup, freshDocumentSets } from '../fresh-sets.js';
import { computeTaskConsensus, parseSssa } from '../index.js';
import type { ConsensusMemberInput } from '../index.js';

import { hotkey } from './helpers.js';

// A whole group scored from raw documents (the one-pass reader `fresh-sets.ts`, its tables, the order hint,
// the span-id rule, the switch to exact keys) against the same group with each document first passed through
// parseSssa (the zod path and `document-sets.ts`), and against a mix of both: every member's consensus and
// components to the last bit, the group sets, the explanations and the exclusions must be the same. The
// documents are the shapes the other generators do not make: members that copy one list of findings in the
// same order and change one field of one finding (so the hint entry has the same reference and differs in
// category, severity, CVEs or target), drop or swap a finding (the hint misses), put a prefix before every
// reference (a span id, a `.` or `/` before the `:`, a space); references that differ in case, ASCII and
// non-ASCII whitespace, leading zeros, `./`, backslashes, `//` and line numbers past 2^53; text that folds
// or trims differently outside ASCII (ı, İ, ſ, ß, U+00A0, U+FEFF, full-width letters, a combining mark);
// CVE lists with duplicates, case variants and other orders; invalid members, excluded after the reader has
// put some of their findings in the tables; and dozens of items of every kind in one bucket (same length,
// first, middle and last 16 characters), listed in shifted orders, so the tables switch to exact keys in the
// middle of the group (up to 60 findings in one document: past 48 the reader sorts a document's keys natively).

/** The value with numbers written to the bit (-0 apart from 0); the explanations are read through their accessor. */
const exact = (value: unknown): string => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' ? (Object.is(v, -0) ? '-0' : `n${v}`) : v));

type Doc = Record<string, unknown>;
type Finding = Record<string, unknown>;

const SPANS = ['', 's1:', 'm0-span-3:', 'a.b:', 'x/y:', ' ', '\t', ':', ' m:', '\u00a0:', 'a:b:', 'A\u0130:', '\ufeff:', '\u00df:', 'x\\y:', 'a|b:', '\u0000:'];
const PATHS = [
  'tools/a.py',
  './a.py',
  '././a.py',
  'a//b.py',
  'a\\b.py',
  'src/x.y',
  '/abs/a.py',
  'a/',
  'L',
  '#',
  'a:b/c.py',
  'x.py',
  '\u0131.py',
  '\u0130.py',
  '\uff21.py',
  'e\u0301.py',
  '\u00a0a.py',
  'a.py\u00a0',
  '\ufeffa.py',
  './/a.py',
  '.\\a.py',
  'a/b:3',
  'C:\\x.py',
  '3',
  'L1-',
  '#L',
];
const RANGES = [
  '#L1-L4',
  '#L0-L0',
  '#L01-L4',
  '#L1-L04',
  '#L12-L12',
  '#L9-L10',
  '#L19-L21',
  ':3',
  ':3-4',
  ':03-4',
  '#L5',
  '#L005',
  '',
  ':0',
  '#L1-L1',
  '#L9007199254740993-L9007199254740993',
  '#L00000000000000000001-L1',
  '#L99999999999999999999-L100000000000000000000',
  ':9007199254740992-9007199254740993',
  '#L\u0663',
  ':\uff11',
];
const TAILS = ['', '', '', ' ', '\t', '\u00a0', '\n'];
const refArb = fc
  .tuple(fc.constantFrom(...SPANS), fc.constantFrom(...PATHS), fc.constantFrom(...RANGES), fc.constantFrom(...TAILS))
  .map(([span, path, range, tail]) => `${span}${path}${range}${tail}`);
const CATEGORIES = [
  'tool_poison',
  'Tool_Poison',
  ' tool_poison ',
  'TOOL_POISON',
  'ssrf',
  '\u017fsrf',
  'tool_po\u0131son',
  'tool_po\u0130son',
  '\u00a0ssrf',
  'ssrf\ufeff',
  '\uff33srf',
  'stra\u00dfe',
  'STRASSE',
];
const SEVERITIES = ['high', 'High', ' HIGH ', 'medium', 'low', 'critical', 'high\t'];
/** Severities that fold to none of the four outside ASCII: the document is refused (rarely, so most groups score). */
const BAD_SEVERITIES = ['h\u0131gh', 'H\u0130GH', '\u00a0high'];
const CVES = ['CVE-1', 'cve-1', ' CVE-1 ', 'CVE-2', 'cve-2\t', 'CVE-\u0131', 'CVE-\u00df', 'cve-\u00df', '\u00a0CVE-1'];
const TARGETS = ['target', ' target ', 'Target', 'target\u00a0', 'tar|get'];
const CAPABILITIES = ['fs.read', 'FS.Read', ' fs.read', 'fs.read\u00a0', 'f\u017f.read', '\u0131', 'I', 'i', '\u0130'];
const FIELDS = ['category', 'severity', 'evidence_ref', 'cve_ids', 'target_pattern'] as const;

const findingArb = fc.record({
  id: fc.constantFrom('f', 'g'),
  category: fc.constantFrom(...CATEGORIES),
  severity: fc.oneof({ arbitrary: fc.constantFrom(...SEVERITIES), weight: 30 }, { arbitrary: fc.constantFrom(...BAD_SEVERITIES), weight: 1 }),
  description: fc.constant('d'),
  evidence_ref: refArb,
  cve_ids: fc.array(fc.constantFrom(...CVES), { maxLength: 3 }),
  target_pattern: fc.constantFrom(...TARGETS),
});
const dependencyArb = fc.record({
  package: fc.constantFrom('requests', 'Requests', ' requests ', 'reque\u017fts'),
  version: fc.constantFrom('1', ' 1', '1\u00a0'),
  cves: fc.array(fc.constantFrom(...CVES), { maxLength: 3 }),
});
const ruleArb = fc.record({
  resource: fc.constantFrom('fs', 'FS', ' fs'),
  action: fc.constantFrom('read', 'Read'),
  pattern: fc.constantFrom('*', ' *', '*\u00a0'),
});

/** A shared list of findings and items, and per member: edits of that list, a prefix for every reference, parsed or raw. */
const spelledGroupArb = fc.record({
  findings: fc.array(findingArb, { minLength: 1, maxLength: 8 }),
  capabilities: fc.array(fc.constantFrom(...CAPABILITIES), { maxLength: 4 }),
  dependencies: fc.array(dependencyArb, { maxLength: 3 }),
  rules: fc.array(ruleArb, { maxLength: 3 }),
  members: fc.array(
    fc.record({
      edits: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...FIELDS, 'drop', 'swap'), findingArb), { maxLength: 3 }),
      prefix: fc.constantFrom('', '', 'm9:', 'a.b:', ' ', 'q/'),
      parsed: fc.boolean(),
      verdict: fc.constantFrom('ALLOW', 'BLOCK', 'REVIEW'),
      risk: fc.constantFrom(0, -0, 0.1, 0.3, 1, 5e-324, 0.7),
      dropCapability: fc.nat(),
    }),
    { minLength: 3, maxLength: 6 },
  ),
});
type SpelledGroup = typeof spelledGroupArb extends fc.Arbitrary<infer T> ? T : never;

const member = (i: number, doc: Doc): ConsensusMemberInput => ({
  uid: i + 1,
  hotkey: hotkey(i + 1),
  role: i < 3 ? 'primary' : 'auditor',
  // A JSON round trip: a validator scores documents as it read them from a request body.
  sssa: JSON.parse(JSON.stringify(doc)) as Doc,
});

function spelledMembers(g: SpelledGroup): ConsensusMemberInput[] {
  return g.members.map((m, i) => {
    const findings: Finding[] = g.findings.map((f) => ({ ...f }));
    for (const [at, field, other] of m.edits) {
      const k = at % findings.length;
      if (field === 'drop') findings.splice(k, 1);
      else if (field === 'swap') {
        const j = (k + 1) % findings.length;
        [findings[k], findings[j]] = [findings[j] as Finding, findings[k] as Finding];
      } else {
        const f = findings[k];
        if (f !== undefined) f[field] = other[field];
      }
    }
    for (const f of findings) f.evidence_ref = `${m.prefix}${String(f.evidence_ref)}`;
    return member(i, {
      verdict: m.verdict,
      risk_score: m.risk,
      findings,
      capabilities: g.capabilities.filter((_, j) => j !== m.dropCapability % 5),
      dependencies: g.dependencies,
      policy: { rules: g.rules },
    });
  });
}

/** Two lowercase letters for i < 676: the only characters in which the crafted items of one bucket differ. */
const pair = (i: number): string => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;

const collidingGroupArb = fc.record({
  n: fc.integer({ min: 8, max: 60 }),
  members: fc.array(
    fc.record({
      shift: fc.nat(),
      take: fc.integer({ min: 0, max: 60 }),
      spans: fc.array(fc.constantFrom('', 's:', 'm1-span:', './', ':', 'x.y:', 'x/y:'), { minLength: 1, maxLength: 4 }),
      colonRange: fc.boolean(),
      categories: fc.array(fc.constantFrom('tool_poison', 'Tool_Poison', 'ssrf', ' ssrf'), { minLength: 1, maxLength: 3 }),
      cves: fc.array(fc.constantFrom<string[]>([], ['CVE-1'], ['cve-1', 'CVE-2'], ['CVE-2', 'CVE-1', 'cve-1']), { minLength: 1, maxLength: 3 }),
      itemShift: fc.nat(),
      parsed: fc.boolean(),
    }),
    { minLength: 3, maxLength: 6 },
  ),
});
type CollidingGroup = typeof collidingGroupArb extends fc.Arbitrary<infer T> ? T : never;

function collidingMembers(g: CollidingGroup): ConsensusMemberInput[] {
  const n = g.n;
  return g.members.map((m, i) => {
    const findings: Finding[] = [];
    for (let k = 0; k < Math.min(m.take, n); k++) {
      const span = m.spans[k % m.spans.length] as string;
      // Same length, first, middle and last 16 characters for every j.
      const path = `t/${pair((k + m.shift) % n)}/${'p'.repeat(24)}.py`;
      const ref = span === './' ? `./${path}#L1-L1` : `${span}${path}${m.colonRange ? ':1' : '#L1-L1'}`;
      findings.push({
        id: 'x',
        category: m.categories[k % m.categories.length],
        severity: 'high',
        description: '',
        evidence_ref: ref,
        cve_ids: m.cves[k % m.cves.length],
        target_pattern: 't',
      });
    }
    const items = Math.min(n, 20);
    return member(i, {
      verdict: 'BLOCK',
      risk_score: 0.5,
      findings,
      capabilities: Array.from({ length: n }, (_, k) => `${k % 3 === 0 ? ' C' : 'c'}${pair((k + m.itemShift) % n)}.${'x'.repeat(36)}`).slice(m.itemShift % 5),
      dependencies: Array.from({ length: items }, (_, k) => ({
        package: `p${pair((k + m.shift) % n)}${'q'.repeat(30)}`,
        version: '1',
        cves: [`CVE-${pair(k)}-${'0'.repeat(20)}`, `cve-${pair(k + 1)}-${'0'.repeat(20)}`],
      })),
      policy: {
        rules: Array.from({ length: items }, (_, k) => ({ resource: `r${pair((k + m.itemShift) % n)}${'z'.repeat(20)}`, action: 'read', pattern: '*' })),
      },
    });
  });
}

/**
 * Scores the group raw, parsed and mixed (`parsed[i]` picks the members handed over parsed) and expects one
 * result; checks each raw document's sets from one shared fresh group against the general path's; returns
 * that group's tables.
 */
function expectOneResult(raw: readonly ConsensusMemberInput[], parsedMembers: readonly boolean[], limits?: Partial<InputLimits>) {
  const parse = (doc: unknown): unknown => {
    try {
      return parseSssa(doc, 'sssa', { limits });
    } catch {
      return doc; // invalid: excluded either way, with the same code and path
    }
  };
  const parsed = raw.map((m) => ({ ...m, sssa: parse(m.sssa) }));
  const mixed = raw.map((m, i) => (parsedMembers[i] === true ? (parsed[i] as ConsensusMemberInput) : m));
  const fromRaw = exact(computeTaskConsensus({ taskId: 't', members: raw, limits }));
  expect(exact(computeTaskConsensus({ taskId: 't', members: parsed, limits }))).toBe(fromRaw);
  expect(exact(computeTaskConsensus({ taskId: 't', members: mixed, limits }))).toBe(fromRaw);
  const complete = { ...DEFAULT_INPUT_LIMITS, ...limits };
  const group = createFreshGroup();
  for (const m of raw) {
    const refs: string[] = [];
    const general = fastSssa(m.sssa, complete, refs);
    expect(exact(freshDocumentSets(m.sssa, complete, group))).toBe(exact(general && computeDocumentSets(general, refs)));
  }
  return group;
}

describe('a group scored from raw documents gives the result of the same group parsed first (and of any mix)', () => {
  it('when members spell one list of findings differently, change one field of one finding, drop or swap one', () => {
    let scored = 0;
    fc.assert(
      fc.property(spelledGroupArb, (g) => {
        const raw = spelledMembers(g);
        expectOneResult(
          raw,
          g.members.map((m) => m.parsed),
        );
        if (computeTaskConsensus({ taskId: 't', members: raw, explain: false }).group !== null) scored++;
      }),
      { numRuns: 700 },
    );
    // Most groups have at least three valid members and are compared on their scores, not only on exclusions.
    expect(scored).toBeGreaterThan(400);
  });

  it('under small input limits (the reader and the parser refuse alike; what both accept scores alike)', () => {
    fc.assert(
      fc.property(spelledGroupArb, (g) => {
        expectOneResult(
          spelledMembers(g),
          g.members.map((m) => m.parsed),
          { maxStringLength: 24, maxListLength: 5, maxObjectKeys: 7, maxDepth: 6 },
        );
      }),
      { numRuns: 200 },
    );
  });

  it('when dozens of findings and items share one bucket, so the tables switch to exact keys mid-group', () => {
    let switched = 0;
    fc.assert(
      fc.property(collidingGroupArb, (g) => {
        const group = expectOneResult(
          collidingMembers(g),
          g.members.map((m) => m.parsed),
        );
        if (group.findings.exact !== undefined && group.cves.exact !== undefined) switched++;
      }),
      { numRuns: 150 },
    );
    expect(switched).toBeGreaterThan(100);
  });
});
