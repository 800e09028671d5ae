import type { BundleSigner, SignedRevealAttestation } from '@subnet/bundle';
import { CHAIN_ERROR_CODES } from '@subnet/chain';
import { isSubnetError, redactUrl } from '@subnet/core';

import { bundleFileHeld, writeBundleFile } from './bundle-file.js';
import type { ChainPort, HashRevealResult, PendingHashCommit, RevealCheck, SetWeightsOptions, SubmissionIdentity } from './chain-port.js';
import { VALIDATOR_ERROR_CODES } from './errors.js';
import type { ValidatorMetrics } from './metrics.js';
import type { AttestedCommit, RevealOutcome } from './reveal-attest.js';
import { attestReveal, servedBundleText, writtenAttestation } from './reveal-attest.js';
import type { EpochHead, EpochRow, Fence, Storage } from './storage.js';

/** How many pending reveals one pass checks at most (the next pass goes on after the last one checked, then wraps). */
export const REVEAL_BATCH = 16;

/**
 * Default blocks after a commit's due block (its predicted reveal block) past which a reveal the validator could
 * not confirm is final (`unconfirmed`, `VALIDATOR_REVEAL_OVERDUE`): two finney tempos. By then the chain has
 * revealed or dropped the commit (it clears a reveal epoch's queue when the next epoch starts).
 */
export const REVEAL_OVERDUE_BLOCKS = 720n;

/** The `reveal` column of an epoch whose timelocked commit waits for confirmation. */
interface PendingRevealJson {
  readonly commit_hash: string;
  readonly due_block: string;
  readonly record: string;
}

/** What one pass did with one pending epoch. */
export interface RevealConfirmation {
  readonly epoch: number;
  /**
   * `waiting`: the due block is not reached; `pending`: the chain still holds the commit; `error`: the check
   * failed (retried); `revealed`, `not_revealed`, `unconfirmed`, `uid_replaced` (revealed, then the validator's uid
   * was taken by a registration in the reveal block, docs/spec.md G.19): final (an overdue or unreadable one is `unconfirmed`).
   */
  readonly status: RevealCheck['status'] | 'waiting' | 'error';
}

/** Options of {@link confirmPendingReveals}: which page of pending reveals to check. */
export interface RevealPassOptions {
  /** Check epochs above this one (default -1: from the oldest). */
  readonly afterEpoch?: number;
  /** At most this many (default {@link REVEAL_BATCH}). */
  readonly limit?: number;
}

/** Dependencies of {@link confirmPendingReveals}. */
export interface RevealConfirmDeps {
  readonly storage: Storage;
  readonly chain: ChainPort;
  readonly metrics: ValidatorMetrics;
  readonly logger: { info(obj: unknown, msg: string): void; warn(obj: unknown, msg: string): void };
  /** The lease (HA): outcomes are written only while it holds. */
  readonly fence?: () => Fence | undefined;
  /**
   * Blocks after a commit's due block past which a reveal still not confirmed is recorded final
   * (`unconfirmed`, `VALIDATOR_REVEAL_OVERDUE`); default {@link REVEAL_OVERDUE_BLOCKS}. Read on every pass.
   */
  readonly overdueAfterBlocks?: () => bigint;
  /**
   * `bundles.dir`: an embargoed epoch's bundle file is written here right before its outcome lifts the embargo
   * (bundle-file.ts); absent: no file is written.
   */
  readonly bundlesDir?: string;
  /**
   * The validator hotkey that signs the bundles: it signs each final outcome as a reveal attestation bound to the
   * epoch's bundle (reveal-attest.ts), served with it. Absent: the outcome is recorded unsigned, the bundle served as signed at close.
   */
  readonly signer?: BundleSigner;
}

/**
 * The `reveal_status` and `reveal` fields of an epoch right after its timelocked commit landed.
 *
 * @param timelock - the commit from {@link ChainPort.setWeights}
 * @returns the epoch row fields
 * @example await storage.updateEpoch(epoch, { status: 'submitted', ...pendingRevealFields(landed.timelock) })
 */
export function pendingRevealFields(timelock: NonNullable<Awaited<ReturnType<ChainPort['setWeights']>>['timelock']>): {
  revealStatus: string;
  reveal: string;
} {
  const json: PendingRevealJson = { commit_hash: timelock.commitHash, due_block: timelock.dueBlock.toString(), record: timelock.record };
  return { revealStatus: 'pending', reveal: JSON.stringify(json) };
}

/** How many pending epochs are read per page when looking for commit-reveal v2 commits. */
const HASH_PAGE = 256;

/** The `reveal` column of an epoch whose commit-reveal v2 (hash) commit waits for this validator's reveal (G.22). */
interface PendingHashJson {
  readonly scheme: 'hash';
  readonly commit_hash: string;
  readonly due_block: string;
  readonly closed_after: string;
  readonly record: null;
  /** The commit with its salt (`@subnet/chain` wire form), so whichever instance leads can reveal it; secret, never served. */
  readonly commit?: unknown;
}

/**
 * The `reveal_status` and `reveal` fields of an epoch right after its commit-reveal v2 (hash) commit landed: embargoed
 * like a timelocked one until this validator reveals it, sees it expire, or the head passes `closedAfter` (docs/spec.md G.22).
 *
 * @param commit - the commit from {@link ChainPort.setWeights} or {@link ChainPort.findSubmission}
 * @returns the epoch row fields
 * @example await storage.updateEpoch(epoch, { status: 'submitted', ...pendingHashRevealFields(landed.hashCommit) })
 */
