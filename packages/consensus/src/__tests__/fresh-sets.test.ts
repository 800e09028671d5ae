import type { InputLimits } from '@subnet/core';
import { DEFAULT_INPUT_LIMITS } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { computeDocumentSets } from '../document-sets.js';
import { tryNormaliseEvidenceRef } from '../evidence-ref.js';
import { fastSssa } from '../fast-sssa.js';
import { createFreshGroup, freshDocumentSets, simpleEvidence } from '../fresh-sets.js';

import { finding, sssa } from './helpers.js';
import { docArb, mutate, mutationArb } from './sssa-arbitraries.js';

// The one-pass path for fresh documents must accept exactly what the general validator accepts and give
// the sets the general path computes from the parsed document (which `fast-validator.test.ts` ties to the
// zod schema and the input limits).

/** The general path: validate (building the parsed document), then reduce it to sets. */
function slowSets(input: unknown, limits: InputLimits) {
  const refs: string[] = [];
  const parsed = fastSssa(input, limits, refs);
  return parsed === undefined ? undefined : computeDocumentSets(parsed, refs);
}

const SMALL: InputLimits = { maxDepth: 6, maxListLength: 3, maxStringLength: 12, maxObjectKeys: 9 };

const SPANS = ['', 's1:', 'm0-span-3:', 'a.b:', 'x/y:', ' ', '\t', ':'];
const PATHS = ['tools/a.py', './a.py', '././a.py', 'a//b.py', 'a\\b.py', '', 'a|b.py', 'C:', '.', 'src/x.y', '/abs/a.py', 'a/', 'L', '#'];
const RANGES = [
  '#L1-L4',
  '#L0-L0',
  '#L01-L4',
  '#L1-L04',
  '#L4-L1',
  '#L12-L12',
  '#L9-L10',
  '#L10-L9',
  '#L19-L21',
  '#L21-L19',
  ':3',
  ':3-4',
  '#L5',
  '',
  '#L1-L',
  '#L-L1',
  '-L1',
  'L1-L2',
  '#L123456789012345678901-L123456789012345678902',
];
const TAILS = ['', ' ', '\t', 'x'];
const refArb = fc
  .tuple(fc.constantFrom(...SPANS), fc.constantFrom(...PATHS), fc.constantFrom(...RANGES), fc.constantFrom(...TAILS))
  .map(([span, path, range, tail]) => `${span}${path}${range}${tail}`);

describe('simpleEvidence (references already in normal form but for a span id)', () => {
  it('gives the full normalisation whenever it answers, and answers for every plain reference', () => {
    fc.assert(
      fc.property(fc.oneof(refArb, fc.string({ maxLength: 12 })), (ref) => {
        const fast = simpleEvidence(ref);
        const full = tryNormaliseEvidenceRef(ref);
        if (fast !== undefined) {
          expect(full).toEqual({ ok: true, value: fast });
          expect(fast.includes('|')).toBe(false);
        }
      }),
      { numRuns: 5000 },
    );
    for (const ref of ['tools/a.py#L1-L4', 's1:tools/a.py#L1-L4', 'm0-span-3:src/x.y#L0-L0', 'x/y:a.py#L9-L10', 'a.b:c#L19-L21']) {
      expect(simpleEvidence(ref)).toBe((tryNormaliseEvidenceRef(ref) as { value: string }).value);
    }
  });
});

describe('a normal form is recognised behind any span id without normalising again', () => {
  // freshDocumentSets knows a reference by a remembered normal form E when the reference is E after a span
  // id (text without ':', '/' or '.'), or E itself when E has no ':' and no whitespace or control
  // character at either end. Both rest on these facts of the normalisation.
  const headArb = fc.oneof(fc.constantFrom('', ' ', 'm0-span-3', 's1', '\t x', 'A1#3'), fc.string({ maxLength: 6 })).filter((h) => !/[:/.]/.test(h));
  it('normalises H + ":" + E and E to E', () => {
    fc.assert(
      fc.property(fc.oneof(refArb, fc.string({ maxLength: 12 })), headArb, (ref, head) => {
        const outcome = tryNormaliseEvidenceRef(ref);
        if (!outcome.ok) return;
        const normal = outcome.value;
        expect(tryNormaliseEvidenceRef(`${head}:${normal}`)).toEqual({ ok: true, value: normal });
        const last = normal.length - 1;
        if (!normal.includes(':') && normal.charCodeAt(0) > 0x20 && normal.charCodeAt(last) > 0x20) {
          expect(tryNormaliseEvidenceRef(normal)).toEqual({ ok: true, value: normal });
        }
      }),
      { numRuns: 5000 },
    );
  });
});

