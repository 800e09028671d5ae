import { checkInputShape, DEFAULT_INPUT_LIMITS, isSubnetError } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { makeGroup } from '../__benchmarks__/make-group.js';
import { fastSssa } from '../fast-sssa.js';
import { createFreshGroup, freshDocumentSets } from '../fresh-sets.js';
import { computeConsensus, computeTaskConsensus, sssaSchema } from '../index.js';

import { mutate, mutationArb } from './sssa-arbitraries.js';

// Issue 18 item 3: the hand-written paths a fresh document takes (`freshDocumentSets` in consensus,
// `fastSssa` in parseSssa) accept exactly what the input limits and the zod schema accept, on the hostile
// spellings named below and on random mutations of the benchmark document; and a document they refuse
// still gets the coded error naming the field path that the limits or the schema name.

type Doc = Record<string, unknown>;

/** The oracle: the input limits, then the zod schema (nothing of the hand-written paths). */
function oracle(doc: unknown): { ok: true } | { ok: false; path: string } {
  try {
    checkInputShape(doc, DEFAULT_INPUT_LIMITS, 'sssa');
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    return { ok: false, path: error.context.path ?? 'sssa' };
  }
  const parsed = sssaSchema.safeParse(doc);
  if (parsed.success) return { ok: true };
  let path = 'sssa';
  for (const segment of parsed.error.issues[0]?.path ?? []) {
    path +=
      typeof segment === 'number'
        ? `[${segment}]`
        : /^[A-Za-z_$][\w$]*$/.test(String(segment))
          ? `.${String(segment)}`
          : `[${JSON.stringify(String(segment))}]`;
  }
  return { ok: false, path };
}

/** A fresh copy of the benchmark's second member document (20 findings, every kind of item). */
const base = (): Doc => JSON.parse(JSON.stringify(makeGroup(5, 20)[1]?.sssa)) as Doc;
const at = (doc: Doc, ...keys: (string | number)[]): Doc => keys.reduce<Doc>((o, k) => o[k] as Doc, doc);
/** Adds an own data property (`__proto__` too), as JSON.parse does; returns the object. */
const own = (target: Doc, key: string, value: unknown): Doc =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
const edit = (change: (doc: Doc) => void) => (): Doc => {
  const doc = base();
  change(doc);
  return doc;
};

/** Named hostile spellings: `path` is the field the error must name (`null`: the document is valid). */
const CASES: readonly (readonly [string, () => unknown, string | null])[] = [
  ['the benchmark document as is', base, null],
  ['__proto__ as a data key of the document (JSON.parse form)', () => JSON.parse(JSON.stringify(base()).replace('{', '{"__proto__":{"x":1},')) as Doc, null],
  ['__proto__ as a data key of a finding', edit((d) => own(at(d, 'findings', 0), '__proto__', 'x')), null],
  [
    '__proto__ as a data key of a dependency, a rule, the policy and the skill',
    edit((d) => {
      own(at(d, 'dependencies', 0), '__proto__', [1]);
      own(at(d, 'policy', 'rules', 0), '__proto__', null);
      own(at(d, 'policy'), '__proto__', {});
      own(at(d, 'skill'), '__proto__', 'y');
    }),
    null,
  ],
  ['__proto__ holding a lone surrogate', edit((d) => own(at(d, 'findings', 3), '__proto__', 'a\ud800')), 'sssa.findings[3].__proto__'],
  [
    'extra keys at every level',
    edit((d) => {
      for (const o of [d, at(d, 'findings', 0), at(d, 'dependencies', 1), at(d, 'policy'), at(d, 'policy', 'rules', 2)]) own(o, 'x_extra', { n: [1, 'two'] });
    }),
    null,
  ],
  ['an extra key that is a lone surrogate', edit((d) => own(at(d, 'findings', 0), '\udc00', 1)), 'sssa.findings[0]'],
  ['risk_score as a string', edit((d) => (d.risk_score = '0.5')), 'sssa.risk_score'],
  ['verdict in lowercase', edit((d) => (d.verdict = 'block')), 'sssa.verdict'],
  ['findings as an object', edit((d) => (d.findings = { 0: {} })), 'sssa.findings'],
  ['a finding that is null', edit((d) => ((d.findings as unknown[])[4] = null)), 'sssa.findings[4]'],
  ['cve_ids as a string', edit((d) => (at(d, 'findings', 2).cve_ids = 'CVE-2024-1002')), 'sssa.findings[2].cve_ids'],
  ['severity as a number', edit((d) => (at(d, 'findings', 5).severity = 3)), 'sssa.findings[5].severity'],
  ['severity that is no severity', edit((d) => (at(d, 'findings', 6).severity = 'severe')), 'sssa.findings[6].severity'],
  ['a capability as a number', edit((d) => ((d.capabilities as unknown[])[3] = 7)), 'sssa.capabilities[3]'],
  ['policy.rules as null', edit((d) => (at(d, 'policy').rules = null)), 'sssa.policy.rules'],
  ['a dependency cves as an object', edit((d) => (at(d, 'dependencies', 0).cves = {})), 'sssa.dependencies[0].cves'],
  ['a blank rule pattern', edit((d) => (at(d, 'policy', 'rules', 1).pattern = ' \t')), 'sssa.policy.rules[1].pattern'],
  ['skill as a string', edit((d) => (d.skill = 'bench-skill')), 'sssa.skill'],
  ['signature as a number', edit((d) => (d.signature = 3)), 'sssa.signature'],
  [
    'a lone surrogate in a description (never scored, still refused)',
    edit((d) => (at(d, 'findings', 7).description = 'x\ud800')),
    'sssa.findings[7].description',
  ],
  ['a lone surrogate in an id', edit((d) => (at(d, 'findings', 8).id = '\udfff')), 'sssa.findings[8].id'],
  ['a lone surrogate in an evidence reference', edit((d) => (at(d, 'findings', 9).evidence_ref = 's:\ud800.py#L1-L2')), 'sssa.findings[9].evidence_ref'],
  ['a lone surrogate in a capability', edit((d) => ((d.capabilities as unknown[])[0] = '\ud83d')), 'sssa.capabilities[0]'],
  ['a lone surrogate deep in the skill', edit((d) => (at(d, 'skill').meta = { list: ['ok', '\ud800'] })), 'sssa.skill.meta.list[1]'],
  ['a surrogate pair (well-formed) in a description', edit((d) => (at(d, 'findings', 7).description = 'ok \ud83d\ude00')), null],
  ['risk_score 1e308', edit((d) => (d.risk_score = 1e308)), 'sssa.risk_score'],
  ['risk_score just above 1', edit((d) => (d.risk_score = 1 + Number.EPSILON)), 'sssa.risk_score'],
  ['risk_score NaN', edit((d) => (d.risk_score = Number.NaN)), 'sssa.risk_score'],
  ['risk_score the smallest double', edit((d) => (d.risk_score = 5e-324)), null],
  ['risk_score -0', edit((d) => (d.risk_score = -0)), null],
  ['a huge number in the skill', edit((d) => (at(d, 'skill').n = 1.7976931348623157e308)), null],
  ['Infinity in the skill (not JSON)', edit((d) => (at(d, 'skill').n = Number.POSITIVE_INFINITY)), 'sssa.skill.n'],
  ['line numbers beyond 2^64', edit((d) => (at(d, 'findings', 0).evidence_ref = 'm1:a.py#L123456789012345678901-L123456789012345678902')), null],
  [
    'a line range beyond 2^64 that starts after it ends',
    edit((d) => (at(d, 'findings', 0).evidence_ref = 'a.py#L123456789012345678902-L123456789012345678901')),
    'sssa.findings[0].evidence_ref',
  ],
  ['a Date as the skill (not a plain object)', edit((d) => (d.skill = new Date(0))), 'sssa.skill'],
  [
    'a sparse findings list',
    edit((d) => {
      const list = d.findings as unknown[];
      const sparse = new Array<unknown>(list.length);
      list.forEach((f, i) => {
        if (i !== 1) sparse[i] = f;
      });
      d.findings = sparse;
    }),
    'sssa.findings[1]',
  ],
  ['a missing policy', edit((d) => delete d.policy), 'sssa.policy'],
];

