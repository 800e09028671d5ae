import type { buildBundle, SubmissionRecord } from '@subnet/bundle';
import { isSubnetError, redactUrl } from '@subnet/core';

import { unknownSubmissionEmbargo } from './bundle-embargo.js';
import type { SubmissionSearch } from './chain-port.js';
import type { EpochRunnerDeps } from './epoch-runner.js';
import { publishClaimBundle } from './epoch-runner.js';
import { VALIDATOR_ERROR_CODES } from './errors.js';
import { resubmitNotLanded } from './resubmit.js';
import { keptCommitHash, keptIdentity, landedRevealFields, withCommitFromRow } from './reveal-confirm.js';

/** What reconciliation decided for one interrupted epoch. */
export interface ReconcileOutcome {
  readonly epoch: number;
  /**
   * `submitted` (found on the chain, or submitted again after it proved not landed), `not_landed` (its era is
   * over, too late to submit again), `unknown` (the chain cannot tell), `pending` (may still land: checked
   * again later), `failed` (submitted again and refused).
   */
  readonly status: 'submitted' | 'not_landed' | 'unknown' | 'pending' | 'failed';
  readonly bundlePath: string | null;
  /** The bundle is stored but embargoed (a timelocked commit): its file is written when the embargo lifts (bundle-file.ts). */
  readonly bundleEmbargoed?: boolean;
}

/** Weight commit calls (`commit_weights`, `commit_mechanism_weights`, `commit_timelocked_*`, `commit_crv3_*`): their weights wait for a reveal. */
const COMMIT_CALL = /^SubtensorModule\.commit_/;

interface PendingClaim {
  readonly pending?: Parameters<typeof buildBundle>[0];
  readonly pending_claim_head?: string;
}

function notSubmitted(status: 'failed' | 'not_landed', code: string, message: string): SubmissionRecord {
  return { status, block: null, extrinsic_hash: null, call: null, error: { code, message } };
}

/**
 * Reconciles every epoch left in `submitting` (a crash, a submission whose outcome was unknown or that was dropped,
 * or one seen in a block that was not final yet) with the chain: the weight extrinsic signed by this hotkey in the
 * final blocks after the claim, `LastUpdate`, and the weights read back (`ChainPort.findSubmission`). Found in a
 * final block: `submitted` with that block and extrinsic (a block a reorganisation replaced is never named: the
 * block found is the finalised chain's, docs/spec.md G.8); its era over and not found: submitted again while the
 * head is in the epoch right after it (resubmit.ts), else `not_landed` (the bundle's submission too, with
 * `VALIDATOR_SUBMISSION_NOT_LANDED`); may still land or move, or the chain cannot be read now: left `submitting`,
 * checked again on the next tick; a chain access that cannot search (or a claim without its head): `unknown`
 * (`VALIDATOR_SUBMISSION_UNKNOWN`).
 *
 * @param deps - storage, chain, signer, configuration
 * @returns one outcome per interrupted epoch
 * @throws SubnetError `VALIDATOR_STORAGE` when storage fails
 * @example const pending = (await reconcileInterrupted(deps)).some((o) => o.status === 'pending')
 */
export async function reconcileInterrupted(deps: EpochRunnerDeps, options: ReconcileOptions = {}): Promise<readonly ReconcileOutcome[]> {
  const outcomes: ReconcileOutcome[] = [];
  for (const epoch of await deps.storage.interruptedEpochs()) outcomes.push(await reconcileOne(deps, epoch, options));
  return outcomes;
}

/** Options of {@link reconcileInterrupted}. */
export interface ReconcileOptions {
  /**
   * The epoch the chain head is in. An epoch found `not_landed` while the head is still in the epoch right
   * after it is submitted again (resubmit.ts) instead of being recorded `not_landed`.
   */
  readonly headEpoch?: number;
  /** Blocks per epoch: the resubmission checks the head again right before sending (a long scan may have crossed a boundary). */
  readonly epochLength?: number;
}

/** Reconciliation could not read what it needs now: the epoch stays `submitting` and is tried again next tick. */
const RETRY = Symbol('retry');

