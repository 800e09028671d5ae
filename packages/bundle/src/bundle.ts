import { canonicalJson, compareCodePoints, decodeSs58, digest, hotkeySchema, parseInput, sha256Hex } from '@subnet/core';
import { cryptoWaitReady, decodeAddress, signatureVerify } from '@polkadot/util-crypto';
import { isReady as wasmCryptoReady, sr25519Verify as wasmSr25519Verify } from '@polkadot/wasm-crypto';
import { z } from 'zod';

import type { ComputeEpochInput, EpochComputation } from './compute-epoch.js';
import type { QueryRecord } from './dispatch-queries.js';
import { computeEpoch } from './compute-epoch.js';
import { queryListSchema } from './dispatch-queries.js';
import { epochConfigSchema } from './epoch-config.js';
import { epochInputsSchema, neuronEntrySchema, stakeEntrySchema } from './epoch-inputs.js';
import { BUNDLE_ERROR_CODES, fail } from './errors.js';
import { verifyRevealAttestation } from './reveal-attestation.js';
import { shapeFailure } from './screen-records.js';
import { deepFreeze } from './wire.js';

/** The bundle schema version this package writes and reads. */
export const BUNDLE_SCHEMA_VERSION = 2;

const hex = (bytes: number) => z.string().regex(new RegExp(`^0x[0-9a-f]{${bytes * 2}}$`), `expected 0x and ${bytes * 2} lowercase hex digits`);

/**
 * The submission statuses a bundle can carry, append-only (docs/spec.md G.6): `submitted` (block, extrinsic
 * hash and the call used), `dry_run` (computed, not signed nor submitted), `failed` (with the error code and
 * message), `missed` (closed too late to submit: weights computed and published, nothing sent) and
 * `not_landed` (a submission interrupted by a crash that the chain shows never landed; never resubmitted).
 * The last two arrived in schema version 2 without a version change: every bundle written before still
 * parses, and nothing else in the document changed.
 */
export const SUBMISSION_STATUSES = ['submitted', 'dry_run', 'failed', 'missed', 'not_landed'] as const;

/**
 * How the epoch's weights went to the chain: one of {@link SUBMISSION_STATUSES}, with the block, extrinsic
 * hash and call when submitted, and the error code and message when not (`failed`, `missed`, `not_landed`).
 */
export const submissionRecordSchema = z.strictObject({
  status: z.enum(SUBMISSION_STATUSES),
  block: z
    .string()
    .regex(/^(0|[1-9][0-9]*)$/, 'a block number is decimal digits')
    .nullable(),
  extrinsic_hash: hex(32).nullable(),
  call: z.string().min(1).nullable(),
  error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
});
/** A submission record on the wire. */
export type SubmissionRecord = z.output<typeof submissionRecordSchema>;

/**
 * The audit bundle (SPEC E): schema version, netuid, epoch, validator hotkey, the full scoring
 * configuration, every input record (with the stakes and metagraph used), every intermediate and final
 * score (`result`, whose `u16` is the vector set), and the submission.
 */
export const bundleSchema = z.strictObject({
  schema_version: z.literal(BUNDLE_SCHEMA_VERSION),
  netuid: z.number().int().min(0).max(65535),
  epoch: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  validator_hotkey: hotkeySchema,
  config: epochConfigSchema,
  inputs: epochInputsSchema,
  stakes: z.array(stakeEntrySchema),
  metagraph: z.array(neuronEntrySchema),
  result: z.strictObject({
    epoch: z.number().int().min(0),
    config: z.unknown(),
    challenges: z.array(z.unknown()),
    window_state: z.unknown(),
    decay_states: z.array(z.unknown()),
    reputations: z.array(z.unknown()),
    reputation_observations: z.array(z.unknown()),
    eligibility: z.array(z.unknown()),
    tasks: z.array(z.unknown()),
    excluded: z.array(z.unknown()),
    aggregation: z.unknown(),
    u16: z.strictObject({ uids: z.array(z.number().int().min(0).max(65535)), weights: z.array(z.number().int().min(0).max(65535)) }),
  }),
  submission: submissionRecordSchema,
  /**
   * Every query the validator sent to miners' axons this epoch, with its outcome (docs/spec.md G.6).
   * Absent when the validator dispatched nothing; not an input of the computation.
   */
  queries: queryListSchema.optional(),
});
/** An audit bundle (wire form). */
export interface Bundle {
  readonly schema_version: typeof BUNDLE_SCHEMA_VERSION;
  readonly netuid: number;
  readonly epoch: number;
  readonly validator_hotkey: string;
  readonly config: unknown;
  readonly inputs: unknown;
  readonly stakes: unknown;
  readonly metagraph: unknown;
  readonly result: EpochComputation;
  readonly submission: SubmissionRecord;
  readonly queries?: readonly QueryRecord[];
}

