import type { SignatureVerifier } from '@subnet/bundle';
import { verifyBundle } from '@subnet/bundle';
import { describeValue, isSubnetError, SubnetError } from '@subnet/core';

import { answerTooLargeSentence, BUNDLE_BYTES_OPTION, DEFAULT_BUNDLE_LIMITS } from './bundle-limits.js';
import { EMBARGO_STATUS, embargoSentence, readEmbargo } from './bundle-embargo.js';
import { AUDITOR_ERROR_CODES } from './errors.js';
import { leadWithKind } from './wrong-kind.js';
import { expandOperands, loadDocument } from './load-bundles.js';
import { readCappedBody } from './read-capped-body.js';
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
import type { RetryPlan } from './validator-http.js';
import type { Progress } from './progress.js';

/** One bundle a validator published, checked (digest and signature) or with the reason it was set aside. */
export interface PublishedBundle {
  /** The file or URL. */
  readonly source: string;
  /** `signed.bundle` when the digest and the signature verify, else null. */
  readonly bundle: unknown;
  /** Why it was set aside (code and message), null when it verified. */
  readonly problem: { readonly code: string; readonly message: string } | null;
  /**
   * From a validator URL: the GETs made for this bundle (more than 1 when transient failures were retried; 0 when
   * it was not asked for, past `totalTimeoutMs`). Null for a file of a folder and for a problem of the epoch list.
   */
  readonly attempts: number | null;
}

/** Options of {@link readPublishedBundles}. */
export interface ReadPublishedOptions {
  /** The sr25519 check (`signatureVerifier()`). */
  readonly verify: SignatureVerifier;
  /** From a validator URL: the newest epochs to fetch, a whole number of at least 1 (default 20). */
  readonly last?: number;
  /** Per-request timeout in ms, the answer and its whole body (default 10 000). */
  readonly timeoutMs?: number;
  /** From a validator URL: the whole read's limit in ms (default 600 000); past it no bundle is asked for. */
  readonly totalTimeoutMs?: number;
  /**
   * From a validator URL: retries after the first attempt of the list and of each bundle, for transient failures only
   * (a network error, one request's timeout, HTTP 408, 429, 5xx; default 3). Never for a refusal: another 4xx, a
   * redirect, an answer too large or not JSON, a bad signature, another epoch or validator, an embargo.
   */
  readonly retries?: number;
  /** The first wait before a retry (ms), doubled per retry (default 250). */
  readonly backoffMs?: number;
  /** The longest wait between two attempts (ms, default 30 000); no wait outlives `totalTimeoutMs`. */
  readonly maxBackoffMs?: number;
  /**
   * The largest bundle in bytes (`--max-bundle-bytes`, as `verify`'s: default 64 MiB): a validator's answer over it (a
   * bundle, or the epoch list) is refused while it is read, a file of a folder before it is read; either refusal names the option, its value and how
   * far it can be raised (docs/spec.md G.46 (a)).
   */
  readonly maxBytes?: number;
  /** The fetch implementation (default the global fetch). */
  readonly fetch?: typeof fetch;
  /**
   * The validator whose bundles are wanted (`--validator-hotkey`): a verified bundle of another validator is set
   * aside (`AUDITOR_WRONG_VALIDATOR`). A signature proves which hotkey signed, not that it is this validator.
   */
  readonly validatorHotkey?: string;
  /**
   * From a validator URL: progress over the bundles asked for, made once the list says how many (`total`); each
   * bundle is a step (`epoch 41`, outcome `ok` or the code it was set aside with).
   */
  readonly progress?: (total: number) => Progress;
  /**
   * From a validator URL: told before each wait to ask again, the list's GET included, with the sentence to print
   * (`GET <url>: HTTP 503; asking again in 250 ms (attempt 2 of 4)`).
   */
  readonly onRetry?: (sentence: string) => void;
}

/** The default limit of one read of a validator's bundles (ms). */
const DEFAULT_READ_TIMEOUT_MS = 600_000;

