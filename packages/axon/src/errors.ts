import { SubnetError } from '@subnet/core';

/**
 * Every error code `@subnet/axon` raises. Codes are append-only. A miner's or caller's bad bytes are never
 * thrown at a dendrite's caller: they become the SDK status codes on the returned synapse.
 *
 * @example if (isSubnetError(e, AXON_ERROR_CODES.invalidJson)) reject()
 */
export const AXON_ERROR_CODES = Object.freeze({
  /** A synapse definition is invalid (a name that is not a Python identifier, a reserved or repeated field name, an undeclared hash field). */
  invalidDefinition: 'AXON_INVALID_DEFINITION',
  /** Text is not JSON as Python's `json.loads` reads it (`context.value` is the offset). */
  invalidJson: 'AXON_INVALID_JSON',
  /** A value does not validate against its declared Python type (`context.path` names it). */
  invalidValue: 'AXON_INVALID_VALUE',
  /** A request header is malformed (`context.path` names the header). */
  invalidHeader: 'AXON_INVALID_HEADER',
  /** An axon ip/port/AxonInfo is invalid. */
  invalidAxonInfo: 'AXON_INVALID_AXON_INFO',
  /** The axon server cannot start (port in use, bad options). */
  serverStart: 'AXON_SERVER_START',
});

/** A code of {@link AXON_ERROR_CODES}. */
export type AxonErrorCode = (typeof AXON_ERROR_CODES)[keyof typeof AXON_ERROR_CODES];

/** Builds an axon error naming a path and value (internal). */
export function axonError(code: AxonErrorCode, summary: string, path: string, value?: unknown, cause?: unknown): SubnetError {
  return new SubnetError(code, summary, { context: value === undefined ? { path } : { path, value }, cause });
}
