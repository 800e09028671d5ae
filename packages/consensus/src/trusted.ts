/**
 * Internal: the SSSA documents this package has validated itself (returned by `parseSssa`), so that
 * `computeConsensus` can skip validating them again (validate once, then score). The registry is a
 * module-private WeakMap keyed by the document object: nothing shows on the document (not in JSON, spreads
 * or `Object.keys`), a copy of a parsed document (spread, `structuredClone`, a JSON round trip) is not in
 * it and is validated again, and the document itself is frozen, so it cannot change after validation. The
 * value caches the document's scored sets once they are first needed (`null` until then).
 */
const trusted = new WeakMap<object, unknown>();

/** Records `document` (already validated and frozen) as trusted, with no cached payload yet. */
export function markTrusted(document: object): void {
  trusted.set(document, null);
}

/** Whether `value` is a document this package validated (the very object, not a copy). */
export function isTrusted(value: unknown): value is object {
  return typeof value === 'object' && value !== null && trusted.has(value);
}

/** The payload cached for a trusted document, or `null` when none is cached yet (or it is not trusted). */
export function trustedPayload(document: object): unknown {
  return trusted.get(document) ?? null;
}

/** Caches `payload` for a trusted document; does nothing for a document that is not trusted. */
export function cacheTrustedPayload(document: object, payload: unknown): void {
  if (trusted.has(document)) trusted.set(document, payload);
}
