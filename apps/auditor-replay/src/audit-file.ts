import { isAscii } from 'node:buffer';

import type { SignatureVerifier } from '@subnet/bundle';

import type { BundleAudit } from './audit-bundle.js';
import { auditBundle, invalidAudit } from './audit-bundle.js';
import type { BundleLimits } from './bundle-limits.js';
import { DEFAULT_BUNDLE_LIMITS } from './bundle-limits.js';
import { readBundleBytes } from './bundle-bytes.js';
import { auditCanonicalBytes, auditCanonicalText } from './canonical-text-audit.js';
import { parseBundleText, readBundleText } from './load-bundles.js';
import { auditReveal } from './reveal-audit.js';

/**
 * Loads and audits one bundle file; a file that cannot be read or is not JSON is an invalid audit.
 *
 * @param file - the path
 * @param verify - the signature check
 * @param limits - the size limits (default `DEFAULT_BUNDLE_LIMITS`)
 * @returns the audit
 * @example const audit = await auditFile('epoch-7.json', await signatureVerifier())
 */
export async function auditFile(file: string, verify: SignatureVerifier, limits: BundleLimits = DEFAULT_BUNDLE_LIMITS): Promise<BundleAudit> {
  // As published (canonical, recomputed exactly): the claimed result is never parsed (canonical-text-audit.ts).
  // An ASCII file (what validators publish unless a string holds more) is audited on its bytes, with no string
  // of the whole file; the bytes are a reused array's, so they are used before anything is awaited.
  const bytes = readBundleBytes(file, limits);
  const ascii = bytes !== undefined && isAscii(bytes);
  if (ascii) {
    const fast = auditCanonicalBytes(bytes, file, verify, limits);
    if (fast !== undefined) return fast;
  }
  // Anything else is read as before (its errors, its UTF-8 decoding) and audited whole.
  const text = await readBundleText(file, limits);
  if (typeof text !== 'string') return invalidAudit(file, text.error);
  if (!ascii) {
    const fast = auditCanonicalText(text, file, verify, limits);
    if (fast !== undefined) return fast;
  }
  const doc = parseBundleText(file, text, limits);
  // A commit-reveal v4 bundle served with its reveal attestation: checked too (reveal-audit.ts).
  if (doc.ok) return auditReveal(doc.value, auditBundle(doc.value, file, verify, { text: doc.text, canonical: doc.canonical }).audit, verify);
  return invalidAudit(file, doc.error);
}