/** Findings of one group spelled in the ways members spell them: span ids, case, spaces, CVE order. */
const VARIANT_FINDINGS = [
  finding('tool_poison', 'tools/a.py#L1-L4'),
  finding('tool_poison', 'm1-span-2:tools/a.py#L1-L4'),
  finding(' Tool_Poison ', 's9:./tools//a.py:1-4', { severity: ' HIGH ' }),
  finding('tool_poison', 'x/y:tools/a.py#L1-L4'),
  finding('tool_poison', 'a.b:tools/a.py#L1-L4', { target_pattern: ' target ' }),
  finding('tool_poison', 'm2:tools/a.py#L1-L4', { severity: 'medium' }),
  finding('TOOL_POISON', 'm3:tools/a.py#L1-L4'),
  finding('dependency_cve', 'requirements.txt:3', { cve_ids: ['CVE-1'] }),
  finding('dependency_cve', 'm1:requirements.txt#L3-L3', { cve_ids: [' cve-1 '] }),
  finding('dependency_cve', 'm2:requirements.txt#L3', { cve_ids: ['CVE-1', 'CVE-2'] }),
  finding('dependency_cve', 'm3:requirements.txt#L3-L3', { cve_ids: ['CVE-1,CVE-2'] }),
  finding('dependency_cve', 'm4:requirements.txt#L3-L3', { cve_ids: ['CVE-1|'] }),
  finding('ssrf', 'Makefile:3'),
  finding('ssrf', 'span:Makefile:3'),
  finding('ssrf', '3'),
  finding('ssrf', 's: a.py#L2'),
  finding('ssrf', ' a.py#L2-L2'),
  finding('ssrf', 't: a.py#L2-L2'),
  finding('ssrf', 's1:s2:a.py'),
  finding('ssrf', 's3:s2:a.py'),
  finding('ssrf', 's2:a.py'),
  finding('ssrf', 'm1:a.py#L9-L3'),
  finding('ssrf', 'm1:a|b.py#L1-L2'),
  finding('', 'm1:tools/a.py#L1-L4'),
  finding('a|b', 'm1:tools/a.py#L1-L4'),
  finding('tool_poison', 'm1:tools/a.py#L1-L4', { severity: 'severe' }),
  finding('tool_poison', 'm1:tools/a.py#L1-L4', { target_pattern: ' ' }),
];
const VARIANT_CAPABILITIES = ['fs.read', ' FS.Read ', 'fs.read ', 'FS.READ', ' ', 'net.http'];
const VARIANT_DEPENDENCIES = [
  { package: 'requests', version: '2.19.1', cves: ['CVE-2018-18074'] },
  { package: ' Requests ', version: '2.19.1 ', cves: ['cve-2018-18074 '] },
  { package: 'requests', version: '2.19.1', cves: ['cve-2018-18074', ''] },
  { package: 'requests', version: ' ', cves: [] },
];
const VARIANT_RULES = [
  { resource: 'fs', action: 'read', pattern: '*' },
  { resource: 'FS', action: ' Read', pattern: '* ' },
  { resource: 'fs', action: 'read', pattern: ' ' },
];
const pick = <T>(list: readonly T[]) => fc.array(fc.constantFrom(...list), { maxLength: 6 });
const variantDocArb = fc
  .record({ findings: pick(VARIANT_FINDINGS), capabilities: pick(VARIANT_CAPABILITIES), dependencies: pick(VARIANT_DEPENDENCIES), rules: pick(VARIANT_RULES) })
  .map((d) => sssa({ findings: d.findings, capabilities: d.capabilities, dependencies: d.dependencies, policy: { rules: d.rules } }));

