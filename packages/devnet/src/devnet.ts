import type { Registry } from '@polkadot/types/types';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { describeSystemError, SubnetError } from '@subnet/core';

import type { BlockRecord } from './chain.js';
import { createChain } from './chain.js';
import type { ChainState, SubnetHyperparameters } from './chain-state.js';
import type { DevAccount } from './dev-accounts.js';
import { deriveDevAccounts } from './dev-accounts.js';
import type { DevnetOptions, DevnetOptionsInput } from './devnet-options.js';
import { parseDevnetOptions } from './devnet-options.js';
import type { DevnetFaults } from './faults.js';
import { createFaults } from './faults.js';
import { buildGenesisState } from './genesis.js';
import { buildMetadata, createDevnetRegistry, runtimeVersionOf, SS58_PREFIX } from './metadata/index.js';
import type { DevnetRuntimeKind } from './metadata/index.js';
import type { DevnetRuntime, RuntimeContext } from './runtime-context.js';
import { createRuntimeContext } from './runtime-context.js';
import { startRpcServer } from './rpc-server.js';
import { adminHandlers } from './rpc-admin.js';
import type { DevnetBeacon, DevnetBeaconInfo } from './drand-beacon.js';
import { createDevnetBeacon, publishPulses } from './drand-beacon.js';
import type { Pulse } from '@subnet/timelock';
import type { TimelockDrop } from './timelock-reveal.js';
import { DEVNET_ERROR_CODES } from './errors.js';
import type { DevnetBranchBlock, ReorganizeOptions } from './reorganize.js';
import { parseReorganization } from './reorganize.js';
import { checkReplacement, replaceNeuronInState, replacementAfterExtrinsics } from './replace-neuron.js';
import { checkSwap, swapHotkeyInState } from './swap-hotkey.js';

/** A produced block, as {@link Devnet.produceBlock} reports it. */
export interface DevnetBlock {
  readonly number: number;
  readonly hash: string;
  /** Hex extrinsics in block order (the timestamp inherent first). */
  readonly extrinsics: readonly string[];
}

/** Hyperparameters {@link Devnet.setHyperparameter} can change (applied in the next block after its `on_initialize`, as an admin extrinsic). */
export type DevnetHyperparameter = keyof SubnetHyperparameters | 'stakeThreshold' | 'commitRevealVersion';

/** The devnet's drand beacon as a client configures it, plus its pulses (for tests). */
export interface DevnetBeaconHandle extends DevnetBeaconInfo {
  /** The signed pulse of a round (what `Drand.Pulses(round)` holds once the round is published). */
  pulse(round: bigint | number): Pulse;
  /** The latest round published by block `number` (block time = genesis timestamp + number x slot). */
  roundAtBlock(number: number): bigint;
}

