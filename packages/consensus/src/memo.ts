/**
 * A bounded memo for pure functions of a string (evidence-ref normalisation, sha256 of a finding
 * preimage). Results never depend on it: it only skips repeated work. When full it is emptied, so memory
 * stays bounded and no eviction order can leak into output.
 */
export interface Memo<V> {
  get(key: string, compute: (key: string) => V): V;
}

/** Creates a memo holding at most `capacity` entries. */
export function createMemo<V>(capacity: number): Memo<V> {
  const map = new Map<string, V>();
  return {
    get(key, compute) {
      const hit = map.get(key);
      if (hit !== undefined) return hit;
      const value = compute(key);
      if (map.size >= capacity) map.clear();
      map.set(key, value);
      return value;
    },
  };
}
