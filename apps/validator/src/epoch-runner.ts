import { buildBundle, signedBundleText } from '@subnet/bundle';
import type { BundleSigner, EpochComputation, EpochConfig, SubmissionRecord } from '@subnet/bundle';
import { CHAIN_ERROR_CODES } from '@subnet/chain';
import { isSubnetError } from '@subnet/core';
import type { Logger } from 'pino';

import { bundleFileDeferred, bundleFileHeld, writeBundleFileOrLog } from './bundle-file.js';
import type { ChainPort, ChainView } from './chain-port.js';
import { queriesFromRecords } from './dispatch/dispatch-records.js';
import { ComputationAbandoned, computeHere, inputOf, RecordsUnreadable } from './epoch-compute.js';
import type { ComputedEpoch, EpochComputer, EpochSource } from './epoch-compute.js';
import { appError, VALIDATOR_ERROR_CODES } from './errors.js';
import type { ValidatorMetrics } from './metrics.js';
import { leaseLost } from './lease-sql.js';
import type { EpochFields, EpochStatus, Fence, Storage } from './storage.js';
import { keepCommitWithEpoch, landedRevealFields } from './reveal-confirm.js';
import { changedUids, decideOnUidChanges } from './uid-recheck.js';
import type { UidDecision } from './uid-recheck.js';

/** Everything an epoch close needs. */
export interface EpochRunnerDeps {
  readonly netuid: number;
  readonly scoring: EpochConfig;
  readonly storage: Storage;
  readonly chain: ChainPort;
  /** Signs bundles; absent in dry-run (bundles are then written unsigned). */
  readonly signer: BundleSigner | undefined;
  readonly dryRun: boolean;
  readonly bundlesDir: string;
  readonly metrics: ValidatorMetrics;
  readonly logger: Logger;
  /**
   * Called with the epoch once its row (with the state it carries) is stored, before the weights are
   * submitted: the next epoch's task snapshot is taken here, so executors need not wait for the chain (optional).
   */
  readonly afterClaim?: (epoch: number) => Promise<void>;
  /** The leader lease's fence (HA): every epoch write and the submission check it; absent: unfenced. */
  readonly fence?: () => Fence | undefined;
  /**
   * Why this validator's hotkey is not registered, when the service knows (hotkey-departure.ts: a swap, a registration
   * that took its uid, the other hotkey of its wallet that is registered): said with a preflight the chain's
   * `HotKeyNotRegisteredInSubNet` refused, whose own words are only "not registered" (optional).
   */
  readonly notRegisteredCause?: () => string | undefined;
  /**
   * Computes the epoch off the event loop (a worker thread, docs/spec.md G.47), so the server answers during a close;
   * absent: `computeEpoch` on the event loop.
   */
  readonly computer?: EpochComputer;
}

/** The outcome of closing one epoch. */
export interface EpochOutcome {
  readonly epoch: number;
  readonly status: EpochStatus | 'skipped';
  readonly bundlePath: string | null;
  /**
   * The bundle is stored but its file is held: embargoed (commit-reveal v4), written when the embargo lifts, or refused
   * by `bundles.dir`, written once the folder takes files again (bundle-file.ts).
   */
  readonly bundleEmbargoed?: boolean;
  readonly u16: { readonly uids: readonly number[]; readonly weights: readonly number[] } | null;
  /** The submission record (null when skipped or not computed). */
  readonly submission?: SubmissionRecord | null;
}

/** The bundle as served and written: signed, or unsigned (`signature: null`) in dry-run. */
export interface StoredBundle {
  readonly bundle: unknown;
  readonly digest: string;
  readonly signature: string | null;
}

// Plain JavaScript, shared with the close's worker thread (epoch-worker.mjs), which parses the records there.
export { inputsFromRecords } from './epoch-inputs.mjs';

/**
 * The validator set and metagraph of the bundle from a chain view: stakes of neurons with a validator
 * permit (and of this validator, so its own evaluations count), every neuron's hotkey and uid.
 *
 * @param view - the chain view
 * @param self - this validator's hotkey
 * @returns `{ stakes, metagraph }` in wire form
 * @example stakeSet(await chain.view(), chain.hotkey)
 */
