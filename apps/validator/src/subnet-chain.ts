import {
  CHAIN_ERROR_CODES,
  COMMIT_STORE_LOCK_STALE_AFTER_MS,
  connectChain,
  createChainClient,
  exemptsSubnetOwner,
  fileCommitStore,
  pendingCommitFromJson,
  pendingCommitToJson,
  preflight,
} from '@subnet/chain';
import type { ChainClient, ChainConnection, ChainSigner, CommitStore, FileCommitStore, PendingCommit, RevealWindow, SignedWeightsCall } from '@subnet/chain';
import { isSubnetError, redactUrl, SubnetError } from '@subnet/core';

import type { ChainPort, ChainView, HashRevealResult, PendingHashCommit, SetWeightsOptions, SubmissionIdentity } from './chain-port.js';
import { finalizedNumber, findWeightSubmission, hashCommitBound } from './chain-reconcile.js';
import { findHashReveal } from './hash-reveal-search.js';
import { appError, VALIDATOR_ERROR_CODES } from './errors.js';
import { confirmRevealOnChain } from './reveal-check.js';
import { timelockRecordFromJson, timelockRecordToJson } from './timelock-record-json.js';
import { setThenReplaced, uidReplacedIn } from './uid-replaced.js';

/** How weights become u16 values (`setWeights`); reconciliation rebuilds a timelocked commit's values the same way. */
const U16_MODE = 'sum';
/** Blocks added to the era for an extrinsic's latest landing (it is signed a little after the head read), as chain-reconcile.ts. */
const LANDING_MARGIN = 16;

/** Options of {@link connectSubnetChain}. */
export interface SubnetChainOptions {
  /** ws:// URL (or `finney`, `test`, `local`). */
  readonly endpoint: string;
  readonly netuid: number;
  /** The validator hotkey, loaded once (`loadValidatorKey`); the same key signs the bundles. */
  readonly signer: ChainSigner;
  readonly wait: 'inBlock' | 'finalized';
  /** File that keeps commit-reveal salts until their reveal, across restarts. */
  readonly commitStorePath: string;
  /**
   * Commit-reveal v2 commits kept elsewhere too (each in `@subnet/chain`'s wire form, `pendingCommitToJson`): the
   * pending epochs' commits in the database, so that whichever instance leads reveals them (docs/spec.md G.22).
   * Revealed along with the file's; one that cannot be read is skipped with a warning.
   */
  readonly sharedCommits?: () => Promise<readonly unknown[]>;
  /** Reconnect when no new head arrived for this long (ms). */
  readonly staleHeadMs?: number;
  readonly requestTimeoutMs?: number;
  /** How long the first connection may take before start-up gives up (ms, default 60 000, `@subnet/chain`'s). */
  readonly connectTimeoutMs?: number;
  /** Mortal era of weight extrinsics (blocks), default 64: the client signs with it, reconciliation waits it out. */
  readonly eraPeriod?: number;
  /** Longest wait of one timelocked reveal confirmation (ms, default 60 000); still queued after it → retried later. */
  readonly revealCheckTimeoutMs?: number;
  readonly logger?: { warn(obj: unknown, msg: string): void; info(obj: unknown, msg: string): void };
}

/** A metadata-decorated storage map's multi-key read. */
type StorageMulti = { multi: (keys: unknown[]) => Promise<unknown[]> };

/**
 * Whether a block is on the finalised chain: finality has reached its number and the finalised chain's block at that
 * number is this one. A read that fails answers false (the block is then checked again by reconciliation).
 */
async function isFinal(connection: ChainConnection, number: bigint, hash: string): Promise<boolean> {
  try {
    return await connection.request('finality of the submission block', async (api) => {
      const finalized = await finalizedNumber(api);
      return finalized >= number && (await api.rpc.chain.getBlockHash(number)).toHex().toLowerCase() === hash.toLowerCase();
    });
  } catch {
    return false;
  }
}

/** Waited past the moment the lock counts as abandoned, so the next look finds it so (clock granularity, a slow disk). */
const COMMIT_STORE_WAIT_MARGIN_MS = 1000;

