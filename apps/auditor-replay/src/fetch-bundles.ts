import { mkdir } from 'node:fs/promises';

import { describeValue, isHotkey, isSubnetError, redactUrl, SubnetError } from '@subnet/core';

import type { BundleEmbargo } from './bundle-embargo.js';
import { EMBARGO_STATUS, embargoSentence, readEmbargo } from './bundle-embargo.js';
import { answerTooLargeSentence, DEFAULT_BUNDLE_LIMITS } from './bundle-limits.js';
import type { Progress } from './progress.js';
import { readCappedBody } from './read-capped-body.js';
import { AUDITOR_ERROR_CODES } from './errors.js';
import { saveBundle, writeFailed } from './save-bundle.js';
import type { KeptBeside } from './save-bundle.js';
import {
  afterAttempts,
  DEFAULT_BACKOFF_MS,
  DEFAULT_MAX_BACKOFF_MS,
  DEFAULT_RETRIES,
  discardBody,
  failureSentence,
  isTransientStatus,
  redirectSentence,
  requestTimeoutHint,
  timedOut,
  totalTimeoutSentence,
  validatorGet,
  retrySentence,
  withRetries,
} from './validator-http.js';
import type { Attempt, RetryPlan } from './validator-http.js';

/** Options of {@link fetchBundles}. */
export interface FetchOptions {
  /** The validator's base URL (`http://host:port`). */
  readonly validator: string;
  /** The first epoch. */
  readonly from: number;
  /** The last epoch (inclusive): at most {@link MAX_FETCH_EPOCHS} epochs from `from`. */
  readonly to: number;
  readonly outDir: string;
  /** Per-request timeout (ms), headers and body, default 10 000. */
  readonly timeoutMs?: number;
  /** The whole run's limit (ms), every epoch, retry and wait; default 3 600 000. Past it no epoch is asked for. */
  readonly totalTimeoutMs?: number;
  /** Retries after the first attempt for network errors, timeouts, 408, 429 and 5xx (default 3). 404 and other 4xx are not retried. */
  readonly retries?: number;
  /** First retry delay (ms), doubled per retry; default 250. */
  readonly backoffMs?: number;
  /** The longest retry delay (ms); default 30 000. */
  readonly maxBackoffMs?: number;
  readonly progress?: Progress;
  /** The fetch implementation (default the global fetch). */
  readonly fetch?: typeof fetch;
  /**
   * The validator hotkey the auditor expects: an answer whose `bundle.validator_hotkey` is another is refused,
   * not saved (a validator serving another validator's honestly signed bundles would otherwise pass `verify`).
   */
  readonly validatorHotkey?: string;
  /**
   * The largest answer accepted, in bytes (`--max-bundle-bytes`: `verify`'s default, 64 MiB); a refusal names the option,
   * its value and how far it can be raised.
   */
  readonly maxBytes?: number;
}

/** The outcome of one epoch's download. */
export interface FetchedEpoch {
  readonly epoch: number;
  /**
   * `embargoed`: the validator withholds the bundle until the chain reveals the epoch's commit-reveal v4 weights
   * (HTTP 425); not a failure: `error` says when to try again and `embargo` holds the details.
   */
  readonly status: 'saved' | 'not_found' | 'failed' | 'embargoed';
  /** The file written (when saved). */
  readonly file: string | null;
  /**
   * When saved beside another file: the `epoch-<n>.json` already in the folder that holds other bytes for this
   * epoch (never overwritten), and whether its `digest` is the same (the same signed bundle in other bytes, e.g.
   * before its reveal attestation was added) or another (for `verify` of the folder to judge: an equivocation
   * when both are validly signed by one validator).
   */
  readonly beside?: KeptBeside;
  /** When saved: the `bundle.validator_hotkey` the answer names (null when it names no well-formed hotkey); `verify` checks its signature. */
  readonly validatorHotkey?: string | null;
  readonly attempts: number;
  /**
   * The code of a refusal or failure (null when saved or not found): `AUDITOR_FETCH_FAILED` (network, timeout, HTTP
   * status, redirect, too large), `AUDITOR_MALFORMED_JSON`, `AUDITOR_WRONG_EPOCH`, `AUDITOR_WRONG_VALIDATOR`,
   * `AUDITOR_BUNDLE_EMBARGOED`, `AUDITOR_NAME_CONFLICT` (both file names of the epoch in `outDir` already hold other
   * bytes: a local conflict, the answer not saved).
   */
  readonly code: string | null;
  /** Why it failed (HTTP status or network error, with the redacted URL), or when to retry an embargoed one. */
  readonly error: string | null;
  /** The embargo (status `embargoed` only). */
  readonly embargo?: BundleEmbargo;
  /**
   * Set on the first epoch only, when its last attempt found no validator at all: the connection was refused
   * (`ECONNREFUSED`) or the host does not resolve (`ENOTFOUND`). Nothing was saved, so the run stopped there: every
   * later epoch is `failed` with 0 attempts and `not asked: ` + {@link refusedSentence}.
   */
  readonly refused?: RefusalCode;
}

