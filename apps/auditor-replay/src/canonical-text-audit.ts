import { computeEpoch } from '@subnet/bundle';
import type { EpochComputation, SignatureVerifier } from '@subnet/bundle';
import { canonicalJson, scanCanonicalJson } from '@subnet/core';

import type { BundleAudit } from './audit-bundle.js';
import { auditBundle } from './audit-bundle.js';
import type { BundleLimits } from './bundle-limits.js';
import { fitsBundleLimits } from './bundle-limits.js';
import { jsonBounds } from './load-bundles.js';
import { auditReveal } from './reveal-audit.js';

/** Stands in the place of the claimed result while the rest of the document is parsed: a string no canonical bundle holds. */
const STAND_IN = '\u0000result\u0000';
const STAND_IN_TEXT = JSON.stringify(STAND_IN);
/** Containers above the result in a signed document: the document and its bundle. */
const RESULT_DEPTH = 2;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The audit of a bundle file as validators publish it (canonical JSON, the recomputation equal to the claimed
 * result), without parsing, proving or comparing the claimed result value by value: two thirds of the file.
 * The result's text is cut out and a stand-in parsed in its place; the rest must be canonical JSON within the
 * limits (`scanCanonicalJson`), the recomputation is written once as canonical JSON and must be, byte for
 * byte, the text that was cut out, which proves that text canonical and equal to the recomputation at once.
 * The audit is then the one {@link auditBundle} gives the whole parsed document, with the recomputation in
 * the place of the claimed result (the same canonical JSON, so the same digest, schema verdict and weights).
 *
 * Undefined whenever that does not hold (another framing, a text that is not canonical, a value over the
 * limits, a recomputation that fails or differs by one byte): the caller then parses and audits the whole
 * file as before, which names every difference, so every verdict and message stays what it was.
 *
 * @param text - the file's text
 * @param source - where it came from
 * @param verify - the signature check
 * @param limits - the size limits
 * @returns the audit, or undefined when the whole file must be audited
 * @example const audit = auditCanonicalText(text, 'epoch-7.json', verify, DEFAULT_BUNDLE_LIMITS) ?? auditWhole(text)
 */
export function auditCanonicalText(text: string, source: string, verify: SignatureVerifier, limits: BundleLimits): BundleAudit | undefined {
  // The result's place: after the bundle's `"result":` key, up to its next key `"schema_version"` (keys sort
  // `result` < `schema_version`). Both are checked below: the stand-in must come out as the bundle's result.
  const keyAt = text.indexOf(',"result":{');
  const end = text.lastIndexOf(',"schema_version":');
  if (keyAt < 0 || end < keyAt || text.includes(STAND_IN_TEXT)) return undefined;
  const start = keyAt + ',"result":'.length;
  const rest = `${text.slice(0, start)}${STAND_IN_TEXT}${text.slice(end)}`;
  let doc: unknown;
  try {
    doc = JSON.parse(rest);
  } catch {
    return undefined;
  }
  if (!isRecord(doc) || !isRecord(doc.bundle) || doc.bundle.result !== STAND_IN) return undefined;
  const shape = scanCanonicalJson(rest, ...jsonBounds(rest));
  if (shape === undefined || !fitsBundleLimits(shape, limits)) return undefined;
  const bundle = doc.bundle;
  let recomputed: EpochComputation;
  try {
    recomputed = computeEpoch({
      config: bundle.config,
      epoch: bundle.epoch as number, // computeEpoch validates every field it takes
      validatorHotkey: bundle.validator_hotkey as string,
      inputs: bundle.inputs,
      stakes: bundle.stakes,
      metagraph: bundle.metagraph,
    });
    // Byte for byte (lengths first): the claimed result's text is the recomputation's canonical JSON.
    const written = canonicalJson(recomputed);
    if (written.length !== end - start || !text.startsWith(written, start)) return undefined;
    // The result's own sizes are the recomputation's (the same canonical JSON), below the document and bundle.
    if (!fitsBelow(recomputed, written, limits)) return undefined;
  } catch {
    return undefined; // failed or over the limits: the whole file's audit says how
  }
  bundle.result = recomputed;
  return auditReveal(doc, auditBundle(doc, source, verify, { text, canonical: true, recomputed }).audit, verify);
}

/**
 * Whether the claimed result, whose text is `text` (the recomputation's canonical JSON), passes the shape
 * check of the whole document: no string or key is longer than the whole text, nor holds a lone surrogate
 * (canonical JSON writes one as `\udxxx`), and a walk of the containers finds the depth, list lengths and key
 * counts within the limits. False sends the file to the whole audit, whose shape check names the fault.
 */
function fitsBelow(value: unknown, text: string, limits: BundleLimits): boolean {
  if (text.length > limits.maxStringLength || text.includes('\\ud')) return false;
  return containersFit(value, RESULT_DEPTH, limits);
}

function containersFit(value: unknown, depth: number, limits: BundleLimits): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth + 1 > limits.maxDepth) return false;
  if (Array.isArray(value)) {
    if (value.length > limits.maxListLength) return false;
    for (const item of value) if (!containersFit(item, depth + 1, limits)) return false;
    return true;
  }
  const keys = Object.keys(value);
  if (keys.length > limits.maxObjectKeys) return false;
  for (const key of keys) if (!containersFit((value as Record<string, unknown>)[key], depth + 1, limits)) return false;
  return true;
}