/** A bundle with its digest and the validator's signature over the digest. */
export interface SignedBundle {
  readonly bundle: Bundle;
  /** Lowercase hex sha256 of the bundle's canonical JSON (SPEC 0). */
  readonly digest: string;
  /** sr25519 signature by `bundle.validator_hotkey` over the 32 digest bytes, 0x + 128 hex. */
  readonly signature: string;
}

/** The signed bundle schema on the wire. */
export const signedBundleSchema = z.strictObject({
  bundle: z.unknown(),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  signature: hex(64),
  /**
   * Commit-reveal v4 only, once the reveal's outcome is known: the reveal attestation signed after the close and
   * its signature (reveal-attestation.ts, docs/spec.md G.6). Absent in every other bundle.
   */
  reveal: z.unknown().optional(),
  reveal_signature: z.unknown().optional(),
});

/** What {@link buildBundle} takes. */
export interface BuildBundleInput extends ComputeEpochInput {
  readonly netuid: number;
  /**
   * The result of {@link computeEpoch} for the same input (computed here when absent, from the inputs as the
   * bundle stores them). A given result must have been computed from lists in canonical order (arrival
   * sequence, then record id) and in canonical JSON, as the validator's stored records are: otherwise an
   * excluded record's position, or a number beyond 2^53, differs from what a recomputation sees.
   */
  readonly result?: EpochComputation;
  readonly submission: SubmissionRecord;
  /** The epoch's axon queries (`queryRecordSchema`); sorted by `seq` into the bundle, left out when absent. */
  readonly queries?: readonly unknown[];
}

/**
 * Assembles a bundle: the inputs exactly as given (parsed, defaults filled in), the computation and the
 * submission, validated against {@link bundleSchema}.
 *
 * @param input - everything {@link computeEpoch} takes, the netuid and the submission record
 * @returns the frozen bundle
 * @throws SubnetError `BUNDLE_INVALID_BUNDLE` naming the bad field; the codes of {@link computeEpoch}
 * @example const bundle = buildBundle({ ...epochInput, netuid: 1, submission: { status: 'dry_run', block: null, extrinsic_hash: null, call: null, error: null } })
 */
export function buildBundle(input: BuildBundleInput): Bundle {
  const inputs = canonicalInputs(input.inputs);
  // Computed from the inputs as the bundle stores them (canonical order, canonical JSON), so that an
  // auditor recomputing the bundle gets this result whatever order and number spelling the caller's lists
  // had: an excluded record is named by its position in its list, and a number beyond 2^53 is stored as
  // a decimal string.
  const result = input.result ?? computeEpoch({ ...input, inputs: JSON.parse(canonicalJson(inputs)) as unknown });
  const candidate = {
    schema_version: BUNDLE_SCHEMA_VERSION,
    netuid: input.netuid,
    epoch: input.epoch,
    validator_hotkey: input.validatorHotkey,
    config: result.config,
    inputs,
    stakes: sortedBy(input.stakes, 'validator_hotkey'),
    metagraph: sortedBy(input.metagraph, 'hotkey'),
    result,
    submission: input.submission,
    ...(input.queries === undefined ? {} : { queries: sortedBySeq(input.queries) }),
  };
  const parsed = parseInput(bundleSchema, candidate, BUNDLE_ERROR_CODES.invalidBundle, 'bundle');
  return deepFreeze({ ...parsed, result });
}

/** Query records by `seq` (ties: task id, then miner), so the digest does not depend on arrival order. */
function sortedBySeq(list: readonly unknown[]): unknown[] {
  const field = (item: unknown, name: string): unknown =>
    typeof item === 'object' && item !== null && Object.hasOwn(item, name) ? (item as Record<string, unknown>)[name] : undefined;
  const num = (item: unknown): number => {
    const v = field(item, 'seq');
    return typeof v === 'number' && Number.isFinite(v) ? v : Number.MAX_SAFE_INTEGER;
  };
  const text = (item: unknown, name: string): string => {
    const v = field(item, name);
    return typeof v === 'string' ? v : '';
  };
  return [...list].sort(
    (a, b) =>
      num(a) - num(b) || compareCodePoints(text(a, 'task_id'), text(b, 'task_id')) || compareCodePoints(text(a, 'miner_hotkey'), text(b, 'miner_hotkey')),
  );
}

/** A list of objects sorted by one string field (code point order); anything else is returned as it is. */
function sortedBy(list: unknown, name: string): unknown {
  if (!Array.isArray(list)) return list;
  const keyOf = (item: unknown): string => {
    const v = typeof item === 'object' && item !== null && Object.hasOwn(item, name) ? (item as Record<string, unknown>)[name] : undefined;
    return typeof v === 'string' ? v : '';
  };
  return [...(list as unknown[])].sort((a, b) => compareCodePoints(keyOf(a), keyOf(b)));
}

