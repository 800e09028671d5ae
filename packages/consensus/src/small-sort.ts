/**
 * Internal: sorts `list` in place with `compare`, as `Array.prototype.sort` does (stable, the same order for
 * a consistent comparator). A group's lists are short (its members, the items of its majority sets), and
 * the native sort allocates a work copy and its state for every call: insertion sort up to 16 items, the
 * native sort beyond.
 */
export function sortSmall<T>(list: T[], compare: (a: T, b: T) => number): T[] {
  if (list.length > 16) return list.sort(compare);
  for (let i = 1; i < list.length; i++) {
    const item = list[i] as T;
    let j = i - 1;
    while (j >= 0 && compare(list[j] as T, item) > 0) {
      list[j + 1] = list[j] as T;
      j--;
    }
    list[j + 1] = item;
  }
  return list;
}