/** How a validator was found absent: the connection refused, or its host unknown to DNS. */
export type RefusalCode = 'ECONNREFUSED' | 'ENOTFOUND';

/**
 * What a run says once when the validator is absent at its first epoch (see {@link FetchedEpoch.refused}).
 *
 * @param validator - the `--validator` URL (shown redacted)
 * @param refused - the OS code of the failure
 * @returns e.g. `the validator at http://127.0.0.1:8091 refused the connection (is it running? is the URL right?)`
 * @example refusedSentence('http://127.0.0.1:8091', 'ECONNREFUSED')
 */
export function refusedSentence(validator: string, refused: RefusalCode): string {
  const at = redactUrl(validator);
  return refused === 'ENOTFOUND'
    ? `the validator's host in ${at} does not resolve (ENOTFOUND: is the URL right?)`
    : `the validator at ${at} refused the connection (is it running? is the URL right?)`;
}

/**
 * The URL of one epoch's bundle: `GET {validator}/v1/epochs/{n}/bundle`.
 *
 * @param validator - the validator's base URL (a trailing slash is fine)
 * @param epoch - the epoch
 * @returns the URL
 * @example bundleUrl('http://127.0.0.1:8091/', 7) // 'http://127.0.0.1:8091/v1/epochs/7/bundle'
 */
export function bundleUrl(validator: string, epoch: number): string {
  return `${validator.replace(/\/+$/, '')}/v1/epochs/${epoch}/bundle`;
}

/** The default limit of one source's whole download (ms). */
export const DEFAULT_TOTAL_TIMEOUT_MS = 3_600_000;

/**
 * The most epochs one `fetch` asks for (docs/spec.md G.6): about 14 years of 72-minute epochs, far more than an
 * audit needs, and a bound on the outcomes one run holds and prints (past `--total-timeout` every epoch left is
 * still named, so a range of 2^53 epochs never ended).
 */
export const MAX_FETCH_EPOCHS = 100_000;

/**
 * Checks a `fetch` range before anything is asked: `from` and `to` non-negative safe integers, `to` not before
 * `from`, at most {@link MAX_FETCH_EPOCHS} epochs.
 *
 * @param from - `--from`
 * @param to - `--to`
 * @throws SubnetError `AUDITOR_INVALID_OPTION` naming both flags and their values
 * @example checkEpochRange(10, 20)
 */
export function checkEpochRange(from: number, to: number): void {
  const refuse = (why: string) =>
    new SubnetError(AUDITOR_ERROR_CODES.invalidOption, `--from ${describeValue(from)} --to ${describeValue(to)}: ${why}`, {
      context: { path: '--from/--to', value: { from, to } },
    });
  for (const value of [from, to]) if (!Number.isSafeInteger(value) || value < 0) throw refuse('each must be a non-negative integer (at most 2^53 - 1)');
  if (to < from) throw refuse('--to is before --from');
  if (to - from + 1 > MAX_FETCH_EPOCHS)
    throw refuse(`the range holds ${to - from + 1} epochs, more than the ${MAX_FETCH_EPOCHS} one fetch asks for (split it into several runs)`);
}

