import { BUNDLE_ERROR_CODES, bundleDigest, bundleSchema, bundleTextIn, computeEpoch, signedBundleSchema } from '@subnet/bundle';
import { z } from 'zod';
import type { Bundle, EpochComputation, SignatureVerifier } from '@subnet/bundle';
import { isCanonicalJsonOf, isSubnetError, parseInput, sameCanonicalJson, sha256Hex } from '@subnet/core';

import { AUDITOR_ERROR_CODES } from './errors.js';
import { diffJson } from './json-diff.js';
import { locateDifference } from './mismatch-location.js';
import { orderMismatches, pipelineRank } from './mismatch-order.js';
import type { RootCause } from './root-cause.js';
import { findRootCause } from './root-cause.js';
import type { RevealAudit } from './reveal-audit.js';
import type { ChainUnknown } from './chain-weights.js';
import { leadWithKind } from './wrong-kind.js';

/** One value that differs: where (epoch, stage, miner, field, exact path) and the two values. */
export interface Mismatch {
  readonly epoch: number | null;
  /** `digest`, `signature`, `chain.*`, or the pipeline stage (`challenges[term].details.pass_rates`, `u16.weights`, ...). */
  readonly stage: string;
  readonly miner: { readonly hotkey: string | null; readonly uid: number | null } | null;
  /** The field inside the stage entry. */
  readonly field: string;
  /** Exact path into the signed bundle document (`bundle.result.u16.weights[3]`). */
  readonly path: string;
  /** `value`, `missing` (recomputed but absent in the claim) or `extra` (claimed but not recomputed). */
  readonly kind: 'value' | 'missing' | 'extra';
  /** What the auditor computed (absent for `extra`). */
  readonly expected?: unknown;
  /** What the bundle claims (absent for `missing`). */
  readonly claimed?: unknown;
}

/** The outcome of auditing one signed bundle. */
export interface BundleAudit {
  /** Where it came from (file path or URL). */
  readonly source: string;
  /** `ok`: every check passed; `mismatch`: at least one value differs; `invalid`: unreadable or not a bundle. */
  readonly status: 'ok' | 'mismatch' | 'invalid';
  readonly epoch: number | null;
  readonly netuid: number | null;
  readonly validator_hotkey: string | null;
  readonly checks: {
    readonly schema: boolean;
    readonly digest: boolean | null;
    readonly signature: boolean | null;
    readonly recompute: boolean | null;
    /** The on-chain weights equal what the chain stores for the bundle's u16 vector (null: not checked). */
    readonly chain: boolean | null;
  };
  /** Every mismatch in pipeline order: the digest and signature checks, the root cause's value, every value downstream of it, the chain. */
  readonly mismatches: readonly Mismatch[];
  /** The earliest differing value and the configuration value or input record behind it (null when the recomputation matches). */
  readonly root_cause: RootCause | null;
  /** The digest the document claims (null when it did not parse): two different ones for one validator and epoch are an equivocation. */
  readonly digest: string | null;
  /** Why the bundle is invalid: the error code, message, and the field path and value at fault. */
  readonly error: { readonly code: string; readonly message: string; readonly path: string | null } | null;
  /** The claimed u16 vector with hotkeys (for the summary and the chart), when the bundle parsed. */
  readonly weights: readonly { readonly uid: number; readonly hotkey: string | null; readonly weight: number }[] | null;
  /** The submission block (decimal) when the weights were submitted. */
  readonly submission_block: string | null;
  /**
   * How the bundle says its weights went to the chain (`submitted`, `dry_run`, `failed`, `missed`,
   * `not_landed`) and the error code it gives when they were not submitted; null when the bundle did not parse.
   */
  readonly submission: {
    readonly status: string;
    readonly code: string | null;
    /** The extrinsic's call (`SubtensorModule.set_weights`, `SubtensorModule.commit_timelocked_weights`, ...) when submitted. */
    readonly call: string | null;
    /** The extrinsic's hash when the bundle names one (a commit is followed to its reveal with `--chain`). */
    readonly extrinsic_hash?: string;
  } | null;
  /** Commit-reveal v4: the signed reveal attestation carried with the bundle and, with `--chain`, the reveal on chain (reveal-audit.ts). */
  readonly reveal?: RevealAudit;
  /** With `--chain`: why the chain check stays unknown although the chain answered (the weights are gone from it); absent otherwise. */
  readonly chain_unknown?: ChainUnknown;
}