function redact(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

/** How one read of a validator's API is bounded, and how it asks again ({@link RetryPlan}). */
interface HttpRead extends RetryPlan {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly totalTimeoutMs: number;
  readonly fetch?: typeof fetch;
  readonly onRetry?: (sentence: string) => void;
}

function fetchFailed(url: string, why: string, extra: Record<string, unknown> = {}, cause?: unknown): SubnetError {
  return new SubnetError(AUDITOR_ERROR_CODES.fetchFailed, `GET ${redact(url)}: ${why}`, {
    context: { path: '--bundles', value: redact(url), ...extra },
    ...(cause === undefined ? {} : { cause }),
  });
}

/** A transient failure of one GET (network, one request's timeout, 408, 429, 5xx): worth asking again. */
interface Transient {
  readonly why: string;
  readonly extra: Record<string, unknown>;
  readonly cause?: unknown;
  /** The attempt ran out of the request's own timeout (`--timeout`), named after the failure when it is the last. */
  readonly timedOut?: true;
}

/** One GET of a JSON document: the document, or a transient failure; a refusal is thrown (a coded error). */
async function getJsonOnce(url: string, http: HttpRead): Promise<{ readonly doc: unknown } | { readonly transient: Transient }> {
  let reading = false;
  let bytes: Uint8Array | undefined;
  let status: number;
  try {
    const response = await validatorGet(url, http);
    reading = true;
    status = response.status;
    const redirect = redirectSentence(response, '--bundles');
    if (redirect !== undefined) {
      await discardBody(response);
      throw fetchFailed(url, redirect, { status });
    }
    if (status === EMBARGO_STATUS) {
      const epoch = Number(/\/v1\/epochs\/(\d+)\/bundle$/.exec(url)?.[1] ?? -1);
      const embargo = await readEmbargo(response, epoch, Date.now());
      throw new SubnetError(AUDITOR_ERROR_CODES.bundleEmbargoed, `GET ${redact(url)}: ${embargoSentence(embargo)}`, {
        context: { path: '--bundles', value: redact(url), status, embargo },
      });
    }
    if (!response.ok) {
      await discardBody(response);
      if (isTransientStatus(status)) return { transient: { why: `HTTP ${status}`, extra: { status } } };
      throw fetchFailed(url, `HTTP ${status}`, { status });
    }
    // The validator is not trusted: an answer larger than a bundle may be is refused while it is read.
    bytes = await readCappedBody(response, http.maxBytes);
  } catch (error) {
    if (isSubnetError(error)) throw error;
    const why = failureSentence(error, reading, http.timeoutMs, http.run, http.totalTimeoutMs);
    // Past the run's deadline nothing is asked again; a network error or one request's timeout is.
    if (http.run.aborted) throw fetchFailed(url, why, {}, error);
    return { transient: { why, extra: {}, cause: error, ...(timedOut(error, http.run) ? { timedOut: true } : {}) } };
  }
  if (bytes === undefined) throw fetchFailed(url, answerTooLargeSentence(http.maxBytes), { limit: http.maxBytes });
  try {
    return { doc: JSON.parse(new TextDecoder().decode(bytes)) as unknown };
  } catch (cause) {
    throw new SubnetError(AUDITOR_ERROR_CODES.malformed, `GET ${redact(url)}: HTTP ${status}: the answer is not JSON`, {
      context: { path: '--bundles', value: redact(url) },
      cause,
    });
  }
}

/** A GET's outcome after its retries: the document or the coded error, with the attempts made. */
type Got = { readonly doc: unknown; readonly attempts: number } | { readonly error: SubnetError; readonly attempts: number };

/**
 * GETs a JSON document, asking again after a transient failure with `fetch`'s backoff (`backoffMs` doubled per
 * retry, at most `maxBackoffMs`, never past the run's deadline), at most `retries` times; a refusal is not asked again.
 */
async function getJson(url: string, http: HttpRead): Promise<Got> {
  const got = await withRetries<Got, Transient>(
    async (attempts) => {
      try {
        const once = await getJsonOnce(url, http);
        return 'transient' in once ? once : { result: { doc: once.doc, attempts } };
      } catch (error) {
        if (!isSubnetError(error)) throw error;
        return { result: { error, attempts } };
      }
    },
    http,
    (transient, attempts, waitMs) => {
      http.onRetry?.(retrySentence(`GET ${redact(url)}`, transient.why, attempts, waitMs, http.retries));
    },
  );
  if ('result' in got) return got.result;
  const { why, extra, cause } = got.transient;
  const after = `${why} (${afterAttempts(got.attempts)})${got.transient.timedOut === true && got.endedBy === 'retries' ? `; ${requestTimeoutHint(http.timeoutMs)}` : ''}`;
  const sentence = got.endedBy === 'retries' ? after : `${after}; then ${totalTimeoutSentence(http.totalTimeoutMs)}`;
  return { error: fetchFailed(url, sentence, { ...extra, attempts: got.attempts }, cause), attempts: got.attempts };
}

/** A source set aside with a coded error's code and message (and, from a URL, the GETs made for it). */
function asideFor(source: string, error: { readonly code: string; readonly message: string }, attempts: number | null = null): PublishedBundle {
  return Object.freeze({ source, bundle: null, problem: Object.freeze({ code: error.code, message: error.message }), attempts });
}

/** A URL's answer set aside: the coded message `[CODE] GET url: why at --bundles (got "url")`, as the fetch errors read. */
function setAside(source: string, code: string, why: string, attempts: number | null): PublishedBundle {
  return asideFor(source, new SubnetError(code, `GET ${source}: ${why}`, { context: { path: '--bundles', value: source } }), attempts);
}

/** A file's bundle set aside: the coded message `[CODE] file: why at bundle.validator_hotkey (got value)`. */
function problemAt(file: string, code: string, why: string, value: unknown): PublishedBundle {
  return asideFor(file, new SubnetError(code, `${file}: ${why}`, { context: { path: 'bundle.validator_hotkey', value } }));
}

/**
 * A verified bundle of another validator than `expected` set aside by `aside` (with why); anything else as it is.
 * One string compare: the bundle verified, so its `validator_hotkey` is a hotkey whose signature checked.
 */
function ofValidator(read: PublishedBundle, expected: string | undefined, aside: (why: string, named: unknown) => PublishedBundle): PublishedBundle {
  if (expected === undefined || read.bundle === null) return read;
  const named = (read.bundle as { validator_hotkey?: unknown }).validator_hotkey;
  return named === expected ? read : aside(`the bundle is signed by validator ${describeValue(named)}, not by ${expected} (--validator-hotkey)`, named);
}

/** The epochs a validator's list (`GET /v1/epochs`) names with a bundle, and what in it was not usable. */
interface ListedEpochs {
  readonly epochs: readonly number[];
  readonly problems: readonly PublishedBundle[];
}

/**
 * Reads a validator's epoch list: `{ epochs: [{ epoch, bundle }, ...] }`. An entry whose `bundle` is null (no
 * bundle yet) is skipped; an entry that is not an object with a non-negative safe-integer `epoch` and a string or
 * null `bundle` is never asked for, and all of them are set aside in one problem naming how many and the first;
 * an epoch listed twice is asked for once and set aside in one problem. The `bundle` path is not used: the URL
 * asked for is always `{validator}/v1/epochs/{n}/bundle`.
 */
function listedEpochs(listing: unknown, url: string): ListedEpochs {
  const source = redact(url);
  if (typeof listing !== 'object' || listing === null || !Object.hasOwn(listing, 'epochs') || !Array.isArray((listing as { epochs: unknown }).epochs))
    throw new SubnetError(AUDITOR_ERROR_CODES.invalidListing, `GET ${source}: the answer is not an object with an "epochs" list`, {
      context: { path: '--bundles', value: source },
    });
  const entries = (listing as { epochs: unknown[] }).epochs;
  const seen = new Set<number>();
  const epochs: number[] = [];
  let bad = 0;
  let firstBad = '';
  let duplicate = '';
  for (const [i, entry] of entries.entries()) {
    const record = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : undefined;
    const epoch = record !== undefined && Object.hasOwn(record, 'epoch') ? record.epoch : undefined;
    const bundle = record !== undefined && Object.hasOwn(record, 'bundle') ? record.bundle : undefined;
    if (typeof epoch !== 'number' || !Number.isSafeInteger(epoch) || epoch < 0 || (bundle !== null && typeof bundle !== 'string')) {
      bad += 1;
      if (bad === 1)
        firstBad =
          record === undefined
            ? `epochs[${i}] = ${describeValue(entry)}`
            : typeof epoch === 'number' && Number.isSafeInteger(epoch) && epoch >= 0
              ? `epochs[${i}].bundle = ${describeValue(bundle)}`
              : `epochs[${i}].epoch = ${describeValue(epoch)}`;
      continue;
    }
    if (bundle === null) continue;
    if (seen.has(epoch)) {
      if (duplicate === '') duplicate = `epoch ${epoch} is listed more than once (epochs[${i}])`;
      continue;
    }
    seen.add(epoch);
    epochs.push(epoch);
  }
  const problems: PublishedBundle[] = [];
  const problem = (message: string) => problems.push(setAside(source, AUDITOR_ERROR_CODES.invalidListing, message, null));
  if (bad > 0)
    problem(
      `${bad} listed epoch(s) are not an object with a non-negative integer "epoch" (at most 2^53 - 1) and a "bundle" path or null; the first: ${firstBad}`,
    );
  if (duplicate !== '') problem(duplicate);
  return { epochs: epochs.sort((x, y) => x - y), problems };
}

function checked(source: string, doc: unknown, verify: SignatureVerifier, attempts: number | null): PublishedBundle {
  try {
    return Object.freeze({ source, bundle: verifyBundle(doc, verify), problem: null, attempts });
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    // Another kind of file in the folder (a miner-check input): said first, with where it goes (wrong-kind.ts).
    return asideFor(source, leadWithKind(doc, { code: error.code, message: error.message }), attempts);
  }
}

/**
 * Reads the signed bundles a validator published, from a folder (every `*.json` directly inside, as
 * `auditor-replay fetch` saves them) or from the validator's HTTP API (`GET {url}/v1/epochs`, then
 * `GET {url}/v1/epochs/{n}/bundle` for the newest `last` epochs that have one), and checks each one's
 * digest and the validator's signature (`verifyBundle` of `@subnet/bundle`): only a bundle the validator
 * provably signed is used, the others are returned with the reason they were set aside (a bundle withheld
 * until the chain reveals its commit-reveal v4 weights: `AUDITOR_BUNDLE_EMBARGOED`, saying when to try again).
 * The validator is not trusted (docs/spec.md G.6): redirects are not followed; each request ends at `timeoutMs`
 * (the body too) and the whole read at `totalTimeoutMs`, after which no bundle is asked for; an answer over
 * `maxBytes` (default 64 MiB) is refused while it is read, and a file of a folder over it before it is read. A transient failure of the list or of one bundle (a network error, one
 * request's timeout, HTTP 408, 429, 5xx) is asked again with `fetch`'s backoff (`backoffMs` doubled, at most
 * `maxBackoffMs` a wait, at most `retries` times, never past `totalTimeoutMs`); a refusal never is, and each bundle
 * says how many GETs it took (`attempts`). List entries that name no usable epoch, an epoch listed twice
 * (`AUDITOR_INVALID_LISTING`) and a bundle of another epoch than the one asked for (`AUDITOR_WRONG_EPOCH`) are
 * set aside, never used; so is, with `validatorHotkey`, a bundle another validator signed (`AUDITOR_WRONG_VALIDATOR`).
 *
 * @param from - a folder or an http(s):// validator base URL
 * @param options - the signature check, how many epochs, the timeouts and retries, the validator wanted
 * @returns the bundles in epoch order, after the list's problems (a folder: file-name order)
 * @throws SubnetError `AUDITOR_INVALID_OPTION` (`last` not a whole number of at least 1), `AUDITOR_UNREADABLE` (no such folder), `AUDITOR_FETCH_FAILED` (the epoch list cannot be
 *   read: a transient failure after its retries, an error status, a redirect, or a time limit), `AUDITOR_MALFORMED_JSON` (the epoch
 *   list is not JSON), `AUDITOR_INVALID_LISTING` (it is not `{ epochs: [...] }`)
 * @example const bundles = await readPublishedBundles('http://127.0.0.1:8091', { verify: await signatureVerifier() })
 */
export async function readPublishedBundles(from: string, options: ReadPublishedOptions): Promise<readonly PublishedBundle[]> {
  const last = options.last;
  // `slice(-0)` is the whole list: 0 (or a fraction, NaN) fetched every epoch the validator listed.
  if (last !== undefined && (!Number.isSafeInteger(last) || last < 1)) {
    throw new SubnetError(AUDITOR_ERROR_CODES.invalidOption, `last must be a whole number of epochs, at least 1 (got ${describeValue(last)})`, {
      context: { path: 'last', value: last },
    });
  }
  if (!/^https?:\/\//i.test(from)) {
    // The folder is this reader's `--bundles` (miner-check explain), as a URL is, not verify's operand `BUNDLE[0]`.
    const files = await expandOperands([from], () => '--bundles');
    const limits = options.maxBytes === undefined ? DEFAULT_BUNDLE_LIMITS : Object.freeze({ ...DEFAULT_BUNDLE_LIMITS, maxBytes: options.maxBytes });
    const out: PublishedBundle[] = [];
    for (const file of files) {
      // Only the byte limit is this reader's option (`--max-bundle-bytes`): a refusal by it says how to raise it.
      const doc = await loadDocument(file, limits, BUNDLE_BYTES_OPTION);
      out.push(
        doc.ok
          ? ofValidator(checked(file, doc.value, options.verify, null), options.validatorHotkey, (why, named) =>
              problemAt(file, AUDITOR_ERROR_CODES.wrongValidator, why, named),
            )
          : asideFor(file, doc.error),
      );
    }
    return Object.freeze(out);
  }
  const base = from.replace(/\/+$/, '');
  const totalTimeoutMs = options.totalTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  const http: HttpRead = {
    timeoutMs: options.timeoutMs ?? 10_000,
    maxBytes: options.maxBytes ?? DEFAULT_BUNDLE_LIMITS.maxBytes,
    totalTimeoutMs,
    run: AbortSignal.timeout(totalTimeoutMs),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    retries: options.retries ?? DEFAULT_RETRIES,
    backoffMs: options.backoffMs ?? DEFAULT_BACKOFF_MS,
    maxBackoffMs: options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS,
    ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
  };
  const listUrl = `${base}/v1/epochs`;
  const list = await getJson(listUrl, http);
  if ('error' in list) throw list.error;
  const listed = listedEpochs(list.doc, listUrl);
  const out: PublishedBundle[] = [...listed.problems];
  const asked = listed.epochs.slice(-(last ?? 20));
  const progress = options.progress?.(asked.length);
  for (const epoch of asked) {
    const entry = await readBundleOf(epoch, base, http, options);
    out.push(entry);
    progress?.tick(`epoch ${epoch}`, entry.problem?.code ?? 'ok');
  }
  progress?.done();
  return Object.freeze(out);
}

/** One epoch's published bundle from a validator URL, checked, or set aside with why. */
async function readBundleOf(epoch: number, base: string, http: HttpRead, options: ReadPublishedOptions): Promise<PublishedBundle> {
  const url = `${base}/v1/epochs/${epoch}/bundle`;
  const source = redact(url);
  if (http.run.aborted) return setAside(source, AUDITOR_ERROR_CODES.fetchFailed, `not asked: ${totalTimeoutSentence(http.totalTimeoutMs)}`, 0);
  const got = await getJson(url, http);
  if ('error' in got) return asideFor(source, got.error, got.attempts);
  const read = checked(source, got.doc, options.verify, got.attempts);
  const served = (read.bundle as { epoch?: unknown } | null)?.epoch;
  return read.bundle !== null && served !== epoch
    ? setAside(source, AUDITOR_ERROR_CODES.wrongEpoch, `the answer is the bundle of epoch ${describeValue(served)}, not of epoch ${epoch}`, got.attempts)
    : ofValidator(read, options.validatorHotkey, (why) => setAside(source, AUDITOR_ERROR_CODES.wrongValidator, why, got.attempts));
}
