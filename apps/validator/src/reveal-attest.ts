import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

import { signRevealAttestation, sr25519Verifier, verifyRevealAttestation, withRevealAttestation } from '@subnet/bundle';
import type { BundleSigner, RevealAttestation, SignatureVerifier, SignedRevealAttestation } from '@subnet/bundle';

import { readUpTo } from './dispatch/read-task-file.js';
import type { EpochRow } from './storage.js';
import { timelockRecordFromJson } from './timelock-record-json.js';

/** The longest `message` an attestation carries (its schema's bound); longer sentences are cut with an ellipsis. */
const MAX_MESSAGE = 1024;

/**
 * How many bytes a written bundle file may hold beyond its bundle's text: the attestation inserted into it (its message
 * at most {@link MAX_MESSAGE} characters, its other fields a few hundred bytes) and the newline, with room to spare.
 */
const ATTESTATION_ROOM = 64 * 1024;

/** A final reveal outcome as reveal-confirm.ts records it, before it is signed. */
export interface RevealOutcome {
  readonly status: RevealAttestation['status'];
  readonly code: string | null;
  readonly reason: string | null;
  readonly reasons: readonly string[];
  readonly message: string;
  readonly revealBlock: bigint | null;
  readonly revealBlockHash: string | null;
}

/** The commit an outcome is about: its hash and due block (null for an unknown submission) and its stored record. */
export interface AttestedCommit {
  readonly commitHash: string | null;
  readonly dueBlock: string | null;
  /** The stored commit record (timelock-record-json.ts), or null when there is none (unknown submission). */
  readonly record: string | null;
}

/** The `reveal` column fields that carry the attestation (next to the outcome's own fields). */
export interface AttestationFields {
  readonly attestation: RevealAttestation;
  readonly attestation_signature: string;
}

const hash32 = (v: unknown): string | null => (typeof v === 'string' && /^0x[0-9a-f]{64}$/.test(v) ? v : null);
const decimal = (v: unknown): string | null =>
  typeof v === 'bigint' && v >= 0n ? v.toString() : typeof v === 'string' && /^(0|[1-9][0-9]*)$/.test(v) ? v : null;

function commitOf(record: string | null): { block: string | null; extrinsic: string | null; round: string | null } {
  if (record === null) return { block: null, extrinsic: null, round: null };
  try {
    const r = timelockRecordFromJson(record) as unknown as Record<string, unknown>;
    return { block: decimal(r['commitBlock']), extrinsic: hash32(r['extrinsicHash']), round: decimal(r['revealRound']) };
  } catch {
    // An unreadable record: the attestation says so through its code (VALIDATOR_REVEAL_RECORD_UNREADABLE).
    return { block: null, extrinsic: null, round: null };
  }
}

/** The bundle an attestation is bound to: read from the text signed at the close (the epoch row's `bundle`). */
function bindingOf(row: EpochRow): { digest: string; netuid: number; epoch: number; validator_hotkey: string } | undefined {
  if (row.bundle === null || row.digest === null) return undefined;
  try {
    const doc = JSON.parse(row.bundle) as { bundle?: { netuid?: unknown; epoch?: unknown; validator_hotkey?: unknown }; digest?: unknown; signature?: unknown };
    const b = doc.bundle;
    if (
      typeof doc.signature !== 'string' ||
      doc.digest !== row.digest ||
      typeof b?.netuid !== 'number' ||
      typeof b.epoch !== 'number' ||
      typeof b.validator_hotkey !== 'string'
    ) {
      return undefined;
    }
    return { digest: row.digest, netuid: b.netuid, epoch: b.epoch, validator_hotkey: b.validator_hotkey };
  } catch {
    return undefined;
  }
}

/**
 * Signs the reveal attestation of an epoch's final outcome (docs/spec.md G.6) with the validator hotkey that signed
 * its bundle: the outcome, the commit (hash, block, extrinsic, round, due block), the reveal block and the head,
 * bound to the bundle by its digest, netuid, epoch and hotkey.
 *
 * @param row - the epoch row (its signed bundle text and digest)
 * @param commit - the commit's hash, due block and stored record
 * @param outcome - the final outcome
 * @param head - the head when it was recorded
 * @param signer - the validator hotkey (absent: nothing is signed)
 * @returns the signed attestation, or undefined without a signer or a signed bundle (a dry run)
 * @throws SubnetError `BUNDLE_REVEAL_INVALID`, `BUNDLE_SIGNER_MISMATCH` (a bug: the fields are built here)
 * @example const attested = attestReveal(row, commit, { status: 'revealed', ... }, head, signer)
 */
export function attestReveal(
  row: EpochRow,
  commit: AttestedCommit,
  outcome: RevealOutcome,
  head: bigint,
  signer: BundleSigner | undefined,
): SignedRevealAttestation | undefined {
  const binding = bindingOf(row);
  if (signer === undefined || binding === undefined) return undefined;
  const c = commitOf(commit.record);
  const message = outcome.message.length > MAX_MESSAGE ? `${outcome.message.slice(0, MAX_MESSAGE - 1)}…` : outcome.message;
  return signRevealAttestation(
    {
      kind: 'reveal_attestation',
      netuid: binding.netuid,
      epoch: binding.epoch,
      validator_hotkey: binding.validator_hotkey,
      bundle_digest: binding.digest,
      status: outcome.status,
      code: outcome.code,
      reason: outcome.reason,
      reasons: [...outcome.reasons],
      message,
      commit_hash: hash32(commit.commitHash),
      commit_block: c.block,
      commit_extrinsic_hash: c.extrinsic,
      reveal_round: c.round,
      due_block: decimal(commit.dueBlock),
      reveal_block: outcome.revealBlock?.toString() ?? null,
      reveal_block_hash: hash32(outcome.revealBlockHash),
      confirmed_at_head: head.toString(),
    },
    signer,
  );
}