export function stakeSet(
  view: ChainView,
  self: string,
): { stakes: { validator_hotkey: string; stake: string }[]; metagraph: { hotkey: string; uid: number }[] } {
  return {
    stakes: view.neurons.filter((n) => n.validatorPermit || n.hotkey === self).map((n) => ({ validator_hotkey: n.hotkey, stake: n.stake.toString() })),
    metagraph: view.neurons.map((n) => ({ hotkey: n.hotkey, uid: n.uid })),
  };
}

function submissionOf(status: SubmissionRecord['status'], extra: Partial<SubmissionRecord> = {}): SubmissionRecord {
  return { status, block: null, extrinsic_hash: null, call: null, error: null, ...extra };
}

function errorOf(error: unknown): { code: string; message: string } {
  return { code: isSubnetError(error) ? error.code : 'VALIDATOR_UNEXPECTED', message: error instanceof Error ? error.message : String(error) };
}

/** Options of {@link closeEpoch}. */
export interface CloseOptions {
  /** Too late to submit: the head is already in this later epoch (compute and publish, send nothing). */
  readonly missedAtEpoch?: number;
}

/**
 * Closes one epoch: computes it from its records (`@subnet/bundle` computeEpoch), preflights, persists
 * `submitting`, submits, persists the outcome, and writes the signed audit bundle. An epoch that already
 * has a row is never computed nor submitted again. A missed epoch (`options.missedAtEpoch`) is computed
 * and published with status `missed` (epoch row and bundle) and a `VALIDATOR_EPOCH_MISSED` error; nothing is sent.
 *
 * @param deps - storage, chain, signer, configuration
 * @param epoch - the epoch that ended
 * @param options - whether it is too late to submit
 * @returns what happened
 * @example await closeEpoch(deps, 41)
 */
export async function closeEpoch(deps: EpochRunnerDeps, epoch: number, options: CloseOptions = {}): Promise<EpochOutcome> {
  // The computation is kept (in its worker thread) until the close has built its texts, then let go.
  const held: { current?: ComputedEpoch } = {};
  try {
    return await closeComputing(deps, epoch, options, held);
  } finally {
    held.current?.release();
  }
}

