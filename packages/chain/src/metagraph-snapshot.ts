import type { AxonInfo } from './axon-info.js';
import type { StakeWeight } from './stake-weight.js';

/** The hyperparameters that weight setting depends on, read at the snapshot block. */
export interface WeightHyperparameters {
  /** Blocks per epoch. */
  readonly tempo: number;
  /** `WeightsSetRateLimit[netuid]`, in blocks. */
  readonly weightsRateLimit: bigint;
  /** `WeightsVersionKey[netuid]`: a submission's version key must be >= this (0 disables the check). */
  readonly weightsVersionKey: bigint;
  /** `MinAllowedWeights[netuid]`. */
  readonly minAllowedWeights: number;
  /** `StakeThreshold` (rao of stake weight) a non-owner needs to set weights. */
  readonly stakeThreshold: bigint;
  /** `CommitRevealWeightsEnabled[netuid]`. */
  readonly commitRevealEnabled: boolean;
  /** `CommitRevealWeightsVersion` (2 = hash, 3/4 = drand timelock), or null when the runtime has no such item. */
  readonly commitRevealVersion: number | null;
  /** `RevealPeriodEpochs[netuid]`. */
  readonly revealPeriodEpochs: bigint;
  /** `MechanismCountCurrent[netuid]` (1 when the runtime has no mechanisms). */
  readonly mechanismCount: number;
}

/** Epoch bookkeeping the reveal window depends on (null fields: the runtime predates stateful epochs). */
export interface EpochState {
  readonly subnetEpochIndex: bigint | null;
  readonly lastEpochBlock: bigint | null;
  readonly pendingEpochAt: bigint | null;
  readonly blocksSinceLastStep: bigint | null;
}

/**
 * The runtime that executes the block after the snapshot's (`state_getRuntimeVersion` at the snapshot's block hash):
 * its `spec_name` and `spec_version`.
 */
export interface RuntimeSpec {
  readonly specName: string;
  readonly specVersion: number;
}

/** A metagraph read at one block: everything the preflight needs, per uid arrays indexed by uid. */
export interface MetagraphSnapshot {
  readonly netuid: number;
  readonly mecid: number;
  /** `mecid * 4096 + netuid`. */
  readonly netuidIndex: number;
  /** The block the snapshot was read at. */
  readonly block: bigint;
  readonly blockHash: string;
  /** `SubnetworkN[netuid]`. */
  readonly n: number;
  readonly hotkeys: readonly string[];
  readonly coldkeys: readonly string[];
  /** Stake weight per uid in rao (what the chain compares with `StakeThreshold`): `stakeWeights[uid].total`. */
  readonly stakes: readonly bigint[];
  /** Per uid: own and inherited alpha, own and inherited root TAO, `TaoWeight` and the total (`stakeWeight`). */
  readonly stakeWeights: readonly StakeWeight[];
  /**
   * `stake-weight`: the chain's stake weight computed from storage read at the snapshot block (own alpha,
   * parent/child inheritance, root TAO x TaoWeight); `storage`: own `TotalHotkeyAlpha` only (a runtime without
   * ParentKeys / ChildKeys / TaoWeight); `runtime-api`: reserved.
   */
  readonly stakeSource: 'stake-weight' | 'runtime-api' | 'storage';
  readonly validatorPermit: readonly boolean[];
  /** `LastUpdate[netuid_index]` per uid. */
  readonly lastUpdate: readonly bigint[];
  readonly blockAtRegistration: readonly bigint[];
  /** `Axons[(netuid, hotkey)]` per uid, null when the hotkey never served. */
  readonly axons: readonly (AxonInfo | null)[];
  /**
   * Per uid where the runtime has the item (else null): `Incentive[netuid_index]`, `Dividends[netuid]`,
   * `Trust[netuid]`, `Consensus[netuid]` as the chain stores them (u16 fractions of 65535).
   */
  readonly incentive: readonly number[] | null;
  readonly dividends: readonly number[] | null;
  readonly trust: readonly number[] | null;
  readonly consensus: readonly number[] | null;
  /** `SubnetOwnerHotkey[netuid]`, or null when unset or absent from the runtime. */
  readonly ownerHotkey: string | null;
  readonly hyperparameters: WeightHyperparameters;
  readonly epoch: EpochState;
  /**
   * The runtime the next block runs (read at the snapshot's block: a runtime upgrade enacted in that block counts),
   * by which the subnet owner's exemption is decided ({@link exemptsSubnetOwner}, docs/spec.md G.33).
   */
  readonly runtimeVersion: RuntimeSpec;
}
