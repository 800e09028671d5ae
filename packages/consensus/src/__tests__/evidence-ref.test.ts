import { isSubnetError } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { normaliseEvidenceRef, parseSssa } from '../index.js';

import { finding, sssa } from './helpers.js';

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('normaliseEvidenceRef (SPEC B grammar)', () => {
  it('step 1: trims, then drops a span id (text before the first ":" without "/" or ".") and its ":"', () => {
    expect(normaliseEvidenceRef('  p1-span-07:tools/getfile.py#L12-L18  ')).toBe('tools/getfile.py#L12-L18');
    expect(normaliseEvidenceRef('A1#3:tools/getfile.py#L12-L18')).toBe('tools/getfile.py#L12-L18');
  });

  it('step 1: text before the first ":" holding "/" or "." is a path, not a span id', () => {
    expect(normaliseEvidenceRef('tools/getfile.py:12')).toBe('tools/getfile.py#L12-L12');
    expect(normaliseEvidenceRef('manifest.json:4-9')).toBe('manifest.json#L4-L9');
    expect(normaliseEvidenceRef('src/x:y')).toBe('src/x:y');
  });

  it('step 1 applies once: only the first span id is dropped', () => {
    expect(normaliseEvidenceRef('s1:s2:a.py')).toBe('s2:a.py');
  });

  it('step 1 read literally: a bare file name before ":" is taken for a span id (README decision)', () => {
    // "Makefile" holds neither "/" nor ".", so it is dropped like a span id and "3" is left as the path.
    expect(normaliseEvidenceRef('Makefile:3')).toBe('3');
    expect(normaliseEvidenceRef('span:Makefile:3')).toBe('Makefile#L3-L3');
    // A URL's scheme is dropped the same way; the "//" then collapses.
    expect(normaliseEvidenceRef('https://example.com/a')).toBe('/example.com/a');
  });

  it('step 2: "#L<a>-L<b>" and ":<a>-<b>" ranges give the same "#La-Lb"', () => {
    expect(normaliseEvidenceRef('a.py#L3-L9')).toBe('a.py#L3-L9');
    expect(normaliseEvidenceRef('a.py:3-9')).toBe('a.py#L3-L9');
  });

  it('step 2: a single line a becomes a-a, in both spellings', () => {
    expect(normaliseEvidenceRef('a.py#L7')).toBe('a.py#L7-L7');
    expect(normaliseEvidenceRef('a.py:7')).toBe('a.py#L7-L7');
    expect(normaliseEvidenceRef('a.py#L7-L7')).toBe('a.py#L7-L7');
  });

  it('step 2: a range with a > b is invalid (CONSENSUS_INVALID_EVIDENCE_REF naming evidence_ref)', () => {
    for (const ref of ['a.py#L9-L3', 'span:a.py:9-3']) {
      const error = errorOf(() => normaliseEvidenceRef(ref));
      expect(isSubnetError(error, 'CONSENSUS_INVALID_EVIDENCE_REF')).toBe(true);
      expect((error as Error).message).toContain('at evidence_ref');
      expect((error as { context: { value: unknown } }).context.value).toBe(ref);
    }
  });

  it('step 2: leading zeros are dropped and line numbers compare as integers of any size (README decision)', () => {
    expect(normaliseEvidenceRef('a.py#L007-L010')).toBe('a.py#L7-L10');
    expect(normaliseEvidenceRef('a.py:0')).toBe('a.py#L0-L0');
    expect(normaliseEvidenceRef('a.py#L99999999999999999999-L100000000000000000000')).toBe('a.py#L99999999999999999999-L100000000000000000000');
    expect(() => normaliseEvidenceRef('a.py#L100000000000000000000-L99999999999999999999')).toThrow(/CONSENSUS_INVALID_EVIDENCE_REF/);
  });

  it('step 2: only a range at the very end is split off; other "#" text stays in the path', () => {
    expect(normaliseEvidenceRef('README.md#usage')).toBe('README.md#usage');
    expect(normaliseEvidenceRef('a.py#L3-9')).toBe('a.py#L3-9');
    expect(normaliseEvidenceRef('a.py#l3')).toBe('a.py#l3');
  });

  it('step 3: backslashes become "/"', () => {
    expect(normaliseEvidenceRef('tools\\getfile.py#L12-L18')).toBe('tools/getfile.py#L12-L18');
  });

  it('step 3: leading "./" is removed, repeatedly (README decision)', () => {
    expect(normaliseEvidenceRef('./a/b.py')).toBe('a/b.py');
    expect(normaliseEvidenceRef('././a/b.py')).toBe('a/b.py');
    expect(normaliseEvidenceRef('.\\a\\b.py')).toBe('a/b.py');
  });

  it('step 3: repeated "/" collapse, after the leading "./" is removed (SPEC order)', () => {
    expect(normaliseEvidenceRef('tools//sub///getfile.py')).toBe('tools/sub/getfile.py');
    expect(normaliseEvidenceRef('.//a.py')).toBe('/a.py');
  });

  it('step 4: without a range the result is just the path', () => {
    expect(normaliseEvidenceRef('span-9:requirements.txt')).toBe('requirements.txt');
  });

  it('SPEC B v1.1: an empty evidence path is invalid, and so is its document', () => {
    for (const ref of ['', '   ', 'span:', '#L3', 'span:#L3-L4', '\t./:12']) {
      expect(
        isSubnetError(
          errorOf(() => normaliseEvidenceRef(ref)),
          'CONSENSUS_INVALID_EVIDENCE_REF',
        ),
      ).toBe(true);
      const rejected = errorOf(() => parseSssa(sssa({ findings: [finding('c', ref)] })));
      expect(isSubnetError(rejected, 'CONSENSUS_INVALID_SSSA')).toBe(true);
      expect((rejected as { context: { path: string } }).context.path).toBe('sssa.findings[0].evidence_ref');
    }
  });

  it('a non-string is rejected with CONSENSUS_INVALID_EVIDENCE_REF', () => {
    expect(
      isSubnetError(
        errorOf(() => normaliseEvidenceRef(42 as unknown as string)),
        'CONSENSUS_INVALID_EVIDENCE_REF',
      ),
    ).toBe(true);
  });
});

