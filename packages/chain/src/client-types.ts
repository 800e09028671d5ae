/** The chain client's public types: its options, the arguments and results of its methods, and the client itself. */
import type { ChainConnection, ConnectOptions } from './connection.js';
import type { CommitStore } from './commit-store.js';
import type { ChainSigner } from './keys.js';
import type { MetagraphSnapshot } from './metagraph-snapshot.js';
import type { WeightsInput } from './resolve-weights.js';
import type { RevealWindow } from './reveal-window.js';
import type { TimelockOptions } from './timelock-context.js';
import type { TimelockedCommitRecord } from './timelock-commit.js';
import type { TimelockedReveal } from './timelock-reveal.js';
import type { U16Mode } from './u16-conversion.js';

/** Options of {@link createChainClient}: a connection (or how to make one), the signer and policies. */
export interface ChainClientOptions extends Partial<ConnectOptions> {
  /** An existing connection; otherwise one is opened from `network` and closed by `close()`. */
  readonly connection?: ChainConnection;
  readonly signer: ChainSigner;
  /** Durable salt store; required when a subnet has commit-reveal v2 enabled. */
  readonly commitStore?: CommitStore;
  /** u16 conversion mode (SPEC C.10), default `sum`. */
  readonly u16Mode?: U16Mode;
  /** Mortal era length in blocks, default 64. */
  readonly eraPeriod?: number;
  /** Longest wait for inclusion / finalization in ms, default 180 000. */
  readonly inclusionTimeoutMs?: number;
  /** Poll interval while waiting for blocks, default 1 000 ms. */
  readonly pollMs?: number;
  /** Commit-reveal v4 (drand timelock): beacon (default: the chain's, else quicknet), clock, block time, reveal wait. */
  readonly timelock?: TimelockOptions;
  /**
   * `error` (default): a stake weight below `StakeThreshold` is refused before signing
   * (`CHAIN_NOT_ENOUGH_STAKE_TO_SET_WEIGHTS`); `warn`: it is logged (`logger.warn`, with the stake breakdown) and
   * the extrinsic is submitted anyway, so the chain decides.
   */
  readonly stakeCheck?: 'error' | 'warn';
}

/** Arguments of `setWeights`. */
export interface SetWeightsArgs {
  readonly netuid: number;
  /** Mechanism id, default 0. */
  readonly mecid?: number;
  /** Weights keyed by uid or hotkey; any non-negative scale. */
  readonly weights: WeightsInput;
  /** Default: the subnet's current `WeightsVersionKey` (the chain requires `>=`). */
  readonly versionKey?: bigint | number;
  /** `inBlock` (default) or `finalized`. */
  readonly wait?: 'inBlock' | 'finalized';
  /** Timelocked path only: wait for the chain's reveal (default: `timelock.waitForReveal`, true). */
  readonly waitForReveal?: boolean;
  /**
   * Called with what names the extrinsic on chain, after it is signed and before its bytes are sent (again after a
   * `Stale` re-sign, with the new hash): its extrinsic hash, and a `set_weights` (or `set_mechanism_weights`) with its
   * uids, values and version key, or a timelocked commit with its ciphertext's blake2_256 and reveal round. A caller
   * that keeps it can later tell this extrinsic from another weight extrinsic of the same hotkey, one with the same
   * weights included. Its rejection stops the submission (nothing sent). Not called for a commit-reveal v2 commit,
   * whose commit store's `save` keeps its hash before it is signed.
   */
  readonly onSigned?: (call: SignedWeightsCall) => Promise<void>;
}

/**
 * What names a signed weight extrinsic on chain ({@link SetWeightsArgs.onSigned}): its hash, and for `set` the call's
 * `dests`, `weights` and `version_key` arguments, for `timelocked` blake2_256 of its `commit` argument (the hash
 * `TimelockedWeightsCommitted` carries) and its `reveal_round`.
 */
export type SignedWeightsCall =
  | {
      readonly kind: 'set';
      /** The signed extrinsic's hash (`0x` and 64 hex digits). */
      readonly extrinsicHash: string;
      /** `SubtensorModule.set_weights` or `SubtensorModule.set_mechanism_weights`. */
      readonly call: string;
      readonly uids: readonly number[];
      readonly values: readonly number[];
      readonly versionKey: bigint;
    }
  | {
      readonly kind: 'timelocked';
      /** The signed extrinsic's hash (`0x` and 64 hex digits). */
      readonly extrinsicHash: string;
      /** `SubtensorModule.commit_timelocked_weights` or `SubtensorModule.commit_timelocked_mechanism_weights`. */
      readonly call: string;
      /** blake2_256 of the commit bytes (`0x` and 64 hex digits). */
      readonly commitHash: string;
      readonly revealRound: bigint;
    };

