import { Worker } from 'node:worker_threads';

import { computeEpoch } from '@subnet/bundle';
import type { ComputeEpochInput, EpochComputation } from '@subnet/bundle';
import { SubnetError } from '@subnet/core';
import type { Logger } from 'pino';

/** Where an epoch was computed: a worker thread, or the event loop (the fallback, or a runner without a computer). */
export type ComputedOn = 'worker' | 'event_loop';

/** A computed epoch and how long its computation took. */
export interface Computed {
  readonly result: EpochComputation;
  readonly computedOn: ComputedOn;
  /** From the start of the computation (the worker's start included) to its result, in seconds. */
  readonly seconds: number;
}

/**
 * Computes epochs off the event loop (docs/spec.md G.47): one worker thread per computation, one at a time, so the
 * HTTP server (ingest, `/readyz`, `/healthz`, `/metrics`) keeps answering while an epoch closes.
 */
export interface EpochComputer {
  /**
   * `computeEpoch(input)` in a worker thread. When the worker cannot start, crashes, runs out of memory or gives a
   * result JSON would change, the epoch is computed on the event loop instead, with a warning naming the cause.
   *
   * @throws what computeEpoch throws (same code and message); {@link ComputationAbandoned} after {@link abandon}
   */
  compute(input: ComputeEpochInput): Promise<Computed>;
  /** Ends the computation in progress, if any (a stop that abandons the close): its promise rejects with {@link ComputationAbandoned}. */
  abandon(): Promise<void>;
}

/** The rejection of a computation a stop abandoned: the close records nothing (docs/spec.md G.10, G.47). */
export class ComputationAbandoned extends Error {
  constructor() {
    super('the epoch computation was abandoned by a stop: nothing of this close is recorded (the next start closes the epoch)');
    this.name = 'ComputationAbandoned';
  }
}

/** Options of {@link createEpochComputer}. */
export interface EpochComputerOptions {
  readonly logger: Logger;
  /** The worker script (tests); default: `epoch-worker.mjs` next to this module, in src/ and in dist/ alike. */
  readonly workerUrl?: URL;
}

/** The worker's one message (epoch-worker.mjs). */
type WorkerAnswer =
  | { readonly ok: true; readonly text: string | null }
  | {
      readonly ok: false;
      readonly error: { readonly name: string; readonly message: string; readonly code?: string; readonly context?: unknown; readonly stack?: string };
    };

/** Why the worker gave no answer (the fallback's warning says it). */
class WorkerFailed extends Error {}

/**
 * The epoch computer of a service (docs/spec.md G.47).
 *
 * @param options - logger, and the worker script for tests
 * @returns the computer
 * @example const computer = createEpochComputer({ logger }); const { result } = await computer.compute(input)
 */
export function createEpochComputer(options: EpochComputerOptions): EpochComputer {
  const workerUrl = options.workerUrl ?? new URL('./epoch-worker.mjs', import.meta.url);
  let queue: Promise<unknown> = Promise.resolve();
  let running: { readonly worker: Worker; abandoned: boolean } | undefined;

  /** Runs `input` in a fresh worker: its result, or the error computeEpoch threw there. */
  const inWorker = (input: ComputeEpochInput): Promise<EpochComputation> =>
    new Promise<EpochComputation>((resolve, reject) => {
      let worker: Worker;
      try {
        // The input is copied into the worker (structured clone keeps every value as it is: -0, undefined keys). No Node
        // options of this process: a plain JavaScript worker that imports the built @subnet/bundle needs none, and some
        // would break it (the tests' `--conditions @subnet/source` resolves packages to TypeScript, `--input-type` of an
        // inline script refuses a file). V8's heap limit (`--max-old-space-size`) is process-wide: the worker has it too.
        worker = new Worker(workerUrl, { workerData: input, execArgv: [] });
      } catch (error) {
        reject(new WorkerFailed(`the worker thread did not start: ${messageOf(error)}`));
        return;
      }
      const current = { worker, abandoned: false };
      running = current;
      options.logger.debug({ epoch: input.epoch, threadId: worker.threadId }, `computing epoch ${input.epoch} in a worker thread`);
      let settled = false;
      const settle = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        if (running === current) running = undefined;
        outcome();
        void worker.terminate();
      };
      worker.once('message', (answer: WorkerAnswer) => {
        settle(() => {
          if (!answer.ok) reject(thrownError(answer.error));
          else if (answer.text === null) reject(new WorkerFailed('its result holds a value JSON does not carry as it is'));
          else resolve(JSON.parse(answer.text) as EpochComputation);
        });
      });
      worker.once('error', (error) => {
        settle(() => {
          reject(current.abandoned ? new ComputationAbandoned() : new WorkerFailed(`the worker thread failed: ${messageOf(error)}`));
        });
      });
      worker.once('exit', (code) => {
        settle(() => {
          reject(current.abandoned ? new ComputationAbandoned() : new WorkerFailed(`the worker thread exited with code ${code} before answering`));
        });
      });
    });

  const computeOnce = async (input: ComputeEpochInput): Promise<Computed> => {
    const started = performance.now();
    try {
      const result = await inWorker(input);
      return { result, computedOn: 'worker', seconds: (performance.now() - started) / 1000 };
    } catch (error) {
      if (!(error instanceof WorkerFailed)) throw error;
      options.logger.warn(
        { epoch: input.epoch, cause: error.message },
        `computing epoch ${input.epoch} in a worker thread failed (${error.message}): computing it on the event loop instead (the server does not answer until it is done)`,
      );
      const fallback = performance.now();
      const result = computeEpoch(input);
      return { result, computedOn: 'event_loop', seconds: (performance.now() - fallback) / 1000 };
    }
  };

  return {
    compute(input) {
      // One worker at a time: a computation asked for while one runs starts when it has ended.
      const run = queue.then(
        () => computeOnce(input),
        () => computeOnce(input),
      );
      queue = run.catch(() => undefined);
      return run;
    },
    async abandon() {
      const current = running;
      if (current === undefined) return;
      current.abandoned = true;
      await current.worker.terminate();
    },
  };
}

/**
 * computeEpoch on the event loop, timed: what a runner without a computer does (`closeEpoch` called by a library
 * user or a test without `deps.computer`).
 *
 * @param input - computeEpoch's input
 * @returns the result, `event_loop`, seconds
 */
export function computeHere(input: ComputeEpochInput): Computed {
  const started = performance.now();
  const result = computeEpoch(input);
  return { result, computedOn: 'event_loop', seconds: (performance.now() - started) / 1000 };
}

/** The error computeEpoch threw in the worker, as the runner reads errors: same code and message (and context). */
function thrownError(fields: Extract<WorkerAnswer, { ok: false }>['error']): Error {
  const error =
    fields.code === undefined
      ? new Error(fields.message)
      : new SubnetError(fields.code, fields.message, { context: (fields.context ?? {}) as Record<string, unknown> });
  // The message as thrown (SubnetError's constructor would append the path and value again).
  error.message = fields.message;
  error.name = fields.name;
  if (fields.stack !== undefined) error.stack = fields.stack;
  return error;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return 'code' in error && typeof error.code === 'string' ? `${error.code}: ${error.message}` : error.message;
  return String(error);
}
