/** What the validator needs from the chain; `@subnet/chain` implements it (see subnet-chain.ts). */

/** One neuron of the subnet. */
export interface ChainNeuron {
  readonly uid: number;
  readonly hotkey: string;
  /** Stake weight in rao. */
  readonly stake: bigint;
  readonly validatorPermit: boolean;
  /** The coldkey that owns the hotkey (`Owner`); absent when the chain access does not read it. */
  readonly coldkey?: string;
  /** The block the uid was registered in (`BlockAtRegistration`; a hotkey swap keeps it); absent when the chain access does not read it. */
  readonly registeredAt?: bigint;
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
  /**
   * The subnet owner's hotkey (`SubnetOwnerHotkey`), whose miner incentive the chain withholds (burns or recycles);
   * null when unset or the runtime has none, absent when the chain access does not read it.
   */
  readonly ownerHotkey?: string | null;
  /** `MinAllowedWeights[netuid]`: the fewest uids a weight vector may name; absent when the chain access does not read it. */
  readonly minAllowedWeights?: number;
  /**
   * `StakeThreshold`: the stake weight (rao, as {@link ChainNeuron.stake}) a hotkey needs for the chain to take its
   * weights (`NotEnoughStakeToSetWeights` below it); absent when the chain access does not read it.
   */
  readonly stakeThreshold?: bigint;
  /**
   * Whether the runtime exempts the owner hotkey from that stake check and from the validator permit, read from the
   * runtime version with the metagraph (`@subnet/chain`'s `exemptsSubnetOwner`: stateful epochs, or `node-subtensor`
   * from spec 397; finney spec 393 does not; docs/spec.md G.33).
   */
  readonly ownerStakeExempt?: boolean;
}

/** A confirmed weight submission. */
export interface ChainSubmission {
  readonly block: bigint;
  /** The hash of the block that holds it (`0x` and 64 hex digits). */
  readonly blockHash: string;
  /**
   * Whether that block was final (on the finalised chain) when the submission returned. False: a reorganisation of
   * the unfinalised head may still replace it (the extrinsic then lands in another block or is dropped), so the
   * validator signs no bundle naming it; reconciliation records the final block later (docs/spec.md G.8).
   */
  readonly finalized: boolean;
  readonly extrinsicHash: string;
  /** The runtime call used, e.g. `SubtensorModule.set_weights`. */
  readonly call: string;
  /**
   * For a commit-reveal v4 (timelocked) commit: the commit to confirm once the chain should have revealed it
   * (see {@link ChainPort.confirmReveal}). Absent for `set_weights` and commit-reveal v2.
   */
  readonly timelock?: PendingReveal;
  /**
   * For a commit-reveal v2 (hash) commit: the commit this validator reveals itself ({@link ChainPort.revealPending}),
   * so its epoch stays embargoed until then (docs/spec.md G.22). Absent for `set_weights` and timelocked commits.
   */
  readonly hashCommit?: PendingHashCommit;
}

/** What the epoch loop asks of one {@link ChainPort.setWeights} call. */
export interface SetWeightsOptions {
  /**
   * Called with a commit-reveal v2 commit (`@subnet/chain` wire form, with its salt) once the commit store holds it and
   * before it is sent, so that the epoch row holds it too and whichever instance reconciles the epoch after a crash
   * can reveal it (docs/spec.md G.22). A failure is logged and does not stop the submission: the commit store still
   * holds the salt. Not called for `set_weights` or timelocked commits, which need no salt.
   */
  readonly onCommitSaved?: (commit: unknown) => Promise<void>;
  /**
   * Called, once it is signed and before it is sent (again after a re-sign), with what names a `set_weights` or
   * timelocked (v4) extrinsic on chain, so that the epoch row holds it and reconciliation after a crash takes only that
   * extrinsic for the epoch, never another weight extrinsic of the hotkey (the next epoch's) in the same blocks
   * (docs/spec.md G.45). A failure is logged and does not stop the submission (reconciliation then matches by signer, as
   * before), except a lost lease, which stops it (nothing sent). Not called for a commit-reveal v2 commit
   * ({@link SetWeightsOptions.onCommitSaved} keeps its hash).
   */
  readonly onSigned?: (identity: SubmissionIdentity) => Promise<void>;
}

