import { formatJsonPath } from './json-diff.js';

/** Where in the pipeline a difference sits: the stage, the miner it concerns (if any) and the field. */
export interface MismatchLocation {
  /** The stage: the path with list indices replaced by challenge ids, up to the miner's entry (e.g. `aggregation.challenges[term].normalisation.miners`). */
  readonly stage: string;
  /** The miner the value belongs to, when the value sits in a per-miner entry or a per-uid vector. */
  readonly miner: { readonly hotkey: string | null; readonly uid: number | null } | null;
  /** The field inside the stage entry (e.g. `score`), empty when the entry itself differs. */
  readonly field: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function child(container: unknown, segment: string | number): unknown {
  if (typeof segment === 'number') return Array.isArray(container) ? (container[segment] as unknown) : undefined;
  return isObject(container) ? container[segment] : undefined;
}

/**
 * Names the stage, miner and field of a difference from its path, reading the documents it was found in:
 * a list element carrying `id` / `challenge_id` names a challenge (`[term]`), `task_id` a task (`[t-1]`) and a
 * `task_type` without a hotkey a task type's eligibility (`[mcp_server]`), the first element carrying
 * `hotkey` / `miner_hotkey` (or a per-uid `uid`) names the miner and ends the stage, and an index into a
 * number list next to a `uids` list of the same length (the u16 vector) names the miner by that uid.
 * Hotkeys and uids are linked through the bundle's metagraph.
 *
 * @param segments - the difference's path segments (starting at the document root)
 * @param claimed - the claimed document
 * @param expected - the recomputed document (used where the claim has no such element)
 * @param metagraph - hotkey -> uid of the bundle's metagraph
 * @returns the frozen location
 * @example locateDifference(['result', 'u16', 'weights', 2], bundle, recomputed, uids).miner // { hotkey, uid: 5 }
 */
export function locateDifference(
  segments: readonly (string | number)[],
  claimed: unknown,
  expected: unknown,
  metagraph: ReadonlyMap<string, number>,
): MismatchLocation {
  const uidToHotkey = new Map<number, string>();
  let stage: (string | number)[] = [];
  let miner: { hotkey: string | null; uid: number | null } | null = null;
  let fieldStart = segments.length;
  let c: unknown = claimed;
  let e: unknown = expected;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string | number;
    const parentC = c;
    c = child(c, segment);
    e = child(e, segment);
    if (typeof segment === 'string') {
      stage.push(segment);
      continue;
    }
    const element = c ?? e;
    const container = Array.isArray(parentC) ? parentC : undefined;
    if (isObject(element)) {
      const id =
        element.id ??
        element.challenge_id ??
        element.task_id ??
        (typeof element.task_type === 'string' && element.hotkey === undefined ? element.task_type : undefined);
      if (typeof id === 'string') {
        stage.push(`[${id}]`);
        continue;
      }
      const hotkey = element.hotkey ?? element.miner_hotkey;
      if (typeof hotkey === 'string') {
        miner = { hotkey, uid: metagraph.get(hotkey) ?? null };
        fieldStart = i + 1;
        break;
      }
      if (typeof element.uid === 'number') {
        miner = { hotkey: hotkeyOf(element.uid, metagraph, uidToHotkey), uid: element.uid };
        fieldStart = i + 1;
        break;
      }
    }
    const siblingUids = uidsBeside(segments.slice(0, i - 1), segments[i - 1], claimed);
    if (container !== undefined && siblingUids !== undefined && siblingUids.length === container.length) {
      const uid = siblingUids[segment];
      if (typeof uid === 'number') {
        miner = { hotkey: hotkeyOf(uid, metagraph, uidToHotkey), uid };
        fieldStart = i + 1;
        break;
      }
    }
    stage.push(segment);
  }
  if (miner === null && stage.length > 1) {
    // No miner entry: the last key is the field, the rest is the stage.
    const last = stage[stage.length - 1];
    if (typeof last === 'string' && !last.startsWith('[')) {
      stage = stage.slice(0, -1);
      fieldStart = segments.length - 1;
      return Object.freeze({ stage: formatStage(stage), miner: null, field: last });
    }
  }
  return Object.freeze({ stage: formatStage(stage), miner: miner === null ? null : Object.freeze(miner), field: formatJsonPath(segments.slice(fieldStart)) });
}

function hotkeyOf(uid: number, metagraph: ReadonlyMap<string, number>, cache: Map<number, string>): string | null {
  if (cache.size === 0) for (const [h, u] of metagraph) cache.set(u, h);
  return cache.get(uid) ?? null;
}

/** The `uids` list next to a number list (`{ uids, weights }`), if the parent object has one. */
function uidsBeside(parentPath: readonly (string | number)[], key: string | number | undefined, root: unknown): readonly unknown[] | undefined {
  if (key === 'uids' || key === undefined) return undefined;
  let node: unknown = root;
  for (const s of parentPath) node = child(node, s);
  const uids = child(node, 'uids');
  return Array.isArray(uids) && uids.every((u) => typeof u === 'number') ? uids : undefined;
}

function formatStage(stage: readonly (string | number)[]): string {
  const trimmed = stage[0] === 'result' ? stage.slice(1) : stage;
  let out = '';
  for (const s of trimmed) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (s.startsWith('[')) out += s;
    else out += out === '' ? s : `.${s}`;
  }
  return out === '' ? 'result' : out;
}
