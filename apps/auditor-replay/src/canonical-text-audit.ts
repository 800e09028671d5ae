import { isAscii, isUtf8 } from 'node:buffer';

import { bundleTextIn, computeEpoch } from '@subnet/bundle';
import type { EpochComputation, SignatureVerifier } from '@subnet/bundle';
import { canonicalJsonBytes, findLoneSurrogate, scanCanonicalJson, sha256Hex } from '@subnet/core';

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
 * {@link auditCanonicalBytes} for a caller that holds the file's text: the same audit of its UTF-8 bytes (what
 * the file holds). Undefined for a text with a lone surrogate (it has no UTF-8 form, and canonical JSON writes
 * one as `\udxxx`, so such a text is not canonical) and wherever {@link auditCanonicalBytes} declines: the
 * caller then parses and audits the whole text, which names every difference.
 *
 * @param text - the file's text
 * @param source - where it came from
 * @param verify - the signature check
 * @param limits - the size limits
 * @returns the audit, or undefined when the whole file must be audited
 * @example const audit = auditCanonicalText(text, 'epoch-7.json', verify, DEFAULT_BUNDLE_LIMITS) ?? auditWhole(text)
 */
export function auditCanonicalText(text: string, source: string, verify: SignatureVerifier, limits: BundleLimits): BundleAudit | undefined {
  if (findLoneSurrogate(text) >= 0) return undefined;
  return auditCanonicalBytes(Buffer.from(text, 'utf8'), source, verify, limits);
}

/** The scratch arrays of {@link auditCanonicalBytes}: the text parsed in place of the file, and the recomputation's bytes. */
let restScratch = Buffer.allocUnsafe(1 << 19);
let writtenScratch: Uint8Array = new Uint8Array(1 << 20);

/**
 * The audit of a bundle file as validators publish it (canonical JSON, the recomputation equal to the claimed
 * result), on the file's bytes, without a string of the whole file and without parsing, proving or comparing
 * the claimed result value by value (two thirds of the file). The result's bytes are cut out and a stand-in
 * parsed in their place; the rest must be canonical JSON within the limits (`scanCanonicalJson`); the
 * recomputation is written once as canonical JSON straight into bytes (`canonicalJsonBytes`) and must be,
 * byte for byte, what was cut out, which proves those bytes canonical and equal to the recomputation at once,
 * and the writer's sizes of it stand in for a walk of its containers. The audit is then the one
 * {@link auditBundle} gives the whole parsed document, with the recomputation in the place of the claimed
 * result (the same canonical JSON, so the same digest, schema verdict and weights).
 *
 * Only the rest (the third outside the result) becomes a string, to be parsed: read as Latin-1 when the file
 * is ASCII (each byte is its character, index for index), as UTF-8 when it is valid UTF-8 (the cuts fall on
 * ASCII bytes, so the rest is valid UTF-8 too). Undefined whenever that does not hold (bytes that are not
 * UTF-8, another framing, a text that is not canonical, a value over the limits, a recomputation that fails
 * or differs by one byte): the caller then audits the whole file as before, which names every difference,
 * so every verdict and message stays what it was. Synchronous from start to end, so the scratch arrays serve
 * every call in turn.
 *
 * @param bytes - the file's bytes; not kept after the call
 * @param source - where it came from
 * @param verify - the signature check
 * @param limits - the size limits
 * @returns the audit, or undefined when the whole file must be audited
 * @example const audit = auditCanonicalBytes(readFileSync('epoch-7.json'), 'epoch-7.json', verify, limits) ?? auditWhole()
 */
export function auditCanonicalBytes(bytes: Buffer, source: string, verify: SignatureVerifier, limits: BundleLimits): BundleAudit | undefined {
  const ascii = isAscii(bytes);
  // readFile reads other bytes as U+FFFD: the whole audit's text is then not the file's bytes, so it decides.
  if (!ascii && !isUtf8(bytes)) return undefined;
  const keyAt = bytes.indexOf(',"result":{');
  const end = bytes.lastIndexOf(',"schema_version":');
  if (keyAt < 0 || end < keyAt) return undefined;
  const start = keyAt + ',"result":'.length;
  // The rest, with the stand-in in the result's place, as one flat string.
  const restLength = start + STAND_IN_TEXT.length + (bytes.length - end);
  if (restScratch.length < restLength) restScratch = Buffer.allocUnsafe(restLength);
  bytes.copy(restScratch, 0, 0, start);
  restScratch.write(STAND_IN_TEXT, start, 'latin1');
  bytes.copy(restScratch, start + STAND_IN_TEXT.length, end);
  // The stand-in is parsed as the bundle's result only where it was put: the rest holds it nowhere else. (The
  // result's own bytes are compared with the recomputation below, so what they hold cannot reach the parse; the
  // stand-in holds neither `:` nor `,`, so no occurrence can span a cut.)
  const restBytes = restScratch.subarray(0, restLength);
  if (restBytes.indexOf(STAND_IN_TEXT) !== start || restBytes.includes(STAND_IN_TEXT, start + 1)) return undefined;
  const rest = restScratch.toString(ascii ? 'latin1' : 'utf8', 0, restLength);
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
    // depth 2 (document, bundle), strings in UTF-16 code units as the shape check counts them. The walk of the
    // whole document sees exactly these two, so it passes too.
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
  const digest = ownDigest(bytes, rest, ascii, doc, start, end);
  return auditReveal(doc, auditBundle(doc, source, verify, { canonical: true, recomputed, ...(digest === undefined ? {} : { digest }) }).audit, verify);
}

/**
 * sha256 of the bundle's own bytes in the file, found as `bundleTextIn` finds them in the whole text: its
 * framing (`{"bundle":` before, the document's other fields after) lies outside the result, so it is found
 * in the rest, and the bundle's bytes in the file are the rest's, with the result's bytes in the stand-in's
 * place. The whole text is canonical (the rest proven by the scan, the result equal to the recomputation's
 * canonical JSON), so this is the digest `auditBundle` takes from a canonical text. Offsets are in bytes: an
 * ASCII rest's characters are its bytes, a UTF-8 one is measured. Undefined when the framing is not found
 * (then `auditBundle` serialises the bundle, as it would for the text).
 */
function ownDigest(bytes: Buffer, rest: string, ascii: boolean, doc: { readonly bundle: unknown }, start: number, end: number): string | undefined {
  const inRest = bundleTextIn(rest, doc);
  if (inRest === undefined) return undefined;
  // bundleTextIn trims white space, then takes what follows `{"bundle":`.
  const fromChar = rest.length - rest.trimStart().length + '{"bundle":'.length;
  const from = ascii ? fromChar : Buffer.byteLength(rest.slice(0, fromChar), 'utf8');
  const to = from + (ascii ? inRest.length : Buffer.byteLength(inRest, 'utf8'));
  if (from > start || to < start + STAND_IN_TEXT.length) return undefined;
  return sha256Hex(bytes.subarray(from, to + (end - start) - STAND_IN_TEXT.length));
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
