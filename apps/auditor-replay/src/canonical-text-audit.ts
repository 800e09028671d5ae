import { bundleTextIn, computeEpoch } from '@subnet/bundle';
import type { EpochComputation, SignatureVerifier } from '@subnet/bundle';
import { canonicalJson, canonicalJsonBytes, scanCanonicalJson, sha256Hex } from '@subnet/core';

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
  // An ASCII text is its own UTF-8 bytes, index for index: the byte form below is the same audit.
  if (isAsciiText(text)) return auditCanonicalBytes(Buffer.from(text, 'latin1'), source, verify, limits);
  // The result's place: after the bundle's `"result":` key, up to its next key `"schema_version"` (keys sort
  // `result` < `schema_version`). Both are checked below: the stand-in must come out as the bundle's result.
  const keyAt = text.indexOf(',"result":{');
  const end = text.lastIndexOf(',"schema_version":');
  if (keyAt < 0 || end < keyAt || text.includes(STAND_IN_TEXT)) return undefined;
  const start = keyAt + ',"result":'.length;
  const doc = provenRest(`${text.slice(0, start)}${STAND_IN_TEXT}${text.slice(end)}`, limits);
  if (doc === undefined) return undefined;
  const bundle = doc.bundle;
  let recomputed: EpochComputation;
  try {
    recomputed = recompute(bundle);
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

/** The scratch arrays of {@link auditCanonicalBytes}: the text parsed in place of the file, and the recomputation's bytes. */
let restScratch = Buffer.allocUnsafe(1 << 19);
let writtenScratch: Uint8Array = new Uint8Array(1 << 20);

/**
 * {@link auditCanonicalText} on the bytes of an ASCII file, without making a string of the whole file: the
 * same audit, as an ASCII text and its UTF-8 bytes are the same sequence (index `i` of one is byte `i` of the
 * other, and sha256 of the text is sha256 of the bytes). Only the rest of the file (the third outside the
 * result) becomes a string, to be parsed; the recomputation is written as canonical JSON straight into bytes
 * (`canonicalJsonBytes`) and compared with the file's bytes, and the writer's sizes of it stand in for a walk
 * of its containers. Synchronous from start to end, so the scratch arrays serve every call in turn.
 *
 * @param bytes - the file's bytes, all ASCII (`isAscii`); not kept after the call
 * @param source - where it came from
 * @param verify - the signature check
 * @param limits - the size limits
 * @returns the audit, or undefined when the whole file must be audited
 * @example const audit = isAscii(bytes) ? auditCanonicalBytes(bytes, 'epoch-7.json', verify, limits) : undefined
 */
export function auditCanonicalBytes(bytes: Buffer, source: string, verify: SignatureVerifier, limits: BundleLimits): BundleAudit | undefined {
  const keyAt = bytes.indexOf(',"result":{');
  const end = bytes.lastIndexOf(',"schema_version":');
  if (keyAt < 0 || end < keyAt || bytes.includes(STAND_IN_TEXT)) return undefined;
  const start = keyAt + ',"result":'.length;
  // The rest, with the stand-in in the result's place, as one flat string.
  const restLength = start + STAND_IN_TEXT.length + (bytes.length - end);
  if (restScratch.length < restLength) restScratch = Buffer.allocUnsafe(restLength);
  bytes.copy(restScratch, 0, 0, start);
  restScratch.write(STAND_IN_TEXT, start, 'latin1');
  bytes.copy(restScratch, start + STAND_IN_TEXT.length, end);
  const rest = restScratch.toString('latin1', 0, restLength);
  const doc = provenRest(rest, limits);
  if (doc === undefined) return undefined;
  const bundle = doc.bundle;
  let recomputed: EpochComputation;
  try {
    recomputed = recompute(bundle);
    // Byte for byte (lengths first): the claimed result's bytes are the recomputation's canonical JSON.
    const written = canonicalJsonBytes(recomputed, writtenScratch);
    writtenScratch = new Uint8Array(written.bytes.buffer);
    if (written.bytes.length !== end - start || !bytes.subarray(start, end).equals(written.bytes)) return undefined;
    // The whole document's shape check (checkBundleShape), split in two: the scan above measured the rest, where
    // the result's place holds the stand-in (8 characters, no surrogate: it can only make the scan stricter), and
    // the writer measured the result itself, every string, key, list, object and container below its place at
    // depth 2 (document, bundle). The walk of the whole document sees exactly these two, so it passes too.
    if (
      written.loneSurrogate ||
      written.depth + RESULT_DEPTH > limits.maxDepth ||
      written.longestList > limits.maxListLength ||
      written.longestString > limits.maxStringLength ||
      written.mostKeys > limits.maxObjectKeys
    )
      return undefined;
  } catch {
    return undefined; // failed or over the limits: the whole file's audit says how
  }
  // Sound to use in the whole document's place: the file's bytes are the rest's with the result's bytes in the
  // stand-in's place, and those are the canonical JSON of `recomputed`, so the parsed whole document would be
  // `doc` with `bundle.result` deep-equal to `recomputed` (a canonical text has no duplicate key).
  bundle.result = recomputed;
  const digest = ownDigest(bytes, rest, doc, start, end);
  return auditReveal(doc, auditBundle(doc, source, verify, { canonical: true, recomputed, ...(digest === undefined ? {} : { digest }) }).audit, verify);
}

/**
 * sha256 of the bundle's own bytes in the file, found as `bundleTextIn` finds them in the whole text: its
 * framing (`{"bundle":` before, the document's other fields after) lies outside the result, so it is found
 * in the rest, and the bundle's text in the file is the rest's, with the result's bytes in the stand-in's
 * place. The whole text is canonical (the rest proven by the scan, the result equal to the recomputation's
 * canonical JSON), so this is the digest `auditBundle` takes from a canonical text. Undefined when the
 * framing is not found (then `auditBundle` serialises the bundle, as it would for the text).
 */
function ownDigest(bytes: Buffer, rest: string, doc: { readonly bundle: unknown }, start: number, end: number): string | undefined {
  const inRest = bundleTextIn(rest, doc);
  if (inRest === undefined) return undefined;
  // bundleTextIn trims white space, then takes what follows `{"bundle":`.
  const from = rest.length - rest.trimStart().length + '{"bundle":'.length;
  const to = from + inRest.length;
  if (from > start || to < start + STAND_IN_TEXT.length) return undefined;
  return sha256Hex(bytes.subarray(from, to + (end - start) - STAND_IN_TEXT.length));
}

/** Whether every character of a text is ASCII. */
function isAsciiText(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- the range is all of ASCII
  return /^[\u0000-\u007f]*$/.test(text);
}

/**
 * The document parsed from the rest (the file with the stand-in in the result's place), when the stand-in
 * came out as the bundle's result and the rest is canonical JSON within the limits; undefined otherwise.
 */
function provenRest(rest: string, limits: BundleLimits): { bundle: Record<string, unknown> } | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(rest);
  } catch {
    return undefined;
  }
  if (!isRecord(doc) || !isRecord(doc.bundle) || doc.bundle.result !== STAND_IN) return undefined;
  const shape = scanCanonicalJson(rest, ...jsonBounds(rest));
  if (shape === undefined || !fitsBundleLimits(shape, limits)) return undefined;
  return doc as { bundle: Record<string, unknown> };
}

/** The bundle's recomputation (throws what computeEpoch throws). */
function recompute(bundle: Record<string, unknown>): EpochComputation {
  return computeEpoch({
    config: bundle.config,
    epoch: bundle.epoch as number, // computeEpoch validates every field it takes
    validatorHotkey: bundle.validator_hotkey as string,
    inputs: bundle.inputs,
    stakes: bundle.stakes,
    metagraph: bundle.metagraph,
  });
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
