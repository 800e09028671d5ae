import type { ApiPromise } from '@polkadot/api';

import { chainError } from './chain-error.js';
import { mechanismStorageIndex } from './commit-hash.js';
import type { ChainConnection } from './connection.js';
import type { MetagraphSnapshot } from './metagraph-snapshot.js';
import { stakeWeight } from './stake-weight.js';
import { axonIpText } from './axon-info.js';
import type { AxonInfo } from './axon-info.js';
import type { StakeWeight } from './stake-weight.js';

type StorageEntry = ((...args: unknown[]) => Promise<unknown>) & { multi: (keys: unknown[]) => Promise<unknown[]> };
type ApiAt = Awaited<ReturnType<ApiPromise['at']>>;

/** Reads `SubtensorModule.<name>` from the metadata-decorated storage at a block, or undefined when absent. */
function entry(at: ApiAt, name: string): StorageEntry | undefined {
  const pallet = (at.query as unknown as Record<string, Record<string, StorageEntry | undefined> | undefined>)['subtensorModule'];
  return pallet?.[name];
}

function required(at: ApiAt, name: string): StorageEntry {
  const found = entry(at, name);
  if (!found)
    throw chainError('StorageNotAvailable', `the runtime has no SubtensorModule.${name}`, { source: 'client', stage: 'read', path: 'storage', value: name });
  return found;
}

/** Converts a decoded integer codec to bigint. */
export function toBig(value: unknown): bigint {
  const text = (value as { toString(): string }).toString();
  return BigInt(text.startsWith('0x') ? text : text.replace(/,/g, ''));
}

function toList(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : Array.from(value as Iterable<unknown>);
}

function isNone(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'isNone' in value && (value as { isNone: boolean }).isNone;
}

function axonOf(raw: unknown): AxonInfo | null {
  if (raw === undefined || isNone(raw)) return null;
  const value = (raw as { unwrap?: () => unknown }).unwrap ? (raw as { unwrap: () => unknown }).unwrap() : raw;
  const a = value as Record<string, unknown>;
  const ip = toBig(a['ip']);
  return Object.freeze({
    block: toBig(a['block']),
    version: Number(toBig(a['version'])),
    ip,
    ipText: axonIpText(ip),
    port: Number(toBig(a['port'])),
    ipType: Number(toBig(a['ipType'])),
    protocol: Number(toBig(a['protocol'])),
  });
}

function links(value: unknown): [bigint, string][] {
  return toList(value).map((item) => {
    const [proportion, account] = toList(item);
    return [toBig(proportion), String(account)];
  });
}

/**
 * Reads, at one block, what the chain's stake weight of each hotkey is made of (`TotalHotkeyAlpha` on the subnet
 * and on root, `ParentKeys`, `ChildKeys`, the parents' stakes, `TaoWeight`) and computes it (`stakeWeight`).
 * A runtime without `ParentKeys` / `ChildKeys` / `TaoWeight` gets own alpha only (`stakeSource: 'storage'`).
 */
async function readStakeWeights(
  at: ApiAt,
  netuid: number,
  hotkeys: readonly string[],
): Promise<{ weights: StakeWeight[]; source: 'stake-weight' | 'storage' }> {
  const alphaOf = required(at, 'totalHotkeyAlpha');
  const parentsFn = entry(at, 'parentKeys');
  const childrenFn = entry(at, 'childKeys');
  const taoWeightFn = entry(at, 'taoWeight');
  const alpha = (await alphaOf.multi(hotkeys.map((h) => [h, netuid]))).map(toBig);
  if (parentsFn === undefined || childrenFn === undefined || taoWeightFn === undefined) {
    return { weights: alpha.map((a) => stakeWeight({ alpha: a, rootTao: 0n, parents: [], children: [], taoWeight: 0n })), source: 'storage' };
  }
  const [rootRaw, parentsRaw, childrenRaw, taoWeightRaw] = await Promise.all([
    alphaOf.multi(hotkeys.map((h) => [h, 0])),
    parentsFn.multi(hotkeys.map((h) => [h, netuid])),
    childrenFn.multi(hotkeys.map((h) => [h, netuid])),
    taoWeightFn(),
  ]);
  const parents = parentsRaw.map(links);
  const children = childrenRaw.map(links);
  const parentKeys = [...new Set(parents.flatMap((list) => list.map(([, account]) => account)))];
  const [parentAlpha, parentRoot] = await Promise.all([
    parentKeys.length === 0 ? Promise.resolve([]) : alphaOf.multi(parentKeys.map((h) => [h, netuid])),
    parentKeys.length === 0 ? Promise.resolve([]) : alphaOf.multi(parentKeys.map((h) => [h, 0])),
  ]);
  const stakesOf = new Map<string, { alpha: bigint; rootTao: bigint }>();
  parentKeys.forEach((key, i) => stakesOf.set(key, { alpha: toBig(parentAlpha[i]), rootTao: toBig(parentRoot[i]) }));
  const taoWeight = toBig(taoWeightRaw);
  const weights = hotkeys.map((_h, uid) =>
    stakeWeight({
      alpha: alpha[uid] ?? 0n,
      rootTao: toBig(rootRaw[uid]),
      parents: (parents[uid] ?? []).map(([proportion, account]) => ({ proportion, ...(stakesOf.get(account) ?? { alpha: 0n, rootTao: 0n }) })),
      children: (children[uid] ?? []).map(([proportion]) => ({ proportion })),
      taoWeight,
    }),
  );
  return { weights, source: 'stake-weight' };
}

