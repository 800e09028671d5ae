/**
 * Internal: the order of canonical finding keys (64 lowercase hex digits) as `Array.prototype.sort` orders
 * strings (code units), with a number comparison first. For lowercase hex, code-unit order is digit-value
 * order ('0'-'9' sort before 'a'-'f'), so the first eight digits read as a number order two keys the way
 * their first eight characters do; only keys that share them are compared as strings.
 */

/** The first eight hex digits of a canonical key, as a number in [0, 2^32). */
export function keyPrefix(key: string): number {
  let n = 0;
  for (let i = 0; i < 8; i++) {
    const c = key.charCodeAt(i);
    n = n * 16 + (c <= 0x39 ? c - 0x30 : c - 0x57);
  }
  return n;
}

/** Compares two canonical keys given with their {@link keyPrefix}: the same sign as comparing the strings. */
export function compareKeys(prefixA: number, a: string, prefixB: number, b: string): number {
  return prefixA !== prefixB ? prefixA - prefixB : a < b ? -1 : a > b ? 1 : 0;
}
