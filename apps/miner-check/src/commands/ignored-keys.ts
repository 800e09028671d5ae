import { nearestKey } from '@subnet/cli-support';
import { formatPath } from '@subnet/core';

/**
 * The keys `@subnet/composite` reads at each place of a workflow's three documents (docs/spec.md section A, wire
 * format); every other key is kept and not scored. `*` is every element of a list, or every value of an object whose
 * keys are node ids (`error_handling`). `ignored-keys.test.ts` checks these lists against the package's schemas.
 */
export const SCORED_KEYS: Readonly<Record<'task' | 'plan' | 'record', readonly (readonly [readonly string[], readonly string[]])[]>> = {
  task: [
    [[], ['task_id', 'constraints']],
    [['constraints'], ['max_budget_tao', 'max_latency_seconds']],
  ],
  plan: [
    [[], ['nodes', 'edges', 'error_handling']],
    [['nodes', '*'], ['id']],
    [
      ['edges', '*'],
      ['from', 'to'],
    ],
    [
      ['error_handling', '*'],
      ['retry_count', 'timeout_seconds'],
    ],
  ],
  record: [
    [[], ['output_quality_score', 'actual_tao', 'actual_seconds', 'attempts', 'steps_completed', 'actual_retries', 'timeouts', 'hard_failures']],
    [
      ['attempts', '*'],
      ['node_id', 'attempt', 'status', 'seconds'],
    ],
  ],
};

/** A key the scorer ignores that looks like a slip of a key it would have read there. */
export interface IgnoredKeySlip {
  /** Where the key is, as error paths are written (`plan.error_handling.summarise`). */
  readonly path: string;
  /** The key as written. */
  readonly key: string;
  /** The scored key it is probably meant to be, absent from the same object. */
  readonly meant: string;
}

/** The objects at `steps` under `value`, with their paths (`*` fans out over a list's elements or an object's values). */
function objectsAt(value: unknown, steps: readonly string[], path: readonly (string | number)[]): [Record<string, unknown>, (string | number)[]][] {
  if (typeof value !== 'object' || value === null) return [];
  const [step, ...rest] = steps;
  if (step === undefined) return Array.isArray(value) ? [] : [[value as Record<string, unknown>, [...path]]];
  if (step === '*') {
    if (Array.isArray(value)) return value.flatMap((item: unknown, i) => objectsAt(item, rest, [...path, i]));
    return Object.keys(value).flatMap((key) => objectsAt((value as Record<string, unknown>)[key], rest, [...path, key]));
  }
  if (Array.isArray(value) || !Object.hasOwn(value, step)) return [];
  return objectsAt((value as Record<string, unknown>)[step], rest, [...path, step]);
}

/**
 * The keys of a workflow's documents that the scorer ignores and that are one slip (as `nearestKey` counts it) from a
 * key it reads at the same place and that the object lacks: `retry_cuont` beside no `retry_count` silently leaves the
 * retry budget at 0. Other unknown keys (a node's `tool`) are the miner's own data and are not named. Keys are data
 * (`__proto__` too). In document order, task, plan, record.
 *
 * @param documents - the three documents as read (already valid: this runs after scoring)
 * @returns each slip with its path, the key and the key probably meant
 */
export function ignoredKeySlips(documents: Readonly<Record<'task' | 'plan' | 'record', unknown>>): IgnoredKeySlip[] {
  const slips: IgnoredKeySlip[] = [];
  for (const label of ['task', 'plan', 'record'] as const) {
    for (const [steps, scored] of SCORED_KEYS[label]) {
      for (const [object, path] of objectsAt(documents[label], steps, [])) {
        const absent = scored.filter((key) => !Object.hasOwn(object, key));
        if (absent.length === 0) continue;
        for (const key of Object.keys(object)) {
          if (scored.includes(key)) continue;
          const meant = nearestKey(key, absent);
          if (meant !== undefined) slips.push({ path: formatPath(path, label), key, meant });
        }
      }
    }
  }
  return slips;
}
