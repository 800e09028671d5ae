import { canonicalJson, hotkeySchema, parseInput, sha256Hex } from '@subnet/core';
import { z } from 'zod';

import type { BundleSigner, SignatureVerifier } from './bundle.js';
import { bytesToHex, samePublicKey } from './bundle.js';
import { BUNDLE_ERROR_CODES, fail } from './errors.js';

/**
 * The outcomes a reveal attestation can state, as the validator records them (docs/spec.md G.6): `revealed` (the
 * chain emitted `TimelockedWeightsRevealed` and stored the weights), `not_revealed` (the chain dropped the commit:
 * `code` and the likely `reason`) and `unconfirmed` (the chain's state contradicts the commit, or the validator
 * could not tell in time: `code` and, for its own diagnoses, `reason`).
 */
export const REVEAL_STATUSES = ['revealed', 'not_revealed', 'unconfirmed'] as const;

/**
 * The domain of a reveal attestation's signature: the signed message is the UTF-8 text
 * `subnet-scoring/reveal-attestation/v1:` followed by the lowercase hex sha256 of the attestation's canonical JSON
 * (101 bytes). A bundle signature covers exactly the 32 digest bytes, so neither can pass for the other.
 */
export const REVEAL_ATTESTATION_DOMAIN = 'subnet-scoring/reveal-attestation/v1';

const decimal = z.string().regex(/^(0|[1-9][0-9]{0,19})$/, 'a block or round number is decimal digits without leading zeros');
const hash32 = z.string().regex(/^0x[0-9a-f]{64}$/, 'expected 0x and 64 lowercase hex digits');
const token = z.string().regex(/^[A-Za-z0-9_]{1,128}$/, 'a code or reason is 1 to 128 letters, digits or underscores');

/**
 * A reveal attestation (docs/spec.md G.6): the outcome of a commit-reveal v4 epoch's reveal, signed by the
 * validator hotkey after the fact and bound to the bundle signed at the close by its digest.
 */
export const revealAttestationSchema = z
  .strictObject({
    /** Always `reveal_attestation`: the document says what it is. */
    kind: z.literal('reveal_attestation'),
    netuid: z.number().int().min(0).max(65535),
    epoch: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    validator_hotkey: hotkeySchema,
    /** The digest of the bundle signed at the close (its `digest`). */
    bundle_digest: z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits'),
    status: z.enum(REVEAL_STATUSES),
    /** The error code of a drop or an unconfirmed outcome (`CHAIN_TIMELOCK_REVEAL_MISSING`, ...); null when revealed. */
    code: token.nullable(),
    /** The first likely reason of a drop, or the validator's own diagnosis (`still_queued`, ...); null otherwise. */
    reason: token.nullable(),
    /** Every likely reason of a drop, first one first (empty otherwise). */
    reasons: z.array(token).max(16),
    /** One sentence on the outcome (at most 1024 characters). */
    message: z.string().max(1024),
    /** blake2_256 of the commit (the `TimelockedWeightsCommitted` hash); null when the submission is unknown. */
    commit_hash: hash32.nullable(),
    commit_block: decimal.nullable(),
    commit_extrinsic_hash: hash32.nullable(),
    /** The drand round the commit is encrypted to. */
    reveal_round: decimal.nullable(),
    /**
     * The block the chain was expected to reveal the commit in: the predicted reveal block, or, for a commit filed under
     * a later epoch than predicted (it waited in the pool across an epoch boundary), that epoch's reveal block; for an
     * unknown submission the latest possible one.
     */
    due_block: decimal.nullable(),
    /** The block whose state no longer holds the commit (revealed there, or dropped there); null when not seen. */
    reveal_block: decimal.nullable(),
    reveal_block_hash: hash32.nullable(),
    /** The head when the outcome was recorded. */
    confirmed_at_head: decimal,
  })
  .superRefine((value, ctx) => {
    if (value.status === 'revealed') {
      if (value.reveal_block === null) ctx.addIssue({ code: 'custom', path: ['reveal_block'], message: 'a revealed commit names its reveal block' });
      if (value.reveal_block_hash === null)
        ctx.addIssue({ code: 'custom', path: ['reveal_block_hash'], message: 'a revealed commit names its reveal block hash' });
      if (value.code !== null) ctx.addIssue({ code: 'custom', path: ['code'], message: 'a revealed commit carries no error code' });
    } else if (value.code === null) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: `a ${value.status} outcome carries its error code` });
    }
  });