/** A running devnet. */
export interface Devnet {
  /** `ws://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly genesisHash: string;
  readonly netuid: number;
  /** Dev neurons by uid (hotkey and coldkey keyring pairs). */
  readonly accounts: readonly DevAccount[];
  readonly faults: DevnetFaults;
  /** The registry the devnet decodes extrinsics with. */
  readonly registry: Registry;
  /** The devnet's drand beacon (public key, genesis, period), or null when `beacon.enabled` is false. */
  readonly beacon: DevnetBeaconHandle | null;
  /** Timelocked commits the reveal step dropped silently (the chain only logs them), oldest first. */
  timelockDrops(): readonly TimelockDrop[];
  /** Parsed options (with defaults). */
  readonly options: Readonly<Omit<DevnetOptions, 'runtime'> & { readonly runtime: DevnetRuntimeKind }>;
  bestNumber(): number;
  finalizedNumber(): number;
  /** Number of extrinsics waiting in the pool. */
  poolSize(): number;
  /** Produces one block now (any mode); `null` while production is stalled or the node is frozen. */
  produceBlock(): Promise<DevnetBlock | null>;
  /** Produces `n` blocks now. */
  produceBlocks(n: number): Promise<DevnetBlock[]>;
  /**
   * Changes a hyperparameter of the subnet (or a global) as an admin extrinsic in the next block: after that block's
   * `on_initialize` (its timelocked reveal and epoch steps still see the old value), before its other extrinsics.
   */
  setHyperparameter(name: DevnetHyperparameter, value: number | bigint | boolean): void;
  /**
   * Sets a neuron's alpha stake in the next block, as a staking extrinsic there: after that block's `on_initialize`
   * (its timelocked reveal step still counts the old stake), before its other extrinsics.
   */
  setStake(uid: number, stake: bigint): void;
  /**
   * Sets a neuron's validator permit in the next block, where the chain's epoch would write it: after that block's
   * timelocked reveal step (which still sees the old permit), before its extrinsics.
   */
  setValidatorPermit(uid: number, permit: boolean): void;
  /**
   * Gives a uid to a new hotkey in the next block, as Subtensor's `replace_neuron` does when a registration prunes it
   * (`subnets/uids.rs:54-106` at 14bc6f9f9): `Keys` / `Uids`, `BlockAtRegistration` = that block, the uid's own
   * weights removed and every weight for it set to 0, the new hotkey's own stake (none), the old hotkey's axon removed;
   * on the stateful runtime only (spec 393 leaves both) `LastUpdate` = that block and no validator permit. Applied as a registration extrinsic of the next block: after its
   * `on_initialize`, before the pool's extrinsics (a weight set in that same block is masked by the chain's epoch,
   * `updated <= registered`; one set in a later block goes to the new hotkey). With `afterExtrinsics`, applied after the
   * pool's extrinsics instead, as a registration included last in the block: the block's extrinsics still see the old
   * neuron (its weights set there, then removed with the uid). The checks run now, against the best block and the
   * replacements already queued.
   *
   * @param uid - the uid to replace
   * @param hotkey - the new hotkey: SS58 (any prefix) or a `0x` hex public key
   * @param coldkey - the coldkey that registers it (SS58 or hex); default: the hotkey itself
   * @param options - `afterExtrinsics`: apply it after the next block's pool extrinsics (default false: before them)
   * @returns the new holder as hex public keys
   * @throws SubnetError `DEVNET_INVALID_UID` (`uid`), `DEVNET_INVALID_REPLACEMENT` (`hotkey` or `coldkey` no account,
   *   `hotkey` already registered or queued, `uid` the subnet owner hotkey's or already queued, `options.afterExtrinsics`
   *   not a boolean)
   */
  replaceNeuron(
    uid: number,
    hotkey: string,
    coldkey?: string,
    options?: { readonly afterExtrinsics?: boolean },
  ): { readonly uid: number; readonly hotkey: string; readonly coldkey: string };
  /**
   * Moves a registered hotkey's neuron to a new hotkey in the next block, as Subtensor's `swap_hotkey` does
   * (`swap/swap_hotkey.rs:451-717` at 14bc6f9f9): `Uids` / `Keys` name the new hotkey, the uid keeps its
   * `BlockAtRegistration`, weights, `LastUpdate`, permit and stake, the axon and v2 weight commits move with it.
   * Applied as an extrinsic of the next block, before the pool's extrinsics (after them with `afterExtrinsics`),
   * after its `on_initialize` (a reveal there still runs under the old hotkey). The checks run now, against the best
   * block and the changes already queued.
   *
   * @param hotkey - the registered hotkey: SS58 (any prefix) or a `0x` hex public key
   * @param newHotkey - the hotkey that takes its neuron
   * @param options - `afterExtrinsics`: apply it after the next block's pool extrinsics (default false: before them)
   * @returns the uid and both hotkeys as hex public keys
   * @throws SubnetError `DEVNET_INVALID_SWAP` (`hotkey` no account or not registered, `newHotkey` no account, the same
   *   or already registered or queued, the uid already queued, `options.afterExtrinsics` not a boolean)
   */
  swapHotkey(
    hotkey: string,
    newHotkey: string,
    options?: { readonly afterExtrinsics?: boolean },
  ): { readonly uid: number; readonly hotkey: string; readonly newHotkey: string };
  /**
   * Emulates Subtensor main's per-block epoch cap (`MaxEpochsPerBlock`) on the stateful runtime: from the next block
   * on, the next `count` times the subnet's epoch is due it is over the cap, so that block skips the subnet's
   * timelocked reveal step and defers its epoch to the next block (`PendingEpochAt = block + 1`).
   *
   * @throws SubnetError `DEVNET_INVALID_DEFERRAL` (count not a non-negative integer, or the legacy runtime, which has no cap)
   */
  deferEpochs(count: number): void;
  /**
   * Reorganises the unfinalised head, as finney does while GRANDPA finality lags the best block: the last `depth`
   * blocks are replaced by a branch built on their parent, one block per `branch` entry (default: `depth` blocks with
   * no extrinsics), each with only the extrinsics it names (0x hex, e.g. taken from a replaced block) and its drand
   * pulses unless `pulses: false` (on chain pulses come by `write_pulse` extrinsics a block author may leave out).
   * Block numbers repeat with other hashes: `chain_getBlockHash` answers the branch, the new-heads subscriptions
   * announce its blocks, watchers of replaced transactions hear `retracted`, and replaced transactions the branch
   * leaves out return to the pool, as a full node's pool resubmits them, or with `options.retracted: 'drop'` are
   * forgotten (their watchers hear `dropped`), as when no pool resubmits them. A replaced block stays readable by hash
   * until finality reaches its number, then is answered as an unknown block. `null` while production is stalled or
   * the node frozen (nothing changes).
   *
   * @throws SubnetError `DEVNET_REORG_FINALIZED` (`depth` reaches a finalised block), `DEVNET_INVALID_REORG` (a
   *   malformed depth, branch or options, a branch shorter than `depth`, an extrinsic the branch cannot include)
   */
  reorganize(depth: number, branch?: readonly DevnetBranchBlock[], options?: ReorganizeOptions): Promise<DevnetBlock[] | null>;
  /** Stops block production and the server, closing every connection. */
  stop(): Promise<void>;
}