/** {@link closeEpoch}, with the computation in use kept in `held`. */
async function closeComputing(deps: EpochRunnerDeps, epoch: number, options: CloseOptions, held: { current?: ComputedEpoch }): Promise<EpochOutcome> {
  const { storage, chain, metrics, logger } = deps;
  const started = performance.now();
  const existing = await storage.getEpochHead(epoch);
  if (existing !== undefined) {
    metrics.submissions.inc({ outcome: 'skipped' });
    logger.info({ epoch, status: existing.status }, 'epoch already handled; not submitting again');
    return { epoch, status: 'skipped', bundlePath: null, u16: null };
  }
  const view = await chain.view();
  // HA: no instance can add a record to this epoch once it is sealed (epoch-seal.ts).
  await storage.sealEpoch?.(epoch);
  const records = await storage.records(epoch);
  const carry = await storage.latestCarry(epoch);
  // The epoch's axon queries (dispatch/), shown in the bundle; not an input of the computation.
  const queries = queriesFromRecords(records);
  // The computation's source from a chain view (a second view when uids changed hands before the send, G.7): the
  // records are parsed into its inputs where it is computed (`inputsFromRecords`, in the worker thread, G.47).
  const inputFrom = (v: ChainView): EpochInput => {
    const { stakes, metagraph } = stakeSet(v, chain.hotkey);
    return {
      records,
      carry,
      input: { config: deps.scoring, epoch, validatorHotkey: chain.hotkey, stakes, metagraph, ...(queries.length === 0 ? {} : { queries }) },
    };
  };
  let input = inputFrom(view);

  let computed: ComputedEpoch;
  try {
    computed = await computeOf(deps, input);
    held.current = computed;
  } catch (error) {
    // A stop abandoned the close (docs/spec.md G.10, G.47): nothing is recorded, the next start closes the epoch.
    if (error instanceof ComputationAbandoned) throw error;
    // Records storage cannot give back as JSON fail the step, not the epoch, as when they were read before computing.
    if (error instanceof RecordsUnreadable) throw error.original;
    const failure = errorOf(error);
    logger.error({ epoch, error: failure }, 'epoch computation failed');
    await storage.claimEpoch(epoch, { status: 'failed', submission: JSON.stringify(submissionOf('failed', { error: failure })) }, deps.fence?.());
    await afterClaim(deps, epoch);
    metrics.submissions.inc({ outcome: 'failed' });
    metrics.epochDuration.observe({ outcome: 'failed' }, (performance.now() - started) / 1000);
    return { epoch, status: 'failed', bundlePath: null, u16: null };
  }
  let u16 = JSON.stringify(computed.u16);
  let carryOut = computed.carry;

  let submission: SubmissionRecord;
  let status: EpochStatus;
  let published: PreparedBundle;
  // A timelocked commit: confirmed after the chain's reveal (reveal-confirm.ts), outside the signed bundle.
  let revealFields: ReturnType<typeof landedRevealFields> | undefined;
  if (options.missedAtEpoch !== undefined) {
    submission = submissionOf('missed', {
      error: {
        code: VALIDATOR_ERROR_CODES.epochMissed,
        message: `epoch ${epoch} was closed while the head was in epoch ${options.missedAtEpoch}: too late to submit; its weights are computed and published, nothing was sent`,
      },
    });
    status = 'missed';
    published = await bundleOf(deps, computed, submission);
    if (!(await storage.claimEpoch(epoch, { status, u16, carry: carryOut, submission: JSON.stringify(submission), ...published.fields }, deps.fence?.())))
      return { epoch, status: 'skipped', bundlePath: null, u16: null };
    await afterClaim(deps, epoch);
    metrics.submissions.inc({ outcome: 'missed' });
    metrics.missedEpochs.inc();
    logger.warn(
      { code: VALIDATOR_ERROR_CODES.epochMissed, epoch, headEpoch: options.missedAtEpoch, records: records.length },
      'missed epoch: too late to submit; bundle published with status missed',
    );
  } else if (deps.dryRun) {
    submission = submissionOf('dry_run');
    status = 'dry_run';
    published = await bundleOf(deps, computed, submission);
    if (!(await storage.claimEpoch(epoch, { status: 'dry_run', u16, carry: carryOut, ...published.fields }, deps.fence?.())))
      return { epoch, status: 'skipped', bundlePath: null, u16: null };
    await afterClaim(deps, epoch);
  } else {
    // Preflight, then who holds the weighted uids now (G.7): a vector whose uids changed hands is never sent.
    const checked = await checkBeforeSend(deps, epoch, { input, computed }, inputFrom, held);
    if (checked.computed !== computed) {
      ({ input, computed } = checked);
      u16 = JSON.stringify(computed.u16);
      carryOut = computed.carry;
    }
    const preflightError = checked.error;
    if (preflightError !== undefined) {
      submission = submissionOf('failed', { error: errorOf(preflightError) });
      status = 'failed';
      published = await bundleOf(deps, computed, submission);
      if (!(await storage.claimEpoch(epoch, { status, u16, carry: carryOut, submission: JSON.stringify(submission), ...published.fields }, deps.fence?.()))) {
        return { epoch, status: 'skipped', bundlePath: null, u16: null };
      }
      await afterClaim(deps, epoch);
      metrics.submissions.inc({ outcome: 'preflight_failed' });
      const cause = isSubnetError(preflightError, CHAIN_ERROR_CODES.hotKeyNotRegisteredInSubNet) ? deps.notRegisteredCause?.() : undefined;
      if (cause === undefined) logger.warn({ epoch, error: submission.error }, 'preflight or uid check failed; not submitting');
      else logger.warn({ epoch, error: submission.error, cause }, `preflight failed, not submitting: the hotkey is not registered: ${cause}`);
    } else {
      // Persist "submitting" before the extrinsic leaves: a crash after this point never resubmits.
      // The input is kept with the claim so that an interrupted submission can still publish its bundle.
      // The head at the claim bounds the chain scan of a later reconciliation (reconcile.ts).
      const claimHead = await chain.head();
      const pending = await computed.pendingText(deps.netuid, claimHead.toString());
      if (!(await storage.claimEpoch(epoch, { status: 'submitting', u16, carry: carryOut, bundle: pending }, deps.fence?.()))) {
        return { epoch, status: 'skipped', bundlePath: null, u16: null };
      }
      await afterClaim(deps, epoch);
      try {
        // Fencing: a paused old leader that lost the lease never sends (the claim above was fenced too).
        const fence = deps.fence?.();
        if (fence !== undefined && !(await storage.checkFence(fence))) throw leaseLost(fence);
        const landed = await chain.setWeights(computed.u16.uids, computed.u16.weights, keepCommitWithEpoch(deps, epoch));
        // In a block a reorganisation may still replace: reconciliation signs the bundle once a final block holds it (G.8).
        if (!landed.finalized) return awaitingFinality(deps, epoch, landed, computed.u16);
        revealFields = landedRevealFields(landed);
        submission = submissionOf('submitted', { block: landed.block.toString(), extrinsic_hash: landed.extrinsicHash, call: landed.call });
        status = 'submitted';
      } catch (error) {
        if (outcomeUnknown(error)) {
          // Sent but not seen in a block (connection lost, inclusion wait over): the row stays
          // `submitting` and is reconciled with the chain on the next ticks (reconcile.ts).
          metrics.submissions.inc({ outcome: 'reconciling' });
          logger.warn({ epoch, error: errorOf(error) }, 'weight submission outcome unknown; reconciling with the chain');
          return { epoch, status: 'submitting', bundlePath: null, u16: computed.u16 };
        }
        submission = submissionOf('failed', { error: errorOf(error) });
        status = 'failed';
        logger.warn({ epoch, error: submission.error }, 'weight submission failed');
      }
      // The outcome and the bundle in one write: a crash never leaves a final status without its bundle.
      published = await bundleOf(deps, computed, submission);
      // A failed commit's salt, kept with the epoch before sending, is dropped: the commit never landed.
      await storage.updateEpoch(
        epoch,
        { status, submission: JSON.stringify(submission), ...published.fields, ...(revealFields ?? { reveal: null }) },
        deps.fence?.(),
      );
      metrics.submissions.inc({ outcome: status });
    }
  }
  if (status === 'dry_run') metrics.submissions.inc({ outcome: 'dry_run' });
  // An embargoed epoch's file is written when its embargo lifts (bundle-file.ts, reveal-confirm.ts); one that carries the
  // state of an earlier embargoed epoch when that one's lifts (docs/spec.md G.23).
  const deferred = bundleFileDeferred(revealFields ?? {}) || (await bundleFileHeld(storage, epoch));
  // A folder that refuses the file (read-only, full) holds it like an embargo: written once it takes files again.
  const bundlePath = deferred ? null : writeBundleFileOrLog(deps, epoch, published.text);
  metrics.epochDuration.observe({ outcome: status }, (performance.now() - started) / 1000);
  logger.info(
    {
      epoch,
      status,
      records: records.length,
      uids: computed.u16.uids.length,
      bundle: bundlePath,
      // How long the computation took and where (the recomputation's, after a uid changed hands).
      computeSeconds: Number(computed.seconds.toFixed(3)),
      computedOn: computed.computedOn,
    },
    'epoch closed',
  );
  return { epoch, status, bundlePath, ...(bundlePath === null ? { bundleEmbargoed: true } : {}), u16: computed.u16, submission };
}

