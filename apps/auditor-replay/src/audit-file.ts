import type { SignatureVerifier } from '@subnet/bundle';

import type { BundleAudit } from './audit-bundle.js';
import { auditBundle, invalidAudit } from './audit-bundle.js';
import type { BundleLimits } from './bundle-limits.js';
import { DEFAULT_BUNDLE_LIMITS } from './bundle-limits.js';
import { readBundleBytes } from './bundle-bytes.js';
import { auditCanonicalBytes } from './canonical-text-audit.js';
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
  // As published (canonical, recomputed exactly): the claimed result is never parsed (canonical-text-audit.ts),
  // and no string of the whole file is made. The bytes are a reused array's: used before anything is awaited.
  const bytes = readBundleBytes(file, limits);
  let text: string;
  if (bytes !== undefined) {
    const fast = auditCanonicalBytes(bytes, file, verify, limits);
    if (fast !== undefined) return fast;
    // Anything else is audited whole, on the text readFile would give (UTF-8, U+FFFD for other bytes).
    text = bytes.toString('utf8');
  } else {
    // Not read (missing, unreadable, over the size limit): the reader says why.
    const read = await readBundleText(file, limits);
    if (typeof read !== 'string') return invalidAudit(file, read.error);
    text = read;
  }
  const doc = parseBundleText(file, text, limits);
  // A commit-reveal v4 bundle served with its reveal attestation: checked too (reveal-audit.ts).
  if (doc.ok) return auditReveal(doc.value, auditBundle(doc.value, file, verify, { text: doc.text, canonical: doc.canonical }).audit, verify);
  return invalidAudit(file, doc.error);
}
