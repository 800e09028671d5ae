import { decimalFlagValue, integerFlagValue } from '@subnet/cli-support';
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document } from 'yaml';

/** A number a YAML text holds, with the text it was written as and where. */
export interface WrittenNumber {
  /** The key path of the value in the configuration (`['server', 'port']`, list indices as numbers). */
  readonly path: readonly (string | number)[];
  /** The number YAML read. */
  readonly value: number;
  /** The scalar exactly as written (`0x1f9b`). */
  readonly text: string;
  /** Where it was written, for the message: `line 4 of the configuration file validator.yaml`. */
  readonly where: string;
  /** The environment variable that set it, when one did. */
  readonly variable?: string;
}

/**
 * The numbers of a YAML text, each with its key path below `base`, its text as written and where (docs/spec.md G.27).
 * An alias is read at its own place with its anchor's text. A text that does not parse yields nothing: the caller's
 * parse reports it.
 *
 * @param text - the YAML text (a configuration file, or one `SUBNET_VALIDATOR_` variable's value)
 * @param base - the key path the text's value sits at (`[]` for a file, `['server', 'port']` for a variable)
 * @param where - words for a place, given its line (1-based)
 * @returns every number scalar, in document order
 * @example writtenNumbers('port: 0x1f9b', ['server'], (line) => `line ${line}`) // [{ path: ['server', 'port'], value: 8091, text: '0x1f9b', where: 'line 1' }]
 */
export function writtenNumbers(text: string, base: readonly (string | number)[], where: (line: number) => string): WrittenNumber[] {
  const lines = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter: lines });
  } catch {
    return [];
  }
  if (doc.errors.length > 0) return [];
  const found: WrittenNumber[] = [];
  const seen = new Set<unknown>();
  const walk = (node: unknown, path: readonly (string | number)[]): void => {
    const resolved = isAlias(node) ? node.resolve(doc) : node;
    // An alias of a collection that holds itself would loop; a node is walked once per place it is reached from.
    if (seen.has(resolved) && !isScalar(resolved)) return;
    if (isMap(resolved)) {
      seen.add(resolved);
      for (const pair of resolved.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (typeof key === 'string' || typeof key === 'number') walk(pair.value, [...path, String(key)]);
      }
      seen.delete(resolved);
    } else if (isSeq(resolved)) {
      seen.add(resolved);
      resolved.items.forEach((item, i) => {
        walk(item, [...path, i]);
      });
      seen.delete(resolved);
    } else if (isScalar(resolved) && typeof resolved.value === 'number' && resolved.range !== undefined && resolved.range !== null) {
      const [start, end] = resolved.range;
      found.push({ path, value: resolved.value, text: text.slice(start, end), where: where(lines.linePos(start).line) });
    }
  };
  walk(doc.contents, base);
  return found;
}

/**
 * What is wrong with the way a number setting is written, or undefined. An integer setting takes decimal digits only,
 * by the rule of the command-line flags (`@subnet/cli-support`'s `integerFlagValue`: no `0x`/`0o` prefix, exponent,
 * fraction, plus sign, leading zero or `-0`); another number setting takes any decimal spelling YAML reads (`0.5`, `.5`,
 * `1e-3`), but no `0x` or `0o` prefix. Out of range is not judged here: the schema says it with the setting's bounds.
 *
 * @param text - the scalar as written
 * @param integer - whether the setting is an integer
 * @returns the problem, said of the text (`is written with a 0x prefix (write 8091)`), or undefined
 * @example numberSpellingProblem('1e3', true) // 'is written with an exponent (write 1000)'
 */
export function numberSpellingProblem(text: string, integer: boolean): string | undefined {
  // YAML's own infinity and not-a-number (`.inf`, `-.Inf`, `.nan`): no setting takes one, the schema says so by its bound.
  if (/^[+-]?\.(?:inf|nan)$/i.test(text)) return 'is not a finite number';
  if (integer) {
    const read = integerFlagValue(text, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    return read.ok || read.outOfRange ? undefined : read.problem;
  }
  if (!/^[+-]?0[xo]/i.test(text)) return undefined;
  const read = decimalFlagValue(text);
  return read.ok ? undefined : read.problem;
}

/**
 * What is wrong with an integer setting's number past 2^53 (docs/spec.md G.29.c), or undefined. YAML reads such a text
 * rounded (`9007199254740993` as 9007199254740992), and the schema then told two problems of the rounded number, one
 * with a bound that is not the setting's; it is refused here with the setting's own bound instead. A number within
 * 2^53 is left to the schema (one problem, with its bound), and one spelled otherwise to {@link numberSpellingProblem}.
 *
 * @param text - the scalar as written
 * @param bounds - the smallest and the largest integer the setting takes
 * @returns the problem, said of the text (`is above 65535, the largest value this setting takes`), or undefined
 * @example unsafeIntegerProblem('9007199254740993', { min: 0, max: 65535 }) // 'is above 65535, the largest value this setting takes'
 */
export function unsafeIntegerProblem(text: string, bounds: { readonly min: number; readonly max: number }): string | undefined {
  if (!/^-?[0-9]+$/.test(text) || Number.isSafeInteger(Number(text))) return undefined;
  return text.startsWith('-')
    ? `is below ${bounds.min}, the smallest value this setting takes`
    : `is above ${bounds.max}, the largest value this setting takes`;
}