const PACKAGE_VERSION = '0.0.0';

/**
 * The devnet's own runtime of a kind: the project's Subtensor metadata and runtime version, `stateful`
 * (default, Subtensor main, spec 425) or `legacy` (finney spec 393, or `specVersion`).
 *
 * @param kind - the runtime kind
 * @param specVersion - the spec version to report instead of the kind's own (the `specVersion` option)
 * @returns the runtime
 * @example
 * const runtime = defaultDevnetRuntime('legacy', 400);
 */
export function defaultDevnetRuntime(kind: DevnetRuntimeKind = 'stateful', specVersion?: number): DevnetRuntime {
  return { metadata: buildMetadata(kind, specVersion), runtimeVersion: runtimeVersionOf(kind, specVersion), ss58Prefix: SS58_PREFIX };
}

function toBlock(b: BlockRecord): DevnetBlock {
  return Object.freeze({ number: b.number, hash: b.hash, extrinsics: b.extrinsics });
}

/**
 * Starts a local Subtensor-compatible dev chain with a WebSocket JSON-RPC server on 127.0.0.1.
 *
 * @param input - options (all optional); `blockTime: 0` (default) = manual blocks
 * @returns the running devnet
 * @throws `DEVNET_INVALID_OPTIONS` naming the bad option; `DEVNET_LISTEN_FAILED` if the port is taken
 * @example
 * const devnet = await startDevnet({ neurons: 4, validators: 1, tempo: 10 });
 * const api = await ApiPromise.create({ provider: new WsProvider(devnet.url) });
 * await devnet.produceBlock();
 * await devnet.stop();
 */
