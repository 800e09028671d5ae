import { blake2AsHex } from '@polkadot/util-crypto';
import { convertToU16, mechanismStorageIndex, predictRevealRound, readMetagraph, readTimelockContext } from '@subnet/chain';
import type { ChainConnection, TimelockedCommitRecord, U16Mode } from '@subnet/chain';

import type { PendingReveal } from './chain-port.js';
import { timelockRecordToJson } from './timelock-record-json.js';

/** A landed extrinsic as reconciliation sees it: its call arguments by metadata name, and its nonce. */
export interface LandedCommitExtrinsic {
  /** Call arguments keyed by their metadata name (`netuid`, `mecid`, `commit`, `reveal_round`, ...). */
  readonly args: ReadonlyMap<string, { toString(): string; toU8a(bare?: boolean): Uint8Array }>;
  readonly nonce: bigint;
  readonly extrinsicHash: string;
}

/** What {@link recoverTimelockedCommit} needs besides the extrinsic. */
export interface RecoverCommitInput {
  /** The signer's SS58 address. */
  readonly hotkey: string;
  /** What the interrupted close sent to `setWeights` (uids and u16 weights, as the epoch row keeps them). */
  readonly uids: readonly number[];
  readonly weights: readonly number[];
  /** The chain access's u16 mode (`sum` for the validator): how `setWeights` turned the weights into the committed values. */
  readonly mode: U16Mode;
  readonly block: bigint;
  readonly blockHash: string;
  readonly parentHash: string;
}

/**
 * Rebuilds the record of a timelocked (commit-reveal v4) commit that reconciliation found in a block after a
 * crash, so its reveal is confirmed like any other (reveal-confirm.ts). From the extrinsic's own arguments:
 * netuid, mecid (0 for `commit_timelocked_weights`), the commit bytes (their blake2_256 is the hash the chain's
 * queue and event carry) and `reveal_round`; from the block: number, hash, extrinsic hash, nonce; from the
 * state before it (the parent block): the signer's uid, `WeightsVersionKey` and the reveal-block prediction
 * (the block the chain first tries to reveal at, from the same formulas `setWeights` used). The committed
 * values are the u16 conversion `setWeights` applies to what was sent (same mode). The values only serve the
 * read-back after the reveal: if they differed, confirmation says `unconfirmed`, never `revealed`.
 *
 * @param connection - the chain connection
 * @param extrinsic - the landed commit's arguments, nonce and hash
 * @param input - signer, what was sent, the block
 * @returns the pending reveal (record JSON, due block, commit hash), or undefined when the call is no timelocked
 *   commit or the signer had no uid before the block
 * @throws SubnetError `CHAIN_*` when the chain cannot be read
 * @example const timelock = await recoverTimelockedCommit(connection, landed, { hotkey, uids, weights, mode: 'sum', block, blockHash, parentHash })
 */
export async function recoverTimelockedCommit(
  connection: ChainConnection,
  extrinsic: LandedCommitExtrinsic,
  input: RecoverCommitInput,
): Promise<PendingReveal | undefined> {
  const netuidArg = extrinsic.args.get('netuid');
  const mecidArg = extrinsic.args.get('mecid');
  const commit = extrinsic.args.get('commit');
  const roundArg = extrinsic.args.get('reveal_round');
  if (netuidArg === undefined || commit === undefined || roundArg === undefined) return undefined;
  const netuid = Number(netuidArg.toString());
  const mecid = mecidArg === undefined ? 0 : Number(mecidArg.toString());
  const revealRound = BigInt(roundArg.toString());
  const commitHash = blake2AsHex(commit.toU8a(true), 256);
  const snapshot = await readMetagraph(connection, { netuid, mecid, at: input.parentHash });
  const uid = snapshot.hotkeys.indexOf(input.hotkey);
  // A commit that succeeded was signed by a registered hotkey; without its uid there is nothing to confirm against.
  if (uid < 0) return undefined;
  const sent = input.uids.map((u, i): readonly [number, number] => [u, input.weights[i] ?? 0]).sort((a, b) => a[0] - b[0]);
  const committed = convertToU16(sent, input.mode);
  let prediction: TimelockedCommitRecord['prediction'] = null;
  try {
    const p = predictRevealRound(snapshot, await readTimelockContext(connection, input.parentHash));
    prediction = { schedule: p.schedule, commitEpoch: p.commitEpoch, revealEpoch: p.revealEpoch, revealBlock: p.revealBlock, targetBlock: p.targetBlock };
  } catch {
    // No prediction (e.g. the beacon config is unreadable): the confirmation then follows the queue from the commit block.
  }
  const record: TimelockedCommitRecord = {
    hotkey: input.hotkey,
    netuid,
    mecid,
    netuidIndex: mechanismStorageIndex(netuid, mecid),
    uid,
    uids: committed.uids,
    values: committed.values,
    versionKey: snapshot.hyperparameters.weightsVersionKey,
    revealRound,
    commitHash,
    commitBlock: input.block,
    commitBlockHash: input.blockHash,
    extrinsicHash: extrinsic.extrinsicHash,
    nonce: extrinsic.nonce,
    prediction,
  };
  return { record: timelockRecordToJson(record), dueBlock: prediction?.revealBlock ?? input.block, commitHash };
}
