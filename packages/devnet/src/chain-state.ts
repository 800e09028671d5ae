/**
 * The devnet's chain state as a plain, cloneable model. Storage (`state_getStorage`) is materialised from it
 * after every block (see `storage-layout.ts`); the runtime rules read and write it.
 */

/** `AxonInfo` as `SubtensorModule.Axons` stores it (ip as an integer: IPv4 in the low 32 bits). */
export interface AxonState {
  block: bigint;
  version: number;
  ip: bigint;
  port: number;
  ipType: number;
  protocol: number;
  placeholder1: number;
  placeholder2: number;
}

/** One registered neuron (accounts are 0x-prefixed hex public keys). */
export interface NeuronState {
  uid: number;
  hotkey: string;
  coldkey: string;
  /** Alpha stake (rao): `TotalHotkeyAlpha[(hotkey, netuid)]`. */
  stake: bigint;
  /** Root TAO stake (rao): `TotalHotkeyAlpha[(hotkey, 0)]`, weighted by `TaoWeight` in the stake weight. */
  rootStake: bigint;
  validatorPermit: boolean;
  active: boolean;
  blockAtRegistration: bigint;
  /** `Axons[(netuid, hotkey)]`, or null when the hotkey never served. */
  axon: AxonState | null;
}

/**
 * A commit-reveal v2 commit. Stored as `(hash, commit_epoch, commit_block, 0)` on the stateful runtime and as
 * `(hash, commit_block, first_reveal_block, last_reveal_block)` on the legacy one (chain README 2.4).
 */
export interface WeightCommit {
  hash: string;
  /** The epoch (stateful look-ahead) at commit time; on the legacy runtime the legacy epoch of `commitBlock`. */
  commitEpoch: bigint;
  commitBlock: bigint;
  /** Legacy `get_reveal_blocks` at commit time (0 on the stateful runtime). */
  firstRevealBlock: bigint;
  lastRevealBlock: bigint;
}

/** A timelocked (v3/v4) commit, stored as the chain stores it; revealed in the block step (`timelock-reveal.ts`). */
export interface TimelockedCommit {
  who: string;
  commitBlock: bigint;
  commit: string;
  revealRound: bigint;
}

/** A drand pulse as `Drand.Pulses(round)` stores it (0x hex: 48-byte signature, 32-byte randomness). */
export interface DrandPulse {
  signature: string;
  randomness: string;
}

/** `Drand.BeaconConfig` (BeaconConfiguration; bytes as 0x hex, text fields as plain strings). */
export interface BeaconConfigState {
  publicKey: string;
  period: number;
  genesisTime: number;
  hash: string;
  groupHash: string;
  schemeId: string;
  beaconId: string;
}

/** Per-subnet hyperparameters that a test can change at runtime. */
export interface SubnetHyperparameters {
  tempo: number;
  weightsSetRateLimit: bigint;
  weightsVersionKey: bigint;
  minAllowedWeights: number;
  maxWeightsLimit: number;
  maxAllowedValidators: number;
  maxAllowedUids: number;
  commitRevealEnabled: boolean;
  revealPeriodEpochs: bigint;
  mechanismCount: number;
  immunityPeriod: number;
  activityCutoff: number;
  kappa: number;
}

/** One subnet. Maps keyed by `${netuidIndex}:${uid}` / `${netuidIndex}:${account}` / `${netuidIndex}:${epoch}`. */
export interface SubnetState extends SubnetHyperparameters {
  netuid: number;
  /** Which runtime's epoch rules apply (`epoch-rules.ts`). */
  runtime: 'legacy' | 'stateful';
  ownerHotkey: string | null;
  ownerColdkey: string;
  neurons: NeuronState[];
  lastUpdate: Map<number, bigint[]>;
  /** `ParentKeys[(child, netuid)]`: child hotkey -> `[proportion, parent hotkey]` (proportion of u64::MAX). */
  parentKeys: Map<string, [bigint, string][]>;
  /** `ChildKeys[(parent, netuid)]`: parent hotkey -> `[proportion, child hotkey]`. */
  childKeys: Map<string, [bigint, string][]>;
  /** Axons served on this netuid by hotkeys not registered on it (the chain allows that). */
  axons: Map<string, AxonState>;
  /** `ServingRateLimit[netuid]` (blocks between two `serve_axon` of one hotkey; 0 = none). */
  servingRateLimit: bigint;
  weights: Map<string, [number, number][]>;
  weightCommits: Map<string, WeightCommit[]>;
  timelockedCommits: Map<string, TimelockedCommit[]>;
  lastEpochBlock: bigint;
  pendingEpochAt: bigint;
  subnetEpochIndex: bigint;
  blocksSinceLastStep: bigint;
  lastMechanismStepBlock: bigint;
  /**
   * How many more of the subnet's due epoch slots the per-block cap `MaxEpochsPerBlock` defers by one block each
   * (stateful runtime; set by `devnet.deferEpochs`, standing in for lower netuids due in the same blocks).
   */
  epochDeferrals: number;
}

/** The whole chain state after a block. */
export interface ChainState {
  /** Which runtime runs (`legacy` = finney spec 393, `stateful` = Subtensor main): its pool guards apply. */
  runtime: 'legacy' | 'stateful';
  /**
   * The runtime's spec name and version (`System.LastRuntimeUpgrade`); with `runtime`, they decide the owner exemption
   * (`ownerExempt` of weights-preconditions.ts).
   */
  specName: string;
  specVersion: number;
  number: number;
  parentHash: string;
  timestamp: bigint;
  stakeThreshold: bigint;
  taoWeight: bigint;
  commitRevealVersion: number;
  lastStoredRound: bigint;
  /** `Drand.OldestStoredRound`: pulses before it are pruned. */
  oldestStoredRound: bigint;
  /** `Drand.Pulses`, by round. */
  pulses: Map<bigint, DrandPulse>;
  /** `Drand.BeaconConfig`, or null to leave the storage default (quicknet). */
  beaconConfig: BeaconConfigState | null;
  subnets: Map<number, SubnetState>;
  /** Account nonces by hex public key. */
  nonces: Map<string, number>;
  /** Encoded `EventRecord`s of the block. */
  events: Uint8Array[];
}

/** A deep copy (the model holds only plain data, bigints, Maps and arrays). */
export function cloneState(state: ChainState): ChainState {
  return structuredClone(state);
}

/** Mechanism storage index: `mecid * 4096 + netuid` (chain README 2.2). */
export function netuidIndex(netuid: number, mecid: number): number {
  return mecid * 4096 + netuid;
}

/** Storage map key helper. */
export function pairKey(a: number, b: number | string | bigint): string {
  return `${a}:${String(b)}`;
}
