import { join } from 'node:path';

import type { BundleSigner } from '@subnet/bundle';
import { redactUrl, SubnetError } from '@subnet/core';
import { walletHotkeyAddresses } from '@subnet/wallet';
import pino from 'pino';
import type { Logger } from 'pino';

import type { ChainNeuron, ChainPort, ChainView } from './chain-port.js';
import type { ValidatorConfig } from './config.js';
import { redactConfig } from './config.js';
import type { EpochOutcome, EpochRunnerDeps } from './epoch-runner.js';
import { createDispatcher } from './dispatch/dispatcher.js';
import type { Dispatcher } from './dispatch/dispatcher.js';
import { VALIDATOR_ERROR_CODES } from './errors.js';
import { hotkeyDeparture, registeredWalletHotkeys, walletHotkeySentence } from './hotkey-departure.js';
import type { HotkeyDeparture, RegisteredWalletHotkey } from './hotkey-departure.js';
import { createMetrics } from './metrics.js';
import type { ValidatorMetrics } from './metrics.js';
import { closeEndedEpochs } from './missed-epochs.js';
import { createPeerExchange } from './peer-exchange.js';
import { openPostgresLease } from './postgres-lease.js';
import { openPostgresStorage } from './postgres-storage.js';
import { reconcileInterrupted } from './reconcile.js';
import { recordHashReveals, revealConfirmer, sharedHashCommits } from './reveal-confirm.js';
import type { RevealConfirmDeps } from './reveal-confirm.js';
import { checkReadiness, observeMetagraphReads, recordWriteTracker } from './readiness.js';
import { buildServer } from './server.js';
import { blockClock } from './bundle-embargo.js';
import { checkBundlesDir, checkSecretsOutsideBundles, releaseHeldBundleFiles } from './bundle-file.js';
import { openSqliteStorage } from './sqlite-storage.js';
import type { MigrationNotice, Storage } from './storage.js';
import { copyNeedSentence } from './sqlite-migrate.js';
import { startLeaderLease } from './lease.js';
import { followsTempo, startupWarnings } from './startup-warnings.js';
import { storageOutage } from './storage-outage.js';
import { checkChainIdentity } from './chain-identity.js';
import { settleEpochLength } from './epoch-numbering.js';
import { startFootprint } from './start-footprint.js';
import type { StartFootprint } from './start-footprint.js';
import { connectSubnetChain } from './subnet-chain.js';
import { ComputationAbandoned, createEpochComputer } from './epoch-compute.js';
import { loadValidatorKey } from './validator-key.js';
import { createTaskRegistry } from './task-registry.js';
import { toInputLimits } from './input-limits.js';
import { createWriteQueue } from './write-queue.js';

/** A fence no lease ever has: writes fenced with it are always refused (a standby that never led). */
const NO_FENCE = Object.freeze({ holder: '', token: -1 });

/**
 * How long a stop waits for the work in flight (the epoch loop's step, miner queries, reveal checks, peer sends) after
 * the signal before abandoning it, in ms (docs/spec.md G.10).
 */
const STOP_WORK_GRACE_MS = 3_000;
/** How long a stop lets open HTTP connections finish their requests before closing them, in ms. */
const STOP_HTTP_GRACE_MS = 2_000;
/**
 * The bound on one SIGTERM or SIGINT, in ms: a stop that has not ended by then (closing storage or the chain connection
 * hangs) exits 1 as a second signal would (docs/spec.md G.10). Under the 10 s Docker and the 30 s Kubernetes and
 * systemd grant before SIGKILL.
 */
export const STOP_BOUND_MS = 5_000;

/** Options of {@link startValidator}. */
export interface StartOptions {
  readonly config: ValidatorConfig;
  /** Chain access; default: `@subnet/chain` on `config.chain.endpoint`. */
  readonly chain?: ChainPort;
  /** Logger; default: pino JSON on stdout at `config.log.level`. */
  readonly logger?: Logger;
  /** PostgreSQL schema (tests use one per run); default `public`. */
  readonly postgresSchema?: string;
  /** Wall clock for signature freshness (tests). */
  readonly now?: () => number;
  /** Whether to follow the head on a timer (default true); tests may call `tick()` themselves. */
  readonly autoTick?: boolean;
  /**
   * What this start may create, taken by the caller before it (the CLI, to undo it on a signal during start-up);
   * default: taken here. Undone when the start fails, kept once the service listens.
   */
  readonly footprint?: StartFootprint;
  /** The epoch close's worker thread script (tests); default: `epoch-worker.mjs` next to the service (docs/spec.md G.47). */
  readonly epochWorker?: URL;
}

/** A running validator. */
export interface ValidatorService {
  /** `http://host:port`. */
  readonly url: string;
  readonly storage: Storage;
  readonly metrics: ValidatorMetrics;
  readonly hotkey: string;
  /** The epoch records go to now. */
  currentEpoch(): number | undefined;
  /**
   * Reads the head once and closes an epoch when one ended, after the tick in flight; rejects with this tick's own
   * failure only (an earlier tick's is its caller's, docs/spec.md G.34).
   */
  tick(): Promise<void>;
  /** Called after each epoch close. */
  onEpoch(listener: (outcome: EpochOutcome) => void): void;
  /**
   * Stops following the chain and renewing the leader lease at once, without releasing the lease, waiting
   * for in-flight work nor closing anything: what a frozen or killed instance looks like to the others
   * (failover drills and tests). Call `stop()` afterwards to close.
   */
  halt(): Promise<void>;
  /** Stops: no new requests, in-flight requests and epoch work finish, storage and chain close. */
  stop(): Promise<void>;
}

