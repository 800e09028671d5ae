import { Worker } from 'node:worker_threads';

import { hexToU8a, u8aToHex } from '@polkadot/util';
import { buildBundle, computeEpoch, signedBundleText } from '@subnet/bundle';
import type { BundleSigner, ComputeEpochInput, EpochComputation, SubmissionRecord } from '@subnet/bundle';
import { SubnetError } from '@subnet/core';
import type { Logger } from 'pino';

import { carryText, claimBundleInput, claimText, inputsFromRecords } from './epoch-inputs.mjs';
import type { StoredRecord } from './storage.js';

/**
 * What a close computes an epoch from: its stored records and the previous epoch's carry, parsed where the epoch is
 * computed (`inputsFromRecords`, in the worker thread), and the rest of `computeEpoch`'s input.
 */
export interface EpochSource {
  readonly records: readonly Pick<StoredRecord, 'kind' | 'recordId' | 'seq' | 'body'>[];
  readonly carry: string | null;
  /** `computeEpoch`'s input but `inputs`, with the epoch's axon queries the bundle shows (`queries`, optional). */
  readonly input: Omit<ComputeEpochInput, 'inputs'> & { readonly queries?: readonly unknown[] };
}

/**
 * `computeEpoch`'s input from a source, parsed on this thread (a close without a worker, or its fallback).
 *
 * @param source - records, carry and the rest of the input
 * @returns the input, `inputs` from `inputsFromRecords`
 */
export function inputOf(source: EpochSource): ComputeEpochInput {
  let inputs: Record<string, unknown>;
  try {
    inputs = inputsFromRecords(source.records, source.carry);
  } catch (error) {
    throw new RecordsUnreadable(error);
  }
  return { ...source.input, inputs };
}

/**
 * The epoch's stored records or carry could not be read (a body that is not JSON: storage damaged). Not a failure of
 * the computation: the close rethrows `cause`, as it did when it read them before computing, and records nothing.
 */
export class RecordsUnreadable extends Error {
  constructor(readonly original: unknown) {
    super(`the epoch's stored records could not be read: ${messageOf(original)}`);
    this.name = 'RecordsUnreadable';
  }
}

/** Where an epoch was computed: a worker thread, or the event loop (the fallback, or a runner without a computer). */
export type ComputedOn = 'worker' | 'event_loop';

/** A bundle ready to store, serve and write: the signed document's canonical JSON and the bundle's digest. */
export interface BundleText {
  readonly text: string;
  readonly digest: string;
}

/**
 * A computed epoch, as the close uses it: the vector to send, the carry to store, and the texts it stores, built where
 * the computation is kept (docs/spec.md G.47). The texts are the bytes the close would write from the result itself.
 */
export interface ComputedEpoch {
  /** The vector to set: uids ascending and their u16 weights. */
  readonly u16: EpochComputation['u16'];
  /** The carried state as the epoch row stores it: `JSON.stringify({ window_state, decay_states, reputations })`. */
  readonly carry: string;
  readonly computedOn: ComputedOn;
  /** From the start of the computation (the worker's start included) to its result, in seconds. */
  readonly seconds: number;
  /** `canonicalJson({ pending: { ...input, netuid }, pending_claim_head })`: what a `submitting` claim keeps. */
  pendingText(netuid: number, claimHead: string): Promise<string>;
  /** `signedBundleText(buildBundle({ ...input, netuid, result, submission }), signer)`'s text and digest. */
  signedBundle(netuid: number, submission: SubmissionRecord, signer: BundleSigner | undefined): Promise<BundleText>;
  /** Ends the worker thread that keeps the computation (the close is done with it); idempotent. */
  release(): void;
}

/**
 * Computes epochs off the event loop (docs/spec.md G.47): one worker thread per close, one at a time, which keeps
 * the computation until the close has built its texts, so the HTTP server (ingest, `/readyz`, `/healthz`, `/metrics`)
 * keeps answering while an epoch closes.
 */
