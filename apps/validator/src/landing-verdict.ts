/** What the scan of the chain saw for a weight submission that no final block holds (chain-reconcile.ts). */
export interface LandingScan {
  /** The best block number. */
  readonly head: bigint;
  /** The newest finalised block number. */
  readonly finalized: bigint;
  /** The last block the extrinsic can be in: the claim head plus its mortal era plus the signing margin. */
  readonly lastBlock: bigint;
  /**
   * The block of the best chain above `finalized` (at most `lastBlock`) that holds it, null when none does; undefined
   * when those blocks were not scanned (only needed once the head is past `lastBlock`).
   */
  readonly bestHit?: bigint | null;
}

/** The decision: it can no longer land, or it is not decided yet. */
export type LandingVerdict =
  | { readonly status: 'not_landed'; readonly checkedTo: bigint; readonly finalizedTo?: bigint }
  | { readonly status: 'pending'; readonly checkedTo: bigint; readonly unfinalizedBlock?: bigint };

/**
 * Decides what the chain says about a weight submission that no final block holds (only a final block counts as
 * landed, so that the block a bundle names is always final, docs/spec.md G.8): `not_landed` when the finalised chain is past
 * the last block it could be in without it, or when the best chain is (finality lagging: a chain reorganisation
 * could in theory still bring back a branch that holds it, but waiting on a stalled finality would miss the epoch,
 * and weights set twice are harmless, so the validator submits again); otherwise `pending` (not in a block yet, or in
 * one finality has not reached: a reorganisation may still move or drop it).
 *
 * @param scan - the head, the finalised number, the last block, and whether the best chain's unfinalised blocks hold it
 * @returns the verdict
 * @example landingVerdict({ head: 130n, finalized: 126n, lastBlock: 180n }) // { status: 'pending', checkedTo: 126n }
 */
export function landingVerdict(scan: LandingScan): LandingVerdict {
  if (scan.finalized >= scan.lastBlock) return { status: 'not_landed', checkedTo: scan.lastBlock };
  if (scan.head >= scan.lastBlock && scan.bestHit !== undefined) {
    if (scan.bestHit === null) return { status: 'not_landed', checkedTo: scan.lastBlock, finalizedTo: scan.finalized };
    return { status: 'pending', checkedTo: scan.finalized, unfinalizedBlock: scan.bestHit };
  }
  return { status: 'pending', checkedTo: scan.finalized < scan.head ? scan.finalized : scan.head };
}