/** A parsed bundle and its metagraph map, for the chain check. */
export interface AuditedBundle {
  readonly audit: BundleAudit;
  readonly bundle: Bundle | null;
}

/**
 * The bundle schema with configuration, inputs, stakes and metagraph left to `computeEpoch`, which parses
 * them itself (with `BUNDLE_INVALID_CONFIG` / `BUNDLE_INVALID_INPUT` and the field path): parsing them twice
 * would double the cost of checking every hotkey's SS58 checksum.
 */
let envelope: z.ZodType | undefined;
function envelopeSchema(): z.ZodType {
  envelope ??= bundleSchema.extend({ config: z.unknown(), inputs: z.unknown(), stakes: z.unknown(), metagraph: z.unknown() });
  return envelope;
}

/** {@link envelopeSchema} with the result's `u16` vector left to {@link isU16Vector}. */
let envelopeWithoutU16: z.ZodType | undefined;
function envelopeWithoutU16Schema(): z.ZodType {
  envelopeWithoutU16 ??= bundleSchema.extend({
    config: z.unknown(),
    inputs: z.unknown(),
    stakes: z.unknown(),
    metagraph: z.unknown(),
    result: bundleSchema.shape.result.extend({ u16: z.unknown() }),
  });
  return envelopeWithoutU16;
}

/** Whether `value` is a list of integers 0..65535 (a u16 vector's uids or weights, a call's `dests` or `weights`). */
export function isU16List(value: unknown): value is number[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    const x: unknown = value[i];
    if (!(typeof x === 'number' && Number.isSafeInteger(x) && x >= 0 && x <= 65535)) return false;
  }
  return true;
}

/**
 * Whether `u16` passes the bundle schema's `result.u16` (a plain object holding exactly `uids` and
 * `weights`, two lists of integers 0..65535), checked without zod, which copies both lists and checks each
 * of their 2 x n numbers through its own checks. Stricter where in doubt (a prototype other than Object's):
 * true only where the schema passes.
 */
export function isU16Vector(u16: unknown): boolean {
  if (typeof u16 !== 'object' || u16 === null || Array.isArray(u16)) return false;
  const proto: unknown = Object.getPrototypeOf(u16);
  if (proto !== Object.prototype && proto !== null) return false;
  const keys = Object.keys(u16);
  const { uids, weights } = u16 as { uids?: unknown; weights?: unknown };
  return keys.length === 2 && Object.hasOwn(u16, 'uids') && Object.hasOwn(u16, 'weights') && isU16List(uids) && isU16List(weights);
}

/**
 * The bundle parsed by {@link envelopeSchema}: by the schema without the `u16` vector and {@link isU16Vector}
 * when both pass (which is the schema passing), otherwise by the whole schema, whose error names the first
 * problem exactly as before.
 */
function parseEnvelope(candidate: unknown): Bundle {
  try {
    const bundle = parseInput(envelopeWithoutU16Schema(), candidate, AUDITOR_ERROR_CODES.invalidBundle, 'signed.bundle') as Bundle;
    if (isU16Vector(bundle.result.u16)) return bundle;
  } catch {
    // the whole schema below names the problem
  }
  return parseInput(envelopeSchema(), candidate, AUDITOR_ERROR_CODES.invalidBundle, 'signed.bundle') as Bundle;
}

function hexToBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex'));
}

/** The `error` of an invalid audit: a coded error's code, message and path; anything else as `AUDITOR_INVALID_BUNDLE`. */
export function errorOf(error: unknown): { code: string; message: string; path: string | null } {
  if (isSubnetError(error)) {
    const path = (error.context as { path?: unknown }).path;
    return { code: error.code, message: error.message, path: typeof path === 'string' ? path : null };
  }
  return { code: AUDITOR_ERROR_CODES.invalidBundle, message: error instanceof Error ? error.message : String(error), path: null };
}

/**
 * The audit of a bundle that could not be checked at all (unreadable, not JSON, schema-invalid, or lost
 * by a worker): every check is unknown except the schema, and `error` says why.
 *
 * @param source - where the bundle came from
 * @param error - the code, message and field path of the reason
 * @returns the audit (not frozen: callers may add chain results)
 */
export function invalidAudit(source: string, error: { code: string; message: string; path: string | null }): BundleAudit {
  return {
    source,
    status: 'invalid',
    epoch: null,
    netuid: null,
    validator_hotkey: null,
    checks: { schema: false, digest: null, signature: null, recompute: null, chain: null },
    mismatches: [],
    root_cause: null,
    digest: null,
    error,
    weights: null,
    submission_block: null,
    submission: null,
  };
}

