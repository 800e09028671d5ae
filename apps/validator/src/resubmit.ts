import type { buildBundle, SubmissionRecord } from '@subnet/bundle';
import { canonicalJson, isSubnetError } from '@subnet/core';

import type { EpochRunnerDeps } from './epoch-runner.js';
import { outcomeUnknown, publishBundle } from './epoch-runner.js';
import { leaseLost } from './lease-sql.js';
import { appError, VALIDATOR_ERROR_CODES } from './errors.js';
import { keepCommitWithEpoch, landedRevealFields } from './reveal-confirm.js';
import { changedUids, describeUidChanges, metagraphOf } from './uid-recheck.js';
import type { EpochFields } from './storage.js';

/** What {@link resubmitNotLanded} did. */
export interface ResubmitOutcome {
  /**
   * `submitted` (landed now, in a final block), `failed` (refused), `pending` (outcome unknown again, or in a block
   * that is not final yet: reconciled on the next ticks), `too_late` (the head left the epoch after it: nothing sent,
   * nothing written).
   */
  readonly status: 'submitted' | 'failed' | 'pending' | 'too_late';
  readonly bundlePath: string | null;
  /** The bundle is stored but embargoed (a timelocked commit): its file is written when the embargo lifts. */
  readonly bundleEmbargoed?: boolean;
}

/**
 * Submits again an epoch whose interrupted submission the chain proved never landed (no block holds it and
 * its mortal era is over, so it never can), while the head is still in the epoch right after it (the only
 * epoch in which its weights may be sent, as in a normal close). This is what makes every epoch submitted
 * exactly once when the leader dies between its claim and the extrinsic reaching a block (HA failover), and what
 * sets the weights of an epoch whose extrinsic a reorganisation dropped (docs/spec.md G.8).
 * The row stays `submitting`, with the new claim head, until the outcome is known; the outcome and the
 * bundle are one write. A uid the claim weights that changed hands since its metagraph was read stops it: recorded
 * `failed` with `VALIDATOR_UID_CHANGED`, nothing sent (docs/spec.md G.7).
 *
 * @param deps - storage, chain, signer, fence
 * @param epoch - the epoch
 * @param pending - the bundle input kept with the claim
 * @param u16 - the weights of the claim
 * @param epochLength - blocks per epoch: with it, the head is checked again right before anything is written
 * @returns what happened
 * @throws SubnetError `VALIDATOR_LEASE_LOST` when another instance took the lease over; `VALIDATOR_STORAGE`
 * @example await resubmitNotLanded(deps, 41, claim.pending, u16)
 */
export async function resubmitNotLanded(
  deps: EpochRunnerDeps,
  epoch: number,
  pending: Parameters<typeof buildBundle>[0],
  u16: { readonly uids: readonly number[]; readonly weights: readonly number[] },
  epochLength?: number,
): Promise<ResubmitOutcome> {
  const { storage, chain, metrics, logger } = deps;
  const claimHead = await chain.head();
  if (epochLength !== undefined && Number(claimHead / BigInt(epochLength)) !== epoch + 1) return { status: 'too_late', bundlePath: null };
  await storage.updateEpoch(epoch, { bundle: canonicalJson({ pending, pending_claim_head: claimHead.toString() }) }, deps.fence?.());
  const fence = deps.fence?.();
  if (fence !== undefined && !(await storage.checkFence(fence))) throw leaseLost(fence);
  let submission: SubmissionRecord;
  let revealFields: ReturnType<typeof landedRevealFields> | undefined;
  try {
    // The claim's vector was computed minutes ago (an era at least): never send it to uids that changed hands since
    // (docs/spec.md G.7). It is not recomputed: the claim's carried state is stored and the next epoch drew from it.
    const changes = await changedUids(chain, metagraphOf(pending.metagraph), u16);
    if (changes.length > 0) {
      for (const c of changes)
        logger.warn({ epoch, uid: c.uid, oldHotkey: c.expected, newHotkey: c.found }, 'uid changed hands since the claim: not submitting again');
      throw appError(
        VALIDATOR_ERROR_CODES.uidChanged,
        `uids the interrupted submission weights changed hands since its metagraph was read (${describeUidChanges(changes)}): it is not sent again`,
        { path: 'uids', value: changes.map((c) => c.uid) },
      );
    }
    const landed = await chain.setWeights(u16.uids, u16.weights, keepCommitWithEpoch(deps, epoch));
    if (!landed.finalized) {
      // Its block may still be replaced: reconciled from the new claim head once a final block holds it (G.8).
      metrics.submissions.inc({ outcome: 'awaiting_finality' });
      logger.warn({ epoch, block: landed.block.toString() }, 'submitted again within its epoch; waiting for a final block to hold it');
      return { status: 'pending', bundlePath: null };
    }
    revealFields = landedRevealFields(landed);
    submission = { status: 'submitted', block: landed.block.toString(), extrinsic_hash: landed.extrinsicHash, call: landed.call, error: null };
  } catch (error) {
    if (outcomeUnknown(error)) {
      metrics.submissions.inc({ outcome: 'reconciling' });
      logger.warn({ epoch }, 'resubmission outcome unknown; reconciling with the chain');
      return { status: 'pending', bundlePath: null };
    }
    const code = isSubnetError(error) ? error.code : 'VALIDATOR_UNEXPECTED';
    submission = { status: 'failed', block: null, extrinsic_hash: null, call: null, error: { code, message: (error as Error).message } };
  }
  const status: 'submitted' | 'failed' = submission.status === 'submitted' ? 'submitted' : 'failed';
  const fields: EpochFields = { status, submission: JSON.stringify({ ...submission, resubmitted: true }), ...(revealFields ?? { reveal: null }) };
  const bundlePath = await publishBundle(deps, { ...pending, submission }, epoch, fields);
  metrics.submissions.inc({ outcome: status === 'submitted' ? 'resubmitted' : 'failed' });
  logger.warn({ epoch, status, block: submission.block }, 'interrupted submission never landed; submitted again within its epoch');
  return { status, bundlePath, ...(bundlePath === null ? { bundleEmbargoed: true } : {}) };
}
