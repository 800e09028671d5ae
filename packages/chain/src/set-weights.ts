import { chainError } from './chain-error.js';
import { flagArg, functionArg, intArg, objectArg, versionArg, waitArg } from './client-arguments.js';
import type { ClientContext } from './client-context.js';
import type { SetWeightsArgs, WeightsSubmission } from './client-types.js';
import { readMetagraph } from './metagraph.js';
import { resolveWeights } from './resolve-weights.js';
import { requiresTimelock } from './runtime-calls.js';
import { commitRevealWeights } from './set-weights-commit-reveal.js';
import { setWeightsDirect } from './set-weights-direct.js';
import { setWeightsTimelocked } from './set-weights-timelocked.js';
import { TIMELOCK_COMMIT_REVEAL_VERSION } from './timelock-context.js';
import { convertToU16 } from './u16-conversion.js';
import { readTimelockedCommitCount, readWeightCommits } from './weight-commits.js';

/**
 * The client's `setWeights`: checks the arguments, reads the metagraph at the head, converts the weights to
 * u16, runs the local replica of the chain's checks, then hands the weights to one of the three submission
 * paths: plain (`setWeightsDirect`) when commit-reveal is off, timelocked commit-reveal v4
 * (`setWeightsTimelocked`) when the subnet's version or the runtime requires it, else commit-reveal v2
 * (`commitRevealWeights`).
 *
 * @param ctx - the client context
 * @param args - netuid, mecid, weights, version key, waits
 * @returns the confirmed submission
 * @throws SubnetError `CHAIN_INVALID_INPUT`, `CHAIN_EMPTY_WEIGHTS`, `CHAIN_TIMELOCK_REQUIRED`, a preflight
 *   `CHAIN_*` code (nothing signed), or the chosen path's codes
 */
export async function setWeights(ctx: ClientContext, args: SetWeightsArgs): Promise<WeightsSubmission> {
  objectArg(args, 'args');
  const netuid = intArg(args.netuid, 'netuid', 4095);
  const mecid = intArg(args.mecid ?? 0, 'mecid', 255);
  const wait = waitArg(args.wait);
  const requestedVersion = versionArg(args.versionKey);
  const waitForReveal = flagArg(args.waitForReveal, 'waitForReveal');
  const onSigned = functionArg(args.onSigned, 'onSigned');
  const snapshot = await readMetagraph(ctx.connection, { netuid, mecid });
  const hp = snapshot.hyperparameters;
  const timelocked = hp.commitRevealEnabled && requiresTimelock(ctx.connection.api, mecid, hp.commitRevealVersion);
  if (timelocked && hp.commitRevealVersion !== null && hp.commitRevealVersion !== TIMELOCK_COMMIT_REVEAL_VERSION) {
    throw chainError(
      'TimelockRequired',
      `netuid ${netuid} requires timelocked commit-reveal version ${hp.commitRevealVersion}; this client speaks version ${TIMELOCK_COMMIT_REVEAL_VERSION}, nothing was signed`,
      {
        source: 'client',
        stage: 'preflight',
        path: 'commitRevealVersion',
        value: hp.commitRevealVersion,
        netuid,
      },
    );
  }
  const converted = convertToU16(resolveWeights(args.weights, snapshot), ctx.mode);
  if (converted.uids.length === 0) {
    throw chainError('EmptyWeights', 'every weight is zero after u16 conversion; nothing to set', {
      source: 'client',
      path: 'weights',
      value: converted.uids.length,
    });
  }
  const versionKey = requestedVersion ?? hp.weightsVersionKey;
  const kind = hp.commitRevealEnabled ? 'commit' : 'set';
  // A commit is refused on chain when 10 of the hotkey's commits are queued: read the queue so preflight checks it too.
  const queue =
    kind !== 'commit'
      ? {}
      : timelocked
        ? { timelockedCommitCount: await readTimelockedCommitCount(ctx.connection, snapshot, ctx.signer.address) }
        : { queuedCommitEpochs: (await readWeightCommits(ctx.connection, snapshot, ctx.signer.address)).map((c) => c.epoch) };
  const check = ctx.checked({ snapshot, hotkey: ctx.signer.address, uids: converted.uids, values: converted.values, versionKey, kind, ...queue });
  const first = check.errors[0];
  if (first) throw first;
  const prepared = {
    netuid,
    mecid,
    wait,
    snapshot,
    uid: check.uid ?? -1,
    uids: converted.uids,
    values: converted.values,
    versionKey,
    ...(onSigned === undefined ? {} : { onSigned }),
  };
  if (kind === 'set') return setWeightsDirect(ctx, prepared);
  if (timelocked) return setWeightsTimelocked(ctx, prepared, waitForReveal);
  return commitRevealWeights(ctx, prepared);
}
