/**
 * Edit distance of two short strings (an unknown key and a known key), a swap of two neighbouring letters counting one.
 *
 * @param a - one string
 * @param b - the other
 * @returns the number of edits (insert, delete, replace, swap of neighbours) from `a` to `b`
 * @example editDistance('scroe', 'score') // 1
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => d[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** Keys longer than this are never taken for a slip of a known key (and never cost an edit distance). */
const MAX_SLIP_LENGTH = 64;

/**
 * How far `key` is from `meant` when it is a slip of it, else undefined: one edit away, two for a `meant` longer than
 * five letters (a swap of neighbouring letters counting one), or 0 for the same letters in another case. Keys longer
 * than 64 characters are never a slip (and never cost an edit distance).
 *
 * @param key - the key as written (plain data: `__proto__` is a key like any other)
 * @param meant - the key it may be a slip of
 * @returns the distance, or undefined when `key` is not that close to `meant`
 * @example slipDistance('scroe', 'score') // 1
 */
export function slipDistance(key: string, meant: string): number | undefined {
  if (key.length > MAX_SLIP_LENGTH || meant.length > MAX_SLIP_LENGTH) return undefined;
  const distance = meant.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, meant);
  return distance <= (meant.length <= 5 ? 1 : 2) ? distance : undefined;
}

/**
 * The known key that an unknown `key` is a slip of: one edit away, two for known keys longer than five letters (a swap
 * of neighbouring letters counting one), or the same letters in another case; the closest, the first on a tie.
 *
 * @param key - the unknown key (plain data: `__proto__` is a key like any other)
 * @param known - the keys it may have meant
 * @returns the known key, or undefined when none is that close
 * @example nearestKey('scroe', ['score']) // 'score'
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  if (key.length > MAX_SLIP_LENGTH) return undefined;
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = slipDistance(key, candidate);
    if (distance !== undefined && (best === undefined || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}