/**
 * The attestation stored in an epoch's `reveal` column (reveal-confirm.ts writes it with the outcome), if any.
 *
 * @param row - the epoch row
 * @returns the attestation and its signature, or undefined
 * @example const attested = storedAttestation(row)
 */
export function storedAttestation(row: EpochRow): SignedRevealAttestation | undefined {
  if (row.reveal === null) return undefined;
  try {
    const value = JSON.parse(row.reveal) as { attestation?: unknown; attestation_signature?: unknown };
    if (typeof value.attestation === 'object' && value.attestation !== null && typeof value.attestation_signature === 'string') {
      return { reveal: value.attestation as RevealAttestation, signature: value.attestation_signature };
    }
  } catch {
    // not JSON: no attestation
  }
  return undefined;
}

/**
 * What `GET /v1/epochs/{n}/bundle` serves and `bundles.dir/epoch-<n>.json` holds (without its newline): the text
 * signed at the close, with the reveal attestation inserted when the epoch has one (`withRevealAttestation`); every
 * other epoch's text unchanged, byte for byte.
 *
 * @param row - the epoch row (with a bundle)
 * @param attested - the attestation to serve (default: the one stored on the row)
 * @returns the document's text
 * @throws SubnetError `BUNDLE_INVALID_BUNDLE`, `BUNDLE_REVEAL_DIGEST_MISMATCH` when the stored attestation does not fit the bundle (a bug)
 * @example reply.send(servedBundleText(row))
 */
export function servedBundleText(row: EpochRow & { bundle: string }, attested = storedAttestation(row)): string {
  return attested === undefined ? row.bundle : withRevealAttestation(row.bundle, attested);
}

let verifier: Promise<SignatureVerifier> | undefined;

/**
 * The attestation already written to `bundles.dir/epoch-<n>.json` by a pass that crashed (or lost the lease) before
 * it recorded the outcome: the file is written first, so the outcome it attests is final; recording that one, instead
 * of asking the chain again, keeps one signed outcome per bundle. Only a file whose attestation verifies against the
 * epoch's bundle (digest, epoch, netuid, hotkey, signature) counts. The name is opened without blocking and checked on
 * its descriptor: what is not a regular file (a FIFO, a folder) is passed over before the epoch's row is read, and a
 * file longer than the bundle's text and an attestation is not read.
 *
 * @param dir - `bundles.dir` (undefined: none)
 * @param head - the pending epoch
 * @param whole - reads the epoch's whole row (its bundle), called only when the file exists
 * @returns the attestation and its signature, or undefined
 * @throws what `whole` throws (a storage failure), so the pass fails instead of signing a second outcome
 * @example const earlier = await writtenAttestation(deps.bundlesDir, head, async () => storage.getEpoch(head.epoch))
 */
export async function writtenAttestation(
  dir: string | undefined,
  head: Pick<EpochRow, 'epoch'>,
  whole: () => Promise<EpochRow | undefined>,
): Promise<SignedRevealAttestation | undefined> {
  // The file first: a pending epoch mostly has none, and reading and binding its bundle costs a megabyte (every pass).
  if (dir === undefined) return undefined;
  const path = join(dir, `epoch-${head.epoch}.json`);
  // One descriptor, opened without blocking and checked on itself: a FIFO or a folder under that name (the operator's
  // folder, but the pass runs on the service's event loop) is passed over instead of holding every request and pass.
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    // Mostly ENOENT (a pending epoch has no file yet); unreadable is the same for this question: ask the chain.
    return undefined;
  }
  try {
    const info = await handle.stat().catch(() => undefined);
    if (info === undefined || !info.isFile()) return undefined;
    // Outside the catch below: a storage failure fails the pass, as before the file was read on a descriptor. Taken for
    // "no attestation", the pass would ask the chain, sign an outcome again and write it over this file's (G.6: one).
    const row = await whole();
    if (row === undefined || row.bundle === null) return undefined;
    const binding = bindingOf(row);
    if (binding === undefined) return undefined;
    try {
      // Our file is the bundle's text with the attestation inserted: anything much longer is not ours and is not read.
      const { bytes, more } = await readUpTo(handle, Buffer.byteLength(row.bundle, 'utf8') + ATTESTATION_ROOM, info.size);
      if (more) return undefined;
      const doc = JSON.parse(bytes.toString('utf8')) as { reveal?: unknown; reveal_signature?: unknown };
      if (doc.reveal === undefined) return undefined;
      verifier ??= sr25519Verifier();
      const reveal = verifyRevealAttestation(doc.reveal, doc.reveal_signature, binding, await verifier);
      return { reveal, signature: doc.reveal_signature as string };
    } catch {
      // Not ours, or half-written by someone else: the chain is asked as for any pending epoch.
      return undefined;
    }
  } finally {
    await handle.close();
  }
}
