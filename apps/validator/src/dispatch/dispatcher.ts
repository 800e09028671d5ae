import type { SynapseDefinition, SynapseFieldSpec } from '@subnet/axon';
import { createDendrite, defineSynapse } from '@subnet/axon';
import type { BundleSigner, EpochConfig } from '@subnet/bundle';
import { isSubnetError, SubnetError } from '@subnet/core';
import type { Logger } from 'pino';

import type { ChainPort } from '../chain-port.js';
import { VALIDATOR_ERROR_CODES } from '../errors.js';
import type { ValidatorMetrics } from '../metrics.js';
import type { Storage } from '../storage.js';
import type { TaskRegistry } from '../task-registry.js';
import type { WriteQueue } from '../write-queue.js';
import type { DispatchChallengeConfig, DispatchConfig } from './dispatch-config.js';
import type { RoundDeps } from './dispatch-round.js';
import { runDispatchRound } from './dispatch-round.js';
import { createLimiter } from './limiter.js';
import { createPlanOutbox } from './plan-webhook.js';
import type { PlanOutbox } from './plan-webhook.js';
import type { AxonAddress } from './query-member.js';
import { folderTaskSource, httpTaskSource } from './task-source.js';

/** What the dispatcher reads from the running service. */
export interface DispatcherDeps {
  readonly config: DispatchConfig;
  readonly scoring: EpochConfig;
  readonly storage: Storage;
  readonly queue: WriteQueue;
  readonly chain: Pick<ChainPort, 'finalizedHash'>;
  readonly registry: TaskRegistry;
  /** The validator hotkey: the dendrite signs every query with it. */
  readonly signer: BundleSigner;
  readonly metrics: ValidatorMetrics;
  readonly logger: Logger;
  /** Where `token_env` names are looked up (process.env). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The epoch tasks go to now (undefined before the first chain head). */
  currentEpoch(): number | undefined;
  /** Whether this instance leads (HA): only the leader dispatches. */
  leading(): boolean;
  /** A miner's axon from the metagraph. */
  axonOf(hotkey: string): AxonAddress | null | undefined;
}

/** The running dispatcher: one round loop per dispatched challenge. */
export interface Dispatcher {
  /** Starts the round loops. */
  start(): void;
  /** Runs one round of every challenge now (tests, and the first tick). */
  runOnce(): Promise<void>;
  /** Resolves when the rounds and plan deliveries running now have finished (the epoch close waits for it; rounds started later are not waited for). */
  settle(): Promise<void>;
  /** Stops the loops and waits for running rounds. */
  stop(): Promise<void>;
}

function configError(path: string, value: unknown, message: string, cause?: unknown): SubnetError {
  return new SubnetError(VALIDATOR_ERROR_CODES.invalidConfig, `invalid configuration: ${message} at ${path}`, { context: { path, value }, cause });
}

function tokenOf(env: DispatcherDeps['env'], name: string | undefined, path: string): string | undefined {
  if (name === undefined) return undefined;
  const value = env[name];
  if (value === undefined || value === '') throw configError(path, name, `the environment variable ${name} is not set`);
  return value;
}

function definitionOf(c: DispatchChallengeConfig, i: number): SynapseDefinition {
  try {
    return defineSynapse({
      name: c.synapse.name,
      fields: c.synapse.fields.map(
        (f) => [f.name, (Object.hasOwn(f, 'default') ? { type: f.type, default: f.default } : { type: f.type }) as SynapseFieldSpec] as const,
      ),
      requiredHashFields: c.synapse.required_hash_fields,
    });
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    throw configError(`dispatch.challenges[${i}].synapse`, c.synapse.name, error.message, error);
  }
}

/**
 * Creates the dispatcher: per dispatched challenge, a loop that runs a round every `interval_ms` (never two
 * at once), all sharing one dendrite signed by the validator hotkey and one concurrency limit; workflow
 * plans go to the executor webhook through a durable outbox. Nothing runs until `start()`.
 *
 * @param deps - configuration, storage, chain, registry, signer, metrics, logger, service state
 * @returns the dispatcher
 * @throws SubnetError `VALIDATOR_INVALID_CONFIG` for a synapse the SDK would refuse or a `token_env` that is not set
 * @example const dispatcher = createDispatcher({ ...deps }); dispatcher.start()
 */