export interface EpochComputer {
  /**
   * `computeEpoch(input)` in a worker thread. When the worker cannot start, crashes, runs out of memory (then or
   * later, while it builds a text), the work is done on the event loop instead, with a warning naming the cause.
   *
   * @throws what computeEpoch throws (same code and message); {@link ComputationAbandoned} after {@link abandon}
   */
  compute(source: EpochSource): Promise<ComputedEpoch>;
  /**
   * The bundle of an epoch whose claim is `submitting`, as reconciliation publishes it (reconcile.ts): the claim's text
   * (`{ pending, pending_claim_head }`, as the close stored it) is parsed and the bundle built in a worker thread
   * (`computeEpoch` included), then signed here. A worker that fails leaves it to the event loop, with a warning.
   *
   * @throws what buildBundle throws (same code and message); {@link ComputationAbandoned} after {@link abandon}
   */
  claimBundle(epoch: number, claimText: string, submission: SubmissionRecord, signer: BundleSigner | undefined): Promise<BundleText>;
  /** Ends the worker thread in use, if any (a stop that abandons the close): its requests reject with {@link ComputationAbandoned}. */
  abandon(): Promise<void>;
}

/** The rejection of a close's computation a stop abandoned: the close records nothing more (docs/spec.md G.10, G.47). */
export class ComputationAbandoned extends Error {
  constructor() {
    super('the epoch computation was abandoned by a stop: the close records nothing more (the next start closes the epoch or reconciles it)');
    this.name = 'ComputationAbandoned';
  }
}

/** Options of {@link createEpochComputer}. */
export interface EpochComputerOptions {
  readonly logger: Logger;
  /** The worker script (tests); default: `epoch-worker.mjs` next to this module, in src/ and in dist/ alike. */
  readonly workerUrl?: URL;
}

/** An error a step threw in the worker, as it crossed. */
interface ThrownFields {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly context?: unknown;
  readonly stack?: string;
}

/** One message of the worker (epoch-worker.mjs). */
type WorkerAnswer = { readonly ok: true; readonly [key: string]: unknown } | { readonly ok: false; readonly error: ThrownFields; readonly phase?: string };

/** Why the worker gave no answer (the fallback's warning says it). */
class WorkerFailed extends Error {}

/** The signature the worker puts where the close's goes (64 zero bytes, epoch-worker.mjs). */
const PLACEHOLDER_SUFFIX = `"signature":"0x${'00'.repeat(64)}"}`;

/**
 * The epoch computer of a service (docs/spec.md G.47).
 *
 * @param options - logger, and the worker script for tests
 * @returns the computer
 * @example const computer = createEpochComputer({ logger }); const computed = await computer.compute(input)
 */
