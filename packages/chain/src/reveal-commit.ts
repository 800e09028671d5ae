import { chainError } from './chain-error.js';
import type { ClientContext } from './client-context.js';
import { requireCommitStore } from './client-context.js';
import type { WeightsSubmission } from './client-types.js';
import type { PendingCommit } from './commit-store.js';
import type { MetagraphSnapshot } from './metagraph-snapshot.js';
import { readBackWeights } from './read-back-weights.js';
import { callLabel, hasEvent, pickCall } from './runtime-calls.js';

/**
 * Reveals one stored commit-reveal v2 commit (`reveal_mechanism_weights` or `reveal_weights`), confirmed by its
 * `WeightsRevealed` event and by reading `Weights` back; the salt is then removed from the store.
 *
 * @param ctx - the client context
 * @param commit - the stored commit
 * @param snapshot - the metagraph at the head (checked by the preflight)
 * @param uid - the signer's uid
 * @param wait - `inBlock` or `finalized`
 * @returns the `reveal` submission
 * @throws SubnetError a preflight `CHAIN_*` code, `CHAIN_CALL_NOT_AVAILABLE`, `CHAIN_WEIGHTS_NOT_CONFIRMED`, or a
 *   submission's code
 */
export async function revealCommit(
  ctx: ClientContext,
  commit: PendingCommit,
  snapshot: MetagraphSnapshot,
  uid: number,
  wait: 'inBlock' | 'finalized',
): Promise<WeightsSubmission> {
  const check = ctx.checked({ snapshot, hotkey: ctx.signer.address, uids: commit.uids, values: commit.values, versionKey: commit.versionKey, kind: 'reveal' });
  const first = check.errors[0];
  if (first) throw first;
  const call = pickCall(ctx.connection.api, commit.mecid, 'revealMechanismWeights', 'revealWeights');
  const label = callLabel(call);
  const inclusion = await ctx.submit(
    label,
    () =>
      call.withMecid
        ? call.fn(commit.netuid, commit.mecid, [...commit.uids], [...commit.values], [...commit.salt], commit.versionKey)
        : call.fn(commit.netuid, [...commit.uids], [...commit.values], [...commit.salt], commit.versionKey),
    wait,
  );
  const confirmCtx = {
    extrinsicHash: inclusion.extrinsicHash,
    blockHash: inclusion.blockHash,
    blockNumber: inclusion.blockNumber,
    commitHash: commit.commitHash,
  };
  if (!hasEvent(inclusion, 'WeightsRevealed', () => true)) {
    throw chainError('WeightsNotConfirmed', 'the reveal was included without a WeightsRevealed event', { source: 'client', stage: 'confirm', ...confirmCtx });
  }
  const stored = await readBackWeights(
    ctx.connection,
    inclusion,
    { netuidIndex: commit.netuidIndex, uid, uids: commit.uids, values: commit.values },
    confirmCtx,
  );
  await requireCommitStore(ctx, commit.netuid).remove(commit.commitHash);
  return Object.freeze({
    kind: 'reveal' as const,
    call: label,
    netuid: commit.netuid,
    mecid: commit.mecid,
    uid,
    uids: commit.uids,
    values: commit.values,
    stored,
    versionKey: commit.versionKey,
    blockHash: inclusion.blockHash,
    blockNumber: inclusion.blockNumber,
    extrinsicHash: inclusion.extrinsicHash,
    nonce: inclusion.nonce,
    finalized: inclusion.finalized,
    commitHash: commit.commitHash,
  });
}