/**
 * What names a signed weight extrinsic on chain, known before it is sent (docs/spec.md G.45): its extrinsic hash (the
 * signed bytes: an equal vector signed for another epoch has another nonce, so another hash), and what it carries: a
 * `set_weights` (or `set_mechanism_weights`) its `dests`, `weights` and `version_key` arguments, a timelocked commit
 * blake2_256 of its `commit` argument (the hash `TimelockedWeightsCommitted` carries) and its `reveal_round`.
 */
export type SubmissionIdentity =
  | {
      readonly kind: 'set';
      readonly extrinsicHash: string;
      readonly uids: readonly number[];
      readonly values: readonly number[];
      readonly versionKey: bigint;
    }
  | { readonly kind: 'timelocked'; readonly extrinsicHash: string; readonly commitHash: string; readonly revealRound: bigint };

/** A commit-reveal v2 (hash) commit waiting for this validator's reveal. */
export interface PendingHashCommit {
  /** The commit hash (`0x` and 64 hex digits), as `WeightCommits` and the commit store hold it. */
  readonly commitHash: string;
  /** The first block the chain accepts its reveal in (the predicted window; the commit block when unknown). */
  readonly dueBlock: bigint;
  /**
   * The block after which nobody can reveal it any more: the window's last block plus one chain epoch (tempo + 1
   * blocks) for an epoch the chain may defer; without a predicted window, the commit block plus
   * (RevealPeriodEpochs + 2) x (tempo + 1).
   */
  readonly closedAfter: bigint;
  /**
   * The commit with its salt, in `@subnet/chain`'s wire form (`pendingCommitToJson`), kept with the epoch so that
   * another instance can reveal it; absent when this chain access does not hold its salt. Secret until the reveal.
   */
  readonly commit?: unknown;
}

/** What {@link ChainPort.revealPending} did with one stored commit-reveal v2 commit that is now final. */
export interface HashRevealResult {
  readonly commitHash: string;
  /**
   * `revealed`: this call revealed it (block and hash); `expired`: the chain still holds it and its window passed (nobody
   * can reveal it any more); `gone`: the chain no longer holds it (revealed by an earlier call that stopped before its
   * store forgot it, moved by a hotkey swap, dropped after its window, or never included): which one is not known.
   */
  readonly status: 'revealed' | 'expired' | 'gone';
  readonly block?: bigint;
  readonly blockHash?: string;
}

/** The blocks to search for this validator's reveal of a commit-reveal v2 commit ({@link ChainPort.findHashReveal}). */
export interface HashRevealQuery {
  readonly commitHash: string;
  /** The first block its reveal can be in (the pending reveal's `due_block`). */
  readonly fromBlock: bigint;
  /** The last (the pending reveal's `closed_after`; the search stops at the finalised head). */
  readonly toBlock: bigint;
}

/** The final block and extrinsic that revealed a commit-reveal v2 commit. */
export interface HashRevealFound {
  readonly block: bigint;
  readonly blockHash: string;
  readonly extrinsicHash: string;
}

/** A timelocked commit waiting for the chain's reveal. */
export interface PendingReveal {
  /** The commit record, serialized by the chain access (opaque to the validator). */
  readonly record: string;
  /** First block at which the chain may have revealed it (the predicted reveal block, else the commit block). */
  readonly dueBlock: bigint;
  readonly commitHash: string;
}