/** What a timelocked (commit-reveal v4) submission adds to {@link WeightsSubmission}. */
export interface TimelockSubmissionInfo {
  /** The commit: pass it to `confirmTimelockedReveal` when `waitForReveal` was false. */
  readonly record: TimelockedCommitRecord;
  /**
   * The epoch the chain filed the commit under (`TimelockedWeightCommits` key, read at the commit block); null when it
   * could not be read. It differs from `record.prediction.commitEpoch` when the commit waited in the pool across an
   * epoch boundary: the chain then reveals it that many epochs later, after its drand round is public (a warning is
   * logged).
   */
  readonly commitEpoch: bigint | null;
  /**
   * The first block the chain is expected to reveal the commit in, from the epoch it was filed under: the predicted
   * reveal block (`record.prediction.revealBlock`) when on time, or when the epoch could not be read; that block plus
   * the late epochs (each `tempo` blocks on Subtensor main, `tempo + 1` on spec 393) when the commit landed late; after
   * a renumbering (a tempo change on spec 393) the first block of the reveal epoch at the tempo the commit was filed
   * with; null when nothing was predicted or that tempo could not be read. Confirm the reveal from this block on.
   */
  readonly revealBlock: bigint | null;
  /** Beacon the commit was encrypted to, and where its config came from. */
  readonly beaconSource: 'option' | 'chain' | 'quicknet-default';
  /** How the round was predicted (`stateful` / `legacy` schedule, epochs, blocks, the arithmetic). */
  readonly explanation: readonly string[];
  /** The confirmed reveal (null when not waited for). */
  readonly reveal: TimelockedReveal | null;
}

/** Outcome of a confirmed submission. */
export interface WeightsSubmission {
  /** `set`: weights are live. `commit`: committed (CR v2), reveal owed (see `reveal`). `reveal`: revealed and live. */
  readonly kind: 'set' | 'commit' | 'reveal';
  /** The runtime call used, e.g. `SubtensorModule.set_mechanism_weights`. */
  readonly call: string;
  readonly netuid: number;
  readonly mecid: number;
  readonly uid: number;
  readonly uids: readonly number[];
  /** u16 values submitted. */
  readonly values: readonly number[];
  /** Values as the chain stores them (max-upscaled); read back and compared for `set`/`reveal`. */
  readonly stored: readonly number[];
  readonly versionKey: bigint;
  readonly blockHash: string;
  readonly blockNumber: bigint;
  readonly extrinsicHash: string;
  readonly nonce: bigint;
  readonly finalized: boolean;
  /** For commits and reveals: the commit hash. */
  readonly commitHash?: string;
  /** For commits: when the reveal is accepted (null when it could not be predicted). */
  readonly reveal?: RevealWindow | null;
  /** For timelocked commits (commit-reveal v4): the commit record, prediction and the confirmed reveal. */
  readonly timelock?: TimelockSubmissionInfo;
}

/** State of one stored commit after `revealPending`. */
export interface RevealOutcome {
  readonly commitHash: string;
  readonly netuid: number;
  readonly mecid: number;
  /**
   * `revealed` (confirmed), `waiting` (window not open yet), `expired` (window passed, or a commit the finalized chain
   * passed its era's last block without; removed), `unconfirmed` (not held at the head, and the chain that becomes
   * final may still hold it: not included yet, its block retracted, the node behind, or finality not past its era;
   * or its era is not known, for a commit never seen included that an earlier version or a shared row kept).
   */
  readonly status: 'revealed' | 'waiting' | 'expired' | 'unconfirmed';
  /**
   * For `expired`: true when the chain still holds the commit past its window (nobody can reveal it any more), false
   * when it no longer holds it (revealed by an earlier call that stopped before its store forgot it, moved by a hotkey
   * swap, dropped, or never included: these look the same in the state). Absent for the other statuses.
   */
  readonly onChain?: boolean;
  readonly window: RevealWindow | null;
  readonly submission?: WeightsSubmission;
}

/** When this hotkey may set weights again. */
export interface RateLimitStatus {
  readonly uid: number;
  /** Head block the answer was read at. */
  readonly head: bigint;
  /** First block the extrinsic may execute in (0 when never set). */
  readonly nextAllowedBlock: bigint;
  /** True when an extrinsic built on `head` (executing at head + 1) passes the rate limit. */
  readonly allowedNow: boolean;
}

/** The chain client. */
export interface ChainClient {
  readonly connection: ChainConnection;
  readonly signer: ChainSigner;
  /** Reads the metagraph at one block. */
  metagraph(args: { readonly netuid: number; readonly mecid?: number; readonly at?: string }): Promise<MetagraphSnapshot>;
  /** Sets weights (or commits them under commit-reveal v2), confirmed on chain. */
  setWeights(args: SetWeightsArgs): Promise<WeightsSubmission>;
  /** Reveals every stored commit of this signer whose window is open; with `untilDone`, waits for the windows. */
  revealPending(args?: {
    readonly wait?: 'inBlock' | 'finalized';
    readonly untilDone?: boolean;
    readonly timeoutMs?: number;
  }): Promise<readonly RevealOutcome[]>;
  /**
   * Waits until the chain revealed a timelocked commit (see `confirmTimelockedReveal`); for commits made with
   * `waitForReveal: false` or by other code.
   */
  confirmTimelockedReveal(
    record: TimelockedCommitRecord,
    args?: { readonly wait?: 'inBlock' | 'finalized'; readonly timeoutMs?: number },
  ): Promise<TimelockedReveal>;
  /** When the rate limit lets this hotkey set (or commit) weights again. */
  nextAllowedBlock(args: { readonly netuid: number; readonly mecid?: number }): Promise<RateLimitStatus>;
  /** Closes the connection if the client opened it. */
  close(): Promise<void>;
}