function invalid(source: string, error: { code: string; message: string; path: string | null }, partial: Partial<BundleAudit> = {}): AuditedBundle {
  return { bundle: null, audit: Object.freeze({ ...invalidAudit(source, Object.freeze(error)), ...partial }) };
}

/**
 * Audits one signed bundle (SPEC E): it parses against the bundle schema, its digest is the sha256 of the
 * bundle's canonical JSON, the signature by the validator hotkey verifies over that digest, and
 * `@subnet/bundle`'s `computeEpoch` run on the bundle's configuration and inputs gives exactly the claimed
 * result, compared value by value by canonical JSON. Every check runs even when an earlier one fails, so a
 * tampered bundle shows both the broken digest and the values that were changed.
 *
 * @param signed - the JSON-parsed signed bundle `{ bundle, digest, signature }`
 * @param source - where it came from (printed in the report)
 * @param verify - the sr25519 check ({@link signatureVerifier})
 * @param options - `text`: the text `signed` was parsed from, when there is one; the digest is then taken
 *   over the bundle's own bytes when they are its canonical JSON (the verdict is the same, the work less);
 *   `canonical`: true when `scanCanonicalJson` found that text canonical (as `loadDocument` does), so it is
 *   not proven again; `recomputed`: `computeEpoch`'s result for this bundle when the caller has it already
 *   (`auditCanonicalText` puts it in the place of a claimed result whose text it proved to be its canonical JSON);
 *   `digest`: sha256 of the bundle's own bytes, when the caller found them canonical in the file it read
 *   (`auditCanonicalBytes`: the same value the digest over `text` would be, without a string of the file)
 * @returns the audit (status, checks, every mismatch) and the parsed bundle when it parsed
 * @example const { audit } = auditBundle(JSON.parse(text), 'epoch-7.json', await signatureVerifier(), { text })
 */