/** The computation's source: its records and carry, and the rest of `computeEpoch`'s input (metagraph with uids). */
type EpochInput = EpochSource & { readonly input: { readonly metagraph: { hotkey: string; uid: number }[] } };

/** The epoch computed by the runner's computer (a worker thread), else on the event loop. */
function computeOf(deps: EpochRunnerDeps, input: EpochInput): Promise<ComputedEpoch> {
  return deps.computer === undefined ? Promise.resolve().then(() => computeHere(inputOf(input))) : deps.computer.compute(input);
}

/** The close's bundle with its submission, signed unless dry run, and the epoch row fields that store it. */
async function bundleOf(deps: EpochRunnerDeps, computed: ComputedEpoch, submission: SubmissionRecord): Promise<PreparedBundle> {
  return preparedOf(await computed.signedBundle(deps.netuid, submission, deps.dryRun ? undefined : deps.signer));
}

/** A computation ready to send, or the error that stops its sending (with the computation the bundle records). */
interface CheckedComputation {
  readonly input: EpochInput;
  readonly computed: ComputedEpoch;
  readonly error: unknown;
}

/**
 * The checks just before a weight vector is claimed and sent: the chain's preflight, then whether every uid it gives
 * weight to is still held by the hotkey the computation used (one keyed read, uid-recheck.ts). When some changed
 * hands, each is logged (uid, old and new hotkey) and the epoch is computed once more from a fresh metagraph, whose
 * vector is checked the same way; when uids changed hands again, nothing is sent (`VALIDATOR_UID_CHANGED`,
 * docs/spec.md G.7). A failed read, view or recomputation is the epoch's failure, as a failed preflight.
 */