export function createEpochComputer(options: EpochComputerOptions): EpochComputer {
  const workerUrl = options.workerUrl ?? new URL('./epoch-worker.mjs', import.meta.url);
  let live: WorkerSession | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const fallbackWarning = (epoch: number, cause: string, step: string): void => {
    options.logger.warn(
      { epoch, cause },
      `epoch ${epoch}: ${step} in a worker thread failed (${cause}): done on the event loop instead (the server does not answer until it is done)`,
    );
  };

  const computeOnce = async (source: EpochSource): Promise<ComputedEpoch> => {
    const epoch = source.input.epoch;
    // One worker at a time: one still kept by an earlier close is ended (its texts, if asked for, are built here).
    live?.end();
    const started = performance.now();
    let session: WorkerSession | undefined;
    let first: { u16: EpochComputation['u16']; carry: string };
    try {
      session = startSession(workerUrl, source satisfies WorkerInput);
      live = session;
      options.logger.debug({ epoch, threadId: session.threadId }, `computing epoch ${epoch} in a worker thread`);
      const answer = await session.next().catch((error: unknown) => {
        // The worker's reading of the records failed, not its computation (epoch-worker.mjs says which).
        throw error instanceof Error && (error as { phase?: unknown }).phase === 'records' ? new RecordsUnreadable(error) : error;
      });
      first = { u16: answer.u16 as EpochComputation['u16'], carry: answer.carry as string };
    } catch (error) {
      session?.end();
      if (!(error instanceof WorkerFailed)) throw error;
      fallbackWarning(epoch, error.message, 'the computation');
      return computeHere(inputOf(source));
    }
    const kept = session;
    const seconds = (performance.now() - started) / 1000;
    let here: ComputedEpoch | undefined;
    let released = false;
    /** The computation made here, for a text asked for after the close let its thread go (a recomputation that failed). */
    const afterRelease = (): ComputedEpoch => (here ??= computeHere(inputOf(source)));
    /** The same step on the event loop, from a computation made here once (the worker is gone). */
    const onLoop = <T>(step: string, error: unknown, run: (computed: ComputedEpoch) => Promise<T>): Promise<T> => {
      if (!(error instanceof WorkerFailed)) throw error;
      // Said once: later steps use the computation made here.
      if (here === undefined) fallbackWarning(epoch, error.message, step);
      here ??= computeHere(inputOf(source));
      return run(here);
    };
    return {
      ...first,
      computedOn: 'worker',
      seconds,
      async pendingText(netuid, claimHead) {
        if (released) return afterRelease().pendingText(netuid, claimHead);
        try {
          return (await kept.request({ kind: 'pending', netuid, claimHead })).text as string;
        } catch (error) {
          return onLoop("the claim's text", error, (c) => c.pendingText(netuid, claimHead));
        }
      },
      async signedBundle(netuid, submission, signer) {
        if (released) return afterRelease().signedBundle(netuid, submission, signer);
        let answer: WorkerAnswer & { ok: true };
        try {
          answer = await kept.request({ kind: 'bundle', netuid, submission, ...(signer === undefined ? {} : { signerAddress: signer.address }) });
        } catch (error) {
          return onLoop('the bundle', error, (c) => c.signedBundle(netuid, submission, signer));
        }
        return signedHere(answer, signer);
      },
      release() {
        released = true;
        kept.end();
        if (live === kept) live = undefined;
      },
    };
  };

  const claimBundleOnce = async (epoch: number, claim: string, submission: SubmissionRecord, signer: BundleSigner | undefined): Promise<BundleText> => {
    live?.end();
    let session: WorkerSession | undefined;
    try {
      session = startSession(workerUrl, { claim, submission, ...(signer === undefined ? {} : { signerAddress: signer.address }) });
      live = session;
      return signedHere(await session.next(), signer);
    } catch (error) {
      if (!(error instanceof WorkerFailed)) throw error;
      fallbackWarning(epoch, error.message, "reconciliation's bundle");
      const signed = signedBundleText(buildBundle(claimBundleInput(claim, submission)), signer);
      return { text: signed.text, digest: signed.digest };
    } finally {
      session?.end();
      if (live === session) live = undefined;
    }
  };

  /** One piece of work at a time: the next starts when the one before has settled. */
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  return {
    compute: (source) => inTurn(() => computeOnce(source)),
    claimBundle: (epoch, claim, submission, signer) => inTurn(() => claimBundleOnce(epoch, claim, submission, signer)),
    async abandon() {
      const session = live;
      live = undefined;
      await session?.abandon();
    },
  };
}

/** A worker thread kept for one close: its answers in order, or why it gave none. */
interface WorkerSession {
  readonly threadId: number;
  /** The next answer the worker posts (its first: the computation's). */
  next(): Promise<WorkerAnswer & { ok: true }>;
  /** Sends a request and waits for its answer. */
  request(message: Record<string, unknown>): Promise<WorkerAnswer & { ok: true }>;
  /** Ends the thread (the close is done with it). */
  end(): void;
  /** Ends the thread for a stop: what waits on it, and anything asked later, rejects with ComputationAbandoned. */
  abandon(): Promise<void>;
}

/**
 * A worker's framing of a signed bundle (a placeholder signature at its end, epoch-worker.mjs) signed on this thread: the
 * key never leaves it. Without a signer (a dry run) the text is as framed.
 */
function signedHere(answer: WorkerAnswer & { ok: true }, signer: BundleSigner | undefined): BundleText {
  const text = answer.text as string;
  const digest = answer.digest as string;
  if (signer === undefined) return { text, digest };
  if (!text.endsWith(PLACEHOLDER_SUFFIX))
    throw new Error('the worker thread framed the signed bundle in an unexpected way (no placeholder signature at its end)');
  // The digest's bytes, as signedBundleText signs them.
  const signature = u8aToHex(signer.sign(hexToU8a(digest)));
  return { text: `${text.slice(0, -PLACEHOLDER_SUFFIX.length)}"signature":"${signature}"}`, digest };
}