/**
 * What the chain says about a timelocked commit after its reveal block: `revealed` (with the block),
 * `not_revealed` (the chain took it out of its queue without revealing: `code` and the first likely `reason`),
 * `unconfirmed` (the chain's state contradicts the commit, e.g. other weights stored: `code`), `uid_replaced` (revealed,
 * then the validator's uid was given to another hotkey by a registration in the same block), or `pending`
 * (still queued, or `reason: 'not_finalized'`: the block that revealed or dropped it is not final yet; try again later).
 */
export type RevealCheck =
  | { readonly status: 'revealed'; readonly block: bigint; readonly blockHash: string }
  | {
      readonly status: 'not_revealed';
      readonly code: string;
      readonly reason: string;
      readonly reasons: readonly string[];
      readonly message: string;
      readonly block: bigint | null;
    }
  | { readonly status: 'unconfirmed'; readonly code: string; readonly message: string }
  | {
      /**
       * The chain revealed the commit in `block` (`TimelockedWeightsRevealed`), and a registration later in that block
       * gave the validator's `uid` to `newHotkey`, removing the weights the reveal set (docs/spec.md G.19).
       */
      readonly status: 'uid_replaced';
      readonly block: bigint;
      readonly blockHash: string;
      readonly uid: number;
      readonly newHotkey: string;
    }
  | { readonly status: 'pending'; readonly reason?: 'not_finalized' };

/**
 * How this subnet's commit-reveal commits are revealed, read from the chain: by the chain from a timelock
 * (`timelock`, v4) or by the validator from its commit store (`hash`, v2), the tempo, the reveal period
 * (`RevealPeriodEpochs`) and how many blocks after the head an extrinsic signed now may still land (its mortal era
 * plus the signing margin). Bounds the reveal of a commit whose landing is unknown (bundle-embargo.ts).
 */
export interface CommitSchedule {
  readonly scheme: 'timelock' | 'hash';
  readonly tempo: number;
  readonly revealPeriodEpochs: bigint;
  readonly landingBlocks: bigint;
}

/** What {@link ChainPort.findSubmission} looks for: the head when the submission was claimed, and what was sent. */
export interface SubmissionQuery {
  readonly fromBlock: bigint;
  readonly uids: readonly number[];
  readonly weights: readonly number[];
  /**
   * The commit-reveal v2 commit hash the epoch kept before its commit was sent (docs/spec.md G.22): only a hash commit
   * carrying it is this epoch's submission, never another weight extrinsic of the hotkey in the same blocks (the next
   * epoch's commit). Absent: the first successful weight extrinsic of the hotkey is taken.
   */
  readonly commitHash?: string;
  /**
   * What named the epoch's `set_weights` or timelocked commit, kept before it was sent (docs/spec.md G.45): only an
   * extrinsic carrying it is this epoch's submission. Absent (a row from before G.45, or a write that failed): the
   * first successful weight extrinsic of the hotkey is taken.
   */
  readonly identity?: SubmissionIdentity;
}

/**
 * What the chain says about an interrupted submission, or one whose block was not final yet: it landed in a final
 * block (block, extrinsic, call, and the `LastUpdate` and `Weights` read back), it can no longer land (its era is
 * over), or it may still land or move (not in a block yet, or in one finality has not reached).
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
      /**
       * For a timelocked (commit-reveal v4) commit: its record rebuilt from the extrinsic's arguments and the
       * state before its block, so its reveal is confirmed like any other (timelock-recover.ts).
       */
      readonly timelock?: PendingReveal;
      /** For a commit-reveal v2 (hash) commit: the commit and its reveal bounds, so its epoch is embargoed until the reveal. */
      readonly hashCommit?: PendingHashCommit;
    }
  | {
      readonly status: 'not_landed';
      readonly checkedTo: bigint;
      /**
       * Set when the decision rests on the best chain: it is past the era's end without the extrinsic while finality
       * is not (the finalised block number then); absent when the finalised chain itself is past the era's end.
       */
      readonly finalizedTo?: bigint;
    }
  | {
      readonly status: 'pending';
      readonly checkedTo: bigint;
      /** The block of the best chain that holds it while finality has not reached that block (absent: in no block yet). */
      readonly unfinalizedBlock?: bigint;
    };