const RECORD_LISTS = ['workflow_runs', 'tasks', 'sssa_submissions', 'term_results', 'bounty_records', 'peer_scores'] as const;

/**
 * The inputs in canonical order (SPEC E): records by arrival sequence (ties: record id, then the peer
 * score's challenge and miner), candidates by hotkey, carried decay states by challenge id; other fields
 * as given. Scoring does not depend on
 * this order; the digest does, and so do the names of records excluded at screening (their list index).
 * A record whose shape cannot be digested (deeper than 64 levels, ...) is replaced by its withheld
 * stand-in, which recomputes to the same exclusion.
 */
function canonicalInputs(inputs: unknown): unknown {
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) return inputs;
  const out: Record<string, unknown> = { ...(inputs as Record<string, unknown>) };
  const text = (item: unknown, name: string): string => {
    const v = typeof item === 'object' && item !== null && Object.hasOwn(item, name) ? (item as Record<string, unknown>)[name] : undefined;
    return typeof v === 'string' ? v : '';
  };
  const seqOf = (item: unknown): number => {
    const v = typeof item === 'object' && item !== null && Object.hasOwn(item, 'seq') ? (item as Record<string, unknown>).seq : undefined;
    return typeof v === 'number' && Number.isFinite(v) ? v : Number.MAX_SAFE_INTEGER;
  };
  for (const list of RECORD_LISTS) {
    const items = out[list];
    if (!Array.isArray(items)) continue;
    out[list] = (items as unknown[])
      .map((item) => shapeFailure(list, item) ?? item)
      .sort(
        (a, b) =>
          seqOf(a) - seqOf(b) ||
          compareCodePoints(text(a, 'record_id'), text(b, 'record_id')) ||
          compareCodePoints(text(a, 'task_id'), text(b, 'task_id')) ||
          compareCodePoints(text(a, 'challenge_id'), text(b, 'challenge_id')) ||
          compareCodePoints(text(a, 'miner_hotkey'), text(b, 'miner_hotkey')),
      );
  }
  if (Array.isArray(out.candidates)) out.candidates = sortedBy(out.candidates, 'hotkey');
  if (Array.isArray(out.decay_states)) out.decay_states = sortedBy(out.decay_states, 'challenge_id');
  return out;
}

/**
 * The digest of a bundle: lowercase hex sha256 of its canonical JSON (SPEC 0, SPEC E).
 *
 * @param bundle - a bundle
 * @returns 64 lowercase hex characters
 * @example bundleDigest(bundle) // 'a3f1...'
 */
export function bundleDigest(bundle: Bundle): string {
  return digest(bundle);
}

/** Something that signs with an sr25519 key: a `@polkadot/keyring` pair fits. */
export interface BundleSigner {
  /** The SS58 address of the key. */
  readonly address: string;
  /** Signs a message, returning the 64-byte sr25519 signature. */
  sign(message: Uint8Array): Uint8Array;
}

