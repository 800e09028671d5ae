import { chainError } from './chain-error.js';
import type { ClientContext } from './client-context.js';
import type { WeightsSubmission } from './client-types.js';
import type { PreparedWeights } from './prepared-weights.js';
import { readBackWeights } from './read-back-weights.js';
import { callLabel, hasEvent, pickCall } from './runtime-calls.js';

/**
 * The plain path (commit-reveal off): `set_mechanism_weights` (or `set_weights` for mechanism 0 on a runtime
 * without mechanisms), confirmed by its `WeightsSet` event and by reading `Weights` back at the inclusion block.
 *
 * @param ctx - the client context
 * @param prepared - the checked weights
 * @returns the `set` submission
 * @throws SubnetError `CHAIN_CALL_NOT_AVAILABLE`, `CHAIN_WEIGHTS_NOT_CONFIRMED`, or a submission's `CHAIN_*` code
 */
export async function setWeightsDirect(ctx: ClientContext, prepared: PreparedWeights): Promise<WeightsSubmission> {
  const { netuid, mecid, wait, snapshot, uid, uids, values, versionKey } = prepared;
  const call = pickCall(ctx.connection.api, mecid, 'setMechanismWeights', 'setWeights');
  const label = callLabel(call);
  const onSigned = prepared.onSigned;
  const inclusion = await ctx.submit(
    label,
    () => (call.withMecid ? call.fn(netuid, mecid, [...uids], [...values], versionKey) : call.fn(netuid, [...uids], [...values], versionKey)),
    wait,
    onSigned === undefined ? undefined : (signed) => onSigned({ kind: 'set', extrinsicHash: signed.extrinsicHash, call: label, uids, values, versionKey }),
  );
  const confirmCtx = { extrinsicHash: inclusion.extrinsicHash, blockHash: inclusion.blockHash, blockNumber: inclusion.blockNumber };
  if (!hasEvent(inclusion, 'WeightsSet', (d) => Number(d[0]) === snapshot.netuidIndex && Number(d[1]) === uid)) {
    throw chainError('WeightsNotConfirmed', `the extrinsic was included without WeightsSet(${snapshot.netuidIndex}, ${uid})`, {
      source: 'client',
      stage: 'confirm',
      ...confirmCtx,
    });
  }
  const stored = await readBackWeights(ctx.connection, inclusion, { netuidIndex: snapshot.netuidIndex, uid, uids, values }, confirmCtx);
  return Object.freeze({
    kind: 'set' as const,
    call: label,
    netuid,
    mecid,
    uid,
    uids,
    values,
    stored,
    versionKey,
    blockHash: inclusion.blockHash,
    blockNumber: inclusion.blockNumber,
    extrinsicHash: inclusion.extrinsicHash,
    nonce: inclusion.nonce,
    finalized: inclusion.finalized,
  });
}