/** {@link unknownSubmissionEmbargo}, or {@link RETRY} (logged) when the reveal schedule cannot be read now. */
async function unknownEmbargoOrRetry(
  deps: Pick<EpochRunnerDeps, 'chain' | 'logger'>,
  epoch: number,
): Promise<Awaited<ReturnType<typeof unknownSubmissionEmbargo>> | typeof RETRY> {
  try {
    return await unknownSubmissionEmbargo(deps.chain);
  } catch (error) {
    deps.logger.warn(
      { epoch, error: { code: isSubnetError(error) ? error.code : null, message: redactUrl((error as Error).message) } },
      'reconciliation: the reveal schedule cannot be read now; retrying next tick',
    );
    return RETRY;
  }
}

async function reconcileOne(deps: EpochRunnerDeps, epoch: number, options: ReconcileOptions): Promise<ReconcileOutcome> {
  const { storage, chain, metrics, logger } = deps;
  const row = await storage.getEpoch(epoch);
  const claim = row?.bundle === null || row?.bundle === undefined ? {} : (JSON.parse(row.bundle) as PendingClaim);
  const u16 = row?.u16 === null || row?.u16 === undefined ? undefined : (JSON.parse(row.u16) as { uids: number[]; weights: number[] });
  let found: SubmissionSearch | undefined;
  if (chain.findSubmission !== undefined && claim.pending_claim_head !== undefined && u16 !== undefined) {
    try {
      // A v2 commit kept with the epoch names the one extrinsic that is this epoch's: a later epoch's commit, sent by the
      // next close while this one was still being reconciled, lands in the same blocks and is not taken for it.
      // So does a set_weights or timelocked commit by what was kept before signing it (G.45); a row without it (written
      // before G.45) is matched by signer alone.
      const kept = keptCommitHash(row);
      const identity = keptIdentity(row);
      found = await chain.findSubmission({
        fromBlock: BigInt(claim.pending_claim_head),
        uids: u16.uids,
        weights: u16.weights,
        ...(kept === undefined ? {} : { commitHash: kept }),
        ...(identity === undefined ? {} : { identity }),
      });
    } catch (error) {
      logger.warn(
        { epoch, error: { code: isSubnetError(error) ? error.code : null, message: redactUrl((error as Error).message) } },
        'reconciliation: the chain cannot be read now; retrying next tick',
      );
      return { epoch, status: 'pending', bundlePath: null };
    }
  }
  if (found?.status === 'pending') {
    logger.info(
      { epoch, checkedTo: found.checkedTo.toString(), unfinalizedBlock: found.unfinalizedBlock?.toString() },
      'reconciliation: in no final block yet and its era is not over; checking again',
    );
    return { epoch, status: 'pending', bundlePath: null };
  }
  let submission: SubmissionRecord;
  let status: ReconcileOutcome['status'];
  let evidence: Record<string, unknown> = {};
  let revealFields: Awaited<ReturnType<typeof unknownSubmissionEmbargo>>;
  if (found === undefined) {
    // On a timelocked subnet the commit may have landed: embargoed until its latest reveal is overdue.
    const embargo = await unknownEmbargoOrRetry(deps, epoch);
    if (embargo === RETRY) return { epoch, status: 'pending', bundlePath: null };
    revealFields = embargo;
    submission = notSubmitted(
      'failed',
      VALIDATOR_ERROR_CODES.submissionUnknown,
      'the validator stopped while submitting; the outcome is unknown and the epoch is not resubmitted',
    );
    status = 'unknown';
  } else if (found.status === 'landed') {
    submission = { status: 'submitted', block: found.block.toString(), extrinsic_hash: found.extrinsicHash, call: found.call, error: null };
    status = 'submitted';
    evidence = { reconciled: { last_update: found.lastUpdate?.toString() ?? null, weights_match: found.weightsMatch } };
    // A timelocked commit found on chain: its reveal is confirmed later like any other (reveal-confirm.ts).
    // A hash commit's salt: this instance's commit store's, else the one kept with the epoch before sending.
    revealFields = landedRevealFields(found.hashCommit === undefined ? found : { ...found, hashCommit: withCommitFromRow(found.hashCommit, row) });
    // A commit whose reveal details could not be rebuilt (no record: an argument missing, no uid before its block; a
    // v2 commit without its bounds) still waits for a reveal: embargoed to its latest possible one, as an unknown
    // submission is (docs/spec.md G.6), never published at once.
    if (revealFields === undefined && COMMIT_CALL.test(found.call)) {
      const embargo = await unknownEmbargoOrRetry(deps, epoch);
      if (embargo === RETRY) return { epoch, status: 'pending', bundlePath: null };
      revealFields = embargo;
    }
  } else {
    // Its commit's salt (kept by the chain access while the outcome was unknown) is of no use once the finalized chain
    // is past the era's end without it.
    const kept = keptCommitHash(row);
    if (kept !== undefined && found.finalizedTo === undefined) await chain.forgetCommit?.(kept);
    // It never landed and never can (era over); while its epoch may still be submitted, send it now.
    const again =
      options.headEpoch === epoch + 1 && claim.pending !== undefined && u16 !== undefined && !deps.dryRun
        ? await resubmitNotLanded(deps, epoch, claim.pending, u16, options.epochLength)
        : undefined;
    if (again !== undefined && again.status !== 'too_late') {
      return { epoch, status: again.status, bundlePath: again.bundlePath, ...(again.bundleEmbargoed === true ? { bundleEmbargoed: true } : {}) };
    }
    const chainPart =
      found.finalizedTo === undefined
        ? `no final block up to ${found.checkedTo}`
        : `no block of the best chain up to ${found.checkedTo} (final up to ${found.finalizedTo})`;
    submission = notSubmitted(
      'not_landed',
      VALIDATOR_ERROR_CODES.submissionNotLanded,
      again === undefined
        ? `the submission is in ${chainPart} and its era is over: it did not land and is not submitted again (its epoch's window is closed)`
        : `the submission is in ${chainPart} and its era is over; its epoch ended before it could be sent again`,
    );
    status = 'not_landed';
    evidence = {
      reconciled: { checked_to: found.checkedTo.toString(), ...(found.finalizedTo === undefined ? {} : { finalized_to: found.finalizedTo.toString() }) },
    };
  }
  // What was kept before sending (a v2 commit, or what named a set_weights or timelocked commit, G.45) goes with the
  // outcome: replaced by the reveal fields, else cleared, as a close does (epoch-runner.ts).
  const fields = { status, submission: JSON.stringify({ ...submission, ...evidence }), ...(revealFields ?? { reveal: null }) };
  // The outcome and its bundle in one write, so a crash here leaves the row `submitting` (reconciled again).
  // Built off the event loop (the claim's text to a worker thread, docs/spec.md G.47): with the default `chain.wait:
  // inBlock` most epochs publish their bundle here, once a final block holds their weights.
  const bundlePath =
    claim.pending === undefined || row?.bundle === null || row?.bundle === undefined
      ? null
      : await publishClaimBundle(deps, { text: row.bundle, pending: claim.pending }, submission, epoch, fields);
  if (claim.pending === undefined) await storage.updateEpoch(epoch, fields, deps.fence?.());
  metrics.submissions.inc({ outcome: status === 'submitted' ? 'reconciled_submitted' : status });
  const held = claim.pending !== undefined && bundlePath === null;
  logger.warn(
    { epoch, status, block: submission.block, ...evidence },
    `submission reconciled with the chain: ${reconciledSentence(epoch, status, submission, held)}`,
  );
  return { epoch, status, bundlePath, ...(held ? { bundleEmbargoed: true } : {}) };
}

