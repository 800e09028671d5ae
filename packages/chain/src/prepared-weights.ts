import type { SignedWeightsCall } from './client-types.js';
import type { MetagraphSnapshot } from './metagraph-snapshot.js';

/**
 * Weights that passed `setWeights`' checks, ready for one of its submission paths: the subnet and mechanism,
 * the metagraph they were checked against, the signer's uid, the u16 vector and the version key.
 */
export interface PreparedWeights {
  readonly netuid: number;
  readonly mecid: number;
  readonly wait: 'inBlock' | 'finalized';
  readonly snapshot: MetagraphSnapshot;
  readonly uid: number;
  readonly uids: readonly number[];
  readonly values: readonly number[];
  readonly versionKey: bigint;
  /** `SetWeightsArgs.onSigned`: told what names the extrinsic once it is signed, before it is sent. */
  readonly onSigned?: (call: SignedWeightsCall) => Promise<void>;
}