async function checkBeforeSend(
  deps: EpochRunnerDeps,
  epoch: number,
  first: { readonly input: EpochInput; readonly computed: ComputedEpoch },
  inputFrom: (view: ChainView) => EpochInput,
  held: { current?: ComputedEpoch },
): Promise<CheckedComputation> {
  let current = first;
  let recomputed = false;
  for (;;) {
    let decision: UidDecision;
    try {
      await deps.chain.preflight(current.computed.u16.uids, current.computed.u16.weights);
      decision = decideOnUidChanges(await changedUids(deps.chain, current.input.input.metagraph, current.computed.u16), recomputed);
    } catch (error) {
      return { ...current, error };
    }
    if (decision.action === 'send') return { ...current, error: undefined };
    const again = decision.action === 'fail';
    for (const c of decision.changes) {
      deps.logger.warn(
        { epoch, uid: c.uid, oldHotkey: c.expected, newHotkey: c.found },
        again
          ? 'uid changed hands again after the recomputation: not sending'
          : 'uid changed hands since the metagraph was read: recomputing the epoch from a fresh metagraph',
      );
    }
    if (decision.action === 'fail') {
      const error = appError(decision.error.code, decision.error.message, { path: 'uids', value: decision.changes.map((c) => c.uid) });
      return { ...current, error };
    }
    try {
      const input = inputFrom(await deps.chain.view());
      // The first computation is done with: its worker thread ends before the next starts (one at a time).
      current.computed.release();
      const computed = await computeOf(deps, input);
      held.current = computed;
      current = { input, computed };
    } catch (error) {
      if (error instanceof ComputationAbandoned) throw error;
      if (error instanceof RecordsUnreadable) throw error.original;
      return { ...current, error };
    }
    recomputed = true;
  }
}

/**
 * The close of an epoch whose extrinsic is in a block finality has not reached: the row stays `submitting` (its claim
 * keeps the input and the claim head) and reconciliation, on the next ticks, records the block that is final, or
 * submits again when a reorganisation dropped it (reconcile.ts). No bundle names a block that may still be replaced.
 *
 * @param deps - metrics and logger
 * @param epoch - the epoch
 * @param landed - the submission as the chain access returned it
 * @param u16 - the weights sent
 * @returns the outcome, status `submitting`
 */
function awaitingFinality(
  deps: EpochRunnerDeps,
  epoch: number,
  landed: { readonly block: bigint; readonly blockHash: string; readonly extrinsicHash: string },
  u16: EpochComputation['u16'],
): EpochOutcome {
  deps.metrics.submissions.inc({ outcome: 'awaiting_finality' });
  deps.logger.info(
    { epoch, block: landed.block.toString(), blockHash: landed.blockHash, extrinsicHash: landed.extrinsicHash },
    'weights in a block that is not final yet; the bundle is signed once a final block holds them',
  );
  return { epoch, status: 'submitting', bundlePath: null, u16 };
}

/** Runs the after-claim hook; its failure is logged, never the epoch's. */
async function afterClaim(deps: EpochRunnerDeps, epoch: number): Promise<void> {
  try {
    await deps.afterClaim?.(epoch);
  } catch (error) {
    deps.logger.warn({ error: errorOf(error) }, 'after-claim step failed (it is retried on the next tick)');
  }
}

/**
 * `@subnet/chain` codes after which the chain decides the outcome later: the extrinsic may have been sent and may
 * still land (`CHAIN_INCLUSION_TIMEOUT`, also a finality wait that ran out, `CHAIN_CONNECTION_LOST`,
 * `CHAIN_REQUEST_TIMEOUT`), or its era ended with it in no block of the best chain (`CHAIN_EXTRINSIC_DROPPED`, e.g. a
 * reorganisation replaced its block and no pool resubmitted it): reconciliation then submits again while the epoch's
 * window is open (reconcile.ts, resubmit.ts) or records it `not_landed`.
 */
const OUTCOME_UNKNOWN_CODES: readonly string[] = [
  'CHAIN_INCLUSION_TIMEOUT',
  'CHAIN_CONNECTION_LOST',
  'CHAIN_REQUEST_TIMEOUT',
  'CHAIN_EXTRINSIC_DROPPED',
  // the chain access's: landed, but what follows the landing could not be read
  VALIDATOR_ERROR_CODES.submissionUnknown,
];