export function pendingHashRevealFields(commit: PendingHashCommit): { revealStatus: string; reveal: string } {
  const json: PendingHashJson = {
    scheme: 'hash',
    commit_hash: commit.commitHash,
    due_block: commit.dueBlock.toString(),
    closed_after: commit.closedAfter.toString(),
    record: null,
    ...(commit.commit === undefined ? {} : { commit: commit.commit }),
  };
  return { revealStatus: 'pending', reveal: JSON.stringify(json) };
}

/**
 * The commits (with their salts) of the epochs whose commit-reveal v2 commit waits for its reveal, as stored with them
 * ({@link pendingHashRevealFields}): the chain access reveals them along with its own commit store's, so that a commit
 * made by another instance (before the lease moved) or whose store was lost is still revealed (docs/spec.md G.22).
 *
 * @param storage - the storage
 * @returns the commits in `@subnet/chain`'s wire form, oldest epoch first
 * @throws SubnetError `VALIDATOR_STORAGE` when storage fails
 * @example await connectSubnetChain({ ..., sharedCommits: () => sharedHashCommits(storage) })
 */
export async function sharedHashCommits(storage: Pick<Storage, 'pendingReveals'>): Promise<readonly unknown[]> {
  return (await pendingHashRows(storage)).flatMap(({ hash }) => (hash.commit === undefined ? [] : [hash.commit]));
}

/**
 * Every epoch whose commit-reveal v2 commit waits for its reveal, with its parsed `reveal` column, oldest first: heads
 * (no bundle, no carried state), as this runs every head tick (docs/spec.md G.25).
 */
async function pendingHashRows(storage: Pick<Storage, 'pendingReveals'>): Promise<{ row: EpochHead; hash: PendingHashJson }[]> {
  const rows: { row: EpochHead; hash: PendingHashJson }[] = [];
  for (let after = -1; ;) {
    const page = await storage.pendingReveals(after, HASH_PAGE);
    for (const row of page) {
      const hash = parsePendingHash(row);
      if (hash !== undefined) rows.push({ row, hash });
    }
    if (page.length < HASH_PAGE) return rows;
    after = page[page.length - 1]?.epoch ?? after;
  }
}

/** The `reveal` column of an epoch while its commit-reveal v2 commit is being signed and sent (`reveal_status` stays null). */
interface SigningHashJson {
  readonly scheme: 'hash';
  readonly commit_hash: string;
  /** The commit with its salt (`@subnet/chain` wire form); secret, never served. */
  readonly commit: unknown;
}

/**
 * What the epoch loop asks of the `setWeights` call of an epoch it claimed `submitting`: a commit-reveal v2 commit is
 * written into the epoch row (salt included, `reveal_status` still null) before it is sent, so that whichever
 * instance reconciles the epoch after a crash holds the salt and can reveal it (docs/spec.md G.22); a `set_weights` or
 * timelocked commit has what names its signed extrinsic written there before it is sent ({@link keptIdentity}), so that
 * reconciliation takes only that extrinsic for the epoch (docs/spec.md G.45).
 *
 * @param deps - storage and fence
 * @param epoch - the epoch being submitted
 * @returns the options of {@link ChainPort.setWeights}
 * @example await chain.setWeights(uids, weights, keepCommitWithEpoch(deps, 41))
 */
export function keepCommitWithEpoch(
  deps: { readonly storage: Pick<Storage, 'updateEpoch'>; readonly fence?: () => Fence | undefined },
  epoch: number,
): SetWeightsOptions {
  return {
    onCommitSaved: async (commit) => {
      const hash = (commit as { commit_hash?: unknown } | null)?.commit_hash;
      if (typeof hash !== 'string') return;
      const json: SigningHashJson = { scheme: 'hash', commit_hash: hash, commit };
      await deps.storage.updateEpoch(epoch, { reveal: JSON.stringify(json) }, deps.fence?.());
    },
    onSigned: async (identity) => {
      const json: SigningIdentityJson =
        identity.kind === 'set'
          ? {
              scheme: 'set',
              extrinsic_hash: identity.extrinsicHash,
              uids: [...identity.uids],
              values: [...identity.values],
              version_key: identity.versionKey.toString(),
            }
          : { scheme: 'timelock', extrinsic_hash: identity.extrinsicHash, commit_hash: identity.commitHash, reveal_round: identity.revealRound.toString() };
      await deps.storage.updateEpoch(epoch, { reveal: JSON.stringify(json) }, deps.fence?.());
    },
  };
}

/**
 * The `reveal` column of an epoch while its `set_weights` or timelocked commit is being sent (`reveal_status` stays
 * null): what names the signed extrinsic on chain (docs/spec.md G.45). Replaced by the outcome's fields.
 */
type SigningIdentityJson =
  | {
      readonly scheme: 'set';
      readonly extrinsic_hash: string;
      readonly uids: readonly number[];
      readonly values: readonly number[];
      readonly version_key: string;
    }
  | { readonly scheme: 'timelock'; readonly extrinsic_hash: string; readonly commit_hash: string; readonly reveal_round: string };

const HASH_32 = /^0x[0-9a-f]{64}$/;

const U16_LIST = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 65_535);
const DECIMAL = /^\d+$/;

/**
 * What named an epoch's `set_weights` or timelocked commit, kept before it was sent ({@link keepCommitWithEpoch},
 * docs/spec.md G.45), if its `reveal` column holds it.
 *
 * @param row - the epoch's row
 * @returns the identity, or undefined (a row written before G.45, or a v2 commit, which {@link keptCommitHash} names)
 * @example keptIdentity(await storage.getEpoch(41)) // { kind: 'timelocked', extrinsicHash: '0x…', commitHash: '0x…', revealRound: 1234n }
 */
