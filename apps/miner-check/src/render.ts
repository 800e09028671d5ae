/** Small plain-text renderers for the readable (non --json) output. */

/** Formats a score for people: six decimals, trailing zeros kept so columns line up. */
export function fmt(value: number, digits = 6): string {
  return value.toFixed(digits);
}

/** A decimal number in a sentence: not part of a name (`S_success`, `v1.2`) and not inside a quoted string. */
const DECIMAL = /(?<![\w.])-?\d+\.\d+(?:e[+-]?\d+)?(?!\w|\.\d)/g;

/**
 * Rounds the decimal numbers of a sentence for people, as the other readable output does: to 6 significant digits, so
 * that a double's noise (`1 - 111 / 120 = 0.07499999999999996`) reads `0.075`. A number that needs no rounding is left
 * as written (`0.50` stays); one that 6 digits would make equal to another number of the sentence that it is not
 * (`S_success = 0.70000001 is above 0.7`) keeps the digits that tell them apart; quoted strings (node ids) are left
 * alone. The `--json` output keeps every number exact.
 *
 * @param sentence - a line of text
 * @param digits - the significant digits (default 6)
 * @returns the line with its numbers rounded
 * @example roundForPeople('= 0.6812499999999999.') // '= 0.68125.'
 */
export function roundForPeople(sentence: string, digits = 6): string {
  // Even indexes are outside quotes, odd ones a JSON string (`"fetch"`).
  const parts = sentence.split(/("(?:[^"\\]|\\.)*")/);
  const values = parts.flatMap((part, i) => (i % 2 === 1 ? [] : [...part.matchAll(DECIMAL)].map((m) => Number(m[0]))));
  const shown = (text: string): string => {
    const value = Number(text);
    for (let p = digits; p < 17; p++) {
      const rounded = Number(value.toPrecision(p));
      if (rounded === value) return text;
      if (!values.some((other) => other !== value && other === rounded)) return String(rounded);
    }
    return text;
  };
  return parts.map((part, i) => (i % 2 === 1 ? part : part.replace(DECIMAL, shown))).join('');
}

/** A left/right aligned two-or-more column table. Numbers (and numeric strings) align right. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => /^-?[\d.]+%?$/.test(r[i] ?? '')));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (numeric[i] === true ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** A section title followed by its body. */
export function section(title: string, body: string): string {
  return `${title}\n${body}`;
}