/**
 * Starts the validator service: storage (SQLite, or PostgreSQL when `database.url` is set), the chain,
 * the HTTP API and the epoch loop that follows the chain head.
 *
 * @param options - configuration and optional injected chain and logger
 * @returns the running service
 * @throws SubnetError `VALIDATOR_INVALID_CONFIG` (missing executor token), the `WALLET_*` codes of the hotkey, `VALIDATOR_STORAGE`,
 *   `VALIDATOR_CHAIN_UNAVAILABLE`
 * @example const service = await startValidator({ config: loadConfig('validator.yaml', process.env) })
 */
export async function startValidator(options: StartOptions): Promise<ValidatorService> {
  // Taken before anything is written: a start that fails before it listens (the port held by another process, the
  // chain unreachable, a wrong key password) removes the files and folders it created (docs/spec.md G.10).
  const footprint = options.footprint ?? startFootprint(options.config);
  try {
    return await start(options, footprint);
  } catch (error) {
    footprint.undo();
    throw error;
  }
}

/**
 * The sentence of `TEMPO_CHANGED`: the subnet's tempo is no longer the length the database numbers its epochs by, and
 * what following it takes (docs/spec.md G.11). A shorter length numbers the head above every stored epoch; a longer one
 * below them.
 */
function tempoChangedMessage(tempo: number, epochLength: number): string {
  const kept = `epochs here stay ${epochLength} blocks, the length this database numbers its epochs by (⌊block / ${epochLength}⌋), also after a restart`;
  if (tempo === 0) return `the subnet's tempo is 0: the chain runs no epoch, so the weights set here move no emission; ${kept}`;
  const follow =
    tempo < epochLength
      ? `to follow the tempo, set chain.epoch_length to ${tempo} and restart (the new numbers start above the stored ones)`
      : `numbering by ${tempo} blocks would reuse the stored epoch numbers, so following the tempo takes a new database (chain.epoch_length ${tempo} with a new database.path or database.url)`;
  return `the subnet's tempo is ${tempo}, but ${kept}: ${follow}`;
}

