import { formatPath } from '@subnet/core';

/**
 * The first bigint in a value read from an axon answer, with its path. The dendrite gives an integer beyond
 * 2^53 as a bigint (`@subnet/axon` `fromPy`), which `checkInputShape` would call "not a JSON value" although
 * the miner wrote a JSON integer: the answer is refused as `UNSAFE_NUMBER` instead, as at HTTP ingest. Walks
 * with its own stack (objects' own enumerable keys, arrays' elements), so depth cannot overflow the call stack.
 *
 * @param value - the answer
 * @param label - the root's name in the path
 * @returns the path and the value, or undefined
 * @example findBigint({ a: [1, 2n ** 60n] }, 'sssa') // { path: 'sssa.a[1]', value: 1152921504606846976n }
 */
export function findBigint(value: unknown, label: string): { readonly path: string; readonly value: bigint } | undefined {
  interface Entry {
    readonly v: unknown;
    readonly parent: Entry | null;
    readonly key: PropertyKey;
  }
  const stack: Entry[] = [{ v: value, parent: null, key: '' }];
  while (stack.length > 0) {
    const entry = stack.pop() as Entry;
    const v = entry.v;
    if (typeof v === 'bigint') {
      // The path is built only for the value found (one parent link per level, not a copy per element).
      const path: PropertyKey[] = [];
      for (let e = entry; e.parent !== null; e = e.parent) path.unshift(e.key);
      return { path: formatPath(path, label), value: v };
    }
    if (typeof v !== 'object' || v === null) continue;
    // Pushed in reverse so the first bigint in document order is found first.
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i] as unknown, parent: entry, key: i });
    else {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ v: (v as Record<string, unknown>)[key], parent: entry, key });
      }
    }
  }
  return undefined;
}
