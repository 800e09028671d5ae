import type { PyValue } from './py-value.js';

/**
 * Python's `repr(float)`: the shortest round-trip digits (as JS prints them), fixed notation with a fractional
 * part when the decimal exponent is in (-4, 16], else `d.ddde±XX` (`1e-05`, `1e+16`, `-0.0`, `inf`, `nan`).
 *
 * @param x - the double
 * @returns its Python repr
 * @example pyFloatRepr(1) // '1.0'
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa = '', expText = '0'] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const point = Number(expText) + 1; // value = 0.d1d2... x 10^point
  if (point > -4 && point <= 16) {
    if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
    if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  const e = point - 1;
  const body = digits.length > 1 ? `${digits[0] ?? ''}.${digits.slice(1)}` : digits;
  return `${sign}${body}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

const NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/**
 * Python's `repr(str)`: single quotes, or double quotes when the text has `'` and no `"`; `\\`, the quote,
 * `\t` `\n` `\r` escaped; other non-printable characters as `\xhh`, `\uhhhh` or `\Uhhhhhhhh`.
 *
 * @param s - the text
 * @returns its Python repr
 * @example pyStrRepr("it's") // "\"it's\""
 */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x7f) out += ch;
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) out += cp <= 0xff ? `\\x${hex(cp, 2)}` : cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
    else out += ch;
  }
  return out + quote;
}

/**
 * Python's `repr()` of a validated value: containers with `repr` of their elements joined by `", "`.
 *
 * @param value - the value
 * @returns the repr text
 * @example pyRepr({ t: 'list', v: [{ t: 'float', v: 1 }] }) // '[1.0]'
 */
export function pyRepr(value: PyValue): string {
  switch (value.t) {
    case 'none':
      return 'None';
    case 'bool':
      return value.v ? 'True' : 'False';
    case 'int':
      return value.v.toString();
    case 'float':
      return pyFloatRepr(value.v);
    case 'str':
      return pyStrRepr(value.v);
    case 'list':
      return `[${value.v.map(pyRepr).join(', ')}]`;
    case 'dict':
      return `{${[...value.v].map(([k, v]) => `${pyStrRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  }
}

/**
 * Python's `str()` of a validated value: a top-level `str` is its text, everything else its repr.
 *
 * @param value - the value
 * @returns what `str(value)` prints
 * @example pyStr({ t: 'str', v: 'hi' }) // 'hi'
 */
export function pyStr(value: PyValue): string {
  return value.t === 'str' ? value.v : pyRepr(value);
}
