import { redactUrl } from '@subnet/core';

/** Retries after the first attempt of a transient failure (network error, timeout of one request, 408, 429, 5xx). */
export const DEFAULT_RETRIES = 3;
/** The first wait before a retry (ms), doubled per retry. */
export const DEFAULT_BACKOFF_MS = 250;
/** The longest wait between two attempts (ms), however many retries are asked for. */
export const DEFAULT_MAX_BACKOFF_MS = 30_000;

/** How one GET to a validator's API is bounded. */
export interface ValidatorGetOptions {
  /** The limit of this request, headers and body (ms). */
  readonly timeoutMs: number;
  /** The run's deadline: when it aborts, the request under way stops. */
  readonly run: AbortSignal;
  /** The fetch implementation (default the global fetch). */
  readonly fetch?: typeof fetch;
}

/**
 * One GET to a validator the caller does not trust: JSON asked for, redirects not followed (a 3xx answer is
 * returned as it is, see {@link redirectSentence}), the request aborted at its own timeout or at the run's deadline,
 * whichever comes first (also while the body is read).
 *
 * @param url - the URL
 * @param options - the timeout, the run's deadline, the fetch
 * @returns the answer (its body is read under the same signals)
 * @throws what fetch throws (network errors, a `TimeoutError` when a signal aborts): see {@link failureSentence}
 * @example const response = await validatorGet(url, { timeoutMs: 10_000, run: AbortSignal.timeout(3_600_000) })
 */
export async function validatorGet(url: string, options: ValidatorGetOptions): Promise<Response> {
  const doFetch = options.fetch ?? fetch;
  return doFetch(url, {
    // A validator URL is where the auditor chose to look: a redirect elsewhere (another host, a private or
    // link-local address such as 169.254.169.254, another scheme) is never followed (docs/spec.md G.6).
    redirect: 'manual',
    signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.run]),
    headers: { accept: 'application/json' },
  });
}

/**
 * The sentence for a redirect answer (a 3xx with a `Location`), undefined for any other answer. The target is
 * shown with credentials and query redacted, control characters escaped, and at most 200 characters.
 *
 * @param response - the answer
 * @param flag - the option that named the URL (`--validator`, `--bundles`)
 * @returns e.g. `HTTP 302: redirects to http://169.254.169.254/ (not followed: give --validator the URL that serves the bundles)`
 * @example const redirect = redirectSentence(response, '--validator'); if (redirect !== undefined) fail(redirect)
 */
export function redirectSentence(response: Response, flag: string): string | undefined {
  if (response.status < 300 || response.status > 399) return undefined;
  const location = response.headers.get('location');
  if (location === null) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are what is escaped
  const shown = redactUrl(location).replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `HTTP ${response.status}: redirects to ${shown.length > 200 ? `${shown.slice(0, 197)}...` : shown} (not followed: give ${flag} the URL that serves the bundles)`;
}

/**
 * Why a GET failed, in words naming the limit that was passed: the run's deadline, the request's timeout before
 * the answer began (`no answer within N ms`) or while its body was read (`the answer did not end within N ms`),
 * or the network error and its code.
 *
 * @param error - what fetch or the body read threw
 * @param reading - whether the answer's head had arrived (the body was being read)
 * @param timeoutMs - the request's limit
 * @param run - the run's deadline signal
 * @param totalTimeoutMs - the run's limit, named when it passed
 * @returns the sentence (without the `GET url: ` in front)
 * @example failureSentence(error, false, 10_000, run, 3_600_000) // 'no answer within 10000 ms'
 */
export function failureSentence(error: unknown, reading: boolean, timeoutMs: number, run: AbortSignal, totalTimeoutMs: number): string {
  if (run.aborted) return totalTimeoutSentence(totalTimeoutMs);
  const e = error instanceof Error ? error : new Error(String(error));
  if (e.name === 'TimeoutError') return reading ? `the answer did not end within ${timeoutMs} ms` : `no answer within ${timeoutMs} ms`;
  return `${e.message}${causeOf(e)}`;
}