/** Options of {@link readMetagraph}. */
export interface ReadMetagraphOptions {
  readonly netuid: number;
  /** Mechanism id, default 0. */
  readonly mecid?: number;
  /** Block hash to read at; default: the current best head. */
  readonly at?: string;
}

/**
 * Reads a metagraph at ONE block: uids, hotkeys, coldkeys, stake weights (own, inherited and root-weighted),
 * validator permits, last update (on the mechanism storage index), block at registration, axons, and where the
 * runtime has them incentive, dividends, trust and consensus, and the hyperparameters weight setting depends on
 * (tempo, rate limit, version key, min allowed weights, stake threshold, commit-reveal state and version,
 * reveal period, mechanism count), plus the epoch state and the runtime version (spec name and version) the next
 * block runs, by which the owner exemption is decided. Every storage item is taken from the runtime
 * metadata; all reads use the same block hash.
 *
 * @param connection - the chain connection
 * @param options - netuid, mecid and block
 * @returns a frozen snapshot
 * @throws SubnetError `CHAIN_INVALID_INPUT`, `CHAIN_SUBNET_NOT_EXISTS`, `CHAIN_STORAGE_NOT_AVAILABLE`, `CHAIN_REQUEST_TIMEOUT`, a read's code
 * @example const mg = await readMetagraph(conn, { netuid: 1 });
 */
