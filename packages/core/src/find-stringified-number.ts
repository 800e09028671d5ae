import { formatPath } from './parse.js';

/** 2^53: canonical JSON writes an integer of a larger magnitude as a decimal string (SPEC 0). */
const TWO_POW_53 = 2 ** 53;

/** Where {@link findStringifiedNumber} found a number: its formatted path, the number, and why it is refused. */
export interface StringifiedNumber {
  readonly path: string;
  readonly value: number;
  /** The sentence every boundary refuses it with: what happens to it, where, and the number. */
  readonly message: string;
  /**
   * What happens to it, without where or the number: for a refusal whose error adds the path and the number from its
   * context (`message` is `reason`, then ` at <path> (got <number>)`).
   */
  readonly reason: string;
}

/** Why a boundary refuses such a number, in words without its place. */
const REASON = 'a number beyond 2^53 would be stored as a decimal string (canonical JSON), not as the number sent';

/**
 * The sentence a boundary refuses a number with when canonical JSON would store it as a decimal string: what
 * would happen to it, where, and the number (a bigint for a reader that keeps such integers exact).
 *
 * @param path - the number's formatted path
 * @param value - the number
 * @returns the sentence
 * @example stringifiedNumberMessage('body.a[0]', 1e21) // 'a number beyond 2^53 would be stored ... at body.a[0] (got 1e+21)'
 */
export function stringifiedNumberMessage(path: string, value: number | bigint): string {
  return `${REASON}, at ${path} (got ${value.toString()})`;
}

/**
 * Finds the first number (depth first, keys in `Object.keys` order) that canonical JSON writes as a decimal
 * string: an integer beyond 2^53 in magnitude (SPEC 0). A value stored as canonical JSON and read back has
 * such a number as a string, so a boundary that stores what it accepts refuses it instead (the validator's
 * ingest, `miner-check`). Run it after `checkInputShape`, which bounds the depth of the walk.
 *
 * @param value - a JSON value
 * @param label - the root's name in the path (`body`, `--run`)
 * @returns the path, the number, the refusal's sentence and its reason, or undefined when every number stays a number
 * @example findStringifiedNumber({ a: [1e21] }, 'body') // { path: 'body.a[0]', value: 1e21, message: 'a number beyond 2^53 ... at body.a[0] (got 1e+21)' }
 */
export function findStringifiedNumber(value: unknown, label = ''): StringifiedNumber | undefined {
  const path: PropertyKey[] = [];
  let found: number | undefined;
  const walk = (v: unknown): boolean => {
    if (typeof v === 'number') {
      if (Number.isInteger(v) && Math.abs(v) > TWO_POW_53) found = v;
      return found !== undefined;
    }
    if (typeof v !== 'object' || v === null) return false;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        if (walk(v[i])) return true;
        path.pop();
      }
      return false;
    }
    for (const key of Object.keys(v)) {
      path.push(key);
      if (walk((v as Record<string, unknown>)[key])) return true;
      path.pop();
    }
    return false;
  };
  if (!walk(value) || found === undefined) return undefined;
  const at = formatPath(path, label);
  return {
    path: at,
    value: found,
    message: stringifiedNumberMessage(at, found),
    reason: REASON,
  };
}