/** The group of the benchmark with member 1's document replaced. */
function groupWith(doc: unknown) {
  const members = makeGroup(5, 20);
  return members.map((m, i) => (i === 1 ? { ...m, sssa: doc } : m));
}

describe('fresh documents: the hand-written paths and the zod path agree, and a refusal names the field', () => {
  it.each(CASES)('%s', (_name, make, path) => {
    const doc = make();
    const expected = oracle(doc);
    expect(expected.ok ? null : expected.path).toBe(path);
    // Both hand-written validators decide as the limits and the schema do.
    expect(freshDocumentSets(doc, DEFAULT_INPUT_LIMITS, createFreshGroup()) !== undefined).toBe(expected.ok);
    expect(fastSssa(doc, DEFAULT_INPUT_LIMITS) !== undefined).toBe(expected.ok);

    const task = computeTaskConsensus({ taskId: 't', members: groupWith(doc), explain: false });
    if (path === null) {
      expect(task.excluded).toEqual([]);
      expect(task.members.map((m) => m.uid)).toEqual([1, 2, 3, 4, 5]);
      return;
    }
    expect(task.excluded).toHaveLength(1);
    expect(task.excluded[0]).toMatchObject({ index: 1, uid: 2, code: 'CONSENSUS_INVALID_SSSA', path: path.replace(/^sssa/, 'members[1].sssa') });
    expect(task.members.map((m) => m.uid)).toEqual([1, 3, 4, 5]);
    let thrown: unknown;
    try {
      computeConsensus({ taskId: 't', members: groupWith(doc) });
    } catch (error) {
      thrown = error;
    }
    expect(isSubnetError(thrown, 'CONSENSUS_INVALID_SSSA') && thrown.context.path).toBe(path.replace(/^sssa/, 'members[1].sssa'));
  });

  it('on random hostile mutations of the benchmark document (accept alike; a refusal names the path the oracle names)', () => {
    const doc = base();
    fc.assert(
      fc.property(fc.nat(), mutationArb, (which, mutation) => {
        const input = mutate(doc, which, mutation);
        const expected = oracle(input);
        expect(freshDocumentSets(input, DEFAULT_INPUT_LIMITS, createFreshGroup()) !== undefined).toBe(expected.ok);
        expect(fastSssa(input, DEFAULT_INPUT_LIMITS) !== undefined).toBe(expected.ok);
        const task = computeTaskConsensus({ taskId: 't', members: groupWith(input), explain: false });
        if (expected.ok) expect(task.excluded).toEqual([]);
        else expect(task.excluded.map((e) => [e.code, e.path])).toEqual([['CONSENSUS_INVALID_SSSA', expected.path.replace(/^sssa/, 'members[1].sssa')]]);
      }),
      { numRuns: 400 },
    );
  });
});