/**
 * Downloads the signed bundles of epochs `from..to` (inclusive) from a validator's API into `outDir` as
 * `epoch-<n>.json`, exactly the bytes served (after checking they are JSON, not the bundle of another epoch, and,
 * with `validatorHotkey`, not the bundle of another validator).
 * The validator is not trusted (docs/spec.md G.6): each request has a timeout, headers and body; the whole run
 * has a deadline (`totalTimeoutMs`), after which no epoch is asked for; redirects are not followed; an answer
 * over `maxBytes` is refused while it is read (naming `--max-bundle-bytes`); a file already in `outDir` is never overwritten: other bytes for
 * an epoch already saved go beside it as `epoch-<n>.<sha256, 64 hex>.json`, so `verify` of the folder reports an
 * equivocation. Network errors, timeouts, 408, 429 and 5xx are retried with exponential backoff (at most
 * `maxBackoffMs` a wait; `Retry-After` is not obeyed); 404 means the validator has no bundle for that epoch;
 * 425 means it is embargoed until the chain reveals the epoch's commit-reveal v4 weights (`embargoed`, with when
 * to try again; not retried). One epoch failing does not stop the others, but for two causes: a local disk error
 * stops the run, and so does no validator at the first epoch (connection refused or host unknown after its retries,
 * nothing saved yet): the later epochs are then `not asked` ({@link FetchedEpoch.refused}).
 *
 * @param options - validator URL, epoch range, output directory, timeouts, retries
 * @returns one outcome per epoch, in order
 * @throws SubnetError `AUDITOR_INVALID_OPTION` (a range of more than {@link MAX_FETCH_EPOCHS} epochs, or `to`
 *   before `from`: before any request), `AUDITOR_WRITE_FAILED` (the folder or a file cannot be written: at once,
 *   no later epoch asked for, no file already written changed)
 * @example const got = await fetchBundles({ validator: 'http://127.0.0.1:8091', from: 10, to: 20, outDir: 'bundles' })
 */
