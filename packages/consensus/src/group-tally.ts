/**
 * Internal: one kind of item (finding keys, capabilities, ...) across a group, interned to small
 * integers: `ids[offsets[m] .. offsets[m + 1])` are member m's items, `counts[id]` how many members
 * reported item `id` (each member counts an item once: its list holds distinct items), `names[id]` the
 * item.
 */
export interface Tally {
  readonly names: readonly string[];
  readonly counts: readonly number[];
  readonly ids: readonly number[];
  readonly offsets: readonly number[];
  /** When payload lists were given: the payload of each item (its first reporter's), by id. */
  readonly payloads: readonly string[];
}

/**
 * Interns the members' lists of distinct items (with an optional payload per item, aligned with the
 * lists); `index` receives each item's id.
 */
export function tally(lists: readonly (readonly string[])[], payloadLists?: readonly (readonly string[])[], index = new Map<string, number>()): Tally {
  const names: string[] = [];
  const counts: number[] = [];
  const payloads: string[] = [];
  // Plain arrays of small integers: a typed array over 64 bytes is allocated outside the heap, which
  // costs more than the whole tally of a small group.
  const ids: number[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (let m = 0; m < lists.length; m++) {
    offsets.push(at);
    const list = lists[m] ?? [];
    const payload = payloadLists?.[m];
    for (let i = 0; i < list.length; i++) {
      const item = list[i] ?? '';
      let id = index.get(item);
      if (id === undefined) {
        id = names.length;
        index.set(item, id);
        names.push(item);
        counts.push(1);
        if (payload !== undefined) payloads.push(payload[i] ?? '');
      } else {
        counts[id] = (counts[id] ?? 0) + 1;
      }
      ids.push(id);
      at++;
    }
  }
  offsets.push(at);
  return { names, counts, ids, offsets, payloads };
}

/**
 * The tally of lists already interned by the caller: `lists[m]` holds member m's distinct ids into
 * `names` (and `payloads`). Names nobody in `lists` reported count 0.
 */
export function tallyIds(names: readonly string[], lists: readonly (readonly number[])[], payloads: readonly string[] = []): Tally {
  const counts = new Array<number>(names.length).fill(0);
  // Sized once: grown by push, the id list of a 5 x 20 group's keys was copied four times.
  let total = 0;
  for (let m = 0; m < lists.length; m++) total += (lists[m] as readonly number[]).length;
  const ids = new Array<number>(total);
  const offsets = new Array<number>(lists.length + 1);
  let at = 0;
  for (let m = 0; m < lists.length; m++) {
    offsets[m] = at;
    const list = lists[m] as readonly number[];
    for (let i = 0; i < list.length; i++) {
      const id = list[i] as number;
      counts[id] = (counts[id] as number) + 1;
      ids[at++] = id;
    }
  }
  offsets[lists.length] = at;
  return { names, counts, ids, offsets, payloads };
}

/** A group set over a tally: `inGroup[id]` = 1 for its items, `size` how many. */
export interface Majority {
  readonly inGroup: Uint8Array;
  size: number;
}

/** The items reported by at least `threshold` members. */
export function majorityMask(t: Tally, threshold: number): Majority {
  const inGroup = new Uint8Array(t.names.length);
  let size = 0;
  for (let id = 0; id < t.names.length; id++) {
    if ((t.counts[id] ?? 0) >= threshold) {
      inGroup[id] = 1;
      size++;
    }
  }
  return { inGroup, size };
}

/** |M ∩ G| for member m. */
export function intersectionSize(t: Tally, inGroup: Uint8Array, m: number): number {
  let count = 0;
  const end = t.offsets[m + 1] ?? 0;
  for (let at = t.offsets[m] ?? 0; at < end; at++) count += inGroup[t.ids[at] ?? 0] ?? 0;
  return count;
}

/** |M| for member m. */
export function memberSize(t: Tally, m: number): number {
  return (t.offsets[m + 1] ?? 0) - (t.offsets[m] ?? 0);
}

/** |M ∩ G| / |G|, 1.0 when G is empty. */
export function coverage(t: Tally, g: Majority, m: number): number {
  return g.size === 0 ? 1 : intersectionSize(t, g.inGroup, m) / g.size;
}

/** Jaccard |M ∩ G| / |M ∪ G|, 1.0 when both are empty. */
export function jaccard(t: Tally, g: Majority, m: number): number {
  const inter = intersectionSize(t, g.inGroup, m);
  const union = memberSize(t, m) + g.size - inter;
  return union === 0 ? 1 : inter / union;
}

/** The group's items (names where `inGroup` is set), in first-seen order. */
export function groupItems(t: Tally, inGroup: Uint8Array): string[] {
  const out: string[] = [];
  for (let id = 0; id < t.names.length; id++) if (inGroup[id] === 1) out.push(t.names[id] ?? '');
  return out;
}

/** Member m's items that are not in the group set, in its list order. */
export function memberExtras(t: Tally, inGroup: Uint8Array, m: number): number[] {
  const out: number[] = [];
  const end = t.offsets[m + 1] ?? 0;
  for (let at = t.offsets[m] ?? 0; at < end; at++) {
    const id = t.ids[at] ?? 0;
    if (inGroup[id] !== 1) out.push(id);
  }
  return out;
}

/** The group set's items that member m did not report, in id order. */
export function memberMisses(t: Tally, inGroup: Uint8Array, m: number): number[] {
  const mine = new Uint8Array(t.names.length);
  const end = t.offsets[m + 1] ?? 0;
  for (let at = t.offsets[m] ?? 0; at < end; at++) mine[t.ids[at] ?? 0] = 1;
  const out: number[] = [];
  for (let id = 0; id < t.names.length; id++) if (inGroup[id] === 1 && mine[id] !== 1) out.push(id);
  return out;
}
