import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The validator's Prometheus metrics (one registry per service instance). */
export interface ValidatorMetrics {
  readonly registry: Registry;
  /** Records accepted, by kind (`workflow_run`, `sssa`, ...) and outcome (`inserted`, `duplicate`). */
  readonly recordsAccepted: Counter<'kind' | 'outcome'>;
  /** Records rejected, by kind and reason (`unauthorized`, `bad_signature`, `stale_timestamp`, ...). */
  readonly recordsRejected: Counter<'kind' | 'reason'>;
  /** Signed requests whose signature verified, by whether they name their receiver (`binding`: `receiver` or `none`). */
  readonly signedRequests: Counter<'kind' | 'binding'>;
  /** Seconds from an epoch's close to its bundle, by outcome. */
  readonly epochDuration: Histogram<'outcome'>;
  /** Weight submissions, by outcome (`submitted`, `dry_run`, `failed`, `preflight_failed`, `unknown`, `skipped`, `awaiting_finality`, ...). */
  readonly submissions: Counter<'outcome'>;
  /** Ended epochs with records closed too late to submit (status `missed`). */
  readonly missedEpochs: Counter;
  /** 1 while this instance holds the leader lease (HA on PostgreSQL; always 1 on SQLite), else 0. */
  readonly leaseHolder: Gauge;
  /** Times this instance took the lease over from another holder (fencing token above 1). */
  readonly leaseTakeovers: Counter;
  /**
   * Commit-reveal reveals recorded after the fact (reveal-confirm.ts; v4 from the chain, v2 from this validator's own
   * reveal, docs/spec.md G.22), by outcome (`revealed`,
   * `not_revealed`: the chain dropped the commit, `unconfirmed`: the chain state contradicts the commit) and
   * reason (`not_revealed`: the first likely reason, `expired`, `version_key_raised`, `stake_lost`,
   * `pulse_missing`, `hotkey_swapped`, ...; `unconfirmed`: the chain error code; `uid_replaced`: `VALIDATOR_UID_REPLACED`, the
   * validator's uid was taken by a registration in the reveal block; empty for `revealed`).
   */
  readonly revealConfirmations: Counter<'outcome' | 'reason'>;
  /** Chain reconnects seen. */
  readonly chainReconnects: Counter;
  /** Connections closed on arrival because their source already held `server.max_connections_per_source`. */
  readonly connectionsRefused: Counter;
  /** Chain head reads that failed. */
  readonly chainErrors: Counter;
  /** The last chain head block read (it falls when the node was reset or reaches another chain). */
  readonly chainHead: Gauge;
  /** Unix time (s) the chain head block last changed: `time() - validator_chain_head_changed_timestamp_seconds` is its age. */
  readonly chainHeadChanged: Gauge;
  /** Own scores sent to peer validators, per (document, peer), by result (`delivered`, `refused`, `failed`). */
  readonly peerPublishes: Counter<'result'>;
  /** Axon queries sent by the dispatcher, by challenge and outcome (`answered`, `timeout`, `unreachable`, ...). */
  readonly dispatchQueries: Counter<'challenge' | 'outcome'>;
  /** Tasks taken from task sources, by challenge and outcome (`dispatched`, `rejected`, `source_error`). */
  readonly dispatchTasks: Counter<'challenge' | 'outcome'>;
  /** Workflow plans sent to the executor webhook, by outcome (`delivered`, `failed`). */
  readonly dispatchPlanDeliveries: Counter<'outcome'>;
  /**
   * Rate-limit buckets the signed endpoints hold (one per registered signer active in the last minute; an
   * unregistered signer never gets one), as of the last signed request that reached the limiter.
   */
  readonly signerRateBuckets: Gauge;
}

/**
 * Creates the metrics on a fresh registry.
 *
 * @returns the metrics
 * @example const metrics = createMetrics(); metrics.submissions.inc({ outcome: 'submitted' })
 */
export function createMetrics(): ValidatorMetrics {
  const registry = new Registry();
  return {
    registry,
    recordsAccepted: new Counter({
      name: 'validator_records_accepted_total',
      help: 'Records accepted',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    }),
    recordsRejected: new Counter({ name: 'validator_records_rejected_total', help: 'Records rejected', labelNames: ['kind', 'reason'], registers: [registry] }),
    signedRequests: new Counter({
      name: 'validator_signed_requests_total',
      help: 'Signed requests whose signature verified, by binding (receiver: bound to this validator; none: replayable to another validator)',
      labelNames: ['kind', 'binding'],
      registers: [registry],
    }),
    epochDuration: new Histogram({
      name: 'validator_epoch_duration_seconds',
      help: 'Epoch close to bundle',
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [registry],
    }),
    submissions: new Counter({ name: 'validator_submissions_total', help: 'Weight submissions', labelNames: ['outcome'], registers: [registry] }),
    missedEpochs: new Counter({ name: 'validator_missed_epochs_total', help: 'Ended epochs with records closed too late to submit', registers: [registry] }),
    leaseHolder: new Gauge({ name: 'validator_lease_holder', help: '1 while this instance holds the leader lease', registers: [registry] }),
    leaseTakeovers: new Counter({ name: 'validator_lease_takeovers_total', help: 'Leader lease takeovers by this instance', registers: [registry] }),
    revealConfirmations: new Counter({
      name: 'validator_reveal_confirmations_total',
      help: 'Commit-reveal reveals (v4 by the chain, v2 by this validator) recorded after the fact, by outcome and likely reason',
      labelNames: ['outcome', 'reason'],
      registers: [registry],
    }),
    chainReconnects: new Counter({ name: 'validator_chain_reconnects_total', help: 'Chain reconnects', registers: [registry] }),
    connectionsRefused: new Counter({
      name: 'validator_connections_refused_total',
      help: 'Connections closed on arrival: their source already held server.max_connections_per_source',
      registers: [registry],
    }),
    chainErrors: new Counter({ name: 'validator_chain_errors_total', help: 'Chain head reads that failed', registers: [registry] }),
    chainHead: new Gauge({ name: 'validator_chain_head_block', help: 'The last chain head block read', registers: [registry] }),
    chainHeadChanged: new Gauge({
      name: 'validator_chain_head_changed_timestamp_seconds',
      help: 'Unix time the chain head block last changed (its age: time() minus this)',
      registers: [registry],
    }),
    peerPublishes: new Counter({
      name: 'validator_peer_publish_total',
      help: 'Own scores sent to peer validators, per document and peer',
      labelNames: ['result'],
      registers: [registry],
    }),
    dispatchQueries: new Counter({
      name: 'validator_dispatch_queries_total',
      help: 'Axon queries by challenge and outcome',
      labelNames: ['challenge', 'outcome'],
      registers: [registry],
    }),
    dispatchTasks: new Counter({
      name: 'validator_dispatch_tasks_total',
      help: 'Dispatch tasks by challenge and outcome',
      labelNames: ['challenge', 'outcome'],
      registers: [registry],
    }),
    dispatchPlanDeliveries: new Counter({
      name: 'validator_dispatch_plan_deliveries_total',
      help: 'Workflow plans sent to the executor webhook',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    signerRateBuckets: new Gauge({
      name: 'validator_signer_rate_buckets',
      help: 'Rate-limit buckets held for signers of the signed endpoints (registered signers active in the last minute)',
      registers: [registry],
    }),
  };
}
