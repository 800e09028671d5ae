import { mechanismStorageIndex, weightCommitHash } from '@subnet/chain';
import type { ChainConnection } from '@subnet/chain';

import type { HashRevealQuery, HashRevealFound } from './chain-port.js';
import { callArgs, extrinsicSucceeded, finalizedNumber, subtensorCallsSignedBy, u16List } from './chain-reconcile.js';
import type { CodecLike, EventRecordLike, ExtrinsicLike } from './chain-reconcile.js';

/** Commit-reveal v2 reveal calls: `reveal_weights`, `reveal_mechanism_weights` (what `@subnet/chain` sends). */
const REVEAL_CALL = /^reveal(Mechanism)?Weights$/;

/** Options of {@link findHashReveal}. */
export interface FindHashRevealOptions extends HashRevealQuery {
  /** The signer's SS58 address. */
  readonly hotkey: string;
}

/**
 * Looks in the final blocks `fromBlock`..`toBlock` (at most up to the finalised head) for a successful commit-reveal v2
 * reveal (`reveal_weights`, `reveal_mechanism_weights`) signed by the hotkey whose arguments hash to `commitHash`: the
 * reveal an earlier run of this validator sent and stopped before recording (killed between the reveal's block and its
 * write), which the chain's state alone cannot tell from a commit dropped or moved (docs/spec.md G.22).
 *
 * @param connection - the chain connection
 * @param options - the hotkey, the commit hash and the blocks its reveal can be in
 * @returns the block and extrinsic that revealed it, or null when no final block of the range holds its reveal
 * @throws SubnetError `CHAIN_*` when the chain cannot be read
 * @example await findHashReveal(connection, { hotkey, commitHash, fromBlock: 120n, toBlock: 160n })
 */
export async function findHashReveal(connection: ChainConnection, options: FindHashRevealOptions): Promise<HashRevealFound | null> {
  const finalized = await connection.request('reveal search: finalized head', finalizedNumber);
  const last = options.toBlock < finalized ? options.toBlock : finalized;
  const wanted = options.commitHash.toLowerCase();
  for (let n = options.fromBlock; n <= last; n++) {
    const found = await connection.request('reveal search: block', (api) => revealInBlock(api, options.hotkey, wanted, n));
    if (found !== undefined) return found;
  }
  return null;
}

/** A `Vec<u16>` argument as numbers (reconciliation's reader), or none when absent. */
function numbers(codec: CodecLike | undefined): number[] {
  return u16List(codec) ?? [];
}

async function revealInBlock(api: ChainConnection['api'], hotkey: string, commitHash: string, n: bigint): Promise<HashRevealFound | undefined> {
  const hash = await api.rpc.chain.getBlockHash(n);
  const block = await api.rpc.chain.getBlock(hash);
  const extrinsics = block.block.extrinsics as unknown as readonly ExtrinsicLike[];
  const ours = subtensorCallsSignedBy(extrinsics, hotkey, REVEAL_CALL).filter(({ ex }) => {
    const args = callArgs(ex);
    const netuid = Number(args.get('netuid')?.toString());
    const mecid = args.has('mecid') ? Number(args.get('mecid')?.toString()) : 0;
    const versionKey = args.get('version_key');
    const ofCall = weightCommitHash({
      hotkey,
      netuidIndex: mechanismStorageIndex(netuid, mecid),
      uids: numbers(args.get('uids')),
      values: numbers(args.get('values')),
      salt: numbers(args.get('salt')),
      versionKey: BigInt(versionKey?.toString() ?? '0'),
    });
    return ofCall.toLowerCase() === commitHash;
  });
  if (ours.length === 0) return undefined;
  const systemEvents = (await api.at(hash)).query.system?.events;
  if (systemEvents === undefined) return undefined;
  const events = (await systemEvents()) as unknown as readonly EventRecordLike[];
  for (const { ex, index } of ours) {
    if (extrinsicSucceeded(events, index)) return { block: n, blockHash: hash.toHex(), extrinsicHash: ex.hash.toHex() };
  }
  return undefined;
}
