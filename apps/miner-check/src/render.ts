/** Small plain-text renderers for the readable (non --json) output. */

/** Formats a score for people: six decimals, trailing zeros kept so columns line up. */
export function fmt(value: number, digits = 6): string {
  return value.toFixed(digits);
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
