import type { SignatureVerifier } from '@subnet/bundle';
import { verifyBundle } from '@subnet/bundle';
import { isSubnetError, SubnetError } from '@subnet/core';

import { DEFAULT_BUNDLE_LIMITS } from './bundle-limits.js';
import { EMBARGO_STATUS, embargoSentence, readEmbargo } from './bundle-embargo.js';
import { AUDITOR_ERROR_CODES } from './errors.js';
import { expandOperands, loadDocument } from './load-bundles.js';
import { readCappedBody } from './read-capped-body.js';

/** One bundle a validator published, checked (digest and signature) or with the reason it was set aside. */
export interface PublishedBundle {
  /** The file or URL. */
  readonly source: string;
  /** `signed.bundle` when the digest and the signature verify, else null. */
  readonly bundle: unknown;
  /** Why it was set aside (code and message), null when it verified. */
  readonly problem: { readonly code: string; readonly message: string } | null;
}

/** Options of {@link readPublishedBundles}. */
export interface ReadPublishedOptions {
  /** The sr25519 check (`signatureVerifier()`). */
  readonly verify: SignatureVerifier;
  /** From a validator URL: the newest epochs to fetch (default 20). */
  readonly last?: number;
  /** Per-request timeout in ms (default 10 000). */
  readonly timeoutMs?: number;
  /** The fetch implementation (default the global fetch). */
  readonly fetch?: typeof fetch;
}

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

async function getJson(url: string, options: ReadPublishedOptions): Promise<unknown> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 10_000), headers: { accept: 'application/json' } });
  } catch (cause) {
    throw new SubnetError(AUDITOR_ERROR_CODES.fetchFailed, `GET ${redact(url)} failed: ${(cause as Error).message}`, {
      context: { path: '--bundles', value: redact(url) },
      cause,
    });
  }
  if (response.status === EMBARGO_STATUS) {
    const epoch = Number(/\/v1\/epochs\/(\d+)\/bundle$/.exec(url)?.[1] ?? -1);
    const embargo = await readEmbargo(response, epoch, Date.now());
    throw new SubnetError(AUDITOR_ERROR_CODES.bundleEmbargoed, `GET ${redact(url)}: ${embargoSentence(embargo)}`, {
      context: { path: '--bundles', value: redact(url), status: response.status, embargo },
    });
  }
  if (!response.ok)
    throw new SubnetError(AUDITOR_ERROR_CODES.fetchFailed, `GET ${redact(url)}: HTTP ${response.status}`, {
      context: { path: '--bundles', value: redact(url), status: response.status },
    });
  // The validator is not trusted: an answer larger than a bundle may be is refused while it is read.
  const bytes = await readCappedBody(response, DEFAULT_BUNDLE_LIMITS.maxBytes);
  if (bytes === undefined)
    throw new SubnetError(AUDITOR_ERROR_CODES.fetchFailed, `GET ${redact(url)}: the answer is larger than ${DEFAULT_BUNDLE_LIMITS.maxBytes} bytes`, {
      context: { path: '--bundles', value: redact(url), limit: DEFAULT_BUNDLE_LIMITS.maxBytes },
    });
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch (cause) {
    throw new SubnetError(AUDITOR_ERROR_CODES.malformed, `GET ${redact(url)}: the answer is not JSON`, {
      context: { path: '--bundles', value: redact(url) },
      cause,
    });
  }
}

function checked(source: string, doc: unknown, verify: SignatureVerifier): PublishedBundle {
  try {
    return Object.freeze({ source, bundle: verifyBundle(doc, verify), problem: null });
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    return Object.freeze({ source, bundle: null, problem: Object.freeze({ code: error.code, message: error.message }) });
  }
}

/**
 * Reads the signed bundles a validator published, from a folder (every `*.json` directly inside, as
 * `auditor-replay fetch` saves them) or from the validator's HTTP API (`GET {url}/v1/epochs`, then
 * `GET {url}/v1/epochs/{n}/bundle` for the newest `last` epochs that have one), and checks each one's
 * digest and the validator's signature (`verifyBundle` of `@subnet/bundle`): only a bundle the validator
 * provably signed is used, the others are returned with the reason they were set aside (a bundle withheld
 * until the chain reveals its commit-reveal v4 weights: `AUDITOR_BUNDLE_EMBARGOED`, saying when to try again).
 *
 * @param from - a folder or an http(s):// validator base URL
 * @param options - the signature check, how many epochs, the timeout
 * @returns the bundles in epoch order (a folder: file-name order)
 * @throws SubnetError `AUDITOR_UNREADABLE` (no such folder), `AUDITOR_FETCH_FAILED` (the API cannot be
 *   reached or answers with an error), `AUDITOR_MALFORMED_JSON` (the epoch list is not JSON)
 * @example const bundles = await readPublishedBundles('http://127.0.0.1:8091', { verify: await signatureVerifier() })
 */
export async function readPublishedBundles(from: string, options: ReadPublishedOptions): Promise<readonly PublishedBundle[]> {
  if (!/^https?:\/\//i.test(from)) {
    const files = await expandOperands([from]);
    const out: PublishedBundle[] = [];
    for (const file of files) {
      const doc = await loadDocument(file);
      out.push(
        doc.ok
          ? checked(file, doc.value, options.verify)
          : Object.freeze({ source: file, bundle: null, problem: Object.freeze({ code: doc.error.code, message: doc.error.message }) }),
      );
    }
    return Object.freeze(out);
  }
  const base = from.replace(/\/+$/, '');
  const listing = await getJson(`${base}/v1/epochs`, options);
  const epochs = (Array.isArray((listing as { epochs?: unknown }).epochs) ? (listing as { epochs: unknown[] }).epochs : [])
    .map((e) => e as { epoch?: unknown; bundle?: unknown })
    .filter((e): e is { epoch: number; bundle: string } => typeof e.epoch === 'number' && typeof e.bundle === 'string')
    .sort((a, b) => a.epoch - b.epoch)
    .slice(-(options.last ?? 20));
  const out: PublishedBundle[] = [];
  for (const e of epochs) {
    const url = `${base}/v1/epochs/${e.epoch}/bundle`;
    try {
      out.push(checked(redact(url), await getJson(url, options), options.verify));
    } catch (error) {
      if (!isSubnetError(error)) throw error;
      out.push(Object.freeze({ source: redact(url), bundle: null, problem: Object.freeze({ code: error.code, message: error.message }) }));
    }
  }
  return Object.freeze(out);
}