/** {@link startValidator}'s work; `footprint` is kept once the service listens. */
async function start(options: StartOptions, footprint: StartFootprint): Promise<ValidatorService> {
  const { config } = options;
  const logger = options.logger ?? pino({ level: config.log.level, base: { service: 'subnet-validator' } });
  const executorToken = config.server.executor_token;
  if (executorToken === undefined) {
    throw new SubnetError(
      VALIDATOR_ERROR_CODES.invalidConfig,
      'invalid configuration: the executor token is required (set SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN)',
      {
        context: { path: 'server.executor_token', value: undefined },
      },
    );
  }
  // Before the key (a password prompt, seconds of Argon2), storage and the chain: a folder the bundles cannot
  // be written to is a configuration mistake, not something to find at the first close. That folder is published
  // as it is written: the commit store and the database must not be in it (docs/spec.md G.23).
  checkSecretsOutsideBundles(config);
  checkBundlesDir(config.bundles.dir);
  logger.info({ config: redactConfig(config) }, 'starting');
  // One key, loaded once: it signs the weights on chain and the audit bundles. Said before it is loaded: an encrypted
  // keyfile takes seconds of Argon2 (or waits at a password prompt), which would otherwise look like a hang.
  const keySource = config.validator.hotkey_uri !== undefined ? 'validator.hotkey_uri' : `wallet ${config.wallet.name}/hotkeys/${config.wallet.hotkey}`;
  const slowHint = config.validator.hotkey_uri !== undefined ? '' : ' (an encrypted keyfile takes a few seconds to open)';
  logger.info({ source: keySource }, `loading the hotkey from ${keySource}${slowHint}`);
  const key = await loadValidatorKey(config);
  const signer: BundleSigner = key;
  logger.info({ hotkey: key.address, source: key.kind }, `signing as ${key.address}`);

  // A migration may copy a table (minutes on a large file): said before it runs, so the start does not look hung.
  // One that copies a table says how much free disk the copy needs and how much there is (docs/spec.md G.23).
  const onMigration = (m: MigrationNotice): void => {
    logger.info(
      { version: m.version, name: m.name, ...(m.copies === undefined ? {} : { copies: m.copies }) },
      `applying storage migration ${m.version} (${m.name})${m.note === undefined ? '' : `: ${m.note}`}${m.copies === undefined ? '' : `; ${copyNeedSentence(m.copies)}`}`,
    );
  };
  const storage =
    config.database.url === undefined
      ? openSqliteStorage(config.database.path, { writerThread: true, onMigration })
      : await openPostgresStorage({
          url: config.database.url,
          onMigration,
          ...(options.postgresSchema === undefined ? {} : { schema: options.postgresSchema }),
        });
  let chain: ChainPort;
  try {
    chain =
      options.chain ??
      (await connectSubnetChain({
        endpoint: config.chain.endpoint,
        netuid: config.netuid,
        signer: key,
        wait: config.chain.wait,
        commitStorePath: config.chain.commit_store,
        // v2 commits kept with their epochs: whichever instance leads reveals them (docs/spec.md G.22).
        sharedCommits: () => sharedHashCommits(storage),
        eraPeriod: config.chain.era_period,
        logger,
      }));
  } catch (error) {
    await storage.close();
    throw error;
  }
  // Why the last metagraph read failed, until one succeeds, for /readyz: a node that cannot serve one at all (docs/spec.md
  // G.33) otherwise shows only in the log.
  let metagraphFailure: { message: string; atMs: number } | undefined;
  chain = observeMetagraphReads(chain, (error) => {
    metagraphFailure = error === undefined ? undefined : { message: redactUrl(error.message), atMs: Date.now() };
  });
  // The length the database numbers its epochs by, kept across restarts (epoch-numbering.ts, docs/spec.md G.11); 0: the
  // tempo, taken at the first metagraph read and recorded then.
  let epochLength: number;
  try {
    // The database is this subnet's on this chain (chain-identity.ts, docs/spec.md G.12), before its epochs are read.
    await checkChainIdentity(storage, { netuid: config.netuid, genesisHash: chain.genesisHash === undefined ? null : await chain.genesisHash() });
    epochLength = await settleEpochLength(
      storage,
      config.chain.epoch_length,
      { head: () => chain.head(), tempo: async () => (await chain.view()).tempo },
      logger,
    );
  } catch (error) {
    await storage.close();
    await chain.close();
    throw error;
  }
  const recordAtFirstRead = epochLength === 0;
  const metrics = createMetrics();
  // `/readyz` says why record writes fail while reads still answer (a full disk), docs/spec.md G.36.
  const recordWrites = recordWriteTracker(() => Date.now());
  const queue = createWriteQueue(storage, undefined, recordWrites.onWrite);
  const tasks = createTaskRegistry({ storage, queue, chain, scoring: config.scoring });
  // HA (PostgreSQL only): every instance ingests; the lease holder alone closes epochs and submits.
  // The lease has a PostgreSQL connection of its own (postgres-lease.ts): renewals and takeover attempts
  // never queue behind ingest or epoch work for a pooled connection.
  const leaseTtlMs = config.ha.lease_ttl_ms ?? Math.max(1500, Math.round(config.chain.poll_ms * 1.5));
  const lease =
    storage.dialect === 'postgres' && config.database.url !== undefined
      ? startLeaderLease({
          storage,
          store: openPostgresLease({
            url: config.database.url,
            ...(options.postgresSchema === undefined ? {} : { schema: options.postgresSchema }),
            statementTimeoutMs: leaseTtlMs,
          }),
          ttlMs: leaseTtlMs,
          intervalMs: Math.max(20, Math.round(leaseTtlMs / 6)),
          logger,
          onChange: (fence) => {
            metrics.leaseHolder.set(fence === undefined ? 0 : 1);
            if (fence === undefined) return;
            if (fence.token > 1) metrics.leaseTakeovers.inc();
            // A new leader finishes what the previous one left: interrupted submissions, unclosed epochs.
            reconcileDue = true;
            catchUp = { lastWithoutRecords: true };
          },
        })
      : undefined;
  if (lease === undefined) metrics.leaseHolder.set(1);
  const leading = (): boolean => lease === undefined || lease.current() !== undefined;
  // The validator queries miners' axons itself when `dispatch` is configured (dispatch/).
  let dispatcher: Dispatcher | undefined;
  try {
    dispatcher =
      config.dispatch === undefined
        ? undefined
        : createDispatcher({
            config: config.dispatch,
            scoring: config.scoring,
            storage,
            queue,
            chain,
            registry: tasks,
            signer: key,
            metrics,
            logger,
            env: process.env,
            currentEpoch: () => current,
            leading,
            axonOf: (hotkey) => neurons.get(hotkey)?.axon,
          });
  } catch (error) {
    await lease?.stop(false);
    await storage.close();
    await chain.close();
    throw error;
  }
  // Epochs are computed in a worker thread, so the server answers during a close (docs/spec.md G.47).
  const computer = createEpochComputer({ logger, ...(options.epochWorker === undefined ? {} : { workerUrl: options.epochWorker }) });
  const deps: EpochRunnerDeps = {
    ...(lease === undefined ? {} : { fence: () => lease.last() ?? NO_FENCE }),
    computer,
    netuid: config.netuid,
    scoring: config.scoring,
    storage,
    chain,
    signer,
    dryRun: config.chain.dry_run,
    bundlesDir: config.bundles.dir,
    metrics,
    logger,
    // The next epoch's tasks draw from the reputations this close carries: take its snapshot as soon as
    // the carry is stored, before the weights are submitted (docs/spec.md G.6). Only after the close of the
    // epoch right before the current one: an older (missed) epoch closed in a catch-up is not the last carry.
    notRegisteredCause: () => departure?.cause ?? startHint,
    afterClaim: async (closed) => {
      if (current !== undefined && closed === current - 1) await tasks.prepare(current);
    },
  };

  let neurons = new Map<string, ChainNeuron>();
  let metagraphRead = false;
  let judgedAtMs: number | undefined;
  let lastView: ChainView | undefined;
  // This validator's neuron in the last read that listed its hotkey, and why a later read no longer did (G.21).
  let selfSeen: ChainNeuron | undefined;
  let departure: HotkeyDeparture | undefined;
  // At a start whose hotkey is not registered: the other hotkey of its wallet that is (hotkey-departure.ts).
  let startHint: string | undefined;
  // The tempo a TEMPO_CHANGED warning was last given for (said once per new tempo).
  let tempoWarned: number | undefined;
  // When the last metagraph read began, whether it succeeded or not: the throttle below counts from it.
  let lastReadStarted = 0;
  let refreshing: Promise<void> | undefined;
  /** The other hotkeys of the configured wallet registered in `view` (none with a key from a URI, or an unreadable wallet). */
  const otherWalletHotkeys = async (view: ChainView): Promise<readonly RegisteredWalletHotkey[]> => {
    if (config.validator.hotkey_uri !== undefined) return [];
    const listed = await walletHotkeyAddresses({ name: config.wallet.name, path: config.wallet.path }).catch(() => []);
    return registeredWalletHotkeys(listed, view, config.wallet.hotkey);
  };
  /**
   * Keeps this validator's neuron from each read that lists its hotkey; when a read no longer does, says once where
   * its uid went (a swap or a registration, hotkey-departure.ts), not only "not registered" (docs/spec.md G.21).
   */
  const noteSelf = async (view: ChainView): Promise<void> => {
    const self = neurons.get(chain.hotkey);
    if (self !== undefined) {
      selfSeen = self;
      departure = undefined;
      startHint = undefined;
      return;
    }
    if (selfSeen === undefined) return;
    const previous = selfSeen;
    selfSeen = undefined;
    if (config.chain.dry_run) {
      departure = hotkeyDeparture(previous, view, config.netuid);
      return;
    }
    departure = hotkeyDeparture(previous, view, config.netuid, { name: config.wallet.name, hotkeys: await otherWalletHotkeys(view) });
    logger.warn({ code: departure.code, ...departure.numbers }, departure.message);
  };
  const refresh = (): Promise<void> => {
    if (refreshing !== undefined) return refreshing;
    lastReadStarted = Date.now();
    refreshing = chain
      .view()
      .then(async (view) => {
        neurons = new Map(view.neurons.map((n) => [n.hotkey, n]));
        metagraphRead = true;
        judgedAtMs = Date.now();
        lastView = view;
        await noteSelf(view);
        if (config.chain.epoch_length === undefined) {
          // The length the database numbers its epochs by is kept, also across restarts: epoch numbers (⌊block / length⌋)
          // are stored with every record and epoch row, and a new length would renumber them (docs/spec.md G.11).
          if (epochLength === 0) epochLength = Math.max(1, view.tempo);
          else if (!followsTempo(epochLength, view.tempo) && tempoWarned !== view.tempo) {
            tempoWarned = view.tempo;
            // Tempo 0 at start-up is said once, by TEMPO_ZERO (startup-warnings.ts), which names this length too.
            if (started || view.tempo !== 0) {
              logger.warn({ code: 'TEMPO_CHANGED', tempo: view.tempo, epoch_length: epochLength }, tempoChangedMessage(view.tempo, epochLength));
            }
          }
        }
      })
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  };
  /**
   * Re-reads the metagraph for an ingest that finds it lacking (an unknown signer, a peer without a validator
   * permit, more scores than neurons), at most once every 2 s however many such requests arrive, whichever
   * lookup asks; a failed read leaves the view as it was and counts for the throttle (signers refused during
   * a node outage do not each start a read).
   */
  const refreshWhenLacking = async (lacking: boolean): Promise<void> => {
    if (lacking && Date.now() - lastReadStarted > 2000) await refresh().catch(() => undefined);
  };

  let current: number | undefined;
  let headState: { block: bigint; changedAtMs: number; lastReadOk: boolean; readAtMs: number; failure?: { message: string; atMs: number } } | undefined;
  // Block rate from the heads seen: an embargoed bundle's Retry-After (bundle-embargo.ts).
  const heads = blockClock();
  const outage = storageOutage(logger, (error) => redactUrl(error instanceof Error ? error.message : String(error)));
  let seenReconnects = chain.reconnects();
  const listeners: ((outcome: EpochOutcome) => void)[] = [];
  // Own scores go to the configured peers after each close that stored its bundle (peer-exchange.ts).
  const peerExchange = createPeerExchange({
    peers: config.peers.urls,
    signer: key,
    storage,
    metrics,
    logger,
    attempts: config.peers.attempts,
    backoffMs: config.peers.backoff_ms,
    timeoutMs: config.peers.timeout_ms,
  });
  // The lowest epoch whose bundle file may be held for an embargo (its own, or an earlier epoch's, docs/spec.md G.23):
  // from it on, files are written once no earlier epoch is embargoed. At start-up every epoch's may be (a file held
  // when the last run stopped); undefined once nothing is embargoed and every held file is written.
  let heldFrom: number | undefined = -1;
  const noteHeld = (o: { readonly epoch: number; readonly bundlePath: string | null; readonly bundleEmbargoed?: boolean }): void => {
    if (o.bundlePath === null && o.bundleEmbargoed === true) heldFrom = Math.min(heldFrom ?? o.epoch, o.epoch);
  };
  // Whether writing held files failed on the last try: said once, not on every tick, until they are written.
  let heldFilesFailing = false;
  const releaseHeld = async (): Promise<void> => {
    if (heldFrom === undefined) return;
    let released: Awaited<ReturnType<typeof releaseHeldBundleFiles>>;
    try {
      released = await releaseHeldBundleFiles(storage, config.bundles.dir, heldFrom);
    } catch (error) {
      if (!heldFilesFailing) logger.warn({ error: redactUrl((error as Error).message) }, 'writing held bundle files failed; retrying every tick');
      heldFilesFailing = true;
      return;
    }
    heldFilesFailing = false;
    for (const epoch of released.written)
      logger.info({ epoch, path: join(config.bundles.dir, `epoch-${epoch}.json`) }, `bundle file of epoch ${epoch} written`);
    // Every file below the oldest embargoed epoch is written now: only those from it on may still be held.
    heldFrom = released.embargoed === undefined ? undefined : Math.max(heldFrom, released.embargoed);
  };
  const emit = (outcome: EpochOutcome): void => {
    noteHeld(outcome);
    peerExchange.afterClose(outcome);
    for (const l of listeners) l(outcome);
  };
  let started = false;
  // Ended epochs still to close; kept until a catch-up succeeds, so a failure (storage down) is retried
  // on the next tick instead of losing the epoch.
  let catchUp: { lastWithoutRecords: boolean } | undefined;
  // What the epoch loop's step began last: a stop that abandons the step names it (the work a kill would interrupt).
  let stepDoing = 'starting';
  const runCatchUp = async (headEpoch: number): Promise<void> => {
    if (catchUp === undefined) return;
    stepDoing = `closing the epochs that ended before epoch ${headEpoch}`;
    for (const outcome of await closeEndedEpochs(deps, headEpoch, catchUp)) {
      if (outcome.status === 'submitting') reconcileDue = true;
      emit(outcome);
    }
    catchUp = undefined;
  };
  // The task snapshot of an epoch reads the reputations the close of the epoch before it carried. Only the
  // lease holder takes it, and only once its catch-up (that close) is done: a standby, or a new leader that
  // has not closed the ended epoch yet, would read an older carry and its snapshot, stored first, would
  // stand (ha-task-snapshot.test.ts). A standby draws tasks from the snapshot the leader stored.
  const prepareTasks = async (epoch: number): Promise<void> => {
    if (!leading() || catchUp !== undefined) return;
    stepDoing = `drawing the tasks of epoch ${epoch}`;
    await tasks.prepare(epoch).catch((error: unknown) => {
      logger.warn({ error: (error as Error).message }, 'task snapshot failed; retrying next tick');
    });
  };
  // Interrupted submissions to reconcile with the chain: at start-up, after a submission whose outcome
  // was unknown, and again on every tick while one may still land (reconcile.ts).
  let reconcileDue = true;
  const revealDeps: RevealConfirmDeps = {
    storage,
    chain,
    metrics,
    logger,
    ...(deps.fence === undefined ? {} : { fence: deps.fence }),
    // A reveal not confirmed two epochs (the longer of ours and the chain's tempo) after its due block is final.
    overdueAfterBlocks: () => BigInt(2 * Math.max(epochLength, (lastView?.tempo ?? 0) + 1)),
    // An embargoed epoch's file is written when its embargo lifts (bundle-file.ts).
    bundlesDir: config.bundles.dir,
    // Each final outcome is signed as a reveal attestation, served with the bundle (reveal-attest.ts).
    ...(deps.signer === undefined ? {} : { signer: deps.signer }),
  };
  const revealConfirms = revealConfirmer(revealDeps);
  // Reveals the stored commit-reveal v2 commits whose window is open; a failure is logged and retried next tick.
  const runHashReveals = async (): Promise<void> => {
    if (chain.revealPending === undefined || config.chain.dry_run || !leading()) return;
    try {
      // Each commit revealed or expired lifts its epoch's embargo (docs/spec.md G.22).
      stepDoing = 'revealing committed weights';
      await recordHashReveals(revealDeps, await chain.revealPending());
    } catch (error) {
      metrics.chainErrors.inc();
      logger.warn({ error: (error as Error).message }, 'revealing committed weights failed; retrying next tick');
    }
  };
  const runReconcile = async (headEpoch: number): Promise<void> => {
    if (!reconcileDue) return;
    stepDoing = 'reconciling interrupted submissions with the chain';
    const outcomes = await reconcileInterrupted(deps, { headEpoch, epochLength });
    reconcileDue = outcomes.some((o) => o.status === 'pending');
    // An epoch whose bundle waited for a final block (docs/spec.md G.8) is still timely for the peers while the head
    // is in the epoch right after it: its scores go out as a close's would.
    for (const { status, ...o } of outcomes) {
      noteHeld(o);
      if (status !== 'pending' && o.epoch === headEpoch - 1) peerExchange.afterClose({ ...o, status, u16: null });
    }
  };

  // The head more than one epoch below the epoch records are filed under, as the start-up refuses it
  // (VALIDATOR_HEAD_BEHIND_DATABASE): the node was reset or restarted empty and syncs from an earlier block, or the
  // endpoint now reaches another chain. Said once, with /readyz failing until the head is back (docs/spec.md G.35).
  let headBehind: string | undefined;
  const noteHeadBehind = (head: bigint, epoch: number): void => {
    if (current === undefined || epoch >= current - 1) {
      if (headBehind !== undefined)
        logger.info({ block: head.toString(), epoch, current_epoch: current }, `the chain head is back in epoch ${epoch}, at block ${head}`);
      headBehind = undefined;
      return;
    }
    const next = (current + 1) * epochLength;
    const sentence = `the chain head went back to block ${head} (epoch ${epoch} of ${epochLength} blocks) while records are filed under epoch ${current}: the node was reset or restarted empty and is syncing from an earlier block, or chain.endpoint now reaches another chain; records are still taken and filed under epoch ${current}, which closes when the head reaches block ${next}`;
    if (headBehind === undefined)
      logger.warn(
        { code: 'HEAD_WENT_BACK', block: head.toString(), epoch, current_epoch: current, epoch_length: epochLength },
        `${sentence}; /readyz answers 503 until the head is back in epoch ${current - 1} or later`,
      );
    headBehind = sentence;
  };

  /** The wall clock signed requests are checked and their nonces pruned by (`options.now` in tests). */
  const now = options.now ?? ((): number => Date.now());
  const tick = async (): Promise<void> => {
    let head: bigint;
    try {
      stepDoing = 'reading the chain head';
      head = await chain.head();
      const readAtMs = Date.now();
      headState = { block: head, changedAtMs: headState?.block === head ? headState.changedAtMs : readAtMs, lastReadOk: true, readAtMs };
      // What an alert reads: a head that stops changing (a frozen or stalled node) or falls (a node reset).
      metrics.chainHead.set(Number(head));
      metrics.chainHeadChanged.set(headState.changedAtMs / 1000);
      heads.observe(head, Date.now());
    } catch (error) {
      // /readyz says why and since when (a node that stopped answering, a refused connection), not only that it failed.
      const message = redactUrl((error as Error).message);
      if (headState !== undefined) headState = { ...headState, lastReadOk: false, failure: { message, atMs: Date.now() } };
      metrics.chainErrors.inc();
      logger.warn({ error: message }, 'chain head read failed; retrying');
      return;
    } finally {
      const r = chain.reconnects();
      if (r > seenReconnects) metrics.chainReconnects.inc(r - seenReconnects);
      seenReconnects = r;
    }
    if (!started) {
      stepDoing = 'reading the metagraph';
      await refresh();
      // A new database (or one from before the length was recorded) numbers its epochs by the tempo read first (a
      // claim again after a failed first tick gets the length already recorded).
      if (recordAtFirstRead) epochLength = await storage.claimEpochLength(epochLength);
      if (lastView !== undefined) {
        const view = lastView;
        const others = config.chain.dry_run || neurons.has(chain.hotkey) ? [] : await otherWalletHotkeys(view);
        // /readyz says it too while the hotkey stays unregistered (a restart after a swap with the old hotkey configured).
        const hint = walletHotkeySentence(others, config.wallet.name, config.netuid);
        if (hint !== '') startHint = hint;
        for (const w of startupWarnings(config, view, chain.hotkey, epochLength, others)) logger.warn({ code: w.code, ...w.numbers }, w.message);
      }
      if (leading()) await runReconcile(Number(head / BigInt(epochLength)));
      // Commit-reveal v2 commits whose window is open are revealed before the catch-up sends anything: a window that
      // closes while the catch-up closes and submits epochs is an epoch's weights lost, while a catch-up commit's own
      // window only opens in the next chain epoch (docs/spec.md G.45). After reconciliation, which makes an interrupted
      // epoch's commit (kept by another instance) a pending reveal.
      await runHashReveals();
      current = Number(head / BigInt(epochLength));
      started = true;
      logger.info({ head: head.toString(), epoch: current, epochLength }, 'following the chain head');
      // After downtime: the previous epoch is closed if it has records, older ended epochs with records
      // and no row are published as missed (missed-epochs.ts).
      catchUp ??= { lastWithoutRecords: false };
      if (leading()) await runCatchUp(current);
      // Tasks of this epoch draw from the reputations the close above carried (docs/spec.md G.3).
      await prepareTasks(current);
      return;
    }
    // HA: another instance on this database may have changed the recorded epoch length (a restart with a new
    // chain.epoch_length, taken only because its numbering starts above every stored epoch: epoch-numbering.ts). This one
    // follows at once, as a restart would: numbering on by the old length would file records under numbers the new one
    // has left behind (docs/spec.md G.11). A failed read skips the check for this tick (the storage outage is reported
    // by the work below).
    if (lease !== undefined) {
      const recorded = await storage.recordedEpochLength().catch(() => undefined);
      if (recorded !== undefined && recorded !== epochLength) {
        const previous = epochLength;
        epochLength = recorded;
        current = Number(head / BigInt(epochLength));
        logger.warn(
          { code: 'EPOCH_LENGTH_CHANGED', epoch_length: recorded, previous_epoch_length: previous, epoch: current },
          `another instance changed the epoch length this database numbers its epochs by from ${previous} to ${recorded} blocks: this one follows it (epoch ${current} at block ${head}); its open records under the old numbering are closed as after downtime${config.chain.epoch_length === undefined || config.chain.epoch_length === recorded ? '' : `; set chain.epoch_length to ${recorded} here too, or the next start of this instance is refused (VALIDATOR_EPOCH_RENUMBERING) or renumbers again`}`,
        );
        catchUp = { lastWithoutRecords: false };
        if (leading()) await runCatchUp(current);
        await prepareTasks(current);
        return;
      }
    }
    // Commit-reveal v2: reveal stored commits whose window is open.
    await runHashReveals();
    // Commit-reveal v4: confirm in the background that the chain revealed past timelocked commits (reveal-confirm.ts).
    if (chain.confirmReveal !== undefined && !config.chain.dry_run && leading()) revealConfirms.tick();
    // Bundle files held for an earlier epoch's embargo, written once it lifted (docs/spec.md G.23).
    if (leading()) {
      // It says a failure itself, once until the files are written (docs/spec.md G.35).
      stepDoing = 'writing held bundle files';
      await releaseHeld();
    }
    const epoch = Number(head / BigInt(epochLength));
    noteHeadBehind(head, epoch);
    if (leading()) await runReconcile(epoch);
    if (current !== undefined && epoch === current && leading()) await runCatchUp(epoch);
    if (current !== undefined && epoch > current) {
      current = epoch;
      // Queries of the ended epoch's tasks are stored before it closes (at most one query timeout).
      stepDoing = `storing the records and miner answers of epoch ${epoch - 1}`;
      await dispatcher?.settle();
      await queue.drain();
      // The epoch that just ended is closed (records or not); any older one left open (the loop stalled
      // across a boundary, or storage was down) is published as missed.
      catchUp = { lastWithoutRecords: true };
      if (leading()) await runCatchUp(epoch);
      stepDoing = 'reading the metagraph';
      await refresh().catch((error: unknown) => {
        logger.warn({ error: (error as Error).message }, 'metagraph refresh failed');
      });
      await prepareTasks(epoch);
      // Nonces are kept while their requests can still be fresh: twice the skew after their timestamp, on the
      // clock that checks freshness.
      await storage.pruneNonces(now() - config.server.max_clock_skew_seconds * 2000).catch(() => undefined);
    } else if (current !== undefined && leading() && (await tasks.snapshot(current)) === undefined) {
      await prepareTasks(current);
    }
  };

  const app = buildServer({
    storage,
    queue,
    metrics,
    logger,
    scoring: config.scoring,
    tasks,
    hotkey: chain.hotkey,
    executorToken,
    bodyLimit: config.server.body_limit_bytes,
    inputLimits: toInputLimits(config.server.input_limits),
    maxSkewMs: config.server.max_clock_skew_seconds * 1000,
    requireReceiver: config.server.require_receiver,
    limits: {
      requestTimeoutMs: config.server.request_timeout_ms,
      headersTimeoutMs: config.server.headers_timeout_ms,
      keepAliveTimeoutMs: config.server.keep_alive_timeout_ms,
      maxConnections: config.server.max_connections,
      maxConnectionsPerSource: config.server.max_connections_per_source,
      signerRatePerMinute: config.server.signer_rate_per_minute,
      signerBurst: config.server.signer_burst,
    },
    currentEpoch: () => current,
    neuron: async (hotkey) => {
      await refreshWhenLacking(!neurons.has(hotkey));
      return neurons.get(hotkey);
    },
    permitHolder: async (hotkey) => {
      await refreshWhenLacking(neurons.get(hotkey)?.validatorPermit !== true);
      return neurons.get(hotkey);
    },
    neuronCount: async (atLeast) => {
      await refreshWhenLacking(neurons.size < atLeast);
      return neurons.size;
    },
    ready: () => started && headState?.lastReadOk === true,
    // After a restart the first tick reconciles and catches up before it is ready: /readyz says which.
    startingStep: () => (started ? undefined : stepDoing),
    readiness: () =>
      checkReadiness({
        storage,
        hotkey: chain.hotkey,
        netuid: config.netuid,
        dryRun: config.chain.dry_run,
        head: () => headState,
        headBehind: () => headBehind,
        self: () => (metagraphRead ? neurons.get(chain.hotkey) : null),
        metagraphReads: () => ({ judgedAtMs, failure: metagraphFailure }),
        departure: () => departure?.cause ?? startHint,
        stakeRule: () => lastView,
        staleHeadMs: config.chain.stale_head_ms,
        storageTimeoutMs: 2000,
        recordWrites: recordWrites.read,
        now: () => Date.now(),
      }),
    now,
    secondsUntilBlock: (block) => heads.secondsUntil(block, Date.now()),
  });

  // One tick with the storage outage tracked: a storage failure is logged once per outage (and retried on
  // the next tick), any other failure is thrown to the caller.
  const step = (): Promise<void> =>
    tick().then(
      () => {
        outage.answered();
      },
      (error: unknown) => {
        // A close a stop abandoned mid-computation (docs/spec.md G.47): the stop's warning names it already.
        if (error instanceof ComputationAbandoned) return;
        if (!outage.failed(error)) throw error;
      },
    );

  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  // One step at a time: each starts after the one in flight has ended, whoever asked for it (the loop, `tick()`), and
  // its promise is its own outcome (an earlier step's failure is its own caller's). Awaiting the step in flight and then
  // starting one let two callers waiting on the same step start two at once.
  const nextStep = (): Promise<void> => {
    const run = inFlight.catch(() => undefined).then(step);
    inFlight = run;
    return run;
  };
  let halted = false;
  const loop = (): void => {
    if (stopping || halted) return;
    nextStep()
      .catch((error: unknown) => {
        logger.error({ code: 'EPOCH_LOOP_STEP_FAILED', error: redactUrl((error as Error).message) }, 'epoch loop step failed');
      })
      .finally(() => {
        if (!stopping && !halted) timer = setTimeout(loop, config.chain.poll_ms);
      });
  };

  try {
    await app.listen({ host: config.server.host, port: config.server.port });
  } catch (error) {
    await lease?.stop(false);
    await storage.close();
    await chain.close();
    // What to do, for the listen failures an operator meets: the port taken, a privileged port, a host not of this machine.
    const advice: Readonly<Record<string, string>> = {
      EADDRINUSE: 'another process listens there (another validator?): stop it, or set server.port (or --port) to a free port',
      EACCES: 'ports below 1024 need privileges: set server.port (or --port) to a port above 1023',
      EADDRNOTAVAIL: 'no interface of this machine has that address: set server.host (or --host) to one it has, such as 127.0.0.1',
    };
    const hint = advice[(error as NodeJS.ErrnoException).code ?? ''];
    throw new SubnetError(
      VALIDATOR_ERROR_CODES.invalidConfig,
      `cannot listen on ${config.server.host}:${config.server.port}: ${(error as Error).message}${hint === undefined ? '' : `; ${hint}`}`,
      {
        context: { path: 'server.port', value: config.server.port },
        cause: error,
      },
    );
  }
  // Listening: the service runs, and what this start created stays whatever happens next.
  footprint.keep();
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.server.port;
  const url = `http://${config.server.host}:${port}`;
  logger.info({ url, storage: storage.dialect, hotkey: chain.hotkey, dryRun: config.chain.dry_run }, 'listening');
  // A sole instance leads from its first tick.
  await lease?.renew();
  if (options.autoTick !== false) {
    loop();
    dispatcher?.start();
  } else await tick();

  return {
    url,
    storage,
    metrics,
    hotkey: chain.hotkey,
    currentEpoch: () => current,
    tick: nextStep,
    halt: async () => {
      halted = true;
      if (timer !== undefined) clearTimeout(timer);
      await lease?.stop(false);
    },
    onEpoch: (listener) => {
      listeners.push(listener);
    },
    stop: async () => {
      if (stopping) return;
      stopping = true;
      if (timer !== undefined) clearTimeout(timer);
      // Bounded (docs/spec.md G.10): the work in flight gets until STOP_WORK_GRACE_MS after the signal to finish, then it
      // is abandoned as a crash would leave it (durable writes are transactions; a submission in flight is reconciled with
      // the chain at the next start). A catch-up over many epochs or a request held by a slow node once kept one SIGTERM
      // waiting past the 10 s a container manager grants before SIGKILL.
      const workDeadline = Date.now() + STOP_WORK_GRACE_MS;
      // New connections are refused; keep-alive connections are closed as soon as they are idle (between
      // requests), so clients under load cannot hold the close open; after 2 s every connection is closed.
      const closing = app.close();
      const sweep = setInterval(() => {
        app.server.closeIdleConnections();
      }, 25);
      const deadline = setTimeout(() => {
        app.server.closeAllConnections();
      }, STOP_HTTP_GRACE_MS);
      await closing;
      clearInterval(sweep);
      clearTimeout(deadline);
      // Each piece of work is named when it is abandoned, the epoch loop's with what its step began last.
      const unfinished = new Set<string>();
      const track = (name: string, work: Promise<unknown> | undefined): Promise<unknown> => {
        if (work === undefined) return Promise.resolve();
        unfinished.add(name);
        return work.then(
          () => unfinished.delete(name),
          () => unfinished.delete(name),
        );
      };
      const work = Promise.all([
        track('miner queries', dispatcher?.stop()),
        track('the epoch loop', inFlight),
        track('reveal checks', revealConfirms.idle()),
        track('peer sends', peerExchange.stop()),
      ]).then(() => true);
      let waitTimer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        work,
        new Promise<false>((resolve) => {
          waitTimer = setTimeout(
            () => {
              resolve(false);
            },
            Math.max(0, workDeadline - Date.now()),
          );
        }),
      ]);
      clearTimeout(waitTimer);
      if (!finished) {
        const names = [...unfinished].map((name) => (name === 'the epoch loop' ? `the epoch loop (${stepDoing})` : name));
        logger.warn(
          { graceMs: STOP_WORK_GRACE_MS, unfinished: names },
          `stopping: the work in flight did not finish within ${STOP_WORK_GRACE_MS / 1000} s of the signal: ${names.join(', ')}; abandoning it (the next start reconciles an interrupted submission)`,
        );
        // An epoch still computing in its worker thread is ended there: its close records nothing (docs/spec.md G.47).
        await computer.abandon();
      }
      await lease?.stop(true);
      await queue.drain();
      await storage.close();
      await chain.close();
      logger.info('stopped');
    },
  };
}