/** Internal: the bytes of a hex string (with or without 0x). */
export function hexToBytes(text: string): Uint8Array {
  const clean = text.startsWith('0x') ? text.slice(2) : text;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Internal: 0x-prefixed lowercase hex of bytes. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = '0x';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Internal: whether two SS58 addresses hold the same public key. */
export function samePublicKey(a: string, b: string): boolean {
  const x = decodeSs58(a).publicKey;
  const y = decodeSs58(b).publicKey;
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/**
 * Signs a bundle: its digest, and an sr25519 signature by the validator hotkey over the 32 digest bytes.
 *
 * @param bundle - the bundle to sign
 * @param signer - the validator hotkey's key pair (its address must be `bundle.validator_hotkey`)
 * @returns the frozen signed bundle
 * @throws SubnetError `BUNDLE_SIGNER_MISMATCH` when the key is not the bundle's validator hotkey
 * @example const signed = signBundle(bundle, keyring.addFromUri('//Alice'))
 */
export function signBundle(bundle: Bundle, signer: BundleSigner): SignedBundle {
  if (!samePublicKey(signer.address, bundle.validator_hotkey)) {
    fail(BUNDLE_ERROR_CODES.signerMismatch, "the signing key is not the bundle's validator hotkey", 'signer.address', signer.address);
  }
  const d = bundleDigest(bundle);
  return Object.freeze({ bundle, digest: d, signature: bytesToHex(signer.sign(hexToBytes(d))) });
}

/** Verifies an sr25519 signature (`@polkadot/util-crypto` signatureVerify, after cryptoWaitReady). */
export type SignatureVerifier = (message: Uint8Array, signature: string, address: string) => boolean;

/**
 * The sr25519 signature check for {@link verifyBundle}: waits for the crypto WASM, then verifies with
 * `@polkadot/util-crypto` `signatureVerify` against the SS58 address.
 *
 * @returns the verifier
 * @example verifyBundle(signed, await sr25519Verifier())
 */
export async function sr25519Verifier(): Promise<SignatureVerifier> {
  await cryptoWaitReady();
  return (message, signature, address) => {
    try {
      // The form every bundle is signed in (sr25519 over the raw digest bytes) first: one check. Only
      // when it fails, `signatureVerify`, which tries every scheme and the `<Bytes>` wrapping in turn
      // (several times the cost), so a valid signature in any of those forms still verifies as before.
      if (rawSr25519Valid(message, signature, address)) return true;
      return signatureVerify(message, signature, address).isValid;
    } catch {
      return false;
    }
  };
}

/**
 * An sr25519 signature over the raw message by the address's key, checked by the WebAssembly schnorrkel
 * that `cryptoWaitReady` starts (about 8x the pure-JS `sr25519Verify` of `@polkadot/util-crypto` 14);
 * false (never an error) otherwise, and when the WebAssembly is not ready.
 */
function rawSr25519Valid(message: Uint8Array, signature: string, address: string): boolean {
  try {
    if (!/^0x[0-9a-fA-F]{128}$/.test(signature) || !wasmCryptoReady()) return false;
    const publicKey = decodeAddress(address);
    return publicKey.length === 32 && wasmSr25519Verify(hexToBytes(signature), message, publicKey);
  } catch {
    return false;
  }
}

/**
 * Verifies a signed bundle: it parses against the schema, its digest is the digest of its bundle, and
 * the signature verifies against the bundle's validator hotkey. A reveal attestation carried with it
 * (`reveal`, `reveal_signature`: commit-reveal v4, docs/spec.md G.6) must verify too (`verifyRevealAttestation`).
 *
 * @param signed - a signed bundle, e.g. JSON-parsed from `GET /v1/epochs/{n}/bundle`
 * @param verify - the signature check (pass `(m, s, a) => signatureVerify(m, s, a).isValid` once
 *   `cryptoWaitReady()` has resolved)
 * @returns the verified bundle
 * @throws SubnetError `BUNDLE_INVALID_BUNDLE`, `BUNDLE_DIGEST_MISMATCH` or `BUNDLE_BAD_SIGNATURE`; for the
 *   attestation `BUNDLE_REVEAL_INVALID`, `BUNDLE_REVEAL_DIGEST_MISMATCH` or `BUNDLE_REVEAL_BAD_SIGNATURE`
 * @example verifyBundle(JSON.parse(text), (m, s, a) => signatureVerify(m, s, a).isValid)
 */
export function verifyBundle(signed: unknown, verify: SignatureVerifier): Bundle {
  const outer = parseInput(signedBundleSchema, signed, BUNDLE_ERROR_CODES.invalidBundle, 'signed');
  const bundle = parseInput(bundleSchema, outer.bundle, BUNDLE_ERROR_CODES.invalidBundle, 'signed.bundle');
  const actual = sha256Hex(canonicalJson(outer.bundle));
  if (actual !== outer.digest)
    fail(BUNDLE_ERROR_CODES.digestMismatch, `the digest is not the bundle's (its digest is ${actual})`, 'signed.digest', outer.digest);
  if (!verify(hexToBytes(outer.digest), outer.signature, bundle.validator_hotkey)) {
    fail(BUNDLE_ERROR_CODES.badSignature, 'the signature does not verify against the validator hotkey', 'signed.signature', outer.signature);
  }
  if (outer.reveal !== undefined || outer.reveal_signature !== undefined) {
    verifyRevealAttestation(outer.reveal, outer.reveal_signature, { ...bundle, digest: outer.digest }, verify);
  }
  return outer.bundle as Bundle;
}

/**
 * Recomputes a bundle's result from its configuration and inputs and tells whether the canonical JSON
 * bytes are identical (what the auditor checks).
 *
 * @param bundle - a bundle (verified or not)
 * @returns `{ identical, expected, actual }` with the two digests
 * @throws the codes of {@link computeEpoch} when the inputs are invalid
 * @example recomputeBundle(bundle).identical // true
 */
export function recomputeBundle(bundle: Bundle): { readonly identical: boolean; readonly expected: string; readonly actual: string } {
  const result = computeEpoch({
    config: bundle.config,
    epoch: bundle.epoch,
    validatorHotkey: bundle.validator_hotkey,
    inputs: bundle.inputs,
    stakes: bundle.stakes,
    metagraph: bundle.metagraph,
  });
  const expected = digest(bundle.result);
  const actual = digest(result);
  return Object.freeze({ identical: expected === actual, expected, actual });
}
