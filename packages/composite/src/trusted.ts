/**
 * Internal: marks values this package has already validated, so that passing them again skips the
 * validation (validate once, then score). The mark is a module-private symbol stored as a non-enumerable
 * property: it never shows in JSON, in spreads or in `Object.keys`, and a copy of a parsed value (spread,
 * `structuredClone`, a JSON round trip) does not carry it, so a copy is validated again. Marked values are
 * frozen, so they cannot change after validation.
 */

const TRUSTED: unique symbol = Symbol('@subnet/composite/trusted');

/** Stores `payload` as the trust mark of `target` (before `target` is frozen). */
export function markTrusted(target: object, payload: unknown): void {
  Object.defineProperty(target, TRUSTED, { value: payload, enumerable: false, writable: false, configurable: false });
}

/** The payload stored by {@link markTrusted}, or undefined when `value` was not validated here. */
export function trustedPayload(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as { [TRUSTED]?: unknown })[TRUSTED];
}
