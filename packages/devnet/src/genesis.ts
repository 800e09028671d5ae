import type { AxonState, ChainState, SubnetState } from './chain-state.js';
import type { DevAccount } from './dev-accounts.js';
import type { DevnetOptions } from './devnet-options.js';
import { runtimeVersionOf } from './metadata/runtime-version.js';

const ZERO_HASH = `0x${'00'.repeat(32)}`;

/** An `axons` option entry as the chain stores it (served at block 0 by genesis). */
function axonAtGenesis(axon: DevnetOptions['axons'] extends (infer T)[] | undefined ? T : never): AxonState | null {
  if (axon === null) return null;
  return { block: 0n, version: axon.version, ip: axon.ip, port: axon.port, ipType: axon.ipType, protocol: axon.protocol, placeholder1: 0, placeholder2: 0 };
}

/**
 * Builds the genesis state from options and dev accounts: one subnet with `neurons` registered at block 0,
 * the first `validators` uids staked and permitted (unless `stakes` / `permits` say otherwise), the
 * owner hotkey at `ownerUid`, and the hyperparameters given.
 *
 * @param options - parsed options
 * @param accounts - dev accounts, by uid
 * @param runtime - the runtime whose epoch rules the subnet follows
 * @param version - the runtime's spec name and version, by which the owner exemption is decided (default: the
 *   devnet's own for `runtime` and `options.specVersion`)
 * @returns the state of block 0
 * @example
 * const state = buildGenesisState(parseDevnetOptions({}), deriveDevAccounts('devnet', 8));
 */
export function buildGenesisState(
  options: DevnetOptions,
  accounts: readonly DevAccount[],
  runtime: 'legacy' | 'stateful' = 'stateful',
  version: { readonly specName: string; readonly specVersion: number } = runtimeVersionOf(runtime, options.specVersion),
): ChainState {
  const neurons = accounts.map((a) => ({
    uid: a.uid,
    hotkey: a.hotkeyHex,
    coldkey: a.coldkeyHex,
    stake: options.stakes?.[a.uid] ?? (a.uid < options.validators ? options.validatorStake : 0n),
    rootStake: options.rootStakes?.[a.uid] ?? 0n,
    validatorPermit: options.permits?.[a.uid] ?? a.uid < options.validators,
    active: true,
    blockAtRegistration: 0n,
    axon: axonAtGenesis(options.axons?.[a.uid] ?? null),
  }));
  const parentKeys = new Map<string, [bigint, string][]>();
  const childKeys = new Map<string, [bigint, string][]>();
  for (const link of options.childKeys) {
    const parent = accounts[link.parent]?.hotkeyHex;
    const child = accounts[link.child]?.hotkeyHex;
    if (parent === undefined || child === undefined) continue;
    parentKeys.set(child, [...(parentKeys.get(child) ?? []), [link.proportion, parent]]);
    childKeys.set(parent, [...(childKeys.get(parent) ?? []), [link.proportion, child]]);
  }
  const owner = options.ownerUid === null ? undefined : accounts[options.ownerUid];
  const subnet: SubnetState = {
    netuid: options.netuid,
    runtime,
    tempo: options.tempo,
    weightsSetRateLimit: options.weightsSetRateLimit,
    weightsVersionKey: options.weightsVersionKey,
    minAllowedWeights: options.minAllowedWeights,
    maxWeightsLimit: 65535,
    maxAllowedValidators: options.maxAllowedValidators,
    maxAllowedUids: Math.max(256, options.neurons),
    commitRevealEnabled: options.commitReveal,
    revealPeriodEpochs: options.revealPeriodEpochs,
    mechanismCount: options.mechanismCount,
    immunityPeriod: 5000,
    activityCutoff: 5000,
    kappa: 32767,
    ownerHotkey: owner?.hotkeyHex ?? null,
    ownerColdkey: owner?.coldkeyHex ?? ZERO_HASH,
    neurons,
    lastUpdate: new Map(),
    parentKeys,
    childKeys,
    axons: new Map(),
    servingRateLimit: options.servingRateLimit,
    weights: new Map(),
    weightCommits: new Map(),
    timelockedCommits: new Map(),
    lastEpochBlock: 0n,
    pendingEpochAt: 0n,
    subnetEpochIndex: 0n,
    blocksSinceLastStep: 0n,
    epochDeferrals: 0,
    lastMechanismStepBlock: 0n,
  };
  return {
    runtime,
    specName: version.specName,
    specVersion: version.specVersion,
    number: 0,
    parentHash: ZERO_HASH,
    timestamp: options.genesisTimestamp,
    stakeThreshold: options.stakeThreshold,
    taoWeight: options.taoWeight,
    commitRevealVersion: options.commitRevealVersion,
    lastStoredRound: 0n,
    oldestStoredRound: 0n,
    pulses: new Map(),
    beaconConfig: null,
    subnets: new Map([[options.netuid, subnet]]),
    nonces: new Map(),
    events: [],
  };
}