/** What a worker is started with: an epoch to compute (a close), or a claim whose bundle to build (reconciliation). */
type WorkerInput = EpochSource | { readonly claim: string; readonly submission: SubmissionRecord; readonly signerAddress?: string };

function startSession(workerUrl: URL, source: WorkerInput): WorkerSession {
  let worker: Worker;
  try {
    // The source is copied into the worker: the stored record texts (the thread parses them) and the rest of the input
    // (structured clone keeps every value as it is: -0, undefined keys). No Node
    // options of this process: a plain JavaScript worker that imports the built @subnet/bundle needs none, and some
    // would break it (the tests' `--conditions @subnet/source` resolves packages to TypeScript, `--input-type` of an
    // inline script refuses a file). V8's heap limit (`--max-old-space-size`) is process-wide: the worker has it too.
    worker = new Worker(workerUrl, { workerData: source, execArgv: [] });
  } catch (error) {
    throw new WorkerFailed(`the worker thread did not start: ${messageOf(error)}`);
  }
  const answers: WorkerAnswer[] = [];
  let waiting: { resolve: (answer: WorkerAnswer) => void; reject: (error: Error) => void } | undefined;
  let gone: Error | undefined;
  let abandoned = false;
  let ended = false;
  const fail = (error: Error): void => {
    gone ??= abandoned ? new ComputationAbandoned() : error;
    waiting?.reject(gone);
    waiting = undefined;
  };
  worker.on('message', (answer: WorkerAnswer) => {
    if (waiting === undefined) answers.push(answer);
    else {
      waiting.resolve(answer);
      waiting = undefined;
    }
  });
  worker.once('error', (error) => {
    fail(new WorkerFailed(`the worker thread failed: ${messageOf(error)}`));
  });
  worker.once('exit', (code) => {
    fail(new WorkerFailed(ended ? 'the worker thread had ended' : `the worker thread exited with code ${code} before answering`));
  });
  const next = async (): Promise<WorkerAnswer & { ok: true }> => {
    const answer =
      answers.shift() ??
      (await new Promise<WorkerAnswer>((resolve, reject) => {
        if (gone !== undefined) reject(gone);
        else waiting = { resolve, reject };
      }));
    if (!answer.ok) throw Object.assign(thrownError(answer.error), answer.phase === undefined ? {} : { phase: answer.phase });
    return answer;
  };
  return {
    threadId: worker.threadId,
    next,
    request(message) {
      if (gone !== undefined) return Promise.reject(gone);
      worker.postMessage(message);
      return next();
    },
    end() {
      if (ended) return;
      ended = true;
      void worker.terminate();
    },
    async abandon() {
      abandoned = true;
      ended = true;
      fail(new ComputationAbandoned());
      await worker.terminate();
    },
  };
}

/**
 * An epoch computed on the event loop, timed: what a runner without a computer does (`closeEpoch` called by a library
 * user or a test without `deps.computer`), and the fallback when the worker fails.
 *
 * @param input - computeEpoch's input
 * @returns the computation, `event_loop`, seconds; its texts built here
 */
export function computeHere(input: ComputeEpochInput): ComputedEpoch {
  const started = performance.now();
  const result = computeEpoch(input);
  const seconds = (performance.now() - started) / 1000;
  return {
    u16: result.u16,
    carry: carryText(result),
    computedOn: 'event_loop',
    seconds,
    pendingText: (netuid, claimHead) => Promise.resolve().then(() => claimText(input, netuid, claimHead)),
    signedBundle: (netuid, submission, signer) =>
      Promise.resolve().then(() => {
        const signed = signedBundleText(buildBundle({ ...input, netuid, result, submission }), signer);
        return { text: signed.text, digest: signed.digest };
      }),
    release: () => undefined,
  };
}

/** The error a step threw in the worker, as the runner reads errors: same code and message (and context). */
function thrownError(fields: ThrownFields): Error {
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