export function keptIdentity(row: Pick<EpochRow, 'revealStatus' | 'reveal'> | undefined): SubmissionIdentity | undefined {
  if (row === undefined || row.revealStatus !== null) return undefined;
  let kept: Record<string, unknown> | null;
  try {
    kept = JSON.parse(row.reveal ?? '') as Record<string, unknown> | null;
  } catch {
    return undefined;
  }
  const extrinsicHash = kept?.['extrinsic_hash'];
  if (typeof extrinsicHash !== 'string' || !HASH_32.test(extrinsicHash)) return undefined;
  if (kept?.['scheme'] === 'set') {
    const { uids, values, version_key: versionKey } = kept;
    if (U16_LIST(uids) && U16_LIST(values) && uids.length === values.length && typeof versionKey === 'string' && DECIMAL.test(versionKey))
      return { kind: 'set', extrinsicHash, uids, values, versionKey: BigInt(versionKey) };
  }
  if (kept?.['scheme'] === 'timelock') {
    const { commit_hash: commitHash, reveal_round: revealRound } = kept;
    if (typeof commitHash === 'string' && HASH_32.test(commitHash) && typeof revealRound === 'string' && DECIMAL.test(revealRound))
      return { kind: 'timelocked', extrinsicHash, commitHash, revealRound: BigInt(revealRound) };
  }
  return undefined;
}

/**
 * A commit-reveal v2 commit found on chain by reconciliation, with its salt from the epoch row when the chain access
 * does not hold it (the commit was made by another instance, which wrote it there before sending it: {@link keepCommitWithEpoch}).
 *
 * @param commit - the commit as the chain access found it
 * @param row - the epoch's row
 * @returns the commit, with `commit` when either holds it
 * @example landedRevealFields({ ...found, hashCommit: withCommitFromRow(found.hashCommit, row) })
 */
export function withCommitFromRow(commit: PendingHashCommit, row: Pick<EpochRow, 'reveal'> | undefined): PendingHashCommit {
  if (commit.commit !== undefined) return commit;
  const kept = keptCommit(row);
  return kept?.commit_hash === commit.commitHash ? { ...commit, commit: kept.commit } : commit;
}

/** The commit-reveal v2 commit kept with an epoch before it was sent, if its `reveal` column holds one. */
function keptCommit(row: Pick<EpochRow, 'reveal'> | undefined): SigningHashJson | undefined {
  try {
    const kept = JSON.parse(row?.reveal ?? '') as Partial<SigningHashJson> | null;
    if (kept?.scheme === 'hash' && typeof kept.commit_hash === 'string' && kept.commit !== undefined) return kept as SigningHashJson;
  } catch {
    // none kept
  }
  return undefined;
}

/**
 * The hash of the commit-reveal v2 commit kept with an epoch before it was sent ({@link keepCommitWithEpoch}), if any.
 *
 * @param row - the epoch's row
 * @returns the commit hash, or undefined
 * @example keptCommitHash(await storage.getEpoch(41))
 */
export function keptCommitHash(row: Pick<EpochRow, 'reveal'> | undefined): string | undefined {
  return keptCommit(row)?.commit_hash;
}

/** The reveal fields of a landed submission: a timelocked commit's, a hash commit's, or none. */
export function landedRevealFields(landed: {
  readonly timelock?: Parameters<typeof pendingRevealFields>[0];
  readonly hashCommit?: PendingHashCommit;
}): { revealStatus: string; reveal: string } | undefined {
  if (landed.timelock !== undefined) return pendingRevealFields(landed.timelock);
  if (landed.hashCommit !== undefined) return pendingHashRevealFields(landed.hashCommit);
  return undefined;
}

/** The pending hash commit of an epoch row, if its `reveal` column is one. */
function parsePendingHash(row: Pick<EpochRow, 'reveal'>): PendingHashJson | undefined {
  try {
    const value = JSON.parse(row.reveal ?? '') as Partial<PendingHashJson>;
    if (
      value.scheme === 'hash' &&
      typeof value.commit_hash === 'string' &&
      typeof value.due_block === 'string' &&
      DECIMAL.test(value.due_block) &&
      typeof value.closed_after === 'string' &&
      DECIMAL.test(value.closed_after)
    ) {
      return value as PendingHashJson;
    }
  } catch {
    // not one
  }
  return undefined;
}

/** The attestation's `reason` of a reveal whose uid a registration took in the reveal block (docs/spec.md G.19). */
const UID_REPLACED_REASON = 'uid_replaced';

/** The words of a `uid_replaced` outcome: the cause (block, uid, new hotkey) first, then what it means. */
function uidReplacedMessage(check: Extract<RevealCheck, { status: 'uid_replaced' }>): string {
  return (
    `uid ${check.uid} was given to ${check.newHotkey} by a registration in block ${check.block}: this validator was deregistered there. ` +
    `The chain had revealed its timelocked weights in that block, and the registration removed them with the uid; register again to set weights`
  );
}

