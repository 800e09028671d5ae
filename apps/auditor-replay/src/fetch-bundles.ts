import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { redactUrl } from '@subnet/core';

import type { BundleEmbargo } from './bundle-embargo.js';
import { EMBARGO_STATUS, embargoSentence, readEmbargo } from './bundle-embargo.js';
import { DEFAULT_BUNDLE_LIMITS } from './bundle-limits.js';
import type { Progress } from './progress.js';
import { readCappedBody } from './read-capped-body.js';

/** Options of {@link fetchBundles}. */
export interface FetchOptions {
  /** The validator's base URL (`http://host:port`). */
  readonly validator: string;
  readonly from: number;
  readonly to: number;
  readonly outDir: string;
  /** Per-request timeout (ms), default 10 000. */
  readonly timeoutMs?: number;
  /** Retries after the first attempt for network errors, timeouts, 429 and 5xx (default 3). 404 and other 4xx are not retried. */
  readonly retries?: number;
  /** First retry delay (ms), doubled per retry; default 250. */
  readonly backoffMs?: number;
  readonly progress?: Progress;
  /** The fetch implementation (default the global fetch). */
  readonly fetch?: typeof fetch;
  /** The largest answer accepted, in bytes (default `verify`'s `--max-bundle-bytes` default, 64 MiB). */
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
  readonly attempts: number;
  /** Why it failed (HTTP status or network error, with the redacted URL), or when to retry an embargoed one. */
  readonly error: string | null;
  /** The embargo (status `embargoed` only). */
  readonly embargo?: BundleEmbargo;
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Downloads the signed bundles of epochs `from..to` (inclusive) from a validator's API into `outDir` as
 * `epoch-<n>.json`, exactly the bytes served (after checking they are JSON). Each request has a timeout;
 * network errors, timeouts, 429 and 5xx are retried with exponential backoff; 404 means the validator has
 * no bundle for that epoch; 425 means it is embargoed until the chain reveals the epoch's commit-reveal v4
 * weights (`embargoed`, with when to try again; not retried). One epoch failing does not stop the others.
 *
 * @param options - validator URL, epoch range, output directory, timeout, retries
 * @returns one outcome per epoch, in order
 * @example const got = await fetchBundles({ validator: 'http://127.0.0.1:8091', from: 10, to: 20, outDir: 'bundles' })
 */
export async function fetchBundles(options: FetchOptions): Promise<readonly FetchedEpoch[]> {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retries = options.retries ?? 3;
  const backoffMs = options.backoffMs ?? 250;
  const maxBytes = options.maxBytes ?? DEFAULT_BUNDLE_LIMITS.maxBytes;
  await mkdir(options.outDir, { recursive: true });
  const out: FetchedEpoch[] = [];
  for (let epoch = options.from; epoch <= options.to; epoch++) {
    const url = bundleUrl(options.validator, epoch);
    const shown = redactUrl(url);
    let attempts = 0;
    let result: FetchedEpoch | undefined;
    while (result === undefined) {
      attempts += 1;
      let retryable: string;
      try {
        const response = await doFetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
        if (response.ok) {
          // The validator is not trusted: an answer larger than a bundle may be is refused while it is read.
          const bytes = await readCappedBody(response, maxBytes);
          if (bytes === undefined) {
            result = { epoch, status: 'failed', file: null, attempts, error: `GET ${shown}: the answer is larger than ${maxBytes} bytes` };
            break;
          }
          try {
            JSON.parse(new TextDecoder().decode(bytes));
          } catch {
            result = { epoch, status: 'failed', file: null, attempts, error: `GET ${shown}: the answer is not JSON` };
            break;
          }
          const file = join(options.outDir, `epoch-${epoch}.json`);
          await writeFile(file, bytes);
          result = { epoch, status: 'saved', file, attempts, error: null };
          break;
        }
        if (response.status === EMBARGO_STATUS) {
          // Commit-reveal v4: withheld until the chain reveals the weights. Waiting is the caller's choice, not a retry.
          const embargo = await readEmbargo(response, epoch, Date.now());
          result = { epoch, status: 'embargoed', file: null, attempts, error: `GET ${shown}: ${embargoSentence(embargo)}`, embargo };
          break;
        }
        if (response.status === 404) {
          result = { epoch, status: 'not_found', file: null, attempts, error: `GET ${shown}: 404 (no bundle for epoch ${epoch})` };
          break;
        }
        if (response.status !== 429 && response.status < 500) {
          result = { epoch, status: 'failed', file: null, attempts, error: `GET ${shown}: HTTP ${response.status}` };
          break;
        }
        retryable = `GET ${shown}: HTTP ${response.status}`;
      } catch (error) {
        const e = error as Error;
        retryable = e.name === 'TimeoutError' ? `GET ${shown}: no answer within ${timeoutMs} ms` : `GET ${shown}: ${e.message}${causeOf(e)}`;
      }
      if (attempts > retries) {
        result = { epoch, status: 'failed', file: null, attempts, error: `${retryable} (after ${attempts} attempts)` };
        break;
      }
      await sleep(backoffMs * 2 ** (attempts - 1));
    }
    out.push(Object.freeze(result));
    options.progress?.tick(`epoch ${epoch}`, result.status === 'saved' ? 'saved' : (result.error ?? result.status));
  }
  options.progress?.done();
  return Object.freeze(out);
}

function causeOf(error: Error): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause === undefined) return '';
  return ` (${typeof cause.code === 'string' ? cause.code : typeof cause.message === 'string' ? cause.message : 'network error'})`;
}
