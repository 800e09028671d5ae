import { blake2AsHex } from '@polkadot/util-crypto';

import { chainUpscale } from './chain-upscale.js';
import { awaitTimelockedReveal } from './await-timelocked-reveal.js';
import type { ClientContext } from './client-context.js';
import type { WeightsSubmission } from './client-types.js';
import { legacyEpochFirstBlock } from './epoch-schedule.js';
import { toBig } from './metagraph.js';
import type { PreparedWeights } from './prepared-weights.js';
import { readTimelockContext } from './timelock-context.js';
import { prepareTimelockedCommit, timelockedCommitCall, timelockedCommitRecord } from './timelock-commit.js';
import type { TimelockedCommitRecord } from './timelock-commit.js';
import { commitEpochOf, storageEntry } from './timelock-reveal-walk.js';

/** The subnet's `Tempo` at the commit block (what its epoch was filed with); null, logged, when it cannot be read. */
async function tempoAtCommit(ctx: ClientContext, record: TimelockedCommitRecord): Promise<number | null> {
  try {
    const at = await ctx.connection.request('api.at', (api) => api.at(record.commitBlockHash));
    return Number(toBig(await ctx.connection.request('Tempo', () => storageEntry(at, 'subtensorModule', 'tempo')(record.netuid))));
  } catch (error) {
    ctx.logger?.warn?.(`could not read the tempo the timelocked commit was filed with: ${error instanceof Error ? error.message : String(error)}`, {
      commitHash: record.commitHash,
      block: record.commitBlock,
    });
    return null;
  }
}

/**
 * The epoch the chain filed a just-included commit under, and a warning when that is not the predicted one. A later
 * epoch: the commit waited in the pool across an epoch boundary, so the chain reveals it (landed - predicted) epochs
 * later than its drand round was chosen for, and anyone can decrypt it for about that long before the reveal
 * (reveal_commits.rs reveals the queue of `current epoch - reveal period` with any stored pulse). An earlier one: the
 * epochs were renumbered (a tempo change on spec 393). A failed read is logged and gives null: the commit is already
 * on chain, and the reveal is confirmed from the queue either way. With the epoch comes the block the chain is expected
 * to reveal the commit in (`timelock.revealBlock` of the submission).
 */
async function landedEpoch(
  ctx: ClientContext,
  record: TimelockedCommitRecord,
  tempo: number,
  blockTimeSeconds: number,
): Promise<{ readonly epoch: bigint | null; readonly revealBlock: bigint | null }> {
  const base = { source: 'client' as const, stage: 'confirm' as const, commitHash: record.commitHash, netuid: record.netuid, mecid: record.mecid };
  let epoch: bigint;
  try {
    epoch = await commitEpochOf(ctx.connection, record, base);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.logger?.warn?.(`could not read which epoch the timelocked commit was filed under: ${message}`, {
      commitHash: record.commitHash,
      block: record.commitBlock,
    });
    return { epoch: null, revealBlock: record.prediction?.revealBlock ?? null };
  }
  const predicted = record.prediction;
  if (predicted === null) return { epoch, revealBlock: null };
  if (epoch === predicted.commitEpoch) return { epoch, revealBlock: predicted.revealBlock };
  const revealEpoch = epoch + (predicted.revealEpoch - predicted.commitEpoch);
  const landed = `timelocked commit landed in block ${record.commitBlock}, epoch ${epoch}, not epoch ${predicted.commitEpoch} as predicted: `;
  // On spec 393 the epoch is (block + netuid + 1) / (tempo + 1): the tempo the commit was filed with gives its reveal
  // epoch's first block exactly (`legacyEpochFirstBlock`), and a tempo other than the
  // snapshot's means the epochs were renumbered under the waiting commit (a raise lowers the index, a cut raises it).
  // On Subtensor main the epoch is a counter no tempo change renumbers, so only a later epoch is possible there.
  const filedTempo = predicted.schedule === 'legacy' ? await tempoAtCommit(ctx, record) : null;
  const renumbered = epoch < predicted.commitEpoch || (filedTempo !== null && filedTempo !== tempo);
  let revealBlock: bigint | null = null;
  if (filedTempo !== null) revealBlock = legacyEpochFirstBlock(record.netuid, filedTempo, revealEpoch);
  else if (!renumbered) {
    // A late commit: about `late` epochs after the predicted reveal block. An epoch is `tempo` blocks on the stateful
    // runtime (run_coinbase.rs:1085 at 14bc6f9f9), `tempo + 1` on the legacy one.
    const epochBlocks = BigInt(tempo) + (predicted.schedule === 'stateful' ? 0n : 1n);
    revealBlock = predicted.revealBlock + (epoch - predicted.commitEpoch) * epochBlocks;
  }
  let consequence: string;
  if (!renumbered && revealBlock !== null) {
    // The round is published at the predicted target block, the weights revealed at `revealBlock`.
    const exposed = revealBlock - predicted.targetBlock;
    const minutes = Math.round((Number(exposed) * blockTimeSeconds) / 60);
    consequence =
      `the chain reveals it in epoch ${revealEpoch}, about ${exposed} blocks (${minutes} min at tempo ${tempo}) after its drand round ` +
      `${record.revealRound} is published, and anyone can decrypt these weights in between`;
  } else {
    consequence =
      `the subnet's epochs were renumbered since the prediction (a tempo change?), so the chain reveals it in its epoch ${revealEpoch}, ` +
      (revealBlock === null
        ? 'not at the predicted block; the reveal is confirmed where the chain takes it'
        : `from block ${revealBlock} (tempo ${filedTempo} at the commit block), not at the predicted block ${predicted.revealBlock}`);
  }
  ctx.logger?.warn?.(landed + consequence, {
    commitHash: record.commitHash,
    commitBlock: record.commitBlock,
    commitEpoch: epoch,
    predictedCommitEpoch: predicted.commitEpoch,
    predictedRevealBlock: predicted.revealBlock,
    revealRound: record.revealRound,
    revealBlock,
  });
  return { epoch, revealBlock };
}

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
  const onSigned = prepared.onSigned;
  const commitHash = blake2AsHex(commit.commit, 256);
  const inclusion = await ctx.submit(
    label,
    () => call.build(netuid, commit.commit, commit.round),
    wait,
    onSigned === undefined
      ? undefined
      : (signed) => onSigned({ kind: 'timelocked', extrinsicHash: signed.extrinsicHash, call: label, commitHash, revealRound: commit.round }),
  );
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
  const landed = await landedEpoch(ctx, record, snapshot.hyperparameters.tempo, context.blockTimeSeconds);
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
    timelock: Object.freeze({
      record,
      commitEpoch: landed.epoch,
      revealBlock: landed.revealBlock,
      beaconSource: context.beaconSource,
      explanation: prediction.explanation,
      reveal: revealed,
    }),
  });
}