function outcomeJson(pending: PendingRevealJson, check: Exclude<RevealCheck, { status: 'pending' }>, head: bigint): Record<string, unknown> {
  const base = { commit_hash: pending.commit_hash, due_block: pending.due_block, checked_at_head: head.toString() };
  if (check.status === 'revealed') return { ...base, block: check.block.toString(), block_hash: check.blockHash };
  if (check.status === 'uid_replaced') {
    return {
      ...base,
      block: check.block.toString(),
      block_hash: check.blockHash,
      code: VALIDATOR_ERROR_CODES.uidReplaced,
      reason: UID_REPLACED_REASON,
      uid: check.uid,
      new_hotkey: check.newHotkey,
      message: uidReplacedMessage(check),
    };
  }
  if (check.status === 'not_revealed') {
    return {
      ...base,
      code: check.code,
      reason: check.reason,
      reasons: check.reasons,
      message: check.message,
      block: check.block === null ? null : check.block.toString(),
    };
  }
  return { ...base, code: check.code, message: check.message };
}

/** The outcome the chain gave, as the attestation states it. */
function checkOutcome(epoch: number, check: Exclude<RevealCheck, { status: 'pending' }>): RevealOutcome {
  if (check.status === 'uid_replaced') {
    // The chain did reveal the commit (TimelockedWeightsRevealed): the attestation says so, with the cause as its reason.
    return {
      status: 'revealed',
      code: null,
      reason: UID_REPLACED_REASON,
      reasons: [],
      message: `epoch ${epoch}'s timelocked weights were revealed in block ${check.block}, then removed there: ${uidReplacedMessage(check)}`,
      revealBlock: check.block,
      revealBlockHash: check.blockHash,
    };
  }
  if (check.status === 'revealed') {
    return {
      status: 'revealed',
      code: null,
      reason: null,
      reasons: [],
      message: `the chain revealed epoch ${epoch}'s timelocked weights in block ${check.block}`,
      revealBlock: check.block,
      revealBlockHash: check.blockHash,
    };
  }
  if (check.status === 'not_revealed') {
    return {
      status: 'not_revealed',
      code: check.code,
      reason: check.reason,
      reasons: check.reasons,
      message: check.message,
      revealBlock: check.block,
      revealBlockHash: null,
    };
  }
  return { status: 'unconfirmed', code: check.code, reason: null, reasons: [], message: check.message, revealBlock: null, revealBlockHash: null };
}

function parsePending(row: Pick<EpochRow, 'reveal'>): PendingRevealJson | undefined {
  try {
    const value = JSON.parse(row.reveal ?? '') as Partial<PendingRevealJson>;
    if (typeof value.record === 'string' && typeof value.due_block === 'string' && DECIMAL.test(value.due_block) && typeof value.commit_hash === 'string') {
      return value as PendingRevealJson;
    }
  } catch {
    // reported below
  }
  return undefined;
}

/** A final `unconfirmed` the validator diagnosed itself (no answer from the chain): overdue or unreadable. */
interface Diagnosed {
  readonly code: string;
  readonly reason: 'still_queued' | 'not_finalized' | 'check_failed' | 'record_unreadable' | 'submission_unknown' | 'window_closed';
  readonly message: string;
  readonly lastError?: { readonly code: string | null; readonly message: string };
}

/** The due block of an epoch embargoed because its submission is unknown (bundle-embargo.ts `unknownSubmissionEmbargo`). */
function unknownSubmissionDue(row: Pick<EpochRow, 'reveal'>): bigint | undefined {
  try {
    const value = JSON.parse(row.reveal ?? '') as { record?: unknown; due_block?: unknown; unknown_submission?: unknown };
    if (value.record === null && typeof value.unknown_submission === 'object' && typeof value.due_block === 'string' && DECIMAL.test(value.due_block)) {
      return BigInt(value.due_block);
    }
  } catch {
    // not one
  }
  return undefined;
}

/**
 * Writes an embargoed epoch's bundle file (the signed bytes stored at the close, with the outcome's reveal
 * attestation) before the outcome that lifts its embargo is recorded: the outcome is final by then, and a pass
 * after a crash in between records the attestation of the file (writtenAttestation), so one outcome is signed.
 */
async function writeLiftedBundle(deps: RevealConfirmDeps, row: EpochRow, attested: SignedRevealAttestation | undefined): Promise<void> {
  if (deps.bundlesDir === undefined || row.bundle === null || row.digest === null) return;
  // Still held while an earlier epoch is embargoed: it carries that epoch's state; written when that one lifts (G.23).
  if (await bundleFileHeld(deps.storage, row.epoch)) return;
  writeBundleFile(deps.bundlesDir, row.epoch, servedBundleText({ ...row, bundle: row.bundle }, attested));
}

/**
 * The whole row of a pending epoch whose bundle is used (its outcome attested, its file written): the head as the pass
 * read it, with the bundle and carried state read now (they never change after the close). A pass reads heads only, so
 * a pending epoch that is not due costs no bundle read (docs/spec.md G.25).
 */
async function wholeRow(storage: Pick<Storage, 'getEpoch'>, head: EpochHead): Promise<EpochRow> {
  const row = await storage.getEpoch(head.epoch);
  return { ...head, bundle: row?.bundle ?? null, carry: row?.carry ?? null };
}

/**
 * Records a final outcome in one write: signs its attestation, writes the bundle file (served text), then stores
 * the outcome and the attestation on the epoch row (under the lease).
 */