export async function readMetagraph(connection: ChainConnection, options: ReadMetagraphOptions): Promise<MetagraphSnapshot> {
  const given: unknown = options;
  if (typeof given !== 'object' || given === null)
    throw chainError('InvalidInput', 'the metagraph options are an object', { source: 'client', path: 'options', value: given });
  const at: unknown = options.at;
  if (at !== undefined && (typeof at !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(at))) {
    throw chainError('InvalidInput', 'at is a 0x-prefixed 32-byte block hash', { source: 'client', path: 'at', value: at });
  }
  const netuid = options.netuid;
  const mecid = options.mecid ?? 0;
  const netuidIndex = mechanismStorageIndex(netuid, mecid);
  // one block hash; the reads are split into stages, each retried on its own after a reconnect, so a read
  // interrupted by a socket switch resumes instead of starting over
  const header = await connection.request('metagraph head', (api) =>
    options.at === undefined ? api.rpc.chain.getHeader() : api.rpc.chain.getHeader(options.at),
  );
  const blockHash = header.hash.toHex();
  const block = header.number.toBigInt();
  const stage = <T>(label: string, run: (at: ApiAt) => Promise<T>): Promise<T> =>
    connection.request(`metagraph ${label}`, async (api) => run(await api.at(blockHash)));
  const { n, uids, hotkeys } = await stage('keys', async (at) => {
    const added = entry(at, 'networksAdded');
    if (added && String(await added(netuid)) !== 'true') {
      throw chainError('SubnetNotExists', `netuid ${netuid} does not exist at block ${block}`, { stage: 'read', path: 'netuid', value: netuid });
    }
    const count = Number(toBig(await required(at, 'subnetworkN')(netuid)));
    const all = Array.from({ length: count }, (_v, i) => i);
    return { n: count, uids: all, hotkeys: (await required(at, 'keys').multi(all.map((u) => [netuid, u]))).map((v) => String(v)) };
  });
  const optionalAt = async (at: ApiAt, name: string, ...args: unknown[]): Promise<unknown> => {
    const fn = entry(at, name);
    return fn ? fn(...args) : undefined;
  };
  const perUid = async (at: ApiAt, name: string, key: number): Promise<number[] | null> => {
    const fn = entry(at, name);
    return fn === undefined ? null : toList(await fn(key)).map((v) => Number(toBig(v)));
  };
  const [[axonsRaw, incentive, dividends, trust, consensus], [coldkeysRaw, bar, permitRaw, lastUpdateRaw], stakes, params, runtimeVersion] = await Promise.all([
    stage('axons and metrics', (at) => {
      const axonsFn = entry(at, 'axons');
      return Promise.all([
        axonsFn === undefined ? Promise.resolve(hotkeys.map(() => undefined)) : axonsFn.multi(hotkeys.map((h) => [netuid, h])),
        perUid(at, 'incentive', netuidIndex),
        perUid(at, 'dividends', netuid),
        perUid(at, 'trust', netuid),
        perUid(at, 'consensus', netuid),
      ]);
    }),
    stage('neurons', (at) =>
      Promise.all([
        entry(at, 'owner') ? required(at, 'owner').multi(hotkeys) : Promise.resolve(hotkeys.map(() => '')),
        required(at, 'blockAtRegistration').multi(uids.map((u) => [netuid, u])),
        required(at, 'validatorPermit')(netuid),
        required(at, 'lastUpdate')(netuidIndex),
      ]),
    ),
    stage('stake weights', (at) => readStakeWeights(at, netuid, hotkeys)),
    stage('hyperparameters', (at) => {
      const optional = (name: string, ...args: unknown[]): Promise<unknown> => optionalAt(at, name, ...args);
      return Promise.all([
        required(at, 'tempo')(netuid),
        required(at, 'weightsSetRateLimit')(netuid),
        required(at, 'weightsVersionKey')(netuid),
        required(at, 'minAllowedWeights')(netuid),
        required(at, 'stakeThreshold')(),
        required(at, 'commitRevealWeightsEnabled')(netuid),
        optional('commitRevealWeightsVersion'),
        optional('revealPeriodEpochs', netuid),
        optional('mechanismCountCurrent', netuid),
        optional('subnetOwnerHotkey', netuid),
        optional('subnetEpochIndex', netuid),
        optional('lastEpochBlock', netuid),
        optional('pendingEpochAt', netuid),
        optional('blocksSinceLastStep', netuid),
      ]);
    }),
    // the runtime of the next block, which judges what is submitted now: `state_getRuntimeVersion` at the block read
    // (`api.at(hash).runtimeVersion` is the parent's, the runtime that built the block, one block late after an upgrade)
    connection.request('metagraph runtime version', async (api) => {
      const v = await api.rpc.state.getRuntimeVersion(blockHash);
      return Object.freeze({ specName: v.specName.toString(), specVersion: v.specVersion.toNumber() });
    }),
  ]);
  const permits = toList(permitRaw).map((p) => String(p) === 'true');
  const lastUpdate = toList(lastUpdateRaw).map(toBig);
  const [
    tempo,
    rateLimit,
    versionKey,
    minAllowed,
    threshold,
    crEnabled,
    crVersion,
    revealPeriod,
    mechCount,
    ownerHotkey,
    epochIndex,
    lastEpoch,
    pendingAt,
    sinceStep,
  ] = params;
  {
    const opt = (v: unknown): bigint | null => (v === undefined || isNone(v) ? null : toBig(v));
    const owner = ownerHotkey === undefined || isNone(ownerHotkey) ? null : (ownerHotkey as { toString(): string }).toString();
    const snapshot: MetagraphSnapshot = {
      netuid,
      mecid,
      netuidIndex,
      block,
      blockHash,
      n,
      hotkeys: Object.freeze(hotkeys),
      coldkeys: Object.freeze(coldkeysRaw.map((v) => String(v))),
      stakes: Object.freeze(stakes.weights.map((w) => w.total)),
      stakeWeights: Object.freeze(stakes.weights),
      stakeSource: stakes.source,
      validatorPermit: Object.freeze(uids.map((u) => permits[u] ?? false)),
      lastUpdate: Object.freeze(uids.map((u) => lastUpdate[u] ?? 0n)),
      blockAtRegistration: Object.freeze(bar.map(toBig)),
      axons: Object.freeze(axonsRaw.map(axonOf)),
      incentive: incentive === null ? null : Object.freeze(uids.map((u) => incentive[u] ?? 0)),
      dividends: dividends === null ? null : Object.freeze(uids.map((u) => dividends[u] ?? 0)),
      trust: trust === null ? null : Object.freeze(uids.map((u) => trust[u] ?? 0)),
      consensus: consensus === null ? null : Object.freeze(uids.map((u) => consensus[u] ?? 0)),
      // an unset AccountId default decodes to the all-zero account: treat it as "no owner hotkey"
      ownerHotkey: owner === null || owner === '5C4hrfjw9DjXZTzV3MwzrrAr9P1MJhSrvWGWqi1eSuyUpnhM' ? null : owner,
      hyperparameters: Object.freeze({
        tempo: Number(toBig(tempo)),
        weightsRateLimit: toBig(rateLimit),
        weightsVersionKey: toBig(versionKey),
        minAllowedWeights: Number(toBig(minAllowed)),
        stakeThreshold: toBig(threshold),
        commitRevealEnabled: String(crEnabled) === 'true',
        commitRevealVersion: crVersion === undefined ? null : Number(toBig(crVersion)),
        revealPeriodEpochs: revealPeriod === undefined ? 1n : toBig(revealPeriod),
        mechanismCount: mechCount === undefined ? 1 : Number(toBig(mechCount)),
      }),
      epoch: Object.freeze({
        subnetEpochIndex: opt(epochIndex),
        lastEpochBlock: opt(lastEpoch),
        pendingEpochAt: opt(pendingAt),
        blocksSinceLastStep: opt(sinceStep),
      }),
      runtimeVersion,
    };
    return Object.freeze(snapshot);
  }
}