/**
 * Takes the commit store file; when it is locked by a holder that only its heartbeat vouches for (another host: a
 * container re-created under a new host name after a crash, a network folder whose other machine died) and the lock
 * counts as abandoned within the bound, waits for that once, saying so, and tries again (docs/spec.md G.32). A holder
 * that still runs keeps its heartbeat fresh, and the second try is refused as the first was.
 */
async function takeCommitStore(path: string, logger: SubnetChainOptions['logger']): Promise<FileCommitStore> {
  try {
    return fileCommitStore(path);
  } catch (error) {
    if (!isSubnetError(error, CHAIN_ERROR_CODES.commitStoreLocked)) throw error;
    const { abandonedInMs, heartbeatAgeMs, holder, lockPath } = error.context;
    // At most the chain's whole bound: a holder that wrote a longer one into its lock is refused at once.
    if (abandonedInMs === undefined || heartbeatAgeMs === undefined || holder === undefined || abandonedInMs > COMMIT_STORE_LOCK_STALE_AFTER_MS) throw error;
    const waitMs = abandonedInMs + COMMIT_STORE_WAIT_MARGIN_MS;
    logger?.warn(
      {
        code: 'COMMIT_STORE_LOCK_WAIT',
        lock_path: lockPath,
        holder_pid: holder.pid,
        holder_host: holder.host,
        heartbeat_age_ms: heartbeatAgeMs,
        wait_ms: waitMs,
      },
      `the commit store ${path} is locked by process ${holder.pid} on ${holder.host}, which cannot be checked from here, and its heartbeat is ${(heartbeatAgeMs / 1000).toFixed(1)} s old: waiting ${(waitMs / 1000).toFixed(1)} s for the lock to count as abandoned (a holder that still runs keeps it fresh, and this start then stops)`,
    );
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    return fileCommitStore(path);
  }
}

/** `@subnet/chain`'s wait for the first connection (ms), passed on explicitly so the message can quote it. */
const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;

/**
 * What start-up reports when the first connection fails, in the operator's terms: the setting to check is
 * `chain.endpoint` (`@subnet/chain` names its own argument, `network`), and the reason the node gave
 * (`connect ECONNREFUSED 127.0.0.1:9944`, `getaddrinfo ENOTFOUND …`) leads, where it used to sit in the cause only.
 *
 * @param error - what `connectChain` or `createChainClient` threw
 * @param endpoint - `chain.endpoint` as configured (shown with its credentials hidden)
 * @param timeoutMs - the wait that ran out
 * @returns `VALIDATOR_INVALID_CONFIG` for an endpoint that is no ws(s):// URL nor network name (exit code 2),
 *   `VALIDATOR_CHAIN_UNAVAILABLE` for one that never answered (exit code 1), any other `CHAIN_*` error as it is
 */
function firstConnectionError(error: unknown, endpoint: string, timeoutMs: number): unknown {
  const value = redactUrl(endpoint);
  if (isSubnetError(error, 'CHAIN_INVALID_INPUT') && error.context.path.startsWith('network')) {
    const summary = error.message.replace(/^\[[A-Z_]+\] (?:InvalidInput: )?/, '').replace(/ at network.*$/, '');
    return new SubnetError(
      VALIDATOR_ERROR_CODES.invalidConfig,
      `invalid chain endpoint: ${summary}; set chain.endpoint (or --chain-endpoint) to the node's ws:// or wss:// URL, or finney, test or local`,
      { context: { path: 'chain.endpoint', value }, cause: error },
    );
  }
  if (isSubnetError(error, 'CHAIN_CONNECTION_FAILED')) {
    const cause = error.cause instanceof Error ? redactUrl(error.cause.message) : 'no answer';
    return new SubnetError(
      VALIDATOR_ERROR_CODES.chainUnavailable,
      `cannot connect to the chain (${cause}; tried for ${timeoutMs / 1000} s): check chain.endpoint (or --chain-endpoint) and that the node is running and reachable from here`,
      { context: { path: 'chain.endpoint', value }, cause: error },
    );
  }
  if (isSubnetError(error) && error.code.startsWith('CHAIN_')) return error;
  return appError(VALIDATOR_ERROR_CODES.chainUnavailable, `cannot connect to the chain: ${redactUrl((error as Error).message)}`, {}, error);
}