async function recordFinal(
  deps: RevealConfirmDeps,
  pendingHead: EpochHead,
  commit: AttestedCommit,
  outcome: RevealOutcome,
  column: Record<string, unknown>,
  head: bigint,
  revealStatus: string = outcome.status,
): Promise<void> {
  const row = await wholeRow(deps.storage, pendingHead);
  let attested: SignedRevealAttestation | undefined;
  try {
    attested = attestReveal(row, commit, outcome, head, deps.signer);
  } catch (error) {
    // An outcome the attestation schema refuses (a code or reason the chain access made up) must not hold the
    // epoch embargoed forever: it is recorded and served unsigned, and said loudly.
    deps.logger.warn(
      { epoch: row.epoch, code: isSubnetError(error) ? error.code : null, error: (error as Error).message },
      'the reveal outcome could not be signed; recorded without its attestation',
    );
  }
  await writeLiftedBundle(deps, row, attested);
  const reveal = JSON.stringify(attested === undefined ? column : { ...column, attestation: attested.reveal, attestation_signature: attested.signature });
  await deps.storage.updateEpoch(row.epoch, { revealStatus, reveal }, deps.fence?.());
}

/** Records the outcome a crashed pass already attested in the bundle file (its file stays as written). */
async function recordWritten(deps: RevealConfirmDeps, row: EpochHead, attested: SignedRevealAttestation): Promise<RevealConfirmation> {
  const a = attested.reveal;
  const column = {
    commit_hash: a.commit_hash,
    due_block: a.due_block,
    checked_at_head: a.confirmed_at_head,
    block: a.reveal_block,
    block_hash: a.reveal_block_hash,
    code: a.code,
    reason: a.reason,
    reasons: a.reasons,
    message: a.message,
    from_bundle_file: true,
    attestation: a,
    attestation_signature: attested.signature,
  };
  // A reveal whose uid a registration took in the reveal block is attested `revealed` with that reason (G.19).
  const replaced = a.status === 'revealed' && a.reason === UID_REPLACED_REASON;
  const status = replaced ? 'uid_replaced' : a.status;
  await deps.storage.updateEpoch(row.epoch, { revealStatus: status, reveal: JSON.stringify(column) }, deps.fence?.());
  deps.metrics.revealConfirmations.inc({
    outcome: status,
    reason: replaced ? VALIDATOR_ERROR_CODES.uidReplaced : a.status === 'revealed' ? '' : a.status === 'not_revealed' ? (a.reason ?? '') : (a.code ?? ''),
  });
  deps.logger.info({ epoch: row.epoch, outcome: status, code: a.code }, 'recorded the reveal outcome already attested in the bundle file');
  return { epoch: row.epoch, status };
}

/** What a diagnosed outcome names of the commit: a stored one, or the bound of an unknown submission. */
interface DiagnosedCommit {
  readonly commit_hash: string | null;
  readonly due_block: string;
  readonly unknown_submission?: unknown;
}

function diagnosedJson(row: Pick<EpochRow, 'reveal'>, pending: DiagnosedCommit | undefined, diagnosed: Diagnosed, head: bigint): Record<string, unknown> {
  return {
    commit_hash: pending?.commit_hash ?? null,
    due_block: pending?.due_block ?? null,
    ...(pending?.unknown_submission === undefined ? {} : { unknown_submission: pending.unknown_submission }),
    checked_at_head: head.toString(),
    code: diagnosed.code,
    reason: diagnosed.reason,
    message: diagnosed.message,
    ...(diagnosed.lastError === undefined ? {} : { last_error: diagnosed.lastError }),
    ...(pending === undefined ? { stored: row.reveal } : {}),
  };
}

/**
 * One confirmation pass over one page of the epochs whose timelocked commit is `pending` (oldest first, above
 * `options.afterEpoch`, at most `options.limit`): for each whose due block (the predicted reveal block) the head
 * has reached, asks the chain whether it revealed the commit and records the outcome on the epoch row
 * (`reveal_status`, `reveal`), in `validator_reveal_confirmations_total{outcome,reason}` and, for a drop, as a
 * warning. A commit still queued, an outcome whose block is not final yet, or a failed check, stays `pending` for a
 * later pass, until the head is `overdueAfterBlocks` past its due block: it is then recorded `unconfirmed` with
 * `VALIDATOR_REVEAL_OVERDUE` (reason `still_queued`, `not_finalized` or `check_failed`, with the last error), final. A record that cannot be read back is
 * recorded `unconfirmed` with `VALIDATOR_REVEAL_RECORD_UNREADABLE` at once (it can never be checked).
 *
 * @param deps - storage, chain, metrics, logger, lease, overdue bound
 * @param options - the page: after which epoch, how many
 * @returns what happened to each pending epoch of the page, oldest first
 * @throws SubnetError `VALIDATOR_STORAGE` when storage fails, `VALIDATOR_LEASE_LOST` when the lease is lost
 * @example await confirmPendingReveals({ storage, chain, metrics, logger }, { afterEpoch: -1, limit: 16 })
 */
