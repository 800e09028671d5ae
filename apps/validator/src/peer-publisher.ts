import { randomBytes } from 'node:crypto';

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
  /** `delivered` (2xx), `refused` (4xx: not retried, the peer said no) or `failed` (unreachable or 5xx after every attempt). */
  readonly result: 'delivered' | 'refused' | 'failed';
  /** The last HTTP status, or `null` when the peer never answered. */
  readonly status: number | null;
  readonly attempts: number;
}

/** Options of {@link publishPeerScores}. */
export interface PeerPublishOptions {
  /** Base URLs of the peer validators (`http://10.0.0.2:8091`). */
  readonly peers: readonly string[];
  /** This validator's hotkey (the same key that signs weights and bundles). */
  readonly signer: RequestSigner;
  /** Attempts per peer (default 4) and the first backoff (default 500 ms, doubled each time). */
  readonly attempts?: number;
  readonly backoffMs?: number;
  /** Per-attempt time limit (default 10 s). */
  readonly timeoutMs?: number;
}

async function publishToPeer(peer: string, body: string, options: PeerPublishOptions): Promise<PeerPublishOutcome> {
  const attempts = options.attempts ?? 4;
  let status: number | null = null;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const headers = signRequest(options.signer, {
      method: 'POST',
      path: '/v1/peer-scores',
      body,
      timestamp: Date.now(),
      nonce: randomBytes(16).toString('hex'),
    });
    try {
      const res = await fetch(`${peer.replace(/\/+$/, '')}/v1/peer-scores`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      await res.arrayBuffer();
      status = res.status;
      if (res.ok) return { peer, result: 'delivered', status, attempts: attempt };
      if (res.status >= 400 && res.status < 500) return { peer, result: 'refused', status, attempts: attempt };
    } catch {
      // unreachable, reset or timed out: retried
    }
    if (attempt < attempts) await new Promise((r) => setTimeout(r, (options.backoffMs ?? 500) * 2 ** (attempt - 1)));
  }
  return { peer, result: 'failed', status, attempts };
}

/**
 * Publishes this validator's per-miner scores to its peers (`POST /v1/peer-scores`), each request signed over
 * its exact body bytes with a fresh timestamp and nonce, peers in parallel; a peer that is unreachable or
 * answers 5xx is retried with exponential backoff, a 4xx answer is final (the peer refused: wrong epoch,
 * already received, not registered). Never throws.
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
