import { BUNDLE_ERROR_CODES, verifyRevealAttestation } from '@subnet/bundle';
import type { RevealAttestation, SignatureVerifier } from '@subnet/bundle';
import { isSubnetError } from '@subnet/core';

import type { BundleAudit, Mismatch } from './audit-bundle.js';

/** What the chain shows for a committed (commit-reveal v4) submission, found by following the commit (reveal-chain.ts). */
export interface RevealOnChain {
  /** `revealed` (TimelockedWeightsRevealed in `block`), `dropped` (the commit left its queue in `block` without it), `queued` (still queued at `head`). */
  readonly outcome: 'revealed' | 'dropped' | 'queued';
  /** The block whose state no longer holds the commit (null while queued). */
  readonly block: string | null;
  readonly blockHash: string | null;
  /** The head read (for `queued`). */
  readonly head: string;
}

/**
 * The reveal of a commit-reveal v4 bundle: the validator's signed reveal attestation (docs/spec.md G.6) and, with
 * `--chain`, what the chain shows when the commit is followed to its reveal.
 */
export interface RevealAudit {
  /** The attestation verified: schema, bound to this bundle (digest, epoch, netuid, hotkey), signed by the bundle's hotkey. */
  readonly verified: boolean;
  /** The attestation as carried (the verified one, or the raw document when it did not verify; null when absent). */
  readonly attestation: RevealAttestation | null;
  /** Why the attestation was refused: `BUNDLE_REVEAL_INVALID`, `BUNDLE_REVEAL_DIGEST_MISMATCH`, `BUNDLE_REVEAL_BAD_SIGNATURE`. */
  readonly error: { readonly code: string; readonly message: string; readonly path: string | null } | null;
  /** With `--chain`: what the chain shows (null when not followed). */
  readonly chain: RevealOnChain | null;
}

/**
 * Checks the reveal attestation a served bundle carries (`reveal`, `reveal_signature`) and adds it to the bundle's
 * audit as `reveal`. A tampered or forged attestation (digest binding or signature) makes the bundle a `mismatch`
 * (stage `reveal`, exit 1) and a malformed one (schema, another epoch, netuid or hotkey, no signature) `invalid`
 * (exit 2), each with its code in `reveal.error`. A bundle without an attestation is returned unchanged.
 *
 * @param signed - the JSON-parsed document
 * @param audit - its audit ({@link auditBundle})
 * @param verify - the sr25519 check
 * @returns the audit with `reveal` when the document carries an attestation
 * @example const audit = auditReveal(doc, auditBundle(doc, file, verify).audit, verify)
 */
export function auditReveal(signed: unknown, audit: BundleAudit, verify: SignatureVerifier): BundleAudit {
  const doc = (typeof signed === 'object' && signed !== null ? signed : {}) as { reveal?: unknown; reveal_signature?: unknown };
  if (doc.reveal === undefined && doc.reveal_signature === undefined) return audit;
  if (audit.digest === null || audit.epoch === null || audit.netuid === null || audit.validator_hotkey === null) {
    return { ...audit, reveal: { verified: false, attestation: null, error: null, chain: null } };
  }
  try {
    const attestation = verifyRevealAttestation(
      doc.reveal,
      doc.reveal_signature,
      { digest: audit.digest, epoch: audit.epoch, netuid: audit.netuid, validator_hotkey: audit.validator_hotkey },
      verify,
    );
    return { ...audit, reveal: { verified: true, attestation, error: null, chain: null } };
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    const path = (error.context as { path?: unknown }).path;
    const coded = { code: error.code, message: error.message, path: typeof path === 'string' ? path : null };
    const reveal: RevealAudit = { verified: false, attestation: (doc.reveal ?? null) as RevealAttestation | null, error: coded, chain: null };
    if (error.code === BUNDLE_ERROR_CODES.revealInvalid) {
      return { ...audit, status: 'invalid', error: audit.error ?? coded, reveal };
    }
    const mismatch: Mismatch = {
      epoch: audit.epoch,
      stage: 'reveal',
      miner: null,
      field: error.code,
      path: coded.path ?? 'reveal',
      kind: 'value',
      expected:
        error.code === BUNDLE_ERROR_CODES.revealDigestMismatch ? audit.digest : `an sr25519 signature by ${audit.validator_hotkey} over the attestation`,
      claimed: error.code === BUNDLE_ERROR_CODES.revealDigestMismatch ? (doc.reveal as { bundle_digest?: unknown }).bundle_digest : doc.reveal_signature,
    };
    return { ...audit, status: audit.status === 'invalid' ? 'invalid' : 'mismatch', mismatches: [...audit.mismatches, mismatch], reveal };
  }
}

/**
 * The reveal in words: what the validator attests ("revealed in block N", or the diagnosed drop with its code and
 * reason) and, with `--chain`, what the chain shows.
 *
 * @param reveal - the bundle's reveal audit
 * @returns one sentence
 * @example describeReveal(audit.reveal) // 'revealed in block 25 (attested by the validator); chain: revealed in block 25'
 */
export function describeReveal(reveal: RevealAudit): string {
  const a = reveal.attestation;
  let said: string;
  if (!reveal.verified && reveal.error !== null) said = `attestation refused [${reveal.error.code}] ${reveal.error.message}`;
  else if (a === null || !reveal.verified) said = 'no reveal attestation';
  else if (a.status === 'revealed') {
    // A reason beside a reveal is what happened after it in the same block: `uid_replaced` (the validator's docs/spec.md G.19).
    const after =
      a.reason === 'uid_replaced'
        ? ", then removed there with the validator's uid, which a registration took (uid_replaced)"
        : a.reason === null
          ? ''
          : ` (${a.reason})`;
    said = `revealed in block ${a.reveal_block ?? '?'}${after} (attested by the validator)`;
  } else {
    const why = [a.code === null ? null : `[${a.code}]`, a.reason].filter((x) => x !== null).join(' ');
    // A commit-reveal v2 commit is revealed by the validator itself: one it did not reveal in time expired (docs/spec.md G.22).
    const what =
      a.status !== 'not_revealed'
        ? 'unconfirmed'
        : a.code === 'CHAIN_REVEAL_WINDOW_MISSED'
          ? 'not revealed: the validator did not reveal its commit before the window ended'
          : 'not revealed: the chain dropped the commit';
    said = `${what}${a.reveal_block === null ? '' : ` at block ${a.reveal_block}`} ${why} (attested by the validator)`;
  }
  const c = reveal.chain;
  if (c === null) return said;
  const seen =
    c.outcome === 'revealed'
      ? `revealed in block ${c.block ?? '?'}`
      : c.outcome === 'dropped'
        ? `dropped at block ${c.block ?? '?'} (no TimelockedWeightsRevealed)`
        : `still queued at head ${c.head}`;
  return `${said}; chain: ${seen}`;
}

/**
 * One line per bundle that carries a reveal attestation or was followed to its reveal on chain: the epoch, the
 * outcome ({@link describeReveal}) and the source.
 *
 * @param bundles - the audits
 * @returns the lines (empty when no bundle has a reveal)
 * @example lines.push(...revealLines(report.bundles))
 */
export function revealLines(bundles: readonly BundleAudit[]): string[] {
  return bundles.flatMap((a) => (a.reveal === undefined ? [] : [`REVEAL epoch ${a.epoch ?? '?'} ${a.source}: ${describeReveal(a.reveal)}`]));
}