export async function confirmPendingReveals(deps: RevealConfirmDeps, options: RevealPassOptions = {}): Promise<readonly RevealConfirmation[]> {
  const { storage, chain, metrics, logger } = deps;
  if (chain.confirmReveal === undefined) return [];
  const rows = await storage.pendingReveals(options.afterEpoch ?? -1, options.limit ?? REVEAL_BATCH);
  if (rows.length === 0) return [];
  const head = await chain.head();
  const overdueAfter = deps.overdueAfterBlocks?.() ?? REVEAL_OVERDUE_BLOCKS;
  const done: RevealConfirmation[] = [];
  const diagnose = async (row: EpochHead, pending: DiagnosedCommit | undefined, diagnosed: Diagnosed): Promise<void> => {
    const commit: AttestedCommit = {
      commitHash: pending?.commit_hash ?? null,
      dueBlock: pending?.due_block ?? null,
      record: pending !== undefined && 'record' in pending && typeof pending.record === 'string' ? pending.record : null,
    };
    const outcome: RevealOutcome = {
      status: 'unconfirmed',
      code: diagnosed.code,
      reason: diagnosed.reason,
      reasons: [],
      message: diagnosed.message,
      revealBlock: null,
      revealBlockHash: null,
    };
    await recordFinal(deps, row, commit, outcome, diagnosedJson(row, pending, diagnosed, head), head);
    metrics.revealConfirmations.inc({ outcome: 'unconfirmed', reason: diagnosed.code });
    logger.warn(
      {
        epoch: row.epoch,
        commitHash: pending?.commit_hash,
        outcome: 'unconfirmed',
        code: diagnosed.code,
        reason: diagnosed.reason,
        lastError: diagnosed.lastError,
      },
      diagnosed.message,
    );
    done.push({ epoch: row.epoch, status: 'unconfirmed' });
  };
  for (const row of rows) {
    // A pass that crashed between writing the file and recording the outcome: record the outcome it attested.
    const written = await writtenAttestation(deps.bundlesDir, row, () => wholeRow(storage, row));
    if (written !== undefined) {
      done.push(await recordWritten(deps, row, written));
      continue;
    }
    const hash = parsePendingHash(row);
    if (hash !== undefined) {
      // Revealed or seen expired by revealPending (recordHashReveals) before this pass; here only when neither was seen.
      const closedAfter = BigInt(hash.closed_after);
      if (head <= closedAfter) {
        done.push({ epoch: row.epoch, status: 'waiting' });
        continue;
      }
      await diagnose(row, hash, {
        code: VALIDATOR_ERROR_CODES.revealOverdue,
        reason: 'window_closed',
        message:
          `epoch ${row.epoch}'s commit-reveal v2 commit ${hash.commit_hash} was neither revealed nor seen expired by this validator, and its reveal ` +
          `window closed by block ${closedAfter} (its salt in another instance's chain.commit_store, or revealed by a run that stopped before recording it): ` +
          `nobody can reveal it now; recorded unconfirmed`,
      });
      continue;
    }
    const unknownDue = unknownSubmissionDue(row);
    if (unknownDue !== undefined) {
      // No commit to ask about: embargoed until its latest possible reveal is overdue, then final.
      if (head < unknownDue + overdueAfter) {
        done.push({ epoch: row.epoch, status: 'waiting' });
        continue;
      }
      const stored = JSON.parse(row.reveal ?? '{}') as { unknown_submission?: unknown };
      await diagnose(
        row,
        { commit_hash: null, due_block: unknownDue.toString(), unknown_submission: stored.unknown_submission },
        {
          code: VALIDATOR_ERROR_CODES.revealOverdue,
          reason: 'submission_unknown',
          message: `epoch ${row.epoch}'s submission outcome is unknown; any timelocked commit of it was revealed by block ${unknownDue} (checked ${overdueAfter} blocks later): recorded unconfirmed`,
        },
      );
      continue;
    }
    const pending = parsePending(row);
    if (pending === undefined) {
      await diagnose(row, undefined, {
        code: VALIDATOR_ERROR_CODES.revealRecordUnreadable,
        reason: 'record_unreadable',
        message: `the timelocked commit stored for epoch ${row.epoch} cannot be read back: its reveal can never be confirmed`,
      });
      continue;
    }
    const due = BigInt(pending.due_block);
    if (head < due) {
      done.push({ epoch: row.epoch, status: 'waiting' });
      continue;
    }
    let check: RevealCheck;
    try {
      check = await chain.confirmReveal(pending.record);
    } catch (error) {
      metrics.chainErrors.inc();
      const lastError = { code: isSubnetError(error) ? error.code : null, message: redactUrl((error as Error).message) };
      if (head >= due + overdueAfter) {
        await diagnose(row, pending, {
          code: VALIDATOR_ERROR_CODES.revealOverdue,
          reason: 'check_failed',
          message: `the reveal of epoch ${row.epoch}'s timelocked commit could not be checked by block ${due + overdueAfter} (due ${due}): recorded unconfirmed`,
          lastError,
        });
        continue;
      }
      logger.warn({ epoch: row.epoch, error: lastError.message }, 'timelocked reveal confirmation failed; retrying next tick');
      done.push({ epoch: row.epoch, status: 'error' });
      continue;
    }
    if (check.status === 'pending') {
      if (head >= due + overdueAfter) {
        await diagnose(
          row,
          pending,
          check.reason === 'not_finalized'
            ? {
                code: VALIDATOR_ERROR_CODES.revealOverdue,
                reason: 'not_finalized',
                message: `finality had not reached the block where the chain revealed or dropped epoch ${row.epoch}'s timelocked commit ${overdueAfter} blocks after its reveal block ${due} (is the chain's finality stalled?): recorded unconfirmed`,
              }
            : {
                code: VALIDATOR_ERROR_CODES.revealOverdue,
                reason: 'still_queued',
                message: `the chain still held epoch ${row.epoch}'s timelocked commit ${overdueAfter} blocks after its reveal block ${due}: recorded unconfirmed`,
              },
        );
        continue;
      }
      done.push({ epoch: row.epoch, status: 'pending' });
      continue;
    }
    await recordFinal(
      deps,
      row,
      { commitHash: pending.commit_hash, dueBlock: pending.due_block, record: pending.record },
      checkOutcome(row.epoch, check),
      outcomeJson(pending, check, head),
      head,
      check.status,
    );
    const reason =
      check.status === 'not_revealed'
        ? check.reason
        : check.status === 'unconfirmed'
          ? check.code
          : check.status === 'uid_replaced'
            ? VALIDATOR_ERROR_CODES.uidReplaced
            : '';
    metrics.revealConfirmations.inc({ outcome: check.status, reason });
    if (check.status === 'uid_replaced') {
      // Not an unconfirmed reveal: the weights were set and the validator lost its uid. The cause leads (G.19).
      logger.warn(
        {
          epoch: row.epoch,
          commitHash: pending.commit_hash,
          outcome: check.status,
          code: VALIDATOR_ERROR_CODES.uidReplaced,
          block: check.block.toString(),
          uid: check.uid,
          newHotkey: check.newHotkey,
        },
        uidReplacedMessage(check),
      );
    } else if (check.status === 'revealed') {
      logger.info({ epoch: row.epoch, commitHash: pending.commit_hash, block: check.block.toString() }, 'timelocked weights revealed by the chain');
    } else {
      // The chain's words lead (the block, why it dropped the commit or what contradicts it, and what to do).
      logger.warn(
        { epoch: row.epoch, commitHash: pending.commit_hash, outcome: check.status, code: check.code, reason, message: check.message },
        check.status === 'not_revealed'
          ? `epoch ${row.epoch}'s timelocked weights were not revealed (${reason}): ${check.message}`
          : `epoch ${row.epoch}'s timelocked reveal is unconfirmed: ${check.message}`,
      );
    }
    done.push({ epoch: row.epoch, status: check.status });
  }
  return done;
}

