import { webcrypto } from 'node:crypto';

import { chainError } from './chain-error.js';
import { CHAIN_ERROR_CODES } from './error-codes.js';
import { chainUpscale } from './chain-upscale.js';
import type { ClientContext } from './client-context.js';
import { requireCommitStore } from './client-context.js';
import type { WeightsSubmission } from './client-types.js';
import { weightCommitHash } from './commit-hash.js';
import type { PendingCommit } from './commit-store.js';
import { readMetagraph } from './metagraph.js';
import type { PreparedWeights } from './prepared-weights.js';
import { callLabel, hasEvent, pickCall } from './runtime-calls.js';
import type { RevealWindow } from './reveal-window.js';
import type { Inclusion } from './submit-extrinsic.js';
import { commitRevealWindow, readWeightCommits } from './weight-commits.js';

function randomSalt(): number[] {
  const salt = new Uint16Array(8);
  webcrypto.getRandomValues(salt);
  return [...salt];
}

/** Submission errors after which a commit may be (or become) on chain although the call failed. */
const MAY_HAVE_LANDED: ReadonlySet<string> = new Set([
  CHAIN_ERROR_CODES.inclusionTimeout,
  CHAIN_ERROR_CODES.clientClosed,
  CHAIN_ERROR_CODES.connectionLost,
  CHAIN_ERROR_CODES.requestTimeout,
]);

/**
 * The commit-reveal v2 path: `commit_mechanism_weights` (or `commit_weights`) is signed with the hash of a random
 * salt, the salt is stored durably with the commit's era end before the bytes are sent, and the commit is confirmed
 * by its `WeightsCommitted` event; the reveal is owed later (`revealPending`). The salt is dropped again when the
 * commit cannot land; it is kept when the outcome is unknown (`CHAIN_INCLUSION_TIMEOUT`, `CHAIN_CLIENT_CLOSED`,
 * `CHAIN_CONNECTION_LOST`, `CHAIN_REQUEST_TIMEOUT`) until `revealPending` sees the finalized chain past its era.
 *
 * @param ctx - the client context (its commit store is required)
 * @param prepared - the checked weights
 * @returns the `commit` submission with its commit hash and predicted reveal window
 * @throws SubnetError `CHAIN_INVALID_INPUT` (no commit store), `CHAIN_CALL_NOT_AVAILABLE`,
 *   `CHAIN_WEIGHTS_NOT_CONFIRMED`, or a submission's `CHAIN_*` code
 */
export async function commitRevealWeights(ctx: ClientContext, prepared: PreparedWeights): Promise<WeightsSubmission> {
  const { netuid, mecid, wait, snapshot, uid, uids, values, versionKey } = prepared;
  const hotkey = ctx.signer.address;
  const store = requireCommitStore(ctx, netuid);
  const salt = randomSalt();
  const commitHash = weightCommitHash({ hotkey, netuidIndex: snapshot.netuidIndex, uids, values, salt, versionKey });
  const pending: PendingCommit = Object.freeze({
    hotkey,
    netuid,
    mecid,
    netuidIndex: snapshot.netuidIndex,
    uids,
    values,
    salt: Object.freeze(salt),
    versionKey,
    commitHash,
    commitBlock: null,
  });
  let inclusion: Inclusion;
  let label: string;
  const saved = { kept: false };
  try {
    const call = pickCall(ctx.connection.api, mecid, 'commitMechanismWeights', 'commitWeights');
    label = callLabel(call);
    // The salt is kept once the commit is signed and before it is sent, with the last block it can land in: a kept
    // commit the finalized chain passed that block without is forgotten by revealPending, never kept for ever.
    inclusion = await ctx.submit(
      label,
      () => (call.withMecid ? call.fn(netuid, mecid, commitHash) : call.fn(netuid, commitHash)),
      wait,
      async ({ mortalUntil }) => {
        await store.save({ ...pending, mortalUntil });
        saved.kept = true;
      },
    );
  } catch (error) {
    // Keep the salt while the commit may have landed or may still land: the wait ended, the client was closed, or
    // the connection failed while it was followed. Only an answer that it never lands (a rejection, a failed
    // dispatch, its era over) forgets it. A save that failed sent nothing and kept nothing: its error is the call's.
    if (saved.kept && !MAY_HAVE_LANDED.has(String((error as { code?: unknown }).code))) await store.remove(commitHash);
    throw error;
  }
  const confirmCtx = { extrinsicHash: inclusion.extrinsicHash, blockHash: inclusion.blockHash, blockNumber: inclusion.blockNumber, commitHash };
  if (!hasEvent(inclusion, 'WeightsCommitted', (d) => String(d[2]) === commitHash)) {
    await store.remove(commitHash);
    throw chainError('WeightsNotConfirmed', 'the commit was included without a matching WeightsCommitted event', {
      source: 'client',
      stage: 'confirm',
      ...confirmCtx,
    });
  }
  // The commit is on chain from here: nothing that fails now may turn it into a failed call (a caller would publish
  // weights whose commit waits for its reveal). The store keeps the salt either way (saved before it was sent).
  let reveal: RevealWindow | null = null;
  try {
    await store.save({ ...pending, commitBlock: inclusion.blockNumber });
    const after = await readMetagraph(ctx.connection, { netuid, mecid, at: inclusion.blockHash });
    const entry = (await readWeightCommits(ctx.connection, after, hotkey)).find((e) => e.hash === commitHash);
    reveal = entry ? commitRevealWindow(after, entry.epoch) : null;
  } catch (error) {
    ctx.logger?.warn?.(`the commit landed in block ${inclusion.blockNumber}; its reveal window could not be read: ${(error as Error).message}`, {
      commitHash,
      code: (error as { code?: unknown }).code,
    });
  }
  return Object.freeze({
    kind: 'commit' as const,
    call: label,
    netuid,
    mecid,
    uid,
    uids,
    values,
    stored: chainUpscale(values),
    versionKey,
    blockHash: inclusion.blockHash,
    blockNumber: inclusion.blockNumber,
    extrinsicHash: inclusion.extrinsicHash,
    nonce: inclusion.nonce,
    finalized: inclusion.finalized,
    commitHash,
    reveal,
  });
}
