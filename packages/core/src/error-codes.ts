/**
 * Every error code `@subnet/core` raises, in one place. Codes are append-only: a code once published keeps
 * its value and meaning (a test lists every value, so a code can be added but never changed or removed).
 *
 * - `CORE_CANONICAL_JSON_UNSUPPORTED_VALUE`: `canonicalJson`/`digest` met a value JSON cannot hold.
 * - `CORE_CANONICAL_JSON_TOO_DEEP`: a value nests deeper than 128 containers.
 * - `CORE_INVALID_SS58`: an SS58 address, public key or prefix is invalid.
 * - `CORE_MALFORMED_TEXT`: a string holds a lone UTF-16 surrogate (`assertWellFormed`).
 * - `CORE_INPUT_TOO_DEEP`, `CORE_INPUT_TOO_LARGE`, `CORE_INPUT_NOT_JSON`: `checkInputShape` rejections.
 * - `CORE_INVALID_ARGUMENT`: an exported function got an argument of the wrong kind (a number where a
 *   string belongs, limits that are not positive integers, ...).
 *
 * @example
 * if (isSubnetError(error, CORE_ERROR_CODES.inputTooDeep)) reject(error.context.path)
 */
export const CORE_ERROR_CODES = Object.freeze({
  canonicalJsonUnsupported: 'CORE_CANONICAL_JSON_UNSUPPORTED_VALUE',
  canonicalJsonTooDeep: 'CORE_CANONICAL_JSON_TOO_DEEP',
  invalidSs58: 'CORE_INVALID_SS58',
  malformedText: 'CORE_MALFORMED_TEXT',
  inputTooDeep: 'CORE_INPUT_TOO_DEEP',
  inputTooLarge: 'CORE_INPUT_TOO_LARGE',
  inputNotJson: 'CORE_INPUT_NOT_JSON',
  invalidArgument: 'CORE_INVALID_ARGUMENT',
} as const);

/** Every code of this package (the values of {@link CORE_ERROR_CODES}). */
export type CoreErrorCode = (typeof CORE_ERROR_CODES)[keyof typeof CORE_ERROR_CODES];
