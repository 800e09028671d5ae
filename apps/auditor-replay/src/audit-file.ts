import type { SignatureVerifier } from '@subnet/bundle';
import { isSubnetError } from '@subnet/core';

import type { BundleAudit } from './audit-bundle.js';
import { auditBundle, errorOf, invalidAudit } from './audit-bundle.js';
import type { BundleLimits } from './bundle-limits.js';
import { BUNDLE_LIMIT_OPTIONS, DEFAULT_BUNDLE_LIMITS } from './bundle-limits.js';
import { readBundleBytes } from './bundle-bytes.js';
import { auditCanonicalBytes } from './canonical-text-audit.js';
import { AUDITOR_ERROR_CODES } from './errors.js';
import { parseBundleText, readBundleText } from './load-bundles.js';
import { auditReveal } from './reveal-audit.js';

/**
 * Loads and audits one bundle file; a file that cannot be read or is not JSON is an invalid audit. An unexpected
 * failure while auditing it (a defect of the auditor that this file's content reaches) is that file's invalid audit
 * too, `AUDITOR_INTERNAL` with the failure's message (a coded one keeps its code): the other files of a run are still
 * audited, and the run still exits 2.
 *
 * @param file - the path
 * @param verify - the signature check
 * @param limits - the size limits (default `DEFAULT_BUNDLE_LIMITS`)
 * @returns the audit
 * @example const audit = await auditFile('epoch-7.json', await signatureVerifier())
 */
export async function auditFile(file: string, verify: SignatureVerifier, limits: BundleLimits = DEFAULT_BUNDLE_LIMITS): Promise<BundleAudit> {
  try {
    return await auditOneFile(file, verify, limits);
  } catch (error) {
    return invalidAudit(
      file,
      isSubnetError(error)
        ? errorOf(error)
        : {
            code: AUDITOR_ERROR_CODES.internal,
            message: `[${AUDITOR_ERROR_CODES.internal}] an unexpected failure while auditing this bundle (a defect of the auditor; please report it with the file): ${error instanceof Error ? error.message : String(error)}`,
            path: null,
          },
    );
  }
}

async function auditOneFile(file: string, verify: SignatureVerifier, limits: BundleLimits): Promise<BundleAudit> {
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
    // Not read (missing, unreadable, over the size limit): the reader says why, with verify's option for a size limit.
    const read = await readBundleText(file, limits, BUNDLE_LIMIT_OPTIONS);
    if (typeof read !== 'string') return invalidAudit(file, read.error);
    text = read;
  }
  // A refusal for going over a limit names verify's option for it (`--max-list-length`) and its value.
  const doc = parseBundleText(file, text, limits, BUNDLE_LIMIT_OPTIONS);
  // A commit-reveal v4 bundle served with its reveal attestation: checked too (reveal-audit.ts).
  if (doc.ok) return auditReveal(doc.value, auditBundle(doc.value, file, verify, { text: doc.text, canonical: doc.canonical }).audit, verify);
  return invalidAudit(file, doc.error);
}