export function auditBundle(
  signed: unknown,
  source: string,
  verify: SignatureVerifier,
  options: { readonly text?: string; readonly canonical?: boolean; readonly recomputed?: EpochComputation; readonly digest?: string } = {},
): AuditedBundle {
  let outer: { bundle: unknown; digest: string; signature: string };
  let bundle: Bundle;
  try {
    outer = parseInput(signedBundleSchema, signed, AUDITOR_ERROR_CODES.invalidBundle, 'signed');
    bundle = parseEnvelope(outer.bundle);
  } catch (error) {
    // Another kind of file (a miner-check input given to verify): said first, with where it goes (wrong-kind.ts).
    return invalid(source, leadWithKind(signed, errorOf(error)));
  }
  const claimedBundle = outer.bundle as Bundle;
  const epoch = bundle.epoch;
  const mismatches: Mismatch[] = [];
  const actualDigest = options.digest ?? digestOfOwnText(options.text, outer, options.canonical === true) ?? bundleDigest(claimedBundle);
  const digestOk = actualDigest === outer.digest;
  if (!digestOk) {
    mismatches.push({ epoch, stage: 'digest', miner: null, field: '', path: 'digest', kind: 'value', expected: actualDigest, claimed: outer.digest });
  }
  const signatureOk = verify(hexToBytes(outer.digest), outer.signature, bundle.validator_hotkey);
  if (!signatureOk) {
    mismatches.push({
      epoch,
      stage: 'signature',
      miner: null,
      field: '',
      path: 'signature',
      kind: 'value',
      expected: `an sr25519 signature by ${bundle.validator_hotkey} over the digest`,
      claimed: outer.signature,
    });
  }
  const partial = {
    epoch,
    digest: outer.digest,
    netuid: bundle.netuid,
    validator_hotkey: bundle.validator_hotkey,
    submission_block: bundle.submission.status === 'submitted' ? bundle.submission.block : null,
    submission: {
      status: bundle.submission.status,
      code: bundle.submission.error?.code ?? null,
      call: bundle.submission.call,
      ...(bundle.submission.extrinsic_hash === null ? {} : { extrinsic_hash: bundle.submission.extrinsic_hash }),
    },
  };
  let recomputed: EpochComputation;
  try {
    recomputed =
      options.recomputed ??
      computeEpoch({
        config: claimedBundle.config,
        epoch: claimedBundle.epoch,
        validatorHotkey: claimedBundle.validator_hotkey,
        inputs: claimedBundle.inputs,
        stakes: claimedBundle.stakes,
        metagraph: claimedBundle.metagraph,
      });
  } catch (error) {
    const e = errorOf(error);
    // Configuration and inputs the pipeline rejects are invalid input (exit 2), not a mismatch.
    const schema = !(e.code === BUNDLE_ERROR_CODES.invalidConfig || e.code === BUNDLE_ERROR_CODES.invalidInput);
    return invalid(
      source,
      { ...e, path: e.path === null ? null : `bundle.${e.path}` },
      { ...partial, checks: { schema, digest: digestOk, signature: signatureOk, recompute: null, chain: null } },
    );
  }
  const metagraph = new Map<string, number>();
  for (const n of claimedBundle.metagraph as readonly { hotkey: string; uid: number }[]) metagraph.set(n.hotkey, n.uid);
  const byUid = new Map<number, string>();
  for (const [hotkey, uid] of metagraph) byUid.set(uid, hotkey);
  const weights = claimedBundle.result.u16.uids.map((uid, i) => ({ uid, hotkey: byUid.get(uid) ?? null, weight: claimedBundle.result.u16.weights[i] ?? 0 }));
  // Identical canonical bytes (SPEC E): when the document is intact and signed, and the recomputation
  // serialises to the claimed result's bytes, nothing differs and no value-by-value diff runs; otherwise
  // the diff walks both values to name every difference.
  const differences =
    digestOk && signatureOk && (claimedBundle.result === recomputed || sameCanonicalJson(recomputed, claimedBundle.result))
      ? []
      : diffJson(recomputed, claimedBundle.result, ['bundle', 'result']);
  const recomputeOk = differences.length === 0;
  let rootCause: RootCause | null = null;
  if (!recomputeOk) {
    const doc = { bundle: { ...claimedBundle, result: recomputed } };
    let earliest: { rank: number; index: number } | null = null;
    for (const d of differences) {
      const where = locateDifference(d.segments.slice(1), claimedBundle, doc.bundle, metagraph);
      const m: Mismatch = { epoch, stage: where.stage, miner: where.miner, field: where.field, path: d.path, kind: d.kind, ...pick(d) };
      const rank = pipelineRank(m);
      if (earliest === null || rank < earliest.rank) earliest = { rank, index: mismatches.length };
      mismatches.push(m);
    }
    if (earliest !== null) {
      const first = mismatches[earliest.index] as Mismatch;
      const d = differences[earliest.index - (mismatches.length - differences.length)];
      rootCause = findRootCause(d?.segments ?? [], first, { bundle: claimedBundle }, doc, claimedBundle.validator_hotkey);
    }
  }
  return {
    bundle: claimedBundle,
    audit: Object.freeze({
      source,
      status: mismatches.length === 0 ? 'ok' : 'mismatch',
      ...partial,
      weights,
      checks: { schema: true, digest: digestOk, signature: signatureOk, recompute: recomputeOk, chain: null },
      mismatches: orderMismatches(mismatches),
      root_cause: rootCause,
      error: null,
    }),
  };
}

function pick(d: { expected?: unknown; claimed?: unknown; kind: string }): { expected?: unknown; claimed?: unknown } {
  return { ...(d.kind === 'extra' ? {} : { expected: d.expected }), ...(d.kind === 'missing' ? {} : { claimed: d.claimed }) };
}

/**
 * The bundle's digest from the text it was parsed from, when that text is framed as the validator publishes
 * it (`bundleTextIn`: `{"bundle":B,"digest":...,"signature":...}`, with a reveal attestation or not) and B
 * is the canonical JSON of the parsed bundle (`isCanonicalJsonOf`): then sha256(B) is `bundleDigest(bundle)`
 * by definition, without writing 800 KB of canonical JSON again (and without proving it again when the whole
 * text was found canonical). Undefined in every other case, and the caller serialises.
 */
function digestOfOwnText(text: string | undefined, outer: { bundle: unknown }, canonical: boolean): string | undefined {
  const bundleText = text === undefined ? undefined : bundleTextIn(text, outer);
  // A whole document in canonical JSON holds its bundle's canonical JSON between the framing bundleTextIn found.
  return bundleText !== undefined && (canonical || isCanonicalJsonOf(outer.bundle, bundleText)) ? sha256Hex(bundleText) : undefined;
}
