import { redactUrl } from '@subnet/core';
import type { Logger } from 'pino';

import type { EpochOutcome } from './epoch-runner.js';
import type { ValidatorMetrics } from './metrics.js';
import { publishPeerScores } from './peer-publisher.js';
import type { PeerPublishOutcome, PeerScoresDocument, PeerTarget } from './peer-publisher.js';
import type { RequestSigner } from './signed-request.js';
import type { Storage } from './storage.js';

/** Options of {@link createPeerExchange}. */
export interface PeerExchangeOptions {
  /** The peer validators (base URLs, or `{ url, hotkey }` to bind each request to its peer); empty: nothing is published. */
  readonly peers: readonly (string | PeerTarget)[];
  /** This validator's hotkey (the key that signs weights and bundles). */
  readonly signer: RequestSigner;
  /** Where the closed epoch's stored bundle is read from. */
  readonly storage: Pick<Storage, 'getEpoch'>;
  readonly metrics: ValidatorMetrics;
  readonly logger: Logger;
  /** Attempts per peer and document (bounded by the configuration: 1-10), first backoff, per-attempt limit. */
  readonly attempts: number;
  readonly backoffMs: number;
  readonly timeoutMs: number;
}

/** Publishes each closed epoch's own scores to the peers, in the background. */
export interface PeerExchange {
  /** Called with every epoch close: publishes when the close stored a bundle. Never throws, never waits. */
  afterClose(outcome: EpochOutcome): void;
  /** Resolves when every publication started so far has ended. */
  idle(): Promise<void>;
  /** Stops retrying (publications in flight end as `failed`, reason `aborted`) and waits for them. */
  stop(): Promise<void>;
}

/**
 * The peer documents of a stored bundle: per evaluation challenge with own scores, this validator's score of
 * each miner, exactly as the signed bundle of that epoch holds them (`result.challenges[].own_scores`). A
 * challenge without own scores (bounty, or nothing scored) gives no document.
 *
 * @param storedBundle - the epoch row's bundle text (`{ bundle, digest, signature }`)
 * @returns one document per challenge, in the bundle's challenge order
 * @example peerDocumentsOf((await storage.getEpoch(41))?.bundle ?? '')
 */
export function peerDocumentsOf(storedBundle: string): PeerScoresDocument[] {
  const { bundle } = JSON.parse(storedBundle) as {
    bundle: { epoch: number; result: { challenges: { id: string; kind: string; own_scores: { miner_hotkey: string; score: number }[] }[] } };
  };
  return bundle.result.challenges
    .filter((c) => c.kind !== 'bounty' && c.own_scores.length > 0)
    .map((c) => ({ epoch: bundle.epoch, challenge_id: c.id, scores: c.own_scores.map((s) => ({ miner_hotkey: s.miner_hotkey, score: s.score })) }));
}

/**
 * Creates the peer exchange of a validator (issue 16 item 5): after each close that stored its bundle, the
 * epoch's own per-miner scores are sent to every configured peer (`publishPeerScores`: signed over the exact
 * body, retried with backoff, a refusal is final). It runs beside the epoch loop and never fails an epoch:
 * each outcome is counted in `validator_peer_publish_total{result}` and one not delivered is logged with its
 * peer and reason. The receiving peer counts the scores in its close of the next epoch (docs/spec.md G.4).
 *
 * @param options - peers, signer, storage, metrics, logger and the retry policy
 * @returns the exchange
 * @example const peers = createPeerExchange({ peers: ['http://10.0.0.2:8091'], signer: key, storage, metrics, logger, attempts: 4, backoffMs: 500, timeoutMs: 10_000 })
 */
export function createPeerExchange(options: PeerExchangeOptions): PeerExchange {
  const { logger, metrics } = options;
  const controller = new AbortController();
  const running = new Set<Promise<void>>();

  const report = (epoch: number, doc: PeerScoresDocument, outcome: PeerPublishOutcome): void => {
    metrics.peerPublishes.inc({ result: outcome.result });
    const fields = { epoch, challenge: doc.challenge_id, peer: redactUrl(outcome.peer), status: outcome.status, attempts: outcome.attempts };
    if (outcome.result === 'delivered') logger.info({ ...fields, miners: doc.scores.length }, 'peer scores delivered');
    else logger.warn({ ...fields, result: outcome.result, reason: outcome.reason }, `peer scores not delivered (${outcome.result}): ${outcome.reason ?? ''}`);
  };

  const publish = async (epoch: number): Promise<void> => {
    const row = await options.storage.getEpoch(epoch);
    if (row?.bundle == null) return;
    const documents = peerDocumentsOf(row.bundle);
    if (documents.length === 0) return;
    const outcomes = await publishPeerScores(documents, {
      peers: options.peers,
      signer: options.signer,
      attempts: options.attempts,
      backoffMs: options.backoffMs,
      timeoutMs: options.timeoutMs,
      signal: controller.signal,
    });
    // publishPeerScores answers per (document, peer), documents outer.
    outcomes.forEach((outcome, i) => {
      const doc = documents[Math.floor(i / options.peers.length)];
      if (doc !== undefined) report(epoch, doc, outcome);
    });
  };

  return {
    afterClose: (outcome) => {
      // A missed epoch's scores are always too late for a peer in step with the chain (peer-window.ts).
      // An embargoed epoch has its bundle stored (only its file waits): its scores go out as any other's.
      const stored = outcome.bundlePath !== null || outcome.bundleEmbargoed === true;
      if (options.peers.length === 0 || !stored || outcome.status === 'missed' || controller.signal.aborted) return;
      const job = publish(outcome.epoch)
        .catch((error: unknown) => {
          // Reading the stored bundle failed (storage down): nothing was sent; count it as one failure.
          metrics.peerPublishes.inc({ result: 'failed' });
          logger.warn({ epoch: outcome.epoch, error: error instanceof Error ? error.message : String(error) }, 'peer scores not published');
        })
        .finally(() => running.delete(job));
      running.add(job);
    },
    idle: async () => {
      await Promise.all([...running]);
    },
    stop: async () => {
      controller.abort();
      await Promise.all([...running]);
    },
  };
}
