import type { InputLimits } from '@subnet/core';

/**
 * Internal: the SSSA documents this package has validated itself (returned by `parseSssa`), so that
 * `computeConsensus` can skip validating them again (validate once, then score). The registry is a
 * module-private WeakMap keyed by the document object: nothing shows on the document (not in JSON, spreads
 * or `Object.keys`), a copy of a parsed document (spread, `structuredClone`, a JSON round trip) is not in
 * it and is validated again, and the document itself is frozen, so it cannot change after validation. The
 * value holds the input limits the document was validated under and caches the document's scored sets once
 * they are first needed (`null` until then).
 */
interface Trusted {
  /** The limits `parseSssa` held the document to: it fits any limits at least as large in every field. */
  readonly limits: InputLimits;
  payload: unknown;
}
const trusted = new WeakMap<object, Trusted>();

/** Records `document` (already validated under `limits` and frozen) as trusted, with no cached payload yet. */
export function markTrusted(document: object, limits: InputLimits): void {
  trusted.set(document, { limits, payload: null });
}

/** Whether `value` is a document this package validated (the very object, not a copy). */
export function isTrusted(value: unknown): value is object {
  return typeof value === 'object' && value !== null && trusted.has(value);
}

/**
 * Whether `value` is a document this package validated under limits no larger than `limits` in any field, so that it
 * fits `limits` without being walked again (docs/spec.md G.46 (e)). A document validated under a larger limit than one
 * of `limits` is not: it is validated again against `limits`, as a raw document is.
 */
export function isTrustedWithin(value: unknown, limits: InputLimits): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const entry = trusted.get(value);
  if (entry === undefined) return false;
  const under = entry.limits;
  return (
    under === limits ||
    (under.maxDepth <= limits.maxDepth &&
      under.maxListLength <= limits.maxListLength &&
      under.maxStringLength <= limits.maxStringLength &&
      under.maxObjectKeys <= limits.maxObjectKeys)
  );
}

/** The payload cached for a trusted document, or `null` when none is cached yet (or it is not trusted). */
export function trustedPayload(document: object): unknown {
  return trusted.get(document)?.payload ?? null;
}

/** Caches `payload` for a trusted document; does nothing for a document that is not trusted. */
export function cacheTrustedPayload(document: object, payload: unknown): void {
  const entry = trusted.get(document);
  if (entry !== undefined) entry.payload = payload;
}