/**
 * A commit in the form kept on its epoch's row: `@subnet/chain`'s wire form without the era's end the commit store file
 * keeps (`mortal_until`), which versions before docs/spec.md G.31 refuse, so an instance not yet upgraded still reveals
 * the commit from the database. Every commit that reaches a row goes through here.
 */
function sharedCommitJson(commit: PendingCommit): ReturnType<typeof pendingCommitToJson> {
  const { mortalUntil: _eraEnd, ...shared } = commit;
  return pendingCommitToJson(shared);
}

/**
 * Hands what names the extrinsic just signed to the `setWeights` call's `onSigned` (docs/spec.md G.45). A lost lease
 * stops the submission (nothing is sent); any other failure is logged and the extrinsic is still sent: reconciliation
 * then matches the epoch by signer alone, as before G.45.
 */
async function keepIdentity(
  onSigned: NonNullable<SetWeightsOptions['onSigned']>,
  signed: SignedWeightsCall,
  logger: SubnetChainOptions['logger'],
): Promise<void> {
  const identity: SubmissionIdentity =
    signed.kind === 'set'
      ? { kind: 'set', extrinsicHash: signed.extrinsicHash, uids: signed.uids, values: signed.values, versionKey: signed.versionKey }
      : { kind: 'timelocked', extrinsicHash: signed.extrinsicHash, commitHash: signed.commitHash, revealRound: signed.revealRound };
  try {
    await onSigned(identity);
  } catch (error) {
    if (isSubnetError(error, VALIDATOR_ERROR_CODES.leaseLost)) throw error;
    logger?.warn(
      { call: signed.call, error: redactUrl((error as Error).message) },
      'what names the weight extrinsic could not be kept with its epoch before sending; if the submission is interrupted, reconciliation takes the first weight extrinsic of this hotkey',
    );
  }
}

/** The `onCommitSaved` of the `setWeights` call in progress (calls for one signer are serialised by the client). */
interface CommitSavedHook {
  current: ((commit: unknown) => Promise<void>) | undefined;
}

/**
 * The client's commit store: the file's commits and the shared ones (docs/spec.md G.22), the file's first; saves and
 * removals go to the file (a shared commit leaves the database when its epoch's outcome is recorded). A commit saved
 * before it is sent is handed to the `setWeights` call's `onCommitSaved` too, after the file holds it.
 */
function sharedCommitStore(file: CommitStore, hook: CommitSavedHook, options: Pick<SubnetChainOptions, 'sharedCommits' | 'logger'>): CommitStore {
  const shared = options.sharedCommits;
  return {
    save: async (commit) => {
      await file.save(commit);
      const onSaved = hook.current;
      if (commit.commitBlock !== null || onSaved === undefined) return;
      try {
        await onSaved(sharedCommitJson(commit));
      } catch (error) {
        // Another instance leads now: nothing is signed, and the unsent commit leaves the file.
        if (isSubnetError(error, VALIDATOR_ERROR_CODES.leaseLost)) {
          await file.remove(commit.commitHash);
          throw error;
        }
        options.logger?.warn(
          { commitHash: commit.commitHash, error: redactUrl((error as Error).message) },
          'the commit-reveal commit could not be kept with its epoch before sending; only this instance can reveal it if the submission is interrupted',
        );
      }
    },
    remove: (hash) => file.remove(hash),
    load: async () => {
      const own = await file.load();
      if (shared === undefined) return own;
      const known = new Set(own.map((c) => c.commitHash));
      const more: PendingCommit[] = [];
      for (const value of await shared()) {
        try {
          const commit = pendingCommitFromJson(value);
          if (!known.has(commit.commitHash)) {
            known.add(commit.commitHash);
            more.push(commit);
          }
        } catch (error) {
          options.logger?.warn(
            { error: (error as Error).message },
            'a commit-reveal commit kept in the database cannot be read; it is not revealed from there',
          );
        }
      }
      return [...own, ...more];
    },
  };
}