describe('freshDocumentSets accepts what the general path accepts and gives its sets, bit for bit', () => {
  it.each([
    ['default limits', DEFAULT_INPUT_LIMITS],
    ['small limits', SMALL],
  ])('on random documents and random mutations of them (%s)', (_name, limits) => {
    fc.assert(
      fc.property(docArb, fc.nat(), mutationArb, fc.boolean(), (doc, which, mutation, mutated) => {
        const input = mutated ? mutate(doc, which, mutation) : doc;
        const fresh = freshDocumentSets(input, limits, createFreshGroup());
        const slow = slowSets(input, limits);
        expect(fresh === undefined).toBe(slow === undefined);
        if (fresh !== undefined) expect(fresh).toEqual(slow);
      }),
      { numRuns: 3000 },
    );
  });

  it('for the documents of one group sharing its tables (items interned across documents keep their values)', () => {
    fc.assert(
      fc.property(fc.array(docArb, { maxLength: 6 }), (docs) => {
        const group = createFreshGroup();
        for (const doc of docs) expect(freshDocumentSets(doc, DEFAULT_INPUT_LIMITS, group)).toEqual(slowSets(doc, DEFAULT_INPUT_LIMITS));
      }),
      { numRuns: 500 },
    );
  });

  it('for the documents of one group spelling the same findings and items differently (valid and invalid)', () => {
    fc.assert(
      fc.property(fc.array(variantDocArb, { minLength: 1, maxLength: 6 }), (docs) => {
        const group = createFreshGroup();
        for (const doc of docs) expect(freshDocumentSets(doc, DEFAULT_INPUT_LIMITS, group)).toEqual(slowSets(doc, DEFAULT_INPUT_LIMITS));
      }),
      { numRuns: 1000 },
    );
  });

  it('when crafted references and items all fall in one bucket (the table switches to exact keys and stays linear)', () => {
    // Same length, same first and middle characters and the same last 16: one bucket for every reference
    // and capability (they differ only in their third and fourth characters).
    const pair = (i: number) => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;
    const refs = Array.from({ length: 60 }, (_, i) => `t/${pair(i)}/${'p'.repeat(24)}.py#L1-L1`);
    const caps = Array.from({ length: 60 }, (_, i) => `c${pair(i)}.${'x'.repeat(36)}`);
    const docs = [0, 1, 2].map((m) =>
      sssa({
        findings: refs.map((ref, i) => finding(i % 2 === 0 ? 'tool_poison' : 'ssrf', `m${m}:${ref}`)),
        capabilities: caps.slice(m * 10),
      }),
    );
    const group = createFreshGroup();
    for (const doc of docs) {
      const fresh = freshDocumentSets(doc, DEFAULT_INPUT_LIMITS, group);
      expect(fresh).toEqual(slowSets(doc, DEFAULT_INPUT_LIMITS));
      expect(fresh?.keys).toHaveLength(60);
    }
    expect(group.findings.exact).toBeInstanceOf(Map);
    expect(group.capabilities.exact).toBeInstanceOf(Map);
    expect(group.findings.all).toHaveLength(60);
  });

  it('keeps one finding per exact key when a crafted document puts many findings at one reference (the cost stays linear)', () => {
    // 200 findings at one reference that differ only in their category: their bucket fills, the table switches to
    // exact keys, and each exact key must hold one finding. Keyed by the reference alone, every new finding walked
    // the chain of all the others and rebuilt the whole table (20,000 such findings took seconds).
    const doc = sssa({ findings: Array.from({ length: 200 }, (_, i) => finding(`c${i}`, `m${i}:tools/a.py#L1-L4`)) });
    const group = createFreshGroup();
    const sets = freshDocumentSets(doc, DEFAULT_INPUT_LIMITS, group);
    expect(sets).toEqual(slowSets(doc, DEFAULT_INPUT_LIMITS));
    expect(sets?.keys).toHaveLength(200);
    expect(group.findings.exact?.size).toBe(200);
    for (const entry of group.findings.all) expect(entry.next).toBeUndefined();
    // A second member reporting them (other span ids, another order) finds each one, adding none.
    const second = sssa({ findings: Array.from({ length: 200 }, (_, i) => finding(`C${199 - i}`, `s:tools/a.py:1-4`)) });
    expect(freshDocumentSets(second, DEFAULT_INPUT_LIMITS, group)).toEqual(slowSets(second, DEFAULT_INPUT_LIMITS));
    expect(group.findings.all).toHaveLength(200);
  });

  it('gives the references of one file that differ only in their line numbers a bucket each (no chain to walk)', () => {
    // Line ranges ending in the same digits, as a tool reporting every tenth line writes them.
    const refs = Array.from({ length: 100 }, (_, i) => `src/tools/file_3.py#L${10 * i + 1}-L${10 * i + 5}`);
    const doc = sssa({ findings: refs.map((ref, i) => finding(i % 2 === 0 ? 'tool_poison' : 'ssrf', `s${i}:${ref}`)) });
    const group = createFreshGroup();
    expect(freshDocumentSets(doc, DEFAULT_INPUT_LIMITS, group)).toEqual(slowSets(doc, DEFAULT_INPUT_LIMITS));
    expect(group.findings.exact).toBeUndefined();
    expect(group.findings.buckets.size).toBe(100);
  });

  it("leaves limits below the depth of a finding's CVE list to the general path", () => {
    const doc = sssa({ findings: [finding('tool_poison', 'a.py#L1-L2')] });
    expect(freshDocumentSets(doc, { ...DEFAULT_INPUT_LIMITS, maxDepth: 3 }, createFreshGroup())).toBeUndefined();
    expect(freshDocumentSets(doc, DEFAULT_INPUT_LIMITS, createFreshGroup())).toEqual(slowSets(doc, DEFAULT_INPUT_LIMITS));
  });
});