export async function fetchBundles(options: FetchOptions): Promise<readonly FetchedEpoch[]> {
  checkEpochRange(options.from, options.to);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const totalTimeoutMs = options.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_BUNDLE_LIMITS.maxBytes;
  const run = AbortSignal.timeout(totalTimeoutMs);
  const plan: RetryPlan = {
    retries: options.retries ?? DEFAULT_RETRIES,
    backoffMs: options.backoffMs ?? DEFAULT_BACKOFF_MS,
    maxBackoffMs: options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS,
    run,
  };
  const get = { timeoutMs, run, ...(options.fetch === undefined ? {} : { fetch: options.fetch }) };
  try {
    await mkdir(options.outDir, { recursive: true });
  } catch (error) {
    // mkdir's EEXIST here means the name is a file: "file already exists" alone read as if a bundle were in the way.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw writeFailed(options.outDir, error, '--out', '--out names a file, not a folder: give --out a folder (it is created when missing), so fetch stopped');
    }
    throw writeFailed(options.outDir, error);
  }
  const { fetchFailed, malformed, wrongEpoch, wrongValidator, bundleEmbargoed, nameConflict } = AUDITOR_ERROR_CODES;
  const out: FetchedEpoch[] = [];
  /** Set when the first epoch found no validator (connection refused, host unknown): the later epochs are not asked. */
  let stopped: RefusalCode | undefined;
  for (let epoch = options.from; epoch <= options.to; epoch++) {
    const url = bundleUrl(options.validator, epoch);
    const shown = redactUrl(url);
    const fail = (attempts: number, code: string, why: string): FetchedEpoch => ({
      epoch,
      status: 'failed',
      file: null,
      attempts,
      code,
      error: `GET ${shown}: ${why}`,
    });
    /** One GET of the epoch: what it came to, or a transient failure (its sentence, and whether no validator was there) worth asking again. */
    const attempt = async (attempts: number): Promise<Attempt<FetchedEpoch, Transient>> => {
      let reading = false;
      try {
        const response = await validatorGet(url, get);
        reading = true;
        if (response.ok) {
          // The validator is not trusted: an answer larger than a bundle may be is refused while it is read.
          const bytes = await readCappedBody(response, maxBytes);
          if (bytes === undefined) return { result: fail(attempts, fetchFailed, answerTooLargeSentence(maxBytes)) };
          let doc: unknown;
          try {
            doc = JSON.parse(new TextDecoder().decode(bytes));
          } catch {
            return { result: fail(attempts, malformed, `HTTP ${response.status}: the answer is not JSON`) };
          }
          const served = servedEpoch(doc);
          if (served !== undefined && served !== epoch) {
            return { result: fail(attempts, wrongEpoch, `the answer is the bundle of epoch ${served}, not of epoch ${epoch}`) };
          }
          const claimed = bundleField(doc, 'validator_hotkey');
          if (options.validatorHotkey !== undefined && claimed !== options.validatorHotkey) {
            return { result: fail(attempts, wrongValidator, wrongValidatorSentence(claimed, options.validatorHotkey)) };
          }
          // A local disk error (AUDITOR_WRITE_FAILED) is thrown past the retries: it stops the run.
          const saved = await saveBundle(options.outDir, epoch, bytes, doc, maxBytes);
          if (saved.conflict !== undefined) {
            // The auditor's own folder, not the network: the code and sentence send the user to --out.
            const [file, other] = saved.conflict;
            return {
              result: {
                epoch,
                status: 'failed',
                file: null,
                attempts,
                code: nameConflict,
                error: `the answer of GET ${shown} was not saved: ${file} and ${other} both already hold other bytes (a name conflict in --out; nothing was overwritten: move them aside or fetch into another --out)`,
              },
            };
          }
          return {
            result: {
              epoch,
              status: 'saved',
              file: saved.file,
              attempts,
              code: null,
              error: null,
              // Only a well-formed hotkey is passed on (the text is the validator's, and is printed).
              validatorHotkey: isHotkey(claimed) ? claimed : null,
              ...(saved.beside === undefined ? {} : { beside: saved.beside }),
            },
          };
        }
        const redirect = redirectSentence(response, '--validator');
        if (redirect !== undefined) {
          await discardBody(response);
          return { result: fail(attempts, fetchFailed, redirect) };
        }
        if (response.status === EMBARGO_STATUS) {
          // Commit-reveal v4: withheld until the chain reveals the weights. Waiting is the caller's choice, not a retry.
          const embargo = await readEmbargo(response, epoch, Date.now());
          return {
            result: { epoch, status: 'embargoed', file: null, attempts, code: bundleEmbargoed, error: `GET ${shown}: ${embargoSentence(embargo)}`, embargo },
          };
        }
        await discardBody(response);
        if (response.status === 404) {
          return { result: { epoch, status: 'not_found', file: null, attempts, code: null, error: `GET ${shown}: 404 (no bundle for epoch ${epoch})` } };
        }
        if (!isTransientStatus(response.status)) return { result: fail(attempts, fetchFailed, `HTTP ${response.status}`) };
        return { transient: { why: `HTTP ${response.status}` } };
      } catch (error) {
        if (isSubnetError(error, AUDITOR_ERROR_CODES.writeFailed)) throw error;
        if (run.aborted) return { result: fail(attempts, fetchFailed, totalTimeoutSentence(totalTimeoutMs)) };
        const refused = reading ? undefined : refusalCode(error);
        return {
          transient: {
            why: failureSentence(error, reading, timeoutMs, run, totalTimeoutMs),
            ...(refused === undefined ? {} : { refused }),
            ...(timedOut(error, run) ? { timedOut: true } : {}),
          },
        };
      }
    };
    let result: FetchedEpoch;
    if (run.aborted) result = fail(0, fetchFailed, `not asked: ${totalTimeoutSentence(totalTimeoutMs)}`);
    else if (stopped !== undefined) result = fail(0, fetchFailed, `not asked: ${refusedSentence(options.validator, stopped)}`);
    else {
      // A wait between attempts is said (progress on stderr), so a run retrying a flaky validator is not silent.
      const got = await withRetries(attempt, plan, (transient, attempts, waitMs) => {
        options.progress?.note?.(retrySentence(`epoch ${epoch}`, transient.why, attempts, waitMs, plan.retries));
      });
      if ('result' in got) result = got.result;
      else {
        result = fail(
          got.attempts,
          fetchFailed,
          got.endedBy === 'retries'
            ? `${got.transient.why} (${afterAttempts(got.attempts)})${got.transient.timedOut === true ? `; ${requestTimeoutHint(timeoutMs)}` : ''}`
            : `${got.transient.why}; then ${totalTimeoutSentence(totalTimeoutMs)}`,
        );
        // No validator there at the first epoch (nothing saved yet): asking for the others would only repeat it, retries
        // and waits included (20 s for 11 epochs, half an hour for 1 000), so the run stops. A validator that answers,
        // with any status, or that goes away after the first epoch, is asked for every epoch as before.
        if (epoch === options.from && got.endedBy === 'retries' && got.transient.refused !== undefined) {
          stopped = got.transient.refused;
          result = { ...result, refused: stopped };
        }
      }
    }
    out.push(Object.freeze(result));
    // The epochs not asked after a refusal are said once by the caller, not one progress line each.
    if (result.attempts > 0 || stopped === undefined) options.progress?.tick(`epoch ${epoch}`, progressOutcome(result));
  }
  options.progress?.done();
  return Object.freeze(out);
}