/**
 * The real chain access: `@subnet/chain` (connection with reconnect, metagraph, preflight, setWeights
 * through whichever call the runtime offers, commit-reveal when enabled).
 *
 * @param options - endpoint, netuid, signer, inclusion wait
 * @returns the chain port, holding the commit store file until its `close()`
 * @throws SubnetError `CHAIN_COMMIT_STORE_LOCKED` when another process (or another chain port of this process) holds
 *   the commit store file, before anything connects (after waiting once, up to 61 s, logged as `COMMIT_STORE_LOCK_WAIT`,
 *   when the lock's holder cannot be checked from here and its heartbeat is about to count as abandoned); `VALIDATOR_CHAIN_UNAVAILABLE` when the first connection fails,
 *   `VALIDATOR_INVALID_CONFIG` at `chain.endpoint` for an endpoint that is no ws(s):// URL nor network name; other
 *   `CHAIN_*` codes
 * @example const chain = await connectSubnetChain({ endpoint: devnet.url, netuid: 1, signer: await loadSigner({ kind: 'uri', uri: '//Alice' }), wait: 'inBlock', commitStorePath: './commits.json' })
 */
export async function connectSubnetChain(options: SubnetChainOptions): Promise<ChainPort> {
  // Held from here until close() (or the process's exit): a second instance on this file stops here, at its start,
  // before it connects (CHAIN_COMMIT_STORE_LOCKED, naming the process that holds it), not at its first commit. A lock
  // only a heartbeat vouches for, and that is about to count as abandoned, is waited for once.
  const fileStore = await takeCommitStore(options.commitStorePath, options.logger);
  const commitSaved: CommitSavedHook = { current: undefined };
  let connection: ChainConnection;
  let client: ChainClient;
  try {
    const signer = options.signer;
    connection = await connectChain({
      network: options.endpoint,
      staleHeadMs: options.staleHeadMs ?? 30_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 15_000,
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      initialBackoffMs: 200,
      maxBackoffMs: 5_000,
      ...(options.logger === undefined
        ? {}
        : {
            logger: {
              info: (msg: string, ctx?: Record<string, unknown>) => options.logger?.info(ctx ?? {}, msg),
              warn: (msg: string, ctx?: Record<string, unknown>) => options.logger?.warn(ctx ?? {}, msg),
            },
          }),
    });
    client = await createChainClient({
      connection,
      signer,
      u16Mode: U16_MODE,
      commitStore: sharedCommitStore(fileStore, commitSaved, options),
      eraPeriod: options.eraPeriod ?? 64,
    });
  } catch (error) {
    await fileStore.close();
    throw firstConnectionError(error, options.endpoint, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  }
  const hotkey = client.signer.address;

  const snapshot = () => client.metagraph({ netuid: options.netuid });

  /**
   * The reveal bounds of a commit-reveal v2 commit (docs/spec.md G.22): from its predicted window, closed one chain
   * epoch (the window's length) after the window's last block, for an epoch the chain may defer; without a window,
   * from the commit block and the subnet's tempo and reveal period.
   */
  const hashCommitOf = async (s: { commitHash?: string; reveal?: RevealWindow | null; blockNumber: bigint }): Promise<PendingHashCommit> => {
    const commitHash = s.commitHash ?? '';
    // The salt and payload from the commit store, kept with the epoch so another instance can reveal it (absent: a
    // commit found on chain whose salt this instance does not hold).
    const stored = (await fileStore.load()).find((c) => c.commitHash === commitHash);
    const commit = stored === undefined ? {} : { commit: sharedCommitJson(stored) };
    const w = s.reveal;
    if (w !== null && w !== undefined) return { commitHash, dueBlock: w.firstBlock, closedAfter: w.lastBlock + (w.lastBlock - w.firstBlock + 1n), ...commit };
    return { commitHash, dueBlock: s.blockNumber, closedAfter: hashCommitBound(s.blockNumber, (await snapshot()).hyperparameters), ...commit };
  };

  return {
    hotkey,
    head: () => connection.request('chain_getHeader', async (api) => (await api.rpc.chain.getHeader()).number.toBigInt()),
    genesisHash: () => connection.request('genesisHash', (api) => Promise.resolve(api.genesisHash.toHex().toLowerCase())),
    finalizedHash: () => connection.request('chain_getFinalizedHead', async (api) => (await api.rpc.chain.getFinalizedHead()).toHex().toLowerCase()),
    view: async (): Promise<ChainView> => {
      const s = await snapshot();
      return {
        block: s.block,
        tempo: s.hyperparameters.tempo,
        ownerHotkey: s.ownerHotkey,
        minAllowedWeights: s.hyperparameters.minAllowedWeights,
        stakeThreshold: s.hyperparameters.stakeThreshold,
        // as `@subnet/chain`'s preflight decides it, from the runtime version read with the snapshot (docs/spec.md G.33)
        ownerStakeExempt: exemptsSubnetOwner(s),
        neurons: s.hotkeys.map((h, uid) => {
          const axon = s.axons[uid];
          const coldkey = s.coldkeys[uid];
          const registeredAt = s.blockAtRegistration[uid];
          return {
            uid,
            hotkey: h,
            stake: s.stakes[uid] ?? 0n,
            validatorPermit: s.validatorPermit[uid] ?? false,
            ...(coldkey === undefined ? {} : { coldkey }),
            ...(registeredAt === undefined ? {} : { registeredAt }),
            axon: axon === null || axon === undefined ? null : { ip: axon.ipText, port: axon.port },
          };
        }),
      };
    },
    uidHolders: (uids) =>
      // one state_queryStorageAt of the uids' Keys at the best head; the storage default (the all-zero account) is no holder
      connection.request('uid holders', async (api) => {
        const keys = (api.query as unknown as Record<string, Record<string, StorageMulti | undefined> | undefined>)['subtensorModule']?.['keys'];
        if (keys === undefined)
          throw appError(VALIDATOR_ERROR_CODES.chainUnavailable, 'the runtime has no SubtensorModule.Keys', { path: 'storage', value: 'Keys' });
        const found = await keys.multi(uids.map((uid) => [options.netuid, uid]));
        return found.map((k) => ((k as { isEmpty?: boolean }).isEmpty === true ? null : String(k)));
      }),
    preflight: async (uids, weights) => {
      const s = await snapshot();
      const result = preflight({
        snapshot: s,
        hotkey,
        uids,
        values: weights,
        versionKey: s.hyperparameters.weightsVersionKey,
        kind: s.hyperparameters.commitRevealEnabled ? 'commit' : 'set',
      });
      const first = result.errors[0];
      if (!result.ok && first !== undefined) throw first;
    },
    setWeights: async (uids, weights, call) => {
      const map = new Map<number, number>();
      uids.forEach((uid, i) => map.set(uid, weights[i] ?? 0));
      // On a commit-reveal v4 subnet the chain reveals about one epoch later; the epoch loop must not
      // block on it (the submission is the confirmed commit; the bundle records the call used).
      let submission: Awaited<ReturnType<ChainClient['setWeights']>>;
      commitSaved.current = call?.onCommitSaved;
      try {
        const onSigned = call?.onSigned;
        submission = await client.setWeights({
          netuid: options.netuid,
          weights: map,
          wait: options.wait,
          waitForReveal: false,
          ...(onSigned === undefined ? {} : { onSigned: (signed: SignedWeightsCall) => keepIdentity(onSigned, signed, options.logger) }),
        });
      } catch (error) {
        // Set, then removed with the uid by a registration in the same block: say that, not "not confirmed" (G.19).
        if (isSubnetError(error, CHAIN_ERROR_CODES.weightsNotConfirmed))
          throw (await setThenReplaced(connection, { netuid: options.netuid, hotkey }, error)) ?? error;
        throw error;
      } finally {
        commitSaved.current = undefined;
      }
      const record = submission.timelock?.record;
      let hashCommit: PendingHashCommit | undefined;
      let finalized: boolean;
      try {
        hashCommit = submission.kind === 'commit' && record === undefined && submission.commitHash !== undefined ? await hashCommitOf(submission) : undefined;
        // `inBlock` returns at the first block that holds it: say whether finality already reached that very block.
        finalized = submission.finalized || (await isFinal(connection, submission.blockNumber, submission.blockHash));
      } catch (error) {
        // The weights are in a block: a failed read now must not read as a failed submission (a failed epoch publishes
        // its bundle at once, while a commit waits for its reveal). Reconciliation finds them from the claim.
        throw appError(
          VALIDATOR_ERROR_CODES.submissionUnknown,
          `the weights landed in block ${submission.blockNumber} (${submission.extrinsicHash}), but reading their reveal bounds or finality failed: ${redactUrl((error as Error).message)}; reconciliation records them`,
          { block: submission.blockNumber.toString(), extrinsicHash: submission.extrinsicHash },
          error,
        );
      }
      return {
        block: submission.blockNumber,
        blockHash: submission.blockHash,
        finalized,
        extrinsicHash: submission.extrinsicHash,
        call: submission.call,
        ...(record === undefined
          ? {}
          : {
              timelock: {
                record: timelockRecordToJson(record),
                // The chain's reveal block for the epoch the commit was filed under (an epoch or more after the predicted
                // one when the commit waited in the pool across an epoch boundary), else the prediction's.
                dueBlock: submission.timelock?.revealBlock ?? record.prediction?.revealBlock ?? record.commitBlock,
                commitHash: record.commitHash,
              },
            }),
        ...(hashCommit === undefined ? {} : { hashCommit }),
      };
    },
    forgetCommit: (commitHash) => fileStore.remove(commitHash),
    revealPending: async () => {
      const outcomes = await client.revealPending({ wait: options.wait });
      const final: HashRevealResult[] = [];
      for (const o of outcomes) {
        if (o.status === 'revealed') {
          const s = o.submission;
          final.push({ commitHash: o.commitHash, status: 'revealed', ...(s === undefined ? {} : { block: s.blockNumber, blockHash: s.blockHash }) });
          // Held by the chain past its window: expired for sure; no longer held: gone, for a reason not known.
        } else if (o.status === 'expired') final.push({ commitHash: o.commitHash, status: o.onChain === false ? 'gone' : 'expired' });
      }
      return final;
    },
    confirmReveal: (record) =>
      confirmRevealOnChain(client, timelockRecordFromJson(record), options.revealCheckTimeoutMs ?? 60_000, {
        replacedIn: (at, block, blockHash) => uidReplacedIn(connection, at, block, blockHash),
        isFinal: (block, blockHash) => isFinal(connection, block, blockHash),
      }),
    commitSchedule: async () => {
      const hp = (await snapshot()).hyperparameters;
      // As `@subnet/chain` setWeights picks its path (runtime-calls.ts requiresTimelock): timelocked when
      // commit-reveal is on and the version is 3 or more, or the runtime offers no hash commit call; else hash (v2).
      if (!hp.commitRevealEnabled) return null;
      const tx = (connection.api.tx as unknown as Record<string, Record<string, unknown> | undefined>)['subtensorModule'];
      const hashCalls = tx?.['commitMechanismWeights'] !== undefined || tx?.['commitWeights'] !== undefined;
      const scheme = (hp.commitRevealVersion ?? 0) >= 3 || !hashCalls ? 'timelock' : 'hash';
      return { scheme, tempo: hp.tempo, revealPeriodEpochs: hp.revealPeriodEpochs, landingBlocks: BigInt((options.eraPeriod ?? 64) + LANDING_MARGIN) };
    },
    findHashReveal: (query) => findHashReveal(connection, { ...query, hotkey }),
    findSubmission: (query) =>
      findWeightSubmission(connection, {
        ...query,
        netuid: options.netuid,
        hotkey,
        eraPeriod: options.eraPeriod ?? 64,
        u16Mode: U16_MODE,
        hashCommitBounds: async (block, commitHash) => hashCommitOf({ commitHash, blockNumber: block }),
      }),
    reconnects: () => connection.reconnects(),
    // The commit store last, released even when closing the client or the connection fails.
    close: () =>
      client
        .close()
        .then(() => connection.close())
        .finally(() => fileStore.close()),
  };
}
