/** What the validator needs from the chain; `@subnet/chain` implements it (see subnet-chain.ts). */

/** One neuron of the subnet. */
export interface ChainNeuron {
  readonly uid: number;
  readonly hotkey: string;
  /** Stake weight in rao. */
  readonly stake: bigint;
  readonly validatorPermit: boolean;
  /**
   * The neuron's axon as served on chain (`Axons[(netuid, hotkey)]`): the address as the SDK prints it and the
   * port; null when it never served. Absent when the chain access does not read axons.
   */
  readonly axon?: { readonly ip: string; readonly port: number } | null;
}

/** The metagraph read at one block. */
export interface ChainView {
  readonly block: bigint;
  /** Blocks per epoch (the subnet's tempo). */
  readonly tempo: number;
  readonly neurons: readonly ChainNeuron[];
}

/** A confirmed weight submission. */
export interface ChainSubmission {
  readonly block: bigint;
  readonly extrinsicHash: string;
  /** The runtime call used, e.g. `SubtensorModule.set_weights`. */
  readonly call: string;
}

/** What {@link ChainPort.findSubmission} looks for: the head when the submission was claimed, and what was sent. */
export interface SubmissionQuery {
  readonly fromBlock: bigint;
  readonly uids: readonly number[];
  readonly weights: readonly number[];
}

/**
 * What the chain says about an interrupted submission: it landed (block, extrinsic, call, and the
 * `LastUpdate` and `Weights` read back), it can no longer land (its era is over), or it may still land.
 */
export type SubmissionSearch =
  | {
      readonly status: 'landed';
      readonly block: bigint;
      readonly extrinsicHash: string;
      readonly call: string;
      /** `LastUpdate` of this hotkey's uid after the scan (null when unreadable). */
      readonly lastUpdate: bigint | null;
      /** Whether `Weights` equals the chain's upscaling of what was sent (`set_weights`/`set_mechanism_weights` on mechanism 0, else null). */
      readonly weightsMatch: boolean | null;
    }
  | { readonly status: 'not_landed'; readonly checkedTo: bigint }
  | { readonly status: 'pending'; readonly checkedTo: bigint };

/** The chain access of the validator. */
export interface ChainPort {
  /** The validator hotkey (SS58) that signs submissions. */
  readonly hotkey: string;
  /** The head block number. */
  head(): Promise<bigint>;
  /** The metagraph at the head. */
  view(): Promise<ChainView>;
  /**
   * The hash of the newest finalized block (`0x` and 64 lowercase hex digits): the block hash a task's
   * verification group is drawn from (SPEC B, docs/spec.md G.3).
   */
  finalizedHash(): Promise<string>;
  /** Runs every check the chain performs locally; throws a `CHAIN_*` SubnetError when one fails. */
  preflight(uids: readonly number[], weights: readonly number[]): Promise<void>;
  /** Submits the weights and waits for inclusion. */
  setWeights(uids: readonly number[], weights: readonly number[]): Promise<ChainSubmission>;
  /**
   * Reveals every stored commit-reveal (v2) commit whose window is open; returns how many were revealed.
   * Called on every head tick. Absent when the chain access has no commits to reveal (fakes, dry runs).
   */
  revealPending?(): Promise<number>;
  /**
   * Looks for a weight submission interrupted by a crash in the blocks after the claim. Absent when the
   * chain access cannot tell (the interrupted epoch is then recorded `unknown`).
   */
  findSubmission?(query: SubmissionQuery): Promise<SubmissionSearch>;
  /** Reconnects so far. */
  reconnects(): number;
  close(): Promise<void>;
}