export async function startDevnet(input: DevnetOptionsInput = {}): Promise<Devnet> {
  const options = parseDevnetOptions(input);
  await cryptoWaitReady();
  let ctx: RuntimeContext;
  if (typeof options.runtime === 'string') {
    const { registry } = createDevnetRegistry(options.runtime, options.specVersion);
    ctx = createRuntimeContext(defaultDevnetRuntime(options.runtime, options.specVersion), registry);
  } else {
    ctx = createRuntimeContext(options.runtime);
  }
  // the behaviour follows the served metadata, as a client decides it
  const runtimeKind: DevnetRuntimeKind = ctx.hasStorage('SubtensorModule', 'SubnetEpochIndex') ? 'stateful' : 'legacy';
  const accounts = deriveDevAccounts(options.seed, options.neurons, ctx.runtime.ss58Prefix, options.keyType);
  const genesis = buildGenesisState(options, accounts, runtimeKind, ctx.runtime.runtimeVersion);
  let beacon: DevnetBeacon | null = null;
  if (options.beacon.enabled) {
    beacon = createDevnetBeacon({
      seed: options.seed,
      genesisTime: options.beacon.genesisTime ?? Number(options.genesisTimestamp / 1000n),
      period: options.beacon.period,
      keepRounds: options.beacon.keepRounds,
    });
    genesis.beaconConfig = beacon.config();
    publishPulses(genesis, beacon);
  }
  const chain = createChain(ctx, genesis, {
    beacon,
    slotDuration: options.slotDuration,
    genesisTimestamp: options.genesisTimestamp,
    finalityLag: options.finalityLag,
    maxBlockExtrinsics: options.maxBlockExtrinsics,
    stateHistory: options.stateHistory,
  });
  let dropConnections = (): number => 0;
  let setFrozen = (_frozen: boolean): void => undefined;
  const { faults, interceptor } = createFaults({
    dropConnections: () => dropConnections(),
    setFrozen: (f) => {
      setFrozen(f);
    },
  });
  const subnetOf = (state: ChainState) => {
    const s = state.subnets.get(options.netuid);
    if (s === undefined) throw new Error('subnet missing');
    return s;
  };
  // registrations and swaps queued for the next block, not yet applied (their new hotkeys and uids cannot be queued twice)
  const queuedReplacements = { hotkeys: new Set<string>(), uids: new Set<number>() };
  /**
   * Queues a change of `uid` to `hotkey` as an extrinsic of the next block: after its on_initialize, before the pool's
   * extrinsics (after them with `afterExtrinsics`: included last); the hotkey and uid stay taken until it is applied.
   */
  const queueNeuronChange = (hotkey: string, uid: number, afterExtrinsics: boolean, apply: (state: ChainState) => void): void => {
    queuedReplacements.hotkeys.add(hotkey);
    queuedReplacements.uids.add(uid);
    chain.queueChange(
      (state) => {
        queuedReplacements.hotkeys.delete(hotkey);
        queuedReplacements.uids.delete(uid);
        apply(state);
      },
      afterExtrinsics ? 'finalize' : 'extrinsics',
    );
  };
  const replaceNeuron = (uid: unknown, hotkey: unknown, coldkey: unknown, replaceOptions?: unknown) => {
    const afterExtrinsics = replacementAfterExtrinsics(replaceOptions);
    const replacement = checkReplacement(subnetOf(chain.best().state), uid, hotkey, coldkey, queuedReplacements);
    // a registration extrinsic
    queueNeuronChange(replacement.hotkey, replacement.uid, afterExtrinsics, (state) => {
      replaceNeuronInState(subnetOf(state), replacement, BigInt(state.number));
    });
    return Object.freeze({ ...replacement });
  };
  const swapHotkey = (hotkey: unknown, newHotkey: unknown, swapOptions?: unknown) => {
    const afterExtrinsics = replacementAfterExtrinsics(swapOptions, DEVNET_ERROR_CODES.invalidSwap);
    const swap = checkSwap(subnetOf(chain.best().state), hotkey, newHotkey, queuedReplacements);
    // a swap_hotkey extrinsic, placed like a registration
    queueNeuronChange(swap.newHotkey, swap.uid, afterExtrinsics, (state) => {
      swapHotkeyInState(subnetOf(state), swap);
    });
    return Object.freeze({ ...swap });
  };
  const reorganize = (depth: unknown, branch: unknown, reorgOptions: unknown): DevnetBlock[] | null => {
    const parsed = parseReorganization(depth, branch, reorgOptions);
    if (faults.stalled || faults.frozen) return null;
    return chain.reorganize(parsed.depth, parsed.branch, parsed.options).map(toBlock);
  };
  let server;
  try {
    server = await startRpcServer(
      chain,
      options.port,
      interceptor,
      { name: 'subnet-devnet', version: PACKAGE_VERSION, chainName: 'Bittensor Devnet' },
      (control) =>
        adminHandlers(faults, control, {
          reorganize: (depth, branch, reorgOptions) => reorganize(depth, branch, reorgOptions),
          replaceNeuron: (uid, hotkey, coldkey, replaceOptions) => replaceNeuron(uid, hotkey, coldkey, replaceOptions),
          swapHotkey: (hotkey, newHotkey, swapOptions) => swapHotkey(hotkey, newHotkey, swapOptions),
        }),
    );
  } catch (cause) {
    throw listenFailedError(options.port, cause, 'options.port');
  }
  const srv = server;
  dropConnections = () => srv.dropConnections();
  setFrozen = (f) => {
    srv.setFrozen(f);
  };

  const produce = (): DevnetBlock | null => (faults.stalled || faults.frozen ? null : toBlock(chain.produceBlock()));
  let timer: NodeJS.Timeout | undefined;
  if (options.blockTime > 0) {
    timer = setInterval(() => {
      produce();
    }, options.blockTime);
  }

  const checkUid = (uid: number): void => {
    if (!Number.isInteger(uid) || uid < 0 || uid >= options.neurons) {
      throw new SubnetError(DEVNET_ERROR_CODES.invalidUid, 'no neuron has this uid', { context: { path: 'uid', value: uid } });
    }
  };
  const { runtime: _runtime, ...rest } = options;
  const publicOptions = { ...rest, runtime: runtimeKind };

  return Object.freeze({
    url: srv.url,
    port: srv.port,
    genesisHash: chain.genesisHash,
    netuid: options.netuid,
    accounts,
    faults,
    registry: ctx.registry,
    beacon: beaconHandle(beacon, options.genesisTimestamp, options.slotDuration),
    timelockDrops: () => chain.timelockDrops(),
    options: Object.freeze(publicOptions),
    bestNumber: () => chain.best().number,
    finalizedNumber: () => chain.finalized().number,
    poolSize: () => chain.poolSize(),
    produceBlock: () => Promise.resolve(produce()),
    async produceBlocks(n: number) {
      const out: DevnetBlock[] = [];
      for (let i = 0; i < n; i += 1) {
        const b = produce();
        if (b === null) break;
        out.push(b);
        if (i % 16 === 15) await new Promise((r) => setImmediate(r));
      }
      return out;
    },
    setHyperparameter(name: DevnetHyperparameter, value: number | bigint | boolean) {
      const expected = genesisField(genesis, options.netuid, name);
      const ok =
        (expected === 'bigint' && (typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value) && value >= 0))) ||
        (expected === 'number' && typeof value === 'number' && Number.isInteger(value) && value >= 0) ||
        (expected === 'boolean' && typeof value === 'boolean');
      if (!ok) {
        throw new SubnetError(DEVNET_ERROR_CODES.invalidHyperparameter, `hyperparameter ${name} expects a ${expected}`, {
          context: { path: name, value },
        });
      }
      const v = expected === 'bigint' ? BigInt(value) : value;
      // An admin extrinsic of the next block: after its on_initialize (reveal and epoch steps), before its other extrinsics.
      chain.queueChange((state) => {
        if (name === 'stakeThreshold') state.stakeThreshold = v as bigint;
        else if (name === 'commitRevealVersion') state.commitRevealVersion = v as number;
        else (subnetOf(state) as unknown as Record<string, unknown>)[name] = v;
        // Subtensor main's `sudo_set_tempo` and owner `set_tempo` restart the epoch cycle at their block
        // (`apply_tempo_with_cycle_reset`, `utils/misc.rs:121-125` at 14bc6f9f9); spec 393 writes only `Tempo`
        // (ab0cb2e52 `admin-utils/src/lib.rs:1022`, `:1020` at 79fcc6b4c), its epochs being a function of the block.
        if (name === 'tempo' && state.runtime === 'stateful') subnetOf(state).lastEpochBlock = BigInt(state.number);
      }, 'extrinsics');
    },
    setStake(uid: number, stake: bigint) {
      checkUid(uid);
      // a staking extrinsic of the next block: after its on_initialize (reveal and epoch steps see the old stake)
      chain.queueChange((state) => {
        const n = subnetOf(state).neurons[uid];
        if (n !== undefined) n.stake = stake;
      }, 'extrinsics');
    },
    setValidatorPermit(uid: number, permit: boolean) {
      checkUid(uid);
      // as the epoch writes it, after the reveal step of the next block's on_initialize: its extrinsics see the new permit
      chain.queueChange((state) => {
        const n = subnetOf(state).neurons[uid];
        if (n !== undefined) n.validatorPermit = permit;
      }, 'extrinsics');
    },
    replaceNeuron(uid: number, hotkey: string, coldkey?: string, replaceOptions?: { readonly afterExtrinsics?: boolean }) {
      return replaceNeuron(uid, hotkey, coldkey, replaceOptions);
    },
    swapHotkey(hotkey: string, newHotkey: string, swapOptions?: { readonly afterExtrinsics?: boolean }) {
      return swapHotkey(hotkey, newHotkey, swapOptions);
    },
    deferEpochs(count: number) {
      if (!Number.isSafeInteger(count) || count < 0) {
        throw new SubnetError(DEVNET_ERROR_CODES.invalidDeferral, 'the number of deferred epochs is a non-negative integer', {
          context: { path: 'count', value: count },
        });
      }
      if (runtimeKind !== 'stateful') {
        throw new SubnetError(DEVNET_ERROR_CODES.invalidDeferral, 'the legacy runtime (finney spec 393) has no per-block epoch cap', {
          context: { path: 'runtime', value: runtimeKind },
        });
      }
      chain.queueChange((state) => {
        subnetOf(state).epochDeferrals = count;
      });
    },
    reorganize(depth: number, branch?: readonly DevnetBranchBlock[], reorgOptions?: ReorganizeOptions) {
      // the branch is built at the call; a refusal is a rejection
      try {
        return Promise.resolve(reorganize(depth, branch, reorgOptions));
      } catch (e) {
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      }
    },
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      await srv.close();
    },
  });
}

