import { slipDistance } from './near-key.js';

/** One step of an error path: an object key or an array index. */
type Segment = string | number;

/**
 * Reads a path as `formatPath` of `@subnet/core` writes it (`label.a[2].b`, `a["odd key"]`) into its root label and
 * segments; undefined when it is not one.
 */
function parsePath(path: string): { readonly label: string; readonly segments: readonly Segment[] } | undefined {
  const head = /^[A-Za-z_$][\w$]*/.exec(path);
  if (head === null) return undefined;
  const segments: Segment[] = [];
  let at = head[0].length;
  while (at < path.length) {
    const rest = path.slice(at);
    const step = /^\.([A-Za-z_$][\w$]*)/.exec(rest) ?? /^\[(\d+)\]/.exec(rest) ?? /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
    if (step === null) return undefined;
    const raw = step[1] as string;
    segments.push(step[0].startsWith('.') ? raw : raw.startsWith('"') ? (JSON.parse(raw) as string) : Number(raw));
    at += step[0].length;
  }
  return { label: head[0], segments };
}

/**
 * Why a required key looks missing when the document has it misspelt: for an error at `path` whose value was absent
 * (`got undefined`), the key of the same object that is a slip of the missing one (one edit away, two for a key longer
 * than five letters, a swap of neighbouring letters counting one, or another case), as a sentence to print under the
 * error. Keys are data: `__proto__` is compared like any other.
 *
 * @param path - the error's path as `@subnet/core` formats it, its first name the document's label (`record.score`)
 * @param roots - the documents by the label their errors start with (`{ record: run, task, plan }`)
 * @returns `record has the key "scroe" (did you mean "score"?)`, or undefined when the path does not lead to an object
 *   without that key, or no key of it is that close
 * @example
 * missingKeyHint('record.output_quality_score', { record: { output_quality_scor: 0.9 } });
 * // 'record has the key "output_quality_scor" (did you mean "output_quality_score"?)'
 */
export function missingKeyHint(path: string, roots: Readonly<Record<string, unknown>>): string | undefined {
  const parsed = parsePath(path);
  if (parsed === undefined || !Object.hasOwn(roots, parsed.label)) return undefined;
  const missing = parsed.segments.at(-1);
  if (typeof missing !== 'string') return undefined;
  let parent: unknown = roots[parsed.label];
  for (const segment of parsed.segments.slice(0, -1)) {
    if (typeof parent !== 'object' || parent === null) return undefined;
    if (typeof segment === 'number' ? !Array.isArray(parent) : Array.isArray(parent)) return undefined;
    if (!Object.hasOwn(parent, segment)) return undefined;
    parent = (parent as Record<string | number, unknown>)[segment];
  }
  if (typeof parent !== 'object' || parent === null || Array.isArray(parent) || Object.hasOwn(parent, missing)) return undefined;
  // The closest key of the object that `missing` would be a slip of; the first on a tie.
  let best: { key: string; distance: number } | undefined;
  for (const key of Object.keys(parent)) {
    const distance = slipDistance(key, missing);
    if (distance !== undefined && (best === undefined || distance < best.distance)) best = { key, distance };
  }
  if (best === undefined) return undefined;
  const where = parsed.segments.length === 1 ? parsed.label : path.slice(0, path.length - pathTail(missing).length);
  return `${where} has the key ${JSON.stringify(best.key)} (did you mean ${JSON.stringify(missing)}?)`;
}

/** How `formatPath` writes the last key of a path. */
function pathTail(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
