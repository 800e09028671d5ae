import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { computeConsensus, findingKeyPreimage, normaliseEvidenceRef, parseSssa } from '../index.js';

import { finding, members, sssa } from './helpers.js';

function rejection(run: () => unknown): { code: string; path: string; reason: unknown; message: string } {
  try {
    run();
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    return { code: error.code, path: String(error.context.path), reason: error.context.reason, message: error.message };
  }
  throw new Error('expected a coded error');
}

/** `depth` containers nested inside each other around a string. */
function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { n: value };
  return value;
}

describe('SPEC 0: text is ASCII-folded (case folding and trimming only touch ASCII)', () => {
  it('category and severity fold A-Z only: a dotted capital I (U+0130) and the Kelvin sign (U+212A) are kept', () => {
    expect(findingKeyPreimage(finding('TOOL_POISON', 'a.py'))).toBe('tool_poison|high|a.py||target');
    expect(findingKeyPreimage(finding('TOOL_\u0130NJECT', 'a.py'))).toBe('tool_\u0130nject|high|a.py||target');
    expect(findingKeyPreimage(finding('\u212Aey', 'a.py'))).toBe('\u212Aey|high|a.py||target');
  });

  it('a severity that only Unicode folding would make valid ("H\u0130GH") is invalid', () => {
    const { code, path } = rejection(() => parseSssa(sssa({ findings: [finding('c', 'a.py', { severity: 'H\u0130GH' })] })));
    expect([code, path]).toEqual(['CONSENSUS_INVALID_SSSA', 'sssa.findings[0].severity']);
  });

  it('trimming removes U+0009-U+000D and U+0020 only: a no-break space (U+00A0) stays part of the text', () => {
    expect(findingKeyPreimage(finding('\t\n c \r', 'a.py', { target_pattern: ' t\u00a0' }))).toBe('c|high|a.py||t\u00a0');
    expect(normaliseEvidenceRef('\u00a0a.py')).toBe('\u00a0a.py');
    // A capability that is blank only to Unicode is a capability of its own, not the trimmed one.
    const group = computeConsensus({
      taskId: 't',
      members: members([sssa({ capabilities: ['\u00a0fs.read'] }), sssa({ capabilities: ['fs.read'] }), sssa({ capabilities: [' FS.READ\t'] })]),
    });
    expect(group.group?.capabilities).toEqual(['fs.read']);
  });

  it('CVE ids fold to upper case by ASCII only ("cve-ß" stays "CVE-ß")', () => {
    expect(findingKeyPreimage(finding('c', 'a.py', { cve_ids: [' cve-\u00df '] }))).toBe('c|high|a.py|CVE-\u00df|target');
  });

  it('a blank made only of non-ASCII space (U+00A0) is not blank', () => {
    expect(parseSssa(sssa({ capabilities: ['\u00a0'] })).capabilities).toEqual(['\u00a0']);
  });
});

describe('SPEC 0: strings must be well-formed UTF-16 (a lone surrogate is invalid input)', () => {
  it.each([
    ['sssa.findings[0].description', sssa({ findings: [finding('c', 'a.py', { description: 'x\ud800' })] })],
    ['sssa.findings[0].id', sssa({ findings: [finding('c', 'a.py', { id: '\udc00' })] })],
    ['sssa.capabilities[0]', sssa({ capabilities: ['fs\ud83d'] })],
    ['sssa.x_unknown', sssa({ x_unknown: 'a\ud800b' })],
  ])('a lone surrogate at %s is CONSENSUS_INVALID_SSSA naming it', (path, doc) => {
    const { code, path: got } = rejection(() => parseSssa(doc));
    expect([code, got]).toEqual(['CONSENSUS_INVALID_SSSA', path]);
  });

  it('an evidence reference with a lone surrogate is CONSENSUS_INVALID_EVIDENCE_REF', () => {
    expect(rejection(() => normaliseEvidenceRef('a\ud800.py')).code).toBe('CONSENSUS_INVALID_EVIDENCE_REF');
  });

  it('a paired surrogate (an emoji) is ordinary text', () => {
    expect(findingKeyPreimage(finding('c', '\ud83d\ude00.py'))).toBe('c|high|\ud83d\ude00.py||target');
  });
});

