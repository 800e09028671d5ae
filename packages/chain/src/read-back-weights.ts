import { chainError } from './chain-error.js';
import { chainUpscale } from './chain-upscale.js';
import type { ChainConnection } from './connection.js';
import { toBig } from './metagraph.js';
import { subtensorStorage } from './storage-at.js';
import type { Inclusion } from './submit-extrinsic.js';

/**
 * Reads `SubtensorModule.Weights` of the uid at the inclusion block and compares it with what was sent, as the
 * chain stores it (max-upscaled).
 *
 * @param connection - the connection
 * @param inclusion - where the extrinsic landed
 * @param sent - the storage index (`netuidIndex`), the uid, and the uids and u16 values sent
 * @param ctx - context for the error (extrinsic and block, commit hash)
 * @returns the stored values
 * @throws SubnetError `CHAIN_WEIGHTS_NOT_CONFIRMED` when they differ, `CHAIN_STORAGE_NOT_AVAILABLE`, or a read's code
 */
export async function readBackWeights(
  connection: ChainConnection,
  inclusion: Inclusion,
  sent: { readonly netuidIndex: number; readonly uid: number; readonly uids: readonly number[]; readonly values: readonly number[] },
  ctx: Record<string, unknown>,
): Promise<readonly number[]> {
  const { netuidIndex, uid, uids, values } = sent;
  const expected = chainUpscale(values);
  const weightsEntry = subtensorStorage(await connection.request('api.at', (api) => api.at(inclusion.blockHash)), 'Weights', 'confirm');
  const stored = Array.from((await connection.request('Weights', () => weightsEntry(netuidIndex, uid))) as Iterable<Iterable<unknown>>).map((pair) =>
    Array.from(pair).map((x) => Number(toBig(x))),
  );
  const same = stored.length === uids.length && stored.every((p, i) => p[0] === uids[i] && p[1] === expected[i]);
  if (!same) {
    throw chainError('WeightsNotConfirmed', `the stored Weights for uid ${uid} at block ${inclusion.blockNumber} differ from what was sent`, {
      source: 'client',
      stage: 'confirm',
      ...ctx,
      expected: uids.map((u, i) => [u, expected[i]]),
      storedWeights: stored,
    });
  }
  return expected;
}
