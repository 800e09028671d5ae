import type { InputLimits } from '@subnet/core';
import { checkInputShape, DEFAULT_INPUT_LIMITS, isSubnetError, parseInput, SubnetError } from '@subnet/core';

import { CONSENSUS_ERROR_CODES } from './errors.js';
import { fastSssa } from './fast-sssa.js';
import type { Sssa } from './sssa-schema.js';
import { sssaSchema } from './sssa-schema.js';
import { isTrusted, isTrustedWithin, markTrusted } from './trusted.js';

/** Options of {@link parseSssa}. */
export interface ParseSssaOptions {
  /** Input limits (SPEC 0 "Hostile shapes"); missing fields take `DEFAULT_INPUT_LIMITS` (depth 64). */
  readonly limits?: Partial<InputLimits>;
}

/** Internal: complete limits from partial ones, checked (a bad limit is a configuration error). */
export function resolveLimits(limits: Partial<InputLimits> | undefined, path: string): InputLimits {
  if (limits === undefined) return DEFAULT_INPUT_LIMITS;
  const given: unknown = limits;
  if (typeof given !== 'object' || given === null) {
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidArgument, 'input limits must be an object', { context: { path, value: limits } });
  }
  const out = { ...DEFAULT_INPUT_LIMITS };
  for (const key of Object.keys(limits)) {
    const value: unknown = (limits as Record<string, unknown>)[key];
    if (!Object.hasOwn(DEFAULT_INPUT_LIMITS, key)) {
      throw new SubnetError(CONSENSUS_ERROR_CODES.invalidArgument, `unknown input limit "${key}"`, { context: { path: `${path}.${key}`, value } });
    }
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw new SubnetError(CONSENSUS_ERROR_CODES.invalidArgument, 'an input limit must be a positive safe integer', {
        context: { path: `${path}.${key}`, value },
      });
    }
    (out as Record<string, number>)[key] = value;
  }
  return out;
}

const SHAPE_REASONS: ReadonlyMap<string, string> = new Map([
  ['CORE_INPUT_TOO_DEEP', 'the document nests deeper than the input limit'],
  ['CORE_INPUT_TOO_LARGE', 'a list, string or object of the document is larger than its input limit'],
  ['CORE_INPUT_NOT_JSON', 'the document holds a value JSON cannot carry (a lone surrogate, a non-finite number, a non-plain object)'],
]);

/**
 * Internal: validates an untrusted SSSA and returns the document as the schema builds it (not frozen).
 * The hand-written validator decides for valid input; for invalid input the shape check and the zod
 * schema name the field. `refs`, when given, receives each finding's normalised evidence reference.
 *
 * @throws SubnetError `CONSENSUS_INVALID_SSSA` naming the path (`context.reason` holds the core code of
 *   a shape error: `CORE_INPUT_TOO_DEEP`, `CORE_INPUT_TOO_LARGE`, `CORE_INPUT_NOT_JSON`)
 */
export function validateSssa(input: unknown, label: string, limits: InputLimits, refs?: string[]): Sssa {
  const fast = fastSssa(input, limits, refs);
  if (fast !== undefined) return fast;
  try {
    checkInputShape(input, limits, label);
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    const reason = SHAPE_REASONS.get(error.code) ?? 'the document breaks an input limit';
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidSssa, `invalid ${label}: ${reason}`, {
      context: { path: error.context.path ?? label, value: error.context.value, reason: error.code },
      cause: error,
    });
  }
  parseInput(sssaSchema, input, CONSENSUS_ERROR_CODES.invalidSssa, label);
  // Unreachable while the fast validator accepts exactly what the shape check and the schema accept.
  throw new SubnetError(CONSENSUS_ERROR_CODES.invalidSssa, `invalid ${label}: rejected by the document validator`, {
    context: { path: label, value: input },
  });
}

/** Freezes every object and array the validator built (the values of unknown fields are the caller's: left alone). */
function freezeParsed(sssa: Sssa): void {
  for (const finding of sssa.findings) {
    Object.freeze(finding.cve_ids);
    Object.freeze(finding);
  }
  Object.freeze(sssa.findings);
  Object.freeze(sssa.capabilities);
  for (const dependency of sssa.dependencies) {
    Object.freeze(dependency.cves);
    Object.freeze(dependency);
  }
  Object.freeze(sssa.dependencies);
  for (const rule of sssa.policy.rules) Object.freeze(rule);
  Object.freeze(sssa.policy.rules);
  Object.freeze(sssa.policy);
  if (sssa.skill !== undefined) Object.freeze(sssa.skill);
  if (typeof sssa.signature === 'object') Object.freeze(sssa.signature);
  Object.freeze(sssa);
}

/**
 * Validates an SSSA document at the boundary and returns it frozen. Parse once, then score: a document
 * returned by this function is recognised by `computeConsensus` (and by this function), which then
 * skip validating it again and reuse its finding keys and sets, computed on first use. Only the very
 * object returned counts: a copy (spread, `structuredClone`, JSON round trip) is validated again.
 *
 * Checks, SPEC 0 and B: the input limits (depth <= 64 containers, list, string and key-count limits), only
 * JSON values and well-formed UTF-16 anywhere, then {@link sssaSchema}'s fields. The document and every
 * object and array the schema describes (findings, CVE lists, capabilities, dependencies, policy and
 * rules, `skill`, an object `signature`) are new objects, frozen; the values of unknown fields are kept
 * as given (not copied, not frozen: they are never scored). Every key is data: an unknown key spelled
 * `__proto__` or `constructor` is kept as an own property and never changes a prototype. A document is trusted under
 * the limits it was parsed with: given smaller ones (here, to `computeConsensus` or `computeTaskConsensus`'s
 * `limits`) it is validated again against them, as a raw document is (docs/spec.md G.46 (e)).
 *
 * @param input - untrusted JSON value, or a document this function returned
 * @param label - the name of the document in error paths (default `sssa`)
 * @param options - `{ limits }`: input limits (default `DEFAULT_INPUT_LIMITS` of `@subnet/core`)
 * @returns the parsed, frozen document (unknown fields kept)
 * @throws SubnetError `CONSENSUS_INVALID_SSSA` naming the first bad field (`sssa.findings[0].severity`);
 *   for a shape error `context.reason` is `CORE_INPUT_TOO_DEEP`, `CORE_INPUT_TOO_LARGE` or
 *   `CORE_INPUT_NOT_JSON`; `CONSENSUS_INVALID_ARGUMENT` for a label that is not a string or bad limits
 * @example
 * const sssa = parseSssa(JSON.parse(text)); // validate once
 * computeConsensus({ taskId, members: [{ uid, hotkey, role: 'primary', sssa }, ...] }); // not validated again
 */
export function parseSssa(input: unknown, label = 'sssa', options: ParseSssaOptions = {}): Sssa {
  if (typeof label !== 'string') {
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidArgument, 'the label must be a string', { context: { path: 'label', value: label } });
  }
  const givenOptions: unknown = options;
  if (typeof givenOptions !== 'object' || givenOptions === null) {
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidArgument, 'options must be an object', { context: { path: 'options', value: options } });
  }
  const limits = resolveLimits(options.limits, 'options.limits');
  if (isTrustedWithin(input, limits)) return input as Sssa;
  if (isTrusted(input)) {
    // Parsed under a larger limit than one of these: held to these too, as a raw document is (docs/spec.md G.46 (e)).
    validateSssa(input, label, limits);
    return input as Sssa;
  }
  const sssa = validateSssa(input, label, limits);
  freezeParsed(sssa);
  markTrusted(sssa, limits);
  return sssa;
}