export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const { config, logger } = deps;
  const dendrite = createDendrite({ signer: deps.signer, maxResponseBytes: config.max_response_bytes });
  const limiter = createLimiter(config.concurrency);
  const webhook = config.executor_webhook;
  const outbox: PlanOutbox | undefined =
    webhook === undefined
      ? undefined
      : createPlanOutbox({
          webhook: {
            url: webhook.url,
            timeoutMs: webhook.timeout_ms,
            attempts: webhook.attempts,
            ...(webhook.token_env === undefined ? {} : { token: tokenOf(deps.env, webhook.token_env, 'dispatch.executor_webhook.token_env') ?? '' }),
          },
          storage: deps.storage,
          queue: deps.queue,
          metrics: deps.metrics,
          logger,
        });
  const reported = new Set<string>();
  const report = (problem: string): void => {
    if (reported.has(problem)) return;
    if (reported.size > 10_000) reported.clear();
    reported.add(problem);
    logger.warn({ problem }, 'dispatch task skipped');
  };
  const rounds: { deps: RoundDeps; interval: number }[] = config.challenges.map((c, i) => {
    const kind = deps.scoring.challenges.find((s) => s.id === c.challenge_id)?.kind === 'workflow' ? 'workflow' : 'sssa';
    const source =
      'folder' in c.task_source
        ? folderTaskSource(c.task_source.folder)
        : httpTaskSource({
            url: c.task_source.url,
            challengeId: c.challenge_id,
            timeoutMs: c.task_source.timeout_ms,
            ...(c.task_source.token_env === undefined
              ? {}
              : { token: tokenOf(deps.env, c.task_source.token_env, `dispatch.challenges[${i}].task_source.token_env`) ?? '' }),
          });
    return {
      interval: c.interval_ms,
      deps: {
        challenge: c,
        kind,
        definition: definitionOf(c, i),
        groupSize: c.group_size ?? 3,
        source,
        registry: deps.registry,
        chain: deps.chain,
        storage: deps.storage,
        queue: deps.queue,
        metrics: deps.metrics,
        logger,
        report,
        dendrite,
        limiter,
        axonOf: (hotkey) => deps.axonOf(hotkey),
        allowPrivateAxons: config.allow_private_axons,
        ...(outbox === undefined
          ? {}
          : {
              onPlan: (plan, epoch) => {
                outbox.deliver(plan, epoch);
              },
            }),
      } satisfies RoundDeps,
    };
  });

  const running = new Set<Promise<void>>();
  const busy = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const runRound = (r: (typeof rounds)[number]): Promise<void> => {
    const id = r.deps.challenge.challenge_id;
    const epoch = deps.currentEpoch();
    if (busy.has(id) || epoch === undefined || !deps.leading()) return Promise.resolve();
    busy.add(id);
    const p = (async () => {
      if (r.deps.kind === 'workflow') await outbox?.retry(epoch);
      const done = await runDispatchRound(r.deps, epoch);
      if (done.tasks > 0) logger.info({ challenge: id, epoch, tasks: done.tasks, queries: done.queries }, 'dispatch round');
    })()
      .catch((error: unknown) => {
        logger.warn({ challenge: id, error: (error as Error).message }, 'dispatch round failed; retrying next round');
      })
      .finally(() => {
        busy.delete(id);
        running.delete(p);
      });
    running.add(p);
    return p;
  };

  const loop = (r: (typeof rounds)[number]): void => {
    if (stopped) return;
    const started = Date.now();
    void runRound(r).finally(() => {
      if (stopped) return;
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          loop(r);
        },
        Math.max(0, r.interval - (Date.now() - started)),
      );
      timers.add(timer);
    });
  };

  // Only the rounds running now: a round started later reads the new epoch, and waiting until none runs
  // never ends while two challenges' rounds overlap and slow miners hold each open (dispatch-settle.test.ts).
  const settle = async (): Promise<void> => {
    await Promise.all([...running]);
    await outbox?.settle();
  };

  return {
    start: () => {
      for (const r of rounds) loop(r);
    },
    runOnce: async () => {
      await Promise.all(rounds.map(runRound));
    },
    settle,
    stop: async () => {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await settle();
    },
  };
}
