import { canonicalJson, sha256Hex } from '@subnet/core';

import type { Bundle, BundleSigner } from './bundle.js';
import { bytesToHex, hexToBytes, samePublicKey } from './bundle.js';
import { BUNDLE_ERROR_CODES, fail } from './errors.js';

/** A bundle serialised once: its digest, signature and the canonical JSON of the signed document. */
export interface SignedBundleText {
  readonly bundle: Bundle;
  /** Lowercase hex sha256 of the bundle's canonical JSON. */
  readonly digest: string;
  /** sr25519 signature over the digest bytes, or `null` when no signer was given (dry run). */
  readonly signature: string | null;
  /** Canonical JSON of `{ bundle, digest, signature }`: what is stored, served and written to a file. */
  readonly text: string;
}

/**
 * Serialises a bundle once for publishing: the canonical JSON of the bundle gives the digest, the
 * signer signs the digest bytes, and the signed document's canonical JSON is assembled around the same
 * bundle text (its keys `bundle` < `digest` < `signature` are already in code point order), so an epoch
 * close never writes an 800 KB bundle out three times. `text` equals `canonicalJson({ bundle, digest,
 * signature })` byte for byte, and `digest` equals `bundleDigest(bundle)`.
 *
 * @param bundle - a bundle from `buildBundle`
 * @param signer - the validator hotkey's key pair, or `undefined` for an unsigned (dry-run) document
 * @returns the frozen digest, signature and text
 * @throws SubnetError `BUNDLE_SIGNER_MISMATCH` when the key is not the bundle's validator hotkey; the
 *   canonical JSON codes of `@subnet/core` for a value JSON cannot hold
 * @example
 * const { text, digest } = signedBundleText(buildBundle(input), signer);
 * writeFileSync('epoch-7.json', text);
 */
export function signedBundleText(bundle: Bundle, signer: BundleSigner | undefined): SignedBundleText {
  if (signer !== undefined && !samePublicKey(signer.address, bundle.validator_hotkey)) {
    fail(BUNDLE_ERROR_CODES.signerMismatch, "the signing key is not the bundle's validator hotkey", 'signer.address', signer.address);
  }
  const bundleText = canonicalJson(bundle);
  const digest = sha256Hex(bundleText);
  const signature = signer === undefined ? null : bytesToHex(signer.sign(hexToBytes(digest)));
  const text = `{"bundle":${bundleText},"digest":"${digest}","signature":${signature === null ? 'null' : `"${signature}"`}}`;
  return Object.freeze({ bundle, digest, signature, text });
}

/**
 * The bundle's own text inside the text of a signed document framed as {@link signedBundleText} and
 * `withRevealAttestation` write it: `{"bundle":` + the bundle's text + the canonical JSON of the document's
 * other fields (`digest`, then `reveal` and `reveal_signature` when present, then `signature`; `bundle` sorts
 * first). Lets a reader hash the bundle's bytes as published instead of serialising the parsed bundle again;
 * it does not prove those bytes canonical (`isCanonicalJsonOf` in `@subnet/core` does).
 *
 * @param text - the signed document's text (surrounding white space allowed)
 * @param document - the same document, parsed
 * @returns the bundle's text, or undefined when the text is framed any other way
 * @example const own = bundleTextIn(fileText, JSON.parse(fileText)); // then isCanonicalJsonOf(parsed.bundle, own)
 */
export function bundleTextIn(text: string, document: { readonly bundle: unknown }): string | undefined {
  const prefix = '{"bundle":';
  let framed: string;
  try {
    framed = canonicalJson({ ...document, bundle: null });
  } catch {
    return undefined; // a field canonical JSON cannot hold: no canonical framing to find
  }
  if (!framed.startsWith(`${prefix}null`)) return undefined; // a key sorting before "bundle"
  const suffix = framed.slice(prefix.length + 'null'.length);
  const trimmed = text.trim();
  if (trimmed.length < prefix.length + suffix.length || !trimmed.startsWith(prefix) || !trimmed.endsWith(suffix)) return undefined;
  return trimmed.slice(prefix.length, trimmed.length - suffix.length);
}
