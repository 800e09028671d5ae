import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { isSubnetError } from '../errors.js';
import { asciiLower, asciiTrim, asciiUpper, assertWellFormed, findLoneSurrogate } from '../text.js';

describe('SPEC 0: text is ASCII-folded', () => {
  it('lowercase maps only A-Z: dotted capital I, sharp s and Kelvin sign are kept as they are', () => {
    expect(asciiLower('HIGH')).toBe('high');
    expect(asciiLower('\u0130stanbul')).toBe('\u0130stanbul'); // 'İ'.toLowerCase() is 'i̇' (two code points)
    expect(asciiLower('\u212a')).toBe('\u212a'); // Kelvin sign; toLowerCase() gives 'k'
    expect(asciiLower('MiXeD Ä')).toBe('mixed Ä');
  });

  it('uppercase maps only a-z: sharp s and the dotless i are kept', () => {
    expect(asciiUpper('cve-2024-1')).toBe('CVE-2024-1');
    expect(asciiUpper('stra\u00dfe')).toBe('STRA\u00dfE'); // toUpperCase() gives 'STRASSE'
    expect(asciiUpper('\u0131')).toBe('\u0131'); // toUpperCase() gives 'I'
  });

  it('trim removes only U+0009..U+000D and U+0020 from both ends', () => {
    expect(asciiTrim(' \t\n\v\f\r a b \r\n')).toBe('a b');
    expect(asciiTrim('\u00a0a\u00a0')).toBe('\u00a0a\u00a0'); // no-break space kept ('\u00a0a'.trim() drops it)
    expect(asciiTrim('\ufeffx\u2028')).toBe('\ufeffx\u2028');
    expect(asciiTrim('   ')).toBe('');
    expect(asciiTrim('')).toBe('');
  });

  it('agrees with a per-code-point reference on every BMP code point', () => {
    let all = '';
    for (let c = 0; c < 0xd800; c++) all += String.fromCharCode(c);
    const lower = Array.from(all, (ch) => ch)
      .map((ch) => (ch >= 'A' && ch <= 'Z' ? String.fromCharCode(ch.charCodeAt(0) + 32) : ch))
      .join('');
    const upper = Array.from(all, (ch) => ch)
      .map((ch) => (ch >= 'a' && ch <= 'z' ? String.fromCharCode(ch.charCodeAt(0) - 32) : ch))
      .join('');
    expect(asciiLower(all)).toBe(lower);
    expect(asciiUpper(all)).toBe(upper);
  });
});

describe('SPEC 0: strings must be well-formed UTF-16', () => {
  it('finds a lone high surrogate, a lone low surrogate, and accepts pairs', () => {
    expect(findLoneSurrogate('ok \ud83d\ude00')).toBe(-1);
    expect(findLoneSurrogate('a\ud800')).toBe(1);
    expect(findLoneSurrogate('a\ud800b')).toBe(1);
    expect(findLoneSurrogate('\ude00a')).toBe(0);
    expect(findLoneSurrogate('\ud83d\ude00\ude00')).toBe(2);
  });

  it('finds the first lone surrogate of any text exactly where a code-unit scan does (the native check only says none)', () => {
    const scan = (t: string): number => {
      for (let i = 0; i < t.length; i++) {
        const c = t.charCodeAt(i);
        const next = t.charCodeAt(i + 1);
        if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
        else if (c >= 0xd800 && c <= 0xdfff) return i;
      }
      return -1;
    };
    const unit = fc.constantFrom('a', '\ud83d', '\ude00', '\ud83d\ude00', '\udbff', '\udc00', 'é', '\uffff');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (parts) => {
        const t = parts.join('');
        expect(findLoneSurrogate(t)).toBe(scan(t));
      }),
      { numRuns: 1000 },
    );
  });

  it('assertWellFormed throws a coded error naming the path', () => {
    expect(() => {
      assertWellFormed('\ud800', 'sssa.verdict');
    }).toThrow(/CORE_MALFORMED_TEXT.*sssa\.verdict/);
    try {
      assertWellFormed('x\udfff', 'a.b', 'CONSENSUS_INVALID_SSSA');
      expect.unreachable();
    } catch (e) {
      expect(isSubnetError(e, 'CONSENSUS_INVALID_SSSA')).toBe(true);
    }
    expect(() => {
      assertWellFormed('fine', 'a');
    }).not.toThrow();
  });
});