/** The most `--timeout` takes (`auditor-replay fetch`, `miner-check explain`): one hour. */
export const MAX_REQUEST_TIMEOUT_MS = 3_600_000;

/**
 * Whether a GET failed by its own request timeout (`timeoutMs`), not the run's deadline or the network: what
 * {@link failureSentence} words as `no answer within N ms` or `the answer did not end within N ms`.
 *
 * @param error - what fetch or the body read threw
 * @param run - the run's deadline signal
 * @returns true for the request's timeout
 * @example if (timedOut(error, run)) hint = requestTimeoutHint(10_000)
 */
export function timedOut(error: unknown, run: AbortSignal): boolean {
  return !run.aborted && error instanceof Error && error.name === 'TimeoutError';
}

/**
 * What ends the failure of a GET whose last attempt ran out of `--timeout`: the option, its value and how far it can be
 * raised, as a refusal by any configured limit ends (docs/spec.md G.24, G.42 (c)).
 *
 * @param timeoutMs - the request's limit
 * @returns the sentence
 * @example requestTimeoutHint(10_000) // 'the limit is --timeout 10000: raise it (at most 3600000) to wait longer'
 */
export function requestTimeoutHint(timeoutMs: number): string {
  return timeoutMs < MAX_REQUEST_TIMEOUT_MS
    ? `the limit is --timeout ${timeoutMs}: raise it (at most ${MAX_REQUEST_TIMEOUT_MS}) to wait longer`
    : `the limit is --timeout ${timeoutMs}, the most it can be`;
}

/** The most `--total-timeout` takes (`auditor-replay fetch`, `miner-check explain`): seven days. */
export const MAX_TOTAL_TIMEOUT_MS = 604_800_000;

/**
 * The sentence for a run stopped by its deadline: the option, its value and how far it can be raised, as every other
 * limit's refusal says (docs/spec.md G.24, G.42 (c), G.46 (b)).
 *
 * @param totalTimeoutMs - the run's limit
 * @returns `the run passed its --total-timeout of N ms: raise it (at most 604800000) to wait longer`, or at the most
 *   `the run passed its --total-timeout of 604800000 ms, the most it can be`
 * @example totalTimeoutSentence(1200) // 'the run passed its --total-timeout of 1200 ms: raise it (at most 604800000) to wait longer'
 */
export function totalTimeoutSentence(totalTimeoutMs: number): string {
  return totalTimeoutMs < MAX_TOTAL_TIMEOUT_MS
    ? `the run passed its --total-timeout of ${totalTimeoutMs} ms: raise it (at most ${MAX_TOTAL_TIMEOUT_MS}) to wait longer`
    : `the run passed its --total-timeout of ${totalTimeoutMs} ms, the most it can be`;
}

/**
 * Lets go of an answer's body that is not read (an error page, a redirect), so the connection is closed now
 * rather than when the answer is collected.
 *
 * @param response - the answer
 * @example await discardBody(response)
 */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/**
 * How many GETs a failure took, for a sentence: `after 1 attempt`, `after 4 attempts`.
 *
 * @param attempts - the GETs made
 * @returns the phrase
 * @example afterAttempts(4) // 'after 4 attempts'
 */