describe('the order hint (a document’s next item is first compared with the entry after its previous one)', () => {
  const shared = [
    finding('tool_poison', 'tools/a.py#L1-L4'),
    finding('ssrf', 'tools/b.py#L2-L2'),
    finding('dependency_cve', 'requirements.txt#L3-L3', { cve_ids: ['CVE-1'] }),
  ];
  const respan = (f: ReturnType<typeof finding>, span: string) => ({ ...f, evidence_ref: `${span}${f.evidence_ref}` });
  const doc = (findings: ReturnType<typeof finding>[], capabilities: string[] = ['fs.read', 'net.http']) => sssa({ findings, capabilities });

  it('gives the general path’s sets whatever order the members list the shared findings and items in', () => {
    const docs = [
      doc(shared),
      doc(shared.map((f) => respan(f, 'm1:'))),
      doc(
        [...shared].reverse().map((f) => respan(f, 'm2-span:')),
        ['net.http', 'fs.read'],
      ),
      doc(
        [shared[1], finding('ssrf', 'tools/c.py'), shared[2], shared[0]].map((f) => respan(f as ReturnType<typeof finding>, 'x:')),
        ['fs.read', 'fs.write', 'net.http'],
      ),
    ];
    const group = createFreshGroup();
    for (const d of docs) expect(freshDocumentSets(d, DEFAULT_INPUT_LIMITS, group)).toEqual(slowSets(d, DEFAULT_INPUT_LIMITS));
    expect(group.findings.all).toHaveLength(4);
    expect(group.capabilities.all).toHaveLength(3);
  });

  it("finds a repeat in the group's first document without the shared-finding shortcut (it has no other member's findings to look among)", () => {
    const f = shared[0] as ReturnType<typeof finding>;
    // The same finding three times, spelled three ways (a span id, upper case, spaces), and one other.
    const first = doc([f, respan({ ...f, category: 'Tool_Poison' }, 'm0-span-1:'), { ...f, severity: ' high ' }, shared[1] as ReturnType<typeof finding>]);
    const group = createFreshGroup();
    const sets = freshDocumentSets(first, DEFAULT_INPUT_LIMITS, group);
    expect(sets).toEqual(slowSets(first, DEFAULT_INPUT_LIMITS));
    expect(sets?.keys).toHaveLength(2);
    expect(group.findings.all).toHaveLength(2);
    // The second document's copy of it is the same entry.
    const second = doc([respan(f, 'm1:')]);
    expect(freshDocumentSets(second, DEFAULT_INPUT_LIMITS, group)?.keys).toEqual([group.findings.all[0]?.key]);
    expect(group.findings.all).toHaveLength(2);
  });

  it('does not take the expected entry for a reference whose text before the ":" is not a span id', () => {
    // The second document's first reference ends with the first entry's normal form, but "a.b" holds a
    // '.': the whole reference is the path, so it is a new finding (as the general path says).
    const group = createFreshGroup();
    const first = doc([shared[0] as ReturnType<typeof finding>]);
    const second = doc([respan(shared[0] as ReturnType<typeof finding>, 'a.b:'), respan(shared[0] as ReturnType<typeof finding>, 'x/y:')]);
    expect(freshDocumentSets(first, DEFAULT_INPUT_LIMITS, group)).toEqual(slowSets(first, DEFAULT_INPUT_LIMITS));
    const sets = freshDocumentSets(second, DEFAULT_INPUT_LIMITS, group);
    expect(sets).toEqual(slowSets(second, DEFAULT_INPUT_LIMITS));
    expect(sets?.keys).toHaveLength(2);
    expect(group.findings.all).toHaveLength(3);
  });

  it('matches an expected entry of the same evidence but another category only through the full comparison', () => {
    const group = createFreshGroup();
    const first = doc([finding('tool_poison', 'tools/a.py#L1-L4'), finding('ssrf', 'tools/a.py#L1-L4')]);
    const second = doc([
      finding('ssrf', 'm1:tools/a.py#L1-L4'),
      finding(' Tool_Poison ', 'm1:tools/a.py#L1-L4'),
      finding('tool_poison', 'm1:tools/a.py#L1-L4'),
    ]);
    for (const d of [first, second]) expect(freshDocumentSets(d, DEFAULT_INPUT_LIMITS, group)).toEqual(slowSets(d, DEFAULT_INPUT_LIMITS));
    expect(group.findings.all).toHaveLength(2);
  });
});
