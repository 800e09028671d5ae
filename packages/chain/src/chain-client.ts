import { webcrypto } from 'node:crypto';

import type { ApiPromise } from '@polkadot/api';
import type { SubmittableExtrinsic } from '@polkadot/api/types';

import { chainError } from './chain-error.js';
import { chainUpscale } from './chain-upscale.js';
import { weightCommitHash } from './commit-hash.js';
import type { CommitStore, PendingCommit } from './commit-store.js';
import { connectChain } from './connection.js';
import type { ChainConnection, ConnectOptions } from './connection.js';
import type { ChainSigner } from './keys.js';
import { readMetagraph, toBig } from './metagraph.js';
import type { MetagraphSnapshot } from './metagraph-snapshot.js';
import { preflight } from './preflight.js';
import type { PreflightInput, PreflightResult } from './preflight.js';
import { resolveWeights } from './resolve-weights.js';
import type { WeightsInput } from './resolve-weights.js';
import { v2CommitEpoch } from './epoch-schedule.js';
import { epochAtBlock, revealWindow } from './reveal-window.js';
import type { RevealWindow } from './reveal-window.js';
import { submitExtrinsic } from './submit-extrinsic.js';
import type { Inclusion } from './submit-extrinsic.js';
import { convertToU16 } from './u16-conversion.js';
import type { TimelockOptions } from './timelock-context.js';
import { readTimelockContext, TIMELOCK_COMMIT_REVEAL_VERSION } from './timelock-context.js';
import type { TimelockedCommitRecord } from './timelock-commit.js';
import { prepareTimelockedCommit, timelockedCommitCall, timelockedCommitRecord } from './timelock-commit.js';
import type { TimelockedReveal } from './timelock-reveal.js';
import { confirmTimelockedReveal } from './timelock-reveal.js';
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
}