/**
 * What reconciliation recorded for an epoch, as the operator reads it in the log line after a restart: the epoch, what
 * the chain showed, what was recorded and whether the bundle is published or held (its numbers are the line's fields too).
 *
 * @param epoch - the epoch
 * @param status - the status recorded
 * @param submission - the submission recorded (its error says why for `not_landed` and `unknown`)
 * @param held - the bundle is stored but its file and answer wait for an embargo
 * @returns the sentence
 * @example reconciledSentence(7, 'submitted', { status: 'submitted', block: '361', … }, false)
 * // "epoch 7's weights, whose submission had not been confirmed (the validator stopped while submitting, or the chain did not say), are in final block 361: recorded submitted, not sent again; its bundle is published"
 */
function reconciledSentence(epoch: number, status: ReconcileOutcome['status'], submission: SubmissionRecord, held: boolean): string {
  const bundle = held ? 'its bundle is stored and held until its embargo lifts' : 'its bundle is published';
  if (status === 'submitted')
    return `epoch ${epoch}'s weights, whose submission had not been confirmed (the validator stopped while submitting, or the chain did not say), are in final block ${submission.block ?? '?'}: recorded submitted, not sent again; ${bundle}`;
  return `epoch ${epoch} recorded ${status}: ${submission.error?.message ?? 'no reason recorded'}; ${bundle}`;
}