describe('the range scanner reads exactly the grammar of SPEC B step 2', () => {
  // The grammar written as the two regular expressions of the SPEC, the hash form tried first.
  function reference(ref: string): string {
    let text = ref.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '');
    const colon = text.indexOf(':');
    if (colon >= 0 && !/[/.]/.test(text.slice(0, colon))) text = text.slice(colon + 1);
    let range = '';
    const m = /#L([0-9]+)(?:-L([0-9]+))?$/.exec(text) ?? /:([0-9]+)(?:-([0-9]+))?$/.exec(text);
    if (m !== null) {
      const a = BigInt(m[1]!);
      const b = m[2] === undefined ? a : BigInt(m[2]);
      if (a > b) return 'invalid';
      range = `#L${a}-L${b}`;
      text = text.slice(0, m.index);
    }
    let path = text.replace(/\\/g, '/');
    while (path.startsWith('./')) path = path.slice(2);
    path = path.replace(/\/{2,}/g, '/');
    return path === '' ? 'invalid' : path + range;
  }
  const actual = (ref: string): string => {
    try {
      return normaliseEvidenceRef(ref);
    } catch {
      return 'invalid';
    }
  };

  it('agrees with the regular expressions on random references built from the characters of the grammar', () => {
    const piece = fc.constantFrom('#', 'L', '-', ':', '0', '1', '9', '07', 'a', '.', '/', '\\', ' ', 'x#L', '#L1', '-L2', ':3', '-4');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 9 }), (parts) => {
        const ref = parts.join('');
        expect(actual(ref)).toBe(reference(ref));
      }),
      { numRuns: 5000 },
    );
  });
});