/**
 * This validator's reveal of a pending commit-reveal v2 commit the chain no longer holds, looked for in the final blocks
 * of its window (`due_block` to `closed_after`, {@link ChainPort.findHashReveal}): the block that holds it, null when
 * none does, or `retry` when the chain could not be read (logged; the row is left as it is and asked again next tick).
 */
async function revealOnChain(
  deps: RevealConfirmDeps,
  epoch: number,
  hash: PendingHashJson,
): Promise<{ readonly block: bigint; readonly blockHash: string } | null | 'retry'> {
  try {
    return (await deps.chain.findHashReveal?.({ commitHash: hash.commit_hash, fromBlock: BigInt(hash.due_block), toBlock: BigInt(hash.closed_after) })) ?? null;
  } catch (error) {
    deps.logger.warn(
      { epoch, commitHash: hash.commit_hash, error: { code: isSubnetError(error) ? error.code : null, message: redactUrl((error as Error).message) } },
      `the chain could not be searched for the reveal of epoch ${epoch}'s commit-reveal v2 commit ${hash.commit_hash}, no longer on chain; searching again next tick`,
    );
    return 'retry';
  }
}

/**
 * Records the outcome of each commit-reveal v2 commit that {@link ChainPort.revealPending} revealed or saw expire on
 * the epoch whose pending reveal names it (docs/spec.md G.22), which lifts that epoch's embargo: `revealed` with the
 * reveal's block, or `not_revealed` (`CHAIN_REVEAL_WINDOW_MISSED`, reason `expired`: the weights were not set), signed
 * as a reveal attestation like a timelocked outcome. A commit the chain no longer holds (`gone`) is looked for in the
 * final blocks of its window: revealed there by this hotkey (a run that stopped before recording it), it is recorded
 * `revealed` with that block; otherwise it is only logged and
 * its salt dropped from the row: whether it was revealed is not known, so nothing is signed, and its epoch is recorded
 * once its window closed ({@link confirmPendingReveals}). A commit no pending epoch names (an older version's, or a commit made for an epoch
 * already recorded) is only logged.
 *
 * @param deps - as {@link confirmPendingReveals}
 * @param results - what revealPending returned
 * @returns the epochs recorded, with their status
 * @throws SubnetError `VALIDATOR_STORAGE` when storage fails, `VALIDATOR_LEASE_LOST` when the lease is lost
 * @example await recordHashReveals(deps, await chain.revealPending())
 */