/**
 * Stops the service on SIGTERM or SIGINT: no new requests, the work in flight gets 3 s to finish (then it is abandoned,
 * as a crash would leave it), storage and chain close, then the process exits 0 (1 when stopping fails). A stop that has
 * not ended {@link STOP_BOUND_MS} (5 s) after the signal exits 1, as does a second SIGTERM or SIGINT while it stops
 * (Ctrl-C twice): the next start reconciles an interrupted submission (docs/spec.md G.10).
 *
 * The listeners are added before `replacing` (the start's own signal listener) is removed, so the process watches the
 * signals throughout: removing the last listener first stops Node's watcher, and a signal that arrived just before, not
 * yet dispatched, was then dropped (the service ran on, SIGTERM unanswered).
 *
 * @param service - the running service
 * @param log - where to say what happens (the CLI passes its JSON logger; default stderr)
 * @param exit - how the process ends (tests pass their own)
 * @param replacing - the listener that handled SIGTERM and SIGINT until now, removed once these are in place
 * @example handleSignals(await startValidator({ config }))
 */
export function handleSignals(
  service: ValidatorService,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  exit: (code: number) => void = (code) => process.exit(code),
  replacing?: (signal: NodeJS.Signals) => void,
): void {
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      log(`${signal} again: exiting now without finishing in-flight work (the next start reconciles an interrupted submission)`);
      exit(1);
      return;
    }
    stopping = true;
    log(`${signal}: finishing in-flight work for up to ${STOP_WORK_GRACE_MS / 1000} s, then stopping (send it again to exit at once)`);
    const bound = setTimeout(() => {
      log(
        `the stop did not end within ${STOP_BOUND_MS / 1000} s of ${signal} (closing storage or the chain connection hangs): exiting now (the next start reconciles an interrupted submission)`,
      );
      exit(1);
    }, STOP_BOUND_MS);
    service.stop().then(
      () => {
        clearTimeout(bound);
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(bound);
        log(`error while stopping: ${error instanceof Error ? error.message : String(error)}`);
        exit(1);
      },
    );
  };
  process.on('SIGTERM', () => {
    stop('SIGTERM');
  });
  process.on('SIGINT', () => {
    stop('SIGINT');
  });
  if (replacing !== undefined) {
    process.off('SIGINT', replacing);
    process.off('SIGTERM', replacing);
  }
}