export function afterAttempts(attempts: number): string {
  return `after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
}

/**
 * Whether an HTTP status is a transient failure worth asking again: 408 (the server's request timeout), 429 and
 * every 5xx. Any other status (a 3xx, 404, another 4xx, a 425 embargo) is the validator's answer, never retried.
 *
 * @param status - the HTTP status
 * @returns true for 408, 429 and 500-599
 * @example isTransientStatus(503) // true
 */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * The wait before the next attempt: `backoffMs` doubled per attempt already made, at most `maxBackoffMs`
 * (`Retry-After` is not obeyed: the validator does not choose how long the auditor waits).
 *
 * @param attempts - the attempts made so far (1 after the first)
 * @param backoffMs - the first wait
 * @param maxBackoffMs - the longest wait
 * @returns the wait in ms
 * @example retryDelayMs(3, 250, 30_000) // 1000
 */
export function retryDelayMs(attempts: number, backoffMs: number, maxBackoffMs: number): number {
  return Math.min(backoffMs * 2 ** (attempts - 1), maxBackoffMs);
}

/**
 * The line a run prints while it waits to ask again: `GET <url>: HTTP 503; asking again in 500 ms (attempt 2 of 4)`.
 *
 * @param shown - what was asked (a redacted URL, or `epoch 41`)
 * @param why - the transient failure
 * @param attempts - the attempts made so far
 * @param waitMs - the wait before the next
 * @param retries - the retries allowed after the first attempt
 * @returns the sentence
 * @example retrySentence('epoch 41', 'HTTP 503', 1, 250, 3) // 'epoch 41: HTTP 503; asking again in 250 ms (attempt 2 of 4)'
 */
export function retrySentence(shown: string, why: string, attempts: number, waitMs: number, retries: number): string {
  return `${shown}: ${why}; asking again in ${waitMs} ms (attempt ${attempts + 1} of ${retries + 1})`;
}

/** How a run asks a validator again after a transient failure (docs/spec.md G.6). */
export interface RetryPlan {
  /** Retries after the first attempt. */
  readonly retries: number;
  /** The first wait (ms), doubled per retry. */
  readonly backoffMs: number;
  /** The longest wait (ms). */
  readonly maxBackoffMs: number;
  /** The whole run's deadline: no wait outlives it, and no attempt follows it. */
  readonly run: AbortSignal;
}

/** One attempt: its result (an answer or a refusal, both final), or a transient failure `F` worth asking again. */
export type Attempt<T, F> = { readonly result: T } | { readonly transient: F };

/** After the retries: the result, or the last transient failure and whether the retries or the deadline ended them. */
export type Retried<T, F> =
  { readonly result: T; readonly attempts: number } | { readonly transient: F; readonly attempts: number; readonly endedBy: 'retries' | 'deadline' };

/**
 * Runs `attempt` until it gives a result, asking again after each transient failure with the plan's backoff
 * ({@link retryDelayMs}), at most `retries` times and never past the run's deadline. `fetch` and
 * `readPublishedBundles` both go through it, so they retry alike.
 *
 * @param attempt - one attempt, given its number (1 first)
 * @param plan - retries, backoff and the run's deadline
 * @param onRetry - told before each wait: the transient failure, the attempts made, the wait (so a run can say why it
 *   is quiet)
 * @returns the result with the attempts made, or the last transient failure and what ended the retries
 * @example const got = await withRetries(async () => ({ transient: 'HTTP 503' }), { retries: 0, backoffMs: 250, maxBackoffMs: 30_000, run })
 */
export async function withRetries<T, F>(
  attempt: (attempts: number) => Promise<Attempt<T, F>>,
  plan: RetryPlan,
  onRetry?: (transient: F, attempts: number, waitMs: number) => void,
): Promise<Retried<T, F>> {
  for (let attempts = 1; ; attempts++) {
    const outcome = await attempt(attempts);
    if ('result' in outcome) return { result: outcome.result, attempts };
    if (attempts > plan.retries) return { transient: outcome.transient, attempts, endedBy: 'retries' };
    const waitMs = retryDelayMs(attempts, plan.backoffMs, plan.maxBackoffMs);
    onRetry?.(outcome.transient, attempts, waitMs);
    await waitUnlessAborted(waitMs, plan.run);
    if (plan.run.aborted) return { transient: outcome.transient, attempts, endedBy: 'deadline' };
  }
}

/**
 * Waits `ms`, or less when the run's deadline passes first.
 *
 * @param ms - the wait
 * @param run - the run's deadline
 * @example await waitUnlessAborted(250, run)
 */
export function waitUnlessAborted(ms: number, run: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (run.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      run.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    run.addEventListener('abort', done, { once: true });
  });
}

function causeOf(error: Error): string {
  const raw = (error as { cause?: unknown }).cause;
  if (typeof raw !== 'object' || raw === null) return '';
  const cause = raw as { code?: unknown; message?: unknown };
  return ` (${typeof cause.code === 'string' ? cause.code : typeof cause.message === 'string' ? cause.message : 'network error'})`;
}