export async function recordHashReveals(deps: RevealConfirmDeps, results: readonly HashRevealResult[]): Promise<readonly RevealConfirmation[]> {
  const { storage, chain, metrics, logger } = deps;
  if (results.length === 0) return [];
  const wanted = new Map(results.map((r) => [r.commitHash, r]));
  const rows = (await pendingHashRows(storage)).filter(({ hash }) => wanted.has(hash.commit_hash));
  const head = await chain.head();
  const done: RevealConfirmation[] = [];
  for (const { row, hash } of rows) {
    let result = wanted.get(hash.commit_hash);
    if (result === undefined) continue;
    // Gone: a run that revealed it and stopped before recording it (a kill between the reveal's block and this write)
    // left its reveal in a final block of the window, signed by this hotkey; found there, it is recorded as revealed.
    let foundEarlier = false;
    if (result.status === 'gone' && chain.findHashReveal !== undefined) {
      const found = await revealOnChain(deps, row.epoch, hash);
      if (found === 'retry') {
        // Said by the search's own warning; not yet as gone.
        wanted.delete(hash.commit_hash);
        continue;
      }
      if (found !== null) {
        result = { commitHash: hash.commit_hash, status: 'revealed', block: found.block, blockHash: found.blockHash };
        foundEarlier = true;
      }
    }
    if (result.status === 'gone') {
      // Nobody can reveal it any more: its salt is dropped from the row (no instance loads it again every tick), and
      // the epoch stays pending, embargoed, until its window closed.
      if (hash.commit !== undefined) {
        const { commit: _salted, ...kept } = hash;
        await storage.updateEpoch(row.epoch, { revealStatus: 'pending', reveal: JSON.stringify({ ...kept, gone_at_head: head.toString() }) }, deps.fence?.());
      }
      continue;
    }
    wanted.delete(hash.commit_hash);
    const commit: AttestedCommit = { commitHash: hash.commit_hash, dueBlock: hash.due_block, record: null };
    const base = { commit_hash: hash.commit_hash, due_block: hash.due_block, closed_after: hash.closed_after, checked_at_head: head.toString() };
    if (result.status === 'revealed') {
      const at = result.block === undefined ? '' : ` in block ${result.block}`;
      const outcome: RevealOutcome = {
        status: 'revealed',
        code: null,
        reason: null,
        reasons: [],
        message: `this validator revealed epoch ${row.epoch}'s committed weights (commit-reveal v2)${at}${foundEarlier ? ' (found on chain: the run that sent the reveal stopped before recording it)' : ''}`,
        revealBlock: result.block ?? null,
        revealBlockHash: result.blockHash ?? null,
      };
      const column = { ...base, block: result.block?.toString() ?? null, block_hash: result.blockHash ?? null };
      await recordFinal(deps, row, commit, outcome, column, head);
      metrics.revealConfirmations.inc({ outcome: 'revealed', reason: '' });
      logger.info(
        { epoch: row.epoch, commitHash: hash.commit_hash, block: result.block?.toString() },
        foundEarlier
          ? `committed weights revealed: epoch ${row.epoch}'s reveal is in final block ${result.block ?? '?'}, sent by a run that stopped before recording it; recorded revealed now`
          : 'committed weights revealed',
      );
      done.push({ epoch: row.epoch, status: 'revealed' });
    } else {
      const message =
        `epoch ${row.epoch}'s committed weights were not revealed: the reveal window of commit ${hash.commit_hash} (from block ${hash.due_block}) ` +
        `ended before this validator revealed it (was it stopped or cut off from the chain during the window?); the weights were not set`;
      const outcome: RevealOutcome = {
        status: 'not_revealed',
        code: CHAIN_ERROR_CODES.revealWindowMissed,
        reason: 'expired',
        reasons: ['expired'],
        message,
        revealBlock: null,
        revealBlockHash: null,
      };
      await recordFinal(deps, row, commit, outcome, { ...base, code: outcome.code, reason: 'expired', reasons: ['expired'], message }, head);
      metrics.revealConfirmations.inc({ outcome: 'not_revealed', reason: 'expired' });
      logger.warn({ epoch: row.epoch, commitHash: hash.commit_hash, outcome: 'not_revealed', code: outcome.code, reason: 'expired' }, message);
      done.push({ epoch: row.epoch, status: 'not_revealed' });
    }
  }
  for (const result of wanted.values()) {
    if (result.status === 'expired') logger.warn({ commitHash: result.commitHash }, `commit-reveal v2 commit ${result.commitHash} expired unrevealed`);
    else if (result.status === 'gone') {
      // Not a signed statement: whether it was revealed is not known. Its epoch (if pending) is recorded once its window closed.
      const epoch = rows.find((r) => r.hash.commit_hash === result.commitHash)?.row.epoch;
      logger.warn(
        { commitHash: result.commitHash, ...(epoch === undefined ? {} : { epoch }) },
        `commit-reveal v2 commit ${result.commitHash}${epoch === undefined ? '' : ` of epoch ${epoch}`} is no longer on chain and this validator did not see it revealed ` +
          `(revealed by a run that stopped before recording it, moved by a hotkey swap, dropped after its window, or never included)` +
          (epoch === undefined ? '' : `; the epoch stays embargoed until its reveal window closed, then is recorded unconfirmed`),
      );
    } else logger.info({ commitHash: result.commitHash, block: result.block?.toString() }, 'committed weights revealed');
  }
  return done;
}

/** Runs {@link confirmPendingReveals} in the background, one pass at a time (a pass may follow the chain for a while). */
export interface RevealConfirmer {
  /** Starts a pass unless one is running. */
  tick(): void;
  /** Resolves when no pass is running. */
  idle(): Promise<void>;
}

/**
 * Creates the background runner of confirmation passes (the head tick must not wait for the chain's reveal).
 * A pass checks at most `limit` pending epochs; the next pass goes on after the last one checked and wraps
 * to the oldest after the newest, so with P pending epochs each is checked at least once every ceil(P / limit)
 * passes, however many there are.
 *
 * @param deps - as {@link confirmPendingReveals}
 * @param limit - pending epochs per pass (default {@link REVEAL_BATCH})
 * @returns the runner
 * @example const confirmer = revealConfirmer(deps); confirmer.tick()
 */
export function revealConfirmer(deps: RevealConfirmDeps, limit = REVEAL_BATCH): RevealConfirmer {
  let running: Promise<void> | undefined;
  // Each pass takes the next page of pending epochs and wraps after the last, so every one is checked in turn.
  let cursor = -1;
  return {
    tick: () => {
      if (running !== undefined) return;
      running = confirmPendingReveals(deps, { afterEpoch: cursor, limit })
        .then((page) => {
          cursor = page.length < limit ? -1 : (page[page.length - 1]?.epoch ?? -1);
        })
        .catch((error: unknown) => {
          deps.logger.warn({ error: (error as Error).message }, 'timelocked reveal confirmation pass failed; retrying next tick');
        })
        .finally(() => {
          running = undefined;
        });
    },
    idle: async () => {
      await running;
    },
  };
}
