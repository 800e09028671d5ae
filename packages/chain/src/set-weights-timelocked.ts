import { chainUpscale } from './chain-upscale.js';
import { awaitTimelockedReveal } from './await-timelocked-reveal.js';
import type { ClientContext } from './client-context.js';
import type { WeightsSubmission } from './client-types.js';
import type { PreparedWeights } from './prepared-weights.js';
import { readTimelockContext } from './timelock-context.js';
import { prepareTimelockedCommit, timelockedCommitCall, timelockedCommitRecord } from './timelock-commit.js';

/**
 * The timelocked commit-reveal (v4) path: the weights are encrypted to the drand round predicted for the reveal
 * epoch, `commit_timelocked_mechanism_weights` (or `commit_timelocked_weights`) is confirmed by its
 * `TimelockedWeightsCommitted` event, and, unless `waitForReveal` is false, the chain's own reveal is waited for.
 *
 * @param ctx - the client context (its timelock options)
 * @param prepared - the checked weights
 * @param waitForReveal - wait for the chain's reveal (default `timelock.waitForReveal`, true)
 * @returns a `commit` submission (reveal not waited for) or a `reveal` one (confirmed reveal)
 * @throws SubnetError `CHAIN_TIMELOCK_*`, `CHAIN_CALL_NOT_AVAILABLE`, `CHAIN_WEIGHTS_NOT_CONFIRMED`, or a
 *   submission's `CHAIN_*` code
 */
export async function setWeightsTimelocked(ctx: ClientContext, prepared: PreparedWeights, waitForReveal: boolean | undefined): Promise<WeightsSubmission> {
  const { netuid, mecid, wait, snapshot, uid, uids, values, versionKey } = prepared;
  const context = await readTimelockContext(ctx.connection, snapshot.blockHash, ctx.timelock);
  const { commit, prediction } = prepareTimelockedCommit({ snapshot, context, hotkeyPublicKey: ctx.signer.publicKey, uids, values, versionKey });
  const call = timelockedCommitCall(ctx.connection.api, mecid);
  const label = `SubtensorModule.${call.name}`;
  const inclusion = await ctx.submit(label, () => call.build(netuid, commit.commit, commit.round), wait);
  const record = timelockedCommitRecord(inclusion, {
    hotkey: ctx.signer.address,
    netuid,
    mecid,
    netuidIndex: snapshot.netuidIndex,
    uid,
    uids,
    values,
    versionKey,
    revealRound: commit.round,
    commit: commit.commit,
    prediction: {
      schedule: prediction.schedule,
      commitEpoch: prediction.commitEpoch,
      revealEpoch: prediction.revealEpoch,
      revealBlock: prediction.revealBlock,
      targetBlock: prediction.targetBlock,
    },
  });
  const waitReveal = waitForReveal ?? ctx.timelock?.waitForReveal ?? true;
  const revealed = waitReveal ? await awaitTimelockedReveal(ctx, record, { wait }) : null;
  return Object.freeze({
    kind: revealed === null ? ('commit' as const) : ('reveal' as const),
    call: label,
    netuid,
    mecid,
    uid,
    uids,
    values,
    stored: chainUpscale(values),
    versionKey,
    blockHash: revealed?.blockHash ?? inclusion.blockHash,
    blockNumber: revealed?.blockNumber ?? inclusion.blockNumber,
    extrinsicHash: inclusion.extrinsicHash,
    nonce: inclusion.nonce,
    finalized: revealed === null ? inclusion.finalized : revealed.finalized,
    commitHash: record.commitHash,
    timelock: Object.freeze({ record, beaconSource: context.beaconSource, explanation: prediction.explanation, reveal: revealed }),
  });
}