/** A reveal attestation (wire form, snake_case as signed). */
export type RevealAttestation = z.output<typeof revealAttestationSchema>;

/** A reveal attestation and its signature, as carried next to the bundle (`reveal`, `reveal_signature`). */
export interface SignedRevealAttestation {
  readonly reveal: RevealAttestation;
  /** sr25519 signature by the validator hotkey over {@link revealSigningMessage}, 0x and 128 hex digits. */
  readonly signature: string;
}

/** What an attestation must be bound to: the bundle it travels with and that bundle's digest. */
export interface RevealBinding {
  readonly digest: string;
  readonly netuid: number;
  readonly epoch: number;
  readonly validator_hotkey: string;
}

/**
 * The bytes a reveal attestation's signature covers: UTF-8 of `REVEAL_ATTESTATION_DOMAIN + ':' + sha256hex(canonical
 * JSON of the attestation)`.
 *
 * @param reveal - the attestation
 * @returns the message (never 32 bytes long, so never a bundle digest)
 * @throws the canonical JSON codes of `@subnet/core` for a value JSON cannot hold
 * @example signer.sign(revealSigningMessage(reveal))
 */
export function revealSigningMessage(reveal: RevealAttestation): Uint8Array {
  return new TextEncoder().encode(`${REVEAL_ATTESTATION_DOMAIN}:${sha256Hex(canonicalJson(reveal))}`);
}

/**
 * Signs a reveal attestation with the validator hotkey (the one that signed the bundle).
 *
 * @param reveal - the attestation (checked against {@link revealAttestationSchema})
 * @param signer - the validator hotkey's key pair
 * @returns the frozen attestation and its signature
 * @throws SubnetError `BUNDLE_REVEAL_INVALID` (names the field and value) when the attestation does not parse,
 *   `BUNDLE_SIGNER_MISMATCH` when the key is not the attestation's `validator_hotkey`
 * @example const { reveal, signature } = signRevealAttestation(attestation, keyring.addFromUri('//Alice'))
 */
export function signRevealAttestation(reveal: unknown, signer: BundleSigner): SignedRevealAttestation {
  const parsed = parseInput(revealAttestationSchema, reveal, BUNDLE_ERROR_CODES.revealInvalid, 'reveal');
  if (!samePublicKey(signer.address, parsed.validator_hotkey)) {
    fail(BUNDLE_ERROR_CODES.signerMismatch, "the signing key is not the attestation's validator hotkey", 'signer.address', signer.address);
  }
  return Object.freeze({ reveal: Object.freeze(parsed), signature: bytesToHex(signer.sign(revealSigningMessage(parsed))) });
}

/**
 * Verifies a reveal attestation carried with a bundle: it parses, it names the bundle's epoch, netuid and validator
 * hotkey, its `bundle_digest` is the bundle's digest, and its signature by that hotkey verifies over
 * {@link revealSigningMessage}.
 *
 * @param reveal - the document's `reveal`
 * @param signature - the document's `reveal_signature`
 * @param binding - the bundle's digest, netuid, epoch and validator hotkey
 * @param verify - the sr25519 check (`sr25519Verifier()`)
 * @returns the verified attestation
 * @throws SubnetError `BUNDLE_REVEAL_INVALID` (schema, binding or missing signature: names the field and value),
 *   `BUNDLE_REVEAL_DIGEST_MISMATCH`, `BUNDLE_REVEAL_BAD_SIGNATURE`
 * @example verifyRevealAttestation(doc.reveal, doc.reveal_signature, { ...bundle, digest: doc.digest }, await sr25519Verifier())
 */
