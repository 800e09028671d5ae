import { randomBytes } from 'node:crypto';

import { discardBody, readBodyUpTo } from './http-body.js';
import type { RequestSigner } from './signed-request.js';
import { signRequest } from './signed-request.js';

/** One peer-scores document: this validator's per-miner scores of one challenge in one epoch. */
export interface PeerScoresDocument {
  readonly epoch: number;
  readonly challenge_id: string;
  readonly scores: readonly { readonly miner_hotkey: string; readonly score: number }[];
}

/** What happened at one peer. */
export interface PeerPublishOutcome {
  /** The peer's base URL (credentials never included: configure peers without them). */
  readonly peer: string;
  /**
   * `delivered` (2xx), `refused` (a 4xx but 408/429: the peer said no; at once, or after every attempt for the
   * refusals a lagging metagraph explains) or `failed` (unreachable, 408, 429 or 5xx after every attempt).
   */
  readonly result: 'delivered' | 'refused' | 'failed';
  /** The last HTTP status, or `null` when the peer never answered. */
  readonly status: number | null;
  readonly attempts: number;
  /**
   * Why it was not delivered (absent when delivered): the peer's error code and message for a refusal
   * (`WRONG_EPOCH: peer scores of epoch 7 are too late ...`), else the last failure (`HTTP 503`,
   * `ECONNREFUSED`, `timed out after 10000 ms`, `aborted`).
   */
  readonly reason?: string;
}

/**
 * A peer validator: its base URL and, when known, its hotkey. With the hotkey, every request is bound to that
 * peer (`x-subnet-receiver`), so the peer cannot replay it to another validator as this one's.
 */
export interface PeerTarget {
  readonly url: string;
  readonly hotkey?: string;
}

/** Options of {@link publishPeerScores}. */
export interface PeerPublishOptions {
  /** The peer validators: base URLs (`http://10.0.0.2:8091`, requests unbound) or `{ url, hotkey }` (bound). */
  readonly peers: readonly (string | PeerTarget)[];
  /** This validator's hotkey (the same key that signs weights and bundles). */
  readonly signer: RequestSigner;
  /** Attempts per peer (default 4) and the first backoff (default 500 ms, doubled each time). */
  readonly attempts?: number;
  readonly backoffMs?: number;
  /** Per-attempt time limit (default 10 s). */
  readonly timeoutMs?: number;
  /** Stops retrying and waiting (the service is stopping): outcomes not delivered yet are `failed`, reason `aborted`. */
  readonly signal?: AbortSignal;
}

/** The most bytes of a peer's refusal read for its reason (the validator's own error bodies are far smaller). */
const MAX_REPLY_BYTES = 64 * 1024;

/**
 * Refusals a peer gives while its metagraph lags this validator's view (it has not seen this validator's
 * registration or validator permit, or a miner's registration that this document scores): it re-reads its
 * metagraph at most every 2 s, so they are retried with the backoff like a busy peer, and reported as a refusal
 * only when every attempt got one.
 */
const LAGGING_VIEW_CODES: ReadonlySet<string> = new Set(['NOT_REGISTERED', 'NOT_A_VALIDATOR', 'PEER_SCORES_EXCEED_METAGRAPH']);

/** The peer's `{ error: { code, message } }`, or the status alone. */
function refusal(status: number, text: string): { code: string | null; reason: string } {
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
    if (typeof error?.code === 'string') {
      return { code: error.code, reason: `${error.code}: ${typeof error.message === 'string' ? error.message : ''}`.trim() };
    }
  } catch {
    // not JSON: the status says enough
  }
  return { code: null, reason: `HTTP ${status}` };
}

function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  if (error instanceof Error && error.name === 'AbortError') return 'aborted';
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

async function publishToPeer(target: string | PeerTarget, body: string, options: PeerPublishOptions): Promise<PeerPublishOutcome> {
  const peer = typeof target === 'string' ? target : target.url;
  const receiver = typeof target === 'string' || target.hotkey === undefined ? {} : { receiver: target.hotkey };
  const attempts = options.attempts ?? 4;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let status: number | null = null;
  let reason = 'aborted';
  let attempt = 0;
  while (attempt < attempts && options.signal?.aborted !== true) {
    attempt++;
    const headers = signRequest(options.signer, {
      method: 'POST',
      path: '/v1/peer-scores',
      body,
      timestamp: Date.now(),
      nonce: randomBytes(16).toString('hex'),
      ...receiver,
    });
    try {
      const timeout = AbortSignal.timeout(timeoutMs);
      const res = await fetch(`${peer.replace(/\/+$/, '')}/v1/peer-scores`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]),
      });
      status = res.status;
      if (res.ok) {
        await discardBody(res);
        return { peer, result: 'delivered', status, attempts: attempt };
      }
      // At most 64 KiB, for a refusal's reason: an endless body cannot hold the publisher or grow its memory.
      const answer = refusal(res.status, (await readBodyUpTo(res, MAX_REPLY_BYTES)).bytes.toString('utf8'));
      reason = answer.reason;
      // 408 and 429 (rate limited) are a busy peer, not a refusal: retried like a 5xx. So is a refusal that a
      // lagging metagraph explains, until the last attempt.
      if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
        const lagging = answer.code !== null && LAGGING_VIEW_CODES.has(answer.code);
        if (!lagging || attempt >= attempts) return { peer, result: 'refused', status, attempts: attempt, reason };
      }
    } catch (error) {
      // unreachable, reset or timed out: retried
      reason = failureReason(error, timeoutMs);
    }
    if (attempt < attempts) await pause((options.backoffMs ?? 500) * 2 ** (attempt - 1), options.signal);
  }
  return { peer, result: 'failed', status, attempts: attempt, reason: options.signal?.aborted === true ? 'aborted' : reason };
}

/**
 * Publishes this validator's per-miner scores to its peers (`POST /v1/peer-scores`), each request signed over
 * its exact body bytes with a fresh timestamp and nonce (and bound to the peer when its hotkey is given), peers in parallel; a peer that is unreachable or
 * answers 5xx is retried with exponential backoff, and so are 408, 429 and the refusals a peer whose
 * metagraph lags gives (`NOT_REGISTERED`, `PEER_SCORES_EXCEED_METAGRAPH`); any other 4xx answer is final (the
 * peer refused: wrong epoch, other scores already received). Never throws.
 *
 * @param documents - one document per challenge
 * @param options - peers, signer, retry policy
 * @returns one outcome per (document, peer), in order
 * @example await publishPeerScores([{ epoch: 7, challenge_id: 'term', scores }], { peers: ['http://10.0.0.2:8091'], signer })
 */
export async function publishPeerScores(documents: readonly PeerScoresDocument[], options: PeerPublishOptions): Promise<PeerPublishOutcome[]> {
  const jobs = documents.flatMap((doc) => {
    const body = JSON.stringify(doc);
    return options.peers.map((peer) => publishToPeer(peer, body, options));
  });
  return Promise.all(jobs);
}