/** What a timelocked (commit-reveal v4) submission adds to {@link WeightsSubmission}. */
export interface TimelockSubmissionInfo {
  /** The commit: pass it to `confirmTimelockedReveal` when `waitForReveal` was false. */
  readonly record: TimelockedCommitRecord;
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
  /** `revealed` (confirmed), `waiting` (window not open yet), `expired` (window passed; removed), `unconfirmed` (commit not found on chain yet). */
  readonly status: 'revealed' | 'waiting' | 'expired' | 'unconfirmed';
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

type TxFn = (...args: unknown[]) => SubmittableExtrinsic<'promise'>;

function txFn(api: ApiPromise, name: string): TxFn | undefined {
  const pallet = (api.tx as unknown as Record<string, Record<string, TxFn | undefined> | undefined>)['subtensorModule'];
  return pallet?.[name];
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function intArg(value: unknown, path: string, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw chainError('InvalidInput', `${path} must be an integer in [0, ${max}]`, { source: 'client', path, value });
  }
  return value;
}

function versionArg(value: unknown): bigint | undefined {
  if (value === undefined) return undefined;
  if ((typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) || (typeof value === 'bigint' && value >= 0n && value < 2n ** 64n)) {
    return BigInt(value);
  }
  throw chainError('InvalidInput', 'versionKey must be a u64', { source: 'client', path: 'versionKey', value });
}

function randomSalt(): number[] {
  const salt = new Uint16Array(8);
  webcrypto.getRandomValues(salt);
  return [...salt];
}

/**
 * True when weights on this subnet must go through a timelocked commit: `CommitRevealWeightsVersion >= 3`,
 * or the runtime offers no hash commit call (commit-reveal v2) at all.
 */
function requiresTimelock(api: ApiPromise, mecid: number, version: number | null): boolean {
  const hashCallsOffered = txFn(api, 'commitMechanismWeights') !== undefined || (mecid === 0 && txFn(api, 'commitWeights') !== undefined);
  return (version !== null && version >= 3) || !hashCallsOffered;
}

/**
 * Creates the chain client: one connection, one signer, serialised submissions. See the README for
 * the full example.
 *
 * @param options - connection (or network), signer and policies
 * @returns the client
 * @throws SubnetError `CHAIN_CONNECTION_FAILED`, `CHAIN_INVALID_INPUT`
 * @example
 * const client = await createChainClient({ network: 'finney', signer, commitStore: fileCommitStore('commits.json') });
 * await client.setWeights({ netuid: 1, weights: { '5F...': 0.7, '5G...': 0.3 } });
 */
export async function createChainClient(options: ChainClientOptions): Promise<ChainClient> {
  const owned = options.connection === undefined;
  const connection =
    options.connection ??
    (await connectChain({
      ...options,
      network:
        options.network ??
        (() => {
          throw chainError('InvalidInput', 'give either a connection or a network', { source: 'client', path: 'network', value: undefined });
        })(),
    }));
  const signer = options.signer;
  const eraPeriod = options.eraPeriod ?? 64;
  const timeoutMs = options.inclusionTimeoutMs ?? 180_000;
  const pollMs = options.pollMs ?? 1_000;
  const mode = options.u16Mode ?? 'sum';
  const logger = options.logger;
  const stakeCheck: unknown = options.stakeCheck ?? 'error';
  if (stakeCheck !== 'error' && stakeCheck !== 'warn') {
    throw chainError('InvalidInput', "stakeCheck is 'error' or 'warn'", { source: 'client', path: 'stakeCheck', value: stakeCheck });
  }
  const checked = (input: Omit<PreflightInput, 'stakeCheck'>): PreflightResult => {
    const result = preflight({ ...input, stakeCheck });
    for (const w of result.warnings) logger?.warn?.(`preflight warning (stakeCheck: warn): ${w.message}`, { code: w.code, context: w.context });
    return result;
  };

  const submit = (label: string, build: (api: ApiPromise) => SubmittableExtrinsic<'promise'>, wait: 'inBlock' | 'finalized'): Promise<Inclusion> =>
    submitExtrinsic(connection, signer, build, { wait, eraPeriod, timeoutMs, pollMs, label, logger });

  const pick = (mecid: number, mechanismName: string, plainName: string): { name: string; fn: TxFn; withMecid: boolean } => {
    const api = connection.api;
    const mech = txFn(api, mechanismName);
    if (mech) return { name: mechanismName, fn: mech, withMecid: true };
    const plain = txFn(api, plainName);
    if (plain && mecid === 0) return { name: plainName, fn: plain, withMecid: false };
    throw chainError('CallNotAvailable', `the runtime offers neither SubtensorModule.${snake(mechanismName)} nor (for mecid 0) ${snake(plainName)}`, {
      source: 'client',
      path: 'mecid',
      value: mecid,
    });
  };

  const readBack = async (
    inclusion: Inclusion,
    netuidIndex: number,
    uid: number,
    uids: readonly number[],
    values: readonly number[],
    ctx: Record<string, unknown>,
  ): Promise<readonly number[]> => {
    const expected = chainUpscale(values);
    const at = await connection.request('api.at', (api) => api.at(inclusion.blockHash));
    const weightsEntry = (at.query as unknown as Record<string, Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined> | undefined>)[
      'subtensorModule'
    ]?.['weights'];
    if (!weightsEntry)
      throw chainError('StorageNotAvailable', 'the runtime has no SubtensorModule.Weights', {
        source: 'client',
        stage: 'confirm',
        path: 'storage',
        value: 'Weights',
      });
    const stored = Array.from((await connection.request('Weights', () => weightsEntry(netuidIndex, uid))) as Iterable<Iterable<unknown>>).map((pair) =>
      Array.from(pair).map((x) => Number(toBig(x))),
    );
    const same = stored.length === uids.length && stored.every((p, i) => p[0] === uids[i] && p[1] === expected[i]);
    if (!same) {
      throw chainError('WeightsNotConfirmed', `the stored Weights for uid ${uid} at block ${inclusion.blockNumber} differ from what was sent`, {
        source: 'client',
        stage: 'confirm',
        ...ctx,
        expected: uids.map((u, i) => [u, expected[i]]),
        storedWeights: stored,
      });
    }
    return expected;
  };

  const hasEvent = (inclusion: Inclusion, method: string, match: (data: readonly unknown[]) => boolean): boolean =>
    inclusion.events.some((e) => e.section === 'subtensorModule' && e.method === method && match(e.data));

  const requireStore = (netuid: number): CommitStore => {
    if (!options.commitStore) {
      throw chainError('InvalidInput', `netuid ${netuid} has commit-reveal enabled: pass a durable commitStore so the salt survives a restart`, {
        source: 'client',
        path: 'commitStore',
        value: undefined,
      });
    }
    return options.commitStore;
  };

  const reveal = async (commit: PendingCommit, snapshot: MetagraphSnapshot, uid: number, wait: 'inBlock' | 'finalized'): Promise<WeightsSubmission> => {
    const check = checked({ snapshot, hotkey: signer.address, uids: commit.uids, values: commit.values, versionKey: commit.versionKey, kind: 'reveal' });
    const first = check.errors[0];
    if (first) throw first;
    const call = pick(commit.mecid, 'revealMechanismWeights', 'revealWeights');
    const inclusion = await submit(
      `SubtensorModule.${snake(call.name)}`,
      () =>
        call.withMecid
          ? call.fn(commit.netuid, commit.mecid, [...commit.uids], [...commit.values], [...commit.salt], commit.versionKey)
          : call.fn(commit.netuid, [...commit.uids], [...commit.values], [...commit.salt], commit.versionKey),
      wait,
    );
    const ctx = { extrinsicHash: inclusion.extrinsicHash, blockHash: inclusion.blockHash, blockNumber: inclusion.blockNumber, commitHash: commit.commitHash };
    if (!hasEvent(inclusion, 'WeightsRevealed', () => true)) {
      throw chainError('WeightsNotConfirmed', 'the reveal was included without a WeightsRevealed event', { source: 'client', stage: 'confirm', ...ctx });
    }
    const stored = await readBack(inclusion, commit.netuidIndex, uid, commit.uids, commit.values, ctx);
    await requireStore(commit.netuid).remove(commit.commitHash);
    return Object.freeze({
      kind: 'reveal' as const,
      call: `SubtensorModule.${snake(call.name)}`,
      netuid: commit.netuid,
      mecid: commit.mecid,
      uid,
      uids: commit.uids,
      values: commit.values,
      stored,
      versionKey: commit.versionKey,
      blockHash: inclusion.blockHash,
      blockNumber: inclusion.blockNumber,
      extrinsicHash: inclusion.extrinsicHash,
      nonce: inclusion.nonce,
      finalized: inclusion.finalized,
      commitHash: commit.commitHash,
    });
  };

  const commitEntries = async (snapshot: MetagraphSnapshot): Promise<{ hash: string; epoch: bigint }[]> => {
    const at = await connection.request('api.at', (api) => api.at(snapshot.blockHash));
    const fn = (at.query as unknown as Record<string, Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined> | undefined>)['subtensorModule']?.[
      'weightCommits'
    ];
    if (!fn)
      throw chainError('StorageNotAvailable', 'the runtime has no SubtensorModule.WeightCommits', {
        source: 'client',
        stage: 'read',
        path: 'storage',
        value: 'WeightCommits',
      });
    const raw = await connection.request('WeightCommits', () => fn(snapshot.netuidIndex, signer.address));
    const option = raw as { isSome?: boolean; unwrap?: () => unknown };
    const list = option.isSome === false ? [] : Array.from((option.unwrap ? option.unwrap() : raw) as Iterable<Iterable<unknown>>);
    return list.map((entry) => {
      const fields = Array.from(entry);
      // field 1 is the commit block on the legacy runtime, the commit epoch on the stateful one
      return { hash: String(fields[0]), epoch: v2CommitEpoch(snapshot, toBig(fields[1])) };
    });
  };

  const windowFor = (snapshot: MetagraphSnapshot, commitEpoch: bigint): RevealWindow | null =>
    revealWindow(
      { netuid: snapshot.netuid, tempo: snapshot.hyperparameters.tempo, head: snapshot.block, epoch: snapshot.epoch },
      commitEpoch,
      snapshot.hyperparameters.revealPeriodEpochs,
    );

  const client: ChainClient = {
    connection,
    signer,
    metagraph: (args) => readMetagraph(connection, args),

    async setWeights(args: SetWeightsArgs): Promise<WeightsSubmission> {
      const netuid = intArg(args.netuid, 'netuid', 4095);
      const mecid = intArg(args.mecid ?? 0, 'mecid', 255);
      const wait: unknown = args.wait ?? 'inBlock';
      if (wait !== 'inBlock' && wait !== 'finalized')
        throw chainError('InvalidInput', "wait is 'inBlock' or 'finalized'", { source: 'client', path: 'wait', value: wait });
      const requestedVersion = versionArg(args.versionKey);
      const snapshot = await readMetagraph(connection, { netuid, mecid });
      const hp = snapshot.hyperparameters;
      const api = connection.api;
      const timelocked = hp.commitRevealEnabled && requiresTimelock(api, mecid, hp.commitRevealVersion);
      if (timelocked && hp.commitRevealVersion !== null && hp.commitRevealVersion !== TIMELOCK_COMMIT_REVEAL_VERSION) {
        throw chainError(
          'TimelockRequired',
          `netuid ${netuid} requires timelocked commit-reveal version ${hp.commitRevealVersion}; this client speaks version ${TIMELOCK_COMMIT_REVEAL_VERSION}, nothing was signed`,
          {
            source: 'client',
            stage: 'preflight',
            path: 'commitRevealVersion',
            value: hp.commitRevealVersion,
            netuid,
          },
        );
      }
      const converted = convertToU16(resolveWeights(args.weights, snapshot), mode);
      if (converted.uids.length === 0) {
        throw chainError('EmptyWeights', 'every weight is zero after u16 conversion; nothing to set', {
          source: 'client',
          path: 'weights',
          value: converted.uids.length,
        });
      }
      const versionKey = requestedVersion ?? hp.weightsVersionKey;
      const kind = hp.commitRevealEnabled ? 'commit' : 'set';
      const check = checked({ snapshot, hotkey: signer.address, uids: converted.uids, values: converted.values, versionKey, kind });
      const first = check.errors[0];
      if (first) throw first;
      const uid = check.uid ?? -1;
      const { uids, values } = converted;

      if (kind === 'set') {
        const call = pick(mecid, 'setMechanismWeights', 'setWeights');
        const label = `SubtensorModule.${snake(call.name)}`;
        const inclusion = await submit(
          label,
          () => (call.withMecid ? call.fn(netuid, mecid, [...uids], [...values], versionKey) : call.fn(netuid, [...uids], [...values], versionKey)),
          wait,
        );
        const ctx = { extrinsicHash: inclusion.extrinsicHash, blockHash: inclusion.blockHash, blockNumber: inclusion.blockNumber };
        if (!hasEvent(inclusion, 'WeightsSet', (d) => Number(d[0]) === snapshot.netuidIndex && Number(d[1]) === uid)) {
          throw chainError('WeightsNotConfirmed', `the extrinsic was included without WeightsSet(${snapshot.netuidIndex}, ${uid})`, {
            source: 'client',
            stage: 'confirm',
            ...ctx,
          });
        }
        const stored = await readBack(inclusion, snapshot.netuidIndex, uid, uids, values, ctx);
        return Object.freeze({
          kind,
          call: label,
          netuid,
          mecid,
          uid,
          uids,
          values,
          stored,
          versionKey,
          blockHash: inclusion.blockHash,
          blockNumber: inclusion.blockNumber,
          extrinsicHash: inclusion.extrinsicHash,
          nonce: inclusion.nonce,
          finalized: inclusion.finalized,
        });
      }

      if (timelocked) {
        const context = await readTimelockContext(connection, snapshot.blockHash, options.timelock);
        const { commit, prediction } = prepareTimelockedCommit({ snapshot, context, hotkeyPublicKey: signer.publicKey, uids, values, versionKey });
        const call = timelockedCommitCall(api, mecid);
        const label = `SubtensorModule.${call.name}`;
        const inclusion = await submit(label, () => call.build(netuid, commit.commit, commit.round), wait);
        const record = timelockedCommitRecord(inclusion, {
          hotkey: signer.address,
          netuid,
          mecid,
          netuidIndex: snapshot.netuidIndex,
          uid,
          uids,
          values,
          versionKey,
          revealRound: commit.round,
          commit: commit.commit,
          prediction: {
            schedule: prediction.schedule,
            commitEpoch: prediction.commitEpoch,
            revealEpoch: prediction.revealEpoch,
            revealBlock: prediction.revealBlock,
            targetBlock: prediction.targetBlock,
          },
        });
        const waitReveal = args.waitForReveal ?? options.timelock?.waitForReveal ?? true;
        const revealed = waitReveal ? await client.confirmTimelockedReveal(record, { wait }) : null;
        return Object.freeze({
          kind: revealed === null ? ('commit' as const) : ('reveal' as const),
          call: label,
          netuid,
          mecid,
          uid,
          uids,
          values,
          stored: chainUpscale(values),
          versionKey,
          blockHash: revealed?.blockHash ?? inclusion.blockHash,
          blockNumber: revealed?.blockNumber ?? inclusion.blockNumber,
          extrinsicHash: inclusion.extrinsicHash,
          nonce: inclusion.nonce,
          finalized: revealed === null ? inclusion.finalized : revealed.finalized,
          commitHash: record.commitHash,
          timelock: Object.freeze({ record, beaconSource: context.beaconSource, explanation: prediction.explanation, reveal: revealed }),
        });
      }

      const store = requireStore(netuid);
      const salt = randomSalt();
      const commitHash = weightCommitHash({ hotkey: signer.address, netuidIndex: snapshot.netuidIndex, uids, values, salt, versionKey });
      const pending: PendingCommit = Object.freeze({
        hotkey: signer.address,
        netuid,
        mecid,
        netuidIndex: snapshot.netuidIndex,
        uids,
        values,
        salt: Object.freeze(salt),
        versionKey,
        commitHash,
        commitBlock: null,
      });
      await store.save(pending);
      const call = pick(mecid, 'commitMechanismWeights', 'commitWeights');
      const label = `SubtensorModule.${snake(call.name)}`;
      let inclusion: Inclusion;
      try {
        inclusion = await submit(label, () => (call.withMecid ? call.fn(netuid, mecid, commitHash) : call.fn(netuid, commitHash)), wait);
      } catch (error) {
        // keep the salt only when the commit may still land
        if ((error as { code?: unknown }).code !== 'CHAIN_INCLUSION_TIMEOUT') await store.remove(commitHash);
        throw error;
      }
      const ctx = { extrinsicHash: inclusion.extrinsicHash, blockHash: inclusion.blockHash, blockNumber: inclusion.blockNumber, commitHash };
      if (!hasEvent(inclusion, 'WeightsCommitted', (d) => String(d[2]) === commitHash)) {
        await store.remove(commitHash);
        throw chainError('WeightsNotConfirmed', 'the commit was included without a matching WeightsCommitted event', {
          source: 'client',
          stage: 'confirm',
          ...ctx,
        });
      }
      await store.save({ ...pending, commitBlock: inclusion.blockNumber });
      const after = await readMetagraph(connection, { netuid, mecid, at: inclusion.blockHash });
      const entry = (await commitEntries(after)).find((e) => e.hash === commitHash);
      return Object.freeze({
        kind,
        call: label,
        netuid,
        mecid,
        uid,
        uids,
        values,
        stored: chainUpscale(values),
        versionKey,
        blockHash: inclusion.blockHash,
        blockNumber: inclusion.blockNumber,
        extrinsicHash: inclusion.extrinsicHash,
        nonce: inclusion.nonce,
        finalized: inclusion.finalized,
        commitHash,
        reveal: entry ? windowFor(after, entry.epoch) : null,
      });
    },

    async revealPending(args = {}): Promise<readonly RevealOutcome[]> {
      const wait = args.wait ?? 'inBlock';
      const deadline = Date.now() + (args.timeoutMs ?? timeoutMs);
      const store = options.commitStore;
      if (!store) return Object.freeze([]);
      for (;;) {
        const outcomes: RevealOutcome[] = [];
        const mine = (await store.load()).filter((c) => c.hotkey === signer.address);
        for (const commit of mine) {
          const snapshot = await readMetagraph(connection, { netuid: commit.netuid, mecid: commit.mecid });
          const entry = (await commitEntries(snapshot)).find((e) => e.hash === commit.commitHash);
          const base = { commitHash: commit.commitHash, netuid: commit.netuid, mecid: commit.mecid };
          if (!entry) {
            outcomes.push(Object.freeze({ ...base, status: commit.commitBlock === null ? ('unconfirmed' as const) : ('expired' as const), window: null }));
            if (commit.commitBlock !== null) await store.remove(commit.commitHash);
            continue;
          }
          const epochInput = { netuid: snapshot.netuid, tempo: snapshot.hyperparameters.tempo, head: snapshot.block, epoch: snapshot.epoch };
          const target = entry.epoch + snapshot.hyperparameters.revealPeriodEpochs;
          const next = epochAtBlock(epochInput, snapshot.block + 1n);
          const window = windowFor(snapshot, entry.epoch);
          if (next > target) {
            await store.remove(commit.commitHash);
            outcomes.push(Object.freeze({ ...base, status: 'expired' as const, window }));
          } else if (next < target) {
            outcomes.push(Object.freeze({ ...base, status: 'waiting' as const, window }));
          } else {
            const uid = snapshot.hotkeys.indexOf(signer.address);
            const submission = await reveal(commit, snapshot, uid, wait);
            outcomes.push(Object.freeze({ ...base, status: 'revealed' as const, window, submission }));
          }
        }
        const waiting = outcomes.some((o) => o.status === 'waiting' || o.status === 'unconfirmed');
        if (args.untilDone !== true || !waiting) return Object.freeze(outcomes);
        if (Date.now() > deadline) return Object.freeze(outcomes);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },

    async confirmTimelockedReveal(record, args = {}): Promise<TimelockedReveal> {
      const blockMs = (options.timelock?.blockTimeSeconds ?? 12) * 1000;
      const head = (await connection.request('chain_getHeader', (a) => a.rpc.chain.getHeader())).number.toBigInt();
      const target = record.prediction?.revealBlock ?? head;
      // default: twice the predicted time to the reveal block plus one more epoch (the retry window), at least the inclusion timeout
      const blocks = Number(target > head ? target - head : 0n) + 400;
      const revealTimeoutMs = args.timeoutMs ?? options.timelock?.revealTimeoutMs ?? Math.max(timeoutMs, 2 * blocks * blockMs);
      return confirmTimelockedReveal(connection, record, { pollMs, timeoutMs: revealTimeoutMs, wait: args.wait ?? 'inBlock' });
    },

    async nextAllowedBlock(args): Promise<RateLimitStatus> {
      const netuid = intArg(args.netuid, 'netuid', 4095);
      const mecid = intArg(args.mecid ?? 0, 'mecid', 255);
      const snapshot = await readMetagraph(connection, { netuid, mecid });
      const uid = snapshot.hotkeys.indexOf(signer.address);
      if (uid < 0) {
        throw chainError('HotKeyNotRegisteredInSubNet', `hotkey ${signer.address} is not registered on netuid ${netuid}`, {
          stage: 'preflight',
          path: 'hotkey',
          value: signer.address,
        });
      }
      const last = snapshot.lastUpdate[uid] ?? 0n;
      const next = last === 0n ? 0n : last + snapshot.hyperparameters.weightsRateLimit;
      return Object.freeze({ uid, head: snapshot.block, nextAllowedBlock: next, allowedNow: snapshot.block + 1n >= next });
    },

    async close(): Promise<void> {
      if (owned) await connection.close();
    },
  };
  return client;
}