describe('SPEC 0: every key is data (__proto__, constructor and friends)', () => {
  it('an unknown "__proto__" key is kept as an own field and changes no prototype', () => {
    const doc = JSON.parse(
      '{"verdict":"ALLOW","risk_score":0.5,"findings":[],"capabilities":[],"dependencies":[],"policy":{"rules":[],"__proto__":{"x":1}},"__proto__":{"polluted":true}}',
    ) as Record<string, unknown>;
    const parsed = parseSssa(doc) as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    expect(parsed.polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toEqual({ polluted: true });
    const policy = parsed.policy as Record<string, unknown>;
    expect(Object.hasOwn(policy, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(policy)).toBe(Object.prototype);
  });

  it('"constructor", "toString" and "__proto__" are ordinary capability, category and CVE text', () => {
    const doc = sssa({
      capabilities: ['constructor', '__proto__'],
      findings: [finding('constructor', '__proto__.py', { cve_ids: ['__proto__'], target_pattern: 'toString' })],
    });
    const result = computeConsensus({ taskId: '__proto__', members: members([doc, doc, doc]) });
    expect(result.group?.capabilities).toEqual(['__proto__', 'constructor']);
    expect(result.taskId).toBe('__proto__');
    expect(result.members.map((m) => m.consensus)).toEqual([1, 1, 1]);
  });

  it('a null-prototype document is accepted like a plain one', () => {
    const doc = Object.assign(Object.create(null) as object, sssa());
    expect(parseSssa(doc).verdict).toBe('ALLOW');
  });
});

describe('SPEC 0: input depth <= 64 and size limits at the boundary', () => {
  it('a document whose unknown field nests 4,000 levels deep is CONSENSUS_INVALID_SSSA (reason CORE_INPUT_TOO_DEEP), never a RangeError', () => {
    const { code, reason, path } = rejection(() => parseSssa(sssa({ x_deep: nested(4000) })));
    expect([code, reason]).toEqual(['CONSENSUS_INVALID_SSSA', 'CORE_INPUT_TOO_DEEP']);
    expect(path.startsWith('sssa.x_deep')).toBe(true);
  });

  it('64 levels are accepted, 65 are not (the document counts as level 1)', () => {
    expect(() => parseSssa(sssa({ x: nested(63) }))).not.toThrow();
    expect(rejection(() => parseSssa(sssa({ x: nested(64) }))).reason).toBe('CORE_INPUT_TOO_DEEP');
  });

  it('size limits are configuration: a list longer than maxListLength is CONSENSUS_INVALID_SSSA (CORE_INPUT_TOO_LARGE)', () => {
    const doc = sssa({ capabilities: ['a', 'b', 'c'] });
    expect(parseSssa(doc, 'sssa', { limits: { maxListLength: 3 } }).capabilities).toHaveLength(3);
    const { code, reason, path } = rejection(() => parseSssa(structuredClone(doc), 'sssa', { limits: { maxListLength: 2 } }));
    expect([code, reason, path]).toEqual(['CONSENSUS_INVALID_SSSA', 'CORE_INPUT_TOO_LARGE', 'sssa.capabilities']);
  });

  it('a raw member document in computeConsensus is held to the same limits', () => {
    const docs = [sssa(), sssa(), sssa({ x_deep: nested(100) })];
    const { code, reason, path } = rejection(() => computeConsensus({ taskId: 't', members: members(docs) }));
    expect([code, reason, path.startsWith('members[2].sssa.x_deep')]).toEqual(['CONSENSUS_INVALID_SSSA', 'CORE_INPUT_TOO_DEEP', true]);
  });

  it('bad limits are CONSENSUS_INVALID_ARGUMENT naming the limit', () => {
    const { code, path } = rejection(() => parseSssa(sssa(), 'sssa', { limits: { maxDepth: 0 } }));
    expect([code, path]).toEqual(['CONSENSUS_INVALID_ARGUMENT', 'options.limits.maxDepth']);
    expect(rejection(() => parseSssa(sssa(), 'sssa', { limits: { maxDeep: 3 } as never })).path).toBe('options.limits.maxDeep');
  });

  it('a finding deeper than the limits is CONSENSUS_INVALID_FINDING for findingKeyPreimage', () => {
    const { code, reason } = rejection(() => findingKeyPreimage({ ...finding('c', 'a.py'), x: nested(80) }));
    expect([code, reason]).toEqual(['CONSENSUS_INVALID_FINDING', 'CORE_INPUT_TOO_DEEP']);
  });
});