/** The chain access of the validator. */
export interface ChainPort {
  /** The validator hotkey (SS58) that signs submissions. */
  readonly hotkey: string;
  /** The head block number. */
  head(): Promise<bigint>;
  /**
   * The chain's genesis block hash (`0x` and 64 lowercase hex digits): which chain this is, recorded in the database
   * (chain-identity.ts). Absent when the chain access cannot tell (fakes).
   */
  genesisHash?(): Promise<string>;
  /** The metagraph at the head. */
  view(): Promise<ChainView>;
  /**
   * The hash of the newest finalized block (`0x` and 64 lowercase hex digits): the block hash a task's
   * verification group is drawn from (SPEC B, docs/spec.md G.3).
   */
  finalizedHash(): Promise<string>;
  /**
   * Who holds each uid at the head now (`Keys(netuid, uid)`, one keyed read; null where no hotkey holds it), in the
   * order asked: checked just before weights are sent, so none goes to a hotkey that registered into a uid after
   * the metagraph was read (uid-recheck.ts, docs/spec.md G.7). Absent when the chain access cannot tell (fakes).
   */
  uidHolders?(uids: readonly number[]): Promise<readonly (string | null)[]>;
  /** Runs every check the chain performs locally; throws a `CHAIN_*` SubnetError when one fails. */
  preflight(uids: readonly number[], weights: readonly number[]): Promise<void>;
  /** Submits the weights and waits for inclusion. */
  setWeights(uids: readonly number[], weights: readonly number[], options?: SetWeightsOptions): Promise<ChainSubmission>;
  /**
   * Reveals every stored commit-reveal (v2) commit whose window is open; returns the commits this call revealed
   * and those whose window passed (the others wait). Called on every head tick. Absent when the chain access has
   * no commits to reveal (fakes, dry runs).
   */
  revealPending?(): Promise<readonly HashRevealResult[]>;
  /**
   * Looks in the final blocks of a commit-reveal v2 commit's reveal window for its reveal signed by this hotkey: the
   * reveal a run that stopped before recording it sent, for a commit {@link ChainPort.revealPending} reports `gone`
   * (docs/spec.md G.22). Null when no final block of the range holds it. Absent in fakes and dry runs.
   */
  findHashReveal?(query: HashRevealQuery): Promise<HashRevealFound | null>;
  /**
   * Drops a commit-reveal v2 commit from the commit store once the finalized chain shows it never landed (its era
   * ended with the commit in no block): `@subnet/chain` keeps the salt of a commit whose outcome was unknown, and
   * nothing else would ever remove it. A no-op for a commit the store does not hold. Absent in fakes and dry runs.
   */
  forgetCommit?(commitHash: string): Promise<void>;
  /**
   * Confirms after the fact whether the chain revealed a timelocked (commit-reveal v4) commit. Absent when the
   * chain access makes no timelocked commits (fakes, dry runs).
   */
  confirmReveal?(record: string): Promise<RevealCheck>;
  /**
   * Looks for a weight submission (interrupted by a crash, or seen in a block that was not final yet) in the final
   * blocks after the claim. Absent when the chain access cannot tell (the epoch is then recorded `unknown`).
   */
  findSubmission?(query: SubmissionQuery): Promise<SubmissionSearch>;
  /**
   * The subnet's commit-reveal schedule (timelocked or hash commits), or null when commit-reveal is off. Absent:
   * treated as null (an epoch whose submission is unknown is then not embargoed).
   */
  commitSchedule?(): Promise<CommitSchedule | null>;
  /** Reconnects so far. */
  reconnects(): number;
  /** Closes the connection and releases what the port holds (the real one: its commit store file). */
  close(): Promise<void>;
}