function beaconHandle(beacon: DevnetBeacon | null, genesisTimestamp: bigint, slot: number): DevnetBeaconHandle | null {
  if (beacon === null) return null;
  return Object.freeze({
    publicKey: beacon.publicKey,
    genesisTime: beacon.genesisTime,
    period: beacon.period,
    beaconId: beacon.beaconId,
    pulse: (round: bigint | number) => beacon.pulse(BigInt(round)),
    roundAtBlock: (number: number) => beacon.roundAt(genesisTimestamp + BigInt(number) * BigInt(slot)),
  });
}

function genesisField(genesis: ChainState, netuid: number, name: string): string {
  if (name === 'stakeThreshold') return 'bigint';
  if (name === 'commitRevealVersion') return 'number';
  const subnet = genesis.subnets.get(netuid) as unknown as Record<string, unknown> | undefined;
  const v = subnet?.[name];
  if (
    v === undefined ||
    ![
      'tempo',
      'weightsSetRateLimit',
      'weightsVersionKey',
      'minAllowedWeights',
      'maxWeightsLimit',
      'maxAllowedValidators',
      'maxAllowedUids',
      'commitRevealEnabled',
      'revealPeriodEpochs',
      'mechanismCount',
      'immunityPeriod',
      'activityCutoff',
      'kappa',
    ].includes(name)
  ) {
    throw new SubnetError(DEVNET_ERROR_CODES.invalidHyperparameter, 'unknown hyperparameter', { context: { path: 'name', value: name } });
  }
  return typeof v;
}

/**
 * `DEVNET_LISTEN_FAILED` for a port that cannot be bound: the OS reason first (EADDRINUSE: another process holds the
 * port), then what to do, at `option` (`options.port` for the API, `--port` for the CLI).
 */
export function listenFailedError(port: number, cause: unknown, option: string): SubnetError {
  const reason = describeSystemError(cause);
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const advice =
    code === 'EADDRINUSE'
      ? `; another process listens there (a devnet already running?): stop it, or choose another port (${option} 0 picks a free one)`
      : code === 'EACCES'
        ? `; ports below 1024 need privileges: choose a port above 1023 (${option} 0 picks a free one)`
        : '';
  return new SubnetError(DEVNET_ERROR_CODES.listenFailed, `cannot listen on 127.0.0.1:${port}${reason === undefined ? '' : `: ${reason}`}${advice}`, {
    context: { path: option, value: port },
    cause,
  });
}