/**
 * Why an answer of another validator than `--validator-hotkey` is refused, cause first, naming both hotkeys.
 *
 * @param claimed - the answer's `bundle.validator_hotkey` (the validator's text: described, never trusted)
 * @param expected - the hotkey asked for
 * @returns e.g. `the bundle names validator "5H…", not 5G… given with --validator-hotkey; not saved`
 */
function wrongValidatorSentence(claimed: unknown, expected: string): string {
  const named = claimed === undefined ? 'names no validator (no bundle.validator_hotkey)' : `names validator ${describeValue(claimed)}`;
  return `the bundle ${named}, not ${expected} given with --validator-hotkey; not saved`;
}

/**
 * The outcome on a progress line (stderr): the status and code only. The sentence of a failure, or of a file kept
 * beside another, is in the run's result on stdout (and in `--json`); printing it on both said every failure twice.
 */
function progressOutcome(result: FetchedEpoch): string {
  if (result.status !== 'saved') return result.code === null ? result.status : `${result.status} [${result.code}]`;
  return result.beside === undefined ? 'saved' : `saved as ${result.file}`;
}

/** A transient failure of one GET: its sentence, and the OS code when no validator was there at all. */
interface Transient {
  readonly why: string;
  readonly refused?: RefusalCode;
  /** The attempt ran out of the request's own timeout (`--timeout`), named after the failure when it is the last. */
  readonly timedOut?: true;
}

/**
 * Whether a failed GET found no validator at all: the connection refused, or the host unknown to DNS (undici's
 * `fetch failed` with that `cause.code`; when several addresses were tried, every one refused).
 */
function refusalCode(error: unknown): RefusalCode | undefined {
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (typeof cause !== 'object' || cause === null) return undefined;
  const code = (cause as { code?: unknown }).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND') return code;
  const errors = (cause as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.length > 0 && errors.every((e) => (e as { code?: unknown } | null)?.code === 'ECONNREFUSED')) return 'ECONNREFUSED';
  return undefined;
}

/** A field of a served document's `bundle` (own properties only), undefined when there is none. */
function bundleField(doc: unknown, name: string): unknown {
  if (typeof doc !== 'object' || doc === null || !Object.hasOwn(doc, 'bundle')) return undefined;
  const bundle = (doc as { bundle: unknown }).bundle;
  if (typeof bundle !== 'object' || bundle === null || !Object.hasOwn(bundle, name)) return undefined;
  return (bundle as Record<string, unknown>)[name];
}

/** The `bundle.epoch` of a served document when it is an integer, else undefined (verify judges the rest). */
function servedEpoch(doc: unknown): number | undefined {
  const epoch = bundleField(doc, 'epoch');
  return Number.isSafeInteger(epoch) ? (epoch as number) : undefined;
}
