import { DEFAULT_INPUT_LIMITS } from '@subnet/core';
import type { InputLimits } from '@subnet/core';
import { z } from 'zod';

const limit = (max: number) => z.number().int().min(1).max(max).default(max);

/**
 * `server.input_limits` (docs/spec.md G.1, G.6): the shape limits every POST body is checked against
 * before anything reads it, each an integer from 1 to `@subnet/core`'s default, which is also the value
 * when it is not set. A smaller limit only refuses more at ingest; a larger one could let a record in
 * that the epoch's screen (core's defaults, which the auditor applies too) would then exclude, so it is
 * refused. Request bytes are `server.body_limit_bytes`.
 */
export const inputLimitsSchema = z
  .strictObject({
    /** Containers nested inside each other, the body counting 1 (SPEC 0: 64). */
    max_depth: limit(DEFAULT_INPUT_LIMITS.maxDepth),
    /** Elements of one list. */
    max_list_length: limit(DEFAULT_INPUT_LIMITS.maxListLength),
    /** UTF-16 code units of one string or key. */
    max_string_length: limit(DEFAULT_INPUT_LIMITS.maxStringLength),
    /** Keys of one object. */
    max_object_keys: limit(DEFAULT_INPUT_LIMITS.maxObjectKeys),
  })
  .prefault({});

/** `server.input_limits` as configured (snake_case, defaults filled in). */
export type InputLimitsConfig = z.output<typeof inputLimitsSchema>;

/**
 * The configured limits in the form `checkInputShape` takes.
 *
 * @param config - `server.input_limits`
 * @returns the limits, camelCase, frozen
 * @example checkInputShape(body, toInputLimits(config.server.input_limits), 'body')
 */
export function toInputLimits(config: InputLimitsConfig): InputLimits {
  return Object.freeze({
    maxDepth: config.max_depth,
    maxListLength: config.max_list_length,
    maxStringLength: config.max_string_length,
    maxObjectKeys: config.max_object_keys,
  });
}

/** The `server.input_limits` key of each of core's limit names (`maxListLength` is `max_list_length`). */
const CONFIG_KEY_OF_LIMIT: Readonly<Record<keyof InputLimits, keyof InputLimitsConfig>> = Object.freeze({
  maxDepth: 'max_depth',
  maxListLength: 'max_list_length',
  maxStringLength: 'max_string_length',
  maxObjectKeys: 'max_object_keys',
});

/**
 * The configuration key that sets one of core's input limits, dotted from the top of the file.
 *
 * @param limitName - the limit's name in `@subnet/core` (`context.limitName` of a `CORE_INPUT_TOO_` error)
 * @returns `server.input_limits.<key>`
 * @example inputLimitKey('maxListLength') // 'server.input_limits.max_list_length'
 */
export function inputLimitKey(limitName: keyof InputLimits): string {
  return `server.input_limits.${CONFIG_KEY_OF_LIMIT[limitName]}`;
}