export function verifyRevealAttestation(reveal: unknown, signature: unknown, binding: RevealBinding, verify: SignatureVerifier): RevealAttestation {
  const parsed = parseInput(revealAttestationSchema, reveal, BUNDLE_ERROR_CODES.revealInvalid, 'reveal');
  for (const field of ['epoch', 'netuid', 'validator_hotkey'] as const) {
    if (parsed[field] !== binding[field]) {
      fail(
        BUNDLE_ERROR_CODES.revealInvalid,
        `the reveal attestation names another ${field} than its bundle (${String(binding[field])})`,
        `reveal.${field}`,
        parsed[field],
      );
    }
  }
  if (parsed.bundle_digest !== binding.digest) {
    fail(
      BUNDLE_ERROR_CODES.revealDigestMismatch,
      `the reveal attestation is bound to another bundle (this bundle's digest is ${binding.digest})`,
      'reveal.bundle_digest',
      parsed.bundle_digest,
    );
  }
  if (typeof signature !== 'string' || !/^0x[0-9a-f]{128}$/.test(signature)) {
    fail(BUNDLE_ERROR_CODES.revealInvalid, 'the reveal attestation has no sr25519 signature (0x and 128 lowercase hex digits)', 'reveal_signature', signature);
  }
  if (!verify(revealSigningMessage(parsed), signature, parsed.validator_hotkey)) {
    fail(BUNDLE_ERROR_CODES.revealBadSignature, 'the reveal attestation signature does not verify against the validator hotkey', 'reveal_signature', signature);
  }
  return Object.freeze(parsed);
}

/**
 * The served document of an epoch whose reveal outcome is attested: the text signed at the close,
 * `{"bundle":…,"digest":…,"signature":…}`, with `"reveal":…,"reveal_signature":…` inserted before `"signature"`,
 * so the result is still the canonical JSON of the whole document and the bundle, its digest and its signature
 * are byte for byte those of the close.
 *
 * @param signedText - the signed document's canonical JSON as written at the close (`signedBundleText(...).text`)
 * @param attested - the attestation and its signature ({@link signRevealAttestation})
 * @returns the canonical JSON of `{ bundle, digest, reveal, reveal_signature, signature }`
 * @throws SubnetError `BUNDLE_INVALID_BUNDLE` when the text does not end as a signed bundle's canonical JSON does,
 *   `BUNDLE_REVEAL_DIGEST_MISMATCH` when the attestation is bound to another digest
 * @example writeFileSync('epoch-7.json', withRevealAttestation(row.bundle, attested))
 */
export function withRevealAttestation(signedText: string, attested: SignedRevealAttestation): string {
  // The tail `,"digest":"<64>","signature":"0x<128>"}` is 222 characters: match it on the last 256, not the whole bundle.
  const match = /,"digest":"([0-9a-f]{64})",("signature":"0x[0-9a-f]{128}"\})$/.exec(signedText.slice(-256));
  if (match === null || !signedText.startsWith('{"bundle":')) {
    fail(
      BUNDLE_ERROR_CODES.invalidBundle,
      'the text is not a signed bundle\'s canonical JSON ({"bundle":…,"digest":…,"signature":…})',
      'signedText',
      signedText.slice(-160),
    );
  }
  if (match[1] !== attested.reveal.bundle_digest) {
    fail(
      BUNDLE_ERROR_CODES.revealDigestMismatch,
      `the reveal attestation is bound to another bundle (this bundle's digest is ${match[1]})`,
      'reveal.bundle_digest',
      attested.reveal.bundle_digest,
    );
  }
  const tail = match[2] as string;
  return `${signedText.slice(0, signedText.length - tail.length)}"reveal":${canonicalJson(attested.reveal)},"reveal_signature":"${attested.signature}",${tail}`;
}