/**
 * Whether a submission error leaves the outcome to reconciliation (the extrinsic may have been sent and may still
 * land, or it was dropped and may be submitted again within the epoch's window).
 *
 * @param error - what `setWeights` threw
 * @returns true for `CHAIN_INCLUSION_TIMEOUT`, `CHAIN_CONNECTION_LOST`, `CHAIN_REQUEST_TIMEOUT`, `CHAIN_EXTRINSIC_DROPPED`
 * @example if (outcomeUnknown(error)) return 'reconcile later'
 */
export function outcomeUnknown(error: unknown): boolean {
  return OUTCOME_UNKNOWN_CODES.some((code) => isSubnetError(error, code));
}

/**
 * Builds, signs (unless dry run) and stores an epoch's bundle, and writes `bundles/epoch-<n>.json` (unless the
 * fields embargo it, or an earlier epoch is embargoed: then the file is written when the embargo lifts, bundle-file.ts).
 *
 * @param deps - storage, signer, bundles folder
 * @param input - the bundle's input
 * @param epoch - the epoch
 * @param fields - epoch row fields written in the same update (the final status and submission)
 * @returns the bundle file's path, or null when its writing waits for the embargo
 * @example await publishBundle(deps, { ...pending, submission }, 41)
 */
export async function publishBundle(
  deps: EpochRunnerDeps,
  input: Parameters<typeof buildBundle>[0],
  epoch: number,
  fields: EpochFields = {},
): Promise<string | null> {
  return storeBundle(deps, signedBundle(deps, input), epoch, fields);
}

/**
 * {@link publishBundle} for reconciliation, from the `submitting` claim's text as stored (`{ pending,
 * pending_claim_head }`): with the runner's computer, the claim is parsed and the bundle built (its `computeEpoch`
 * included) in a worker thread, so the event loop is not held for as long as an epoch takes to compute (docs/spec.md
 * G.47); without one, here.
 *
 * @param deps - storage, signer, bundles folder, computer
 * @param claim - the claim's text and its parsed `pending` input
 * @param submission - the outcome's submission record
 * @param epoch - the epoch
 * @param fields - epoch row fields written in the same update (the final status and submission)
 * @returns the bundle file's path, or null when its writing waits for the embargo
 * @example await publishClaimBundle(deps, { text: row.bundle, pending: claim.pending }, submission, 41, fields)
 */
export async function publishClaimBundle(
  deps: EpochRunnerDeps,
  claim: { readonly text: string; readonly pending: Omit<Parameters<typeof buildBundle>[0], 'submission'> },
  submission: SubmissionRecord,
  epoch: number,
  fields: EpochFields = {},
): Promise<string | null> {
  if (deps.computer === undefined) return publishBundle(deps, { ...claim.pending, submission }, epoch, fields);
  return storeBundle(deps, preparedOf(await deps.computer.claimBundle(epoch, claim.text, submission, deps.dryRun ? undefined : deps.signer)), epoch, fields);
}

/** Stores a signed bundle with the outcome's fields and writes its file (unless embargoed or held). */
async function storeBundle(deps: EpochRunnerDeps, prepared: PreparedBundle, epoch: number, fields: EpochFields): Promise<string | null> {
  // With `fields` (the final status and submission), the outcome and its bundle are one write.
  await deps.storage.updateEpoch(epoch, { ...fields, ...prepared.fields }, deps.fence?.());
  // Held, too, while an earlier epoch is embargoed: this bundle carries its state (docs/spec.md G.23).
  return bundleFileDeferred(fields) || (await bundleFileHeld(deps.storage, epoch)) ? null : writeBundleFileOrLog(deps, epoch, prepared.text);
}

/** A built and signed bundle, and the epoch row fields that store it. */
interface PreparedBundle {
  /** The signed document's canonical JSON: the bytes stored, served and written. */
  readonly text: string;
  readonly fields: { readonly bundle: string; readonly digest: string };
}

/** Builds and signs (unless dry run) an epoch's bundle. */
function signedBundle(deps: EpochRunnerDeps, input: Parameters<typeof buildBundle>[0]): PreparedBundle {
  const bundle = buildBundle(input);
  // One serialisation: the bundle's canonical JSON gives the digest, the signature and the stored,
  // served and written text.
  return preparedOf(signedBundleText(bundle, deps.dryRun ? undefined : deps.signer));
}

/** A signed bundle's text and digest as the epoch row stores them. */
function preparedOf(signed: { readonly text: string; readonly digest: string }): PreparedBundle {
  return { text: signed.text, fields: { bundle: signed.text, digest: signed.digest } };
}
