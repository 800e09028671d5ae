import { redactUrl } from '@subnet/core';
import type { Logger } from 'pino';

import { discardBody } from '../http-body.js';
import type { ValidatorMetrics } from '../metrics.js';
import type { Storage } from '../storage.js';
import type { WriteQueue } from '../write-queue.js';
import type { PlanBody } from './dispatch-records.js';
import { newRecord } from './dispatch-records.js';

/** Where workflow plans go: the executor's webhook. */
export interface PlanWebhook {
  readonly url: string;
  readonly token?: string;
  readonly timeoutMs: number;
  readonly attempts: number;
}

/**
 * The durable outbox of workflow plans: a plan is stored (`workflow_plan`) before it is sent; once the
 * executor's webhook answers 2xx a `plan_delivery` record is stored; plans of the current epoch without one
 * are sent again on later rounds. Delivery is at least once: the executor deduplicates by `record_id`.
 */
export interface PlanOutbox {
  /** Sends a stored plan now (in the background; failures are retried by {@link PlanOutbox.retry}). */
  deliver(plan: PlanBody, epoch: number): void;
  /** Sends again every stored plan of `epoch` that has no delivery record. */
  retry(epoch: number): Promise<void>;
  /** Resolves when every delivery started so far has finished. */
  settle(): Promise<void>;
}

/** What the outbox uses. */
export interface PlanOutboxDeps {
  readonly webhook: PlanWebhook;
  readonly storage: Storage;
  readonly queue: WriteQueue;
  readonly metrics: ValidatorMetrics;
  readonly logger: Logger;
  /** Pause between attempts (ms); default 250 × 2^attempt. */
  readonly backoffMs?: (attempt: number) => number;
}

/**
 * Creates the plan outbox that POSTs each plan to the executor webhook: JSON `{ epoch, record_id,
 * challenge_id, task_id, task_type, miner_hotkey, miner_uid, input, plan }`, `Authorization: Bearer <token>`
 * when configured, up to `attempts` tries with exponential backoff.
 *
 * @param deps - webhook, storage, write queue, metrics, logger
 * @returns the outbox
 * @example const outbox = createPlanOutbox({ webhook, storage, queue, metrics, logger }); outbox.deliver(plan, epoch)
 */
export function createPlanOutbox(deps: PlanOutboxDeps): PlanOutbox {
  const inFlight = new Map<string, Promise<void>>();
  const backoff = deps.backoffMs ?? ((attempt: number) => 250 * 2 ** attempt);
  const where = redactUrl(deps.webhook.url);

  const send = async (plan: PlanBody, epoch: number): Promise<void> => {
    let last = '';
    for (let attempt = 0; attempt < deps.webhook.attempts; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, backoff(attempt - 1)));
      try {
        const response = await fetch(deps.webhook.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(deps.webhook.token === undefined ? {} : { authorization: `Bearer ${deps.webhook.token}` }),
          },
          body: JSON.stringify({ epoch, ...plan }),
          signal: AbortSignal.timeout(deps.webhook.timeoutMs),
        });
        // The status is the answer: the body is not read (an endless one would hold the plan until the timeout).
        await discardBody(response);
        if (response.status >= 200 && response.status < 300) {
          await deps.queue.submit(newRecord('plan_delivery', plan.record_id, epoch, { record_id: plan.record_id, status: response.status }));
          deps.metrics.dispatchPlanDeliveries.inc({ outcome: 'delivered' });
          return;
        }
        last = `HTTP ${response.status}`;
      } catch (error) {
        last = (error as Error).message;
      }
    }
    deps.metrics.dispatchPlanDeliveries.inc({ outcome: 'failed' });
    deps.logger.warn(
      { record: plan.record_id, webhook: where, error: redactUrl(last) },
      'workflow plan not delivered to the executor; retried on the next round',
    );
  };

  const deliver = (plan: PlanBody, epoch: number): void => {
    if (inFlight.has(plan.record_id)) return;
    const p = send(plan, epoch)
      .catch((error: unknown) => {
        deps.logger.warn({ record: plan.record_id, error: (error as Error).message }, 'workflow plan delivery failed');
      })
      .finally(() => inFlight.delete(plan.record_id));
    inFlight.set(plan.record_id, p);
  };

  return {
    deliver,
    retry: async (epoch) => {
      const records = await deps.storage.records(epoch);
      const delivered = new Set(records.filter((r) => r.kind === 'plan_delivery').map((r) => r.recordId));
      for (const r of records) if (r.kind === 'workflow_plan' && !delivered.has(r.recordId)) deliver(JSON.parse(r.body) as PlanBody, epoch);
    },
    settle: async () => {
      while (inFlight.size > 0) await Promise.all([...inFlight.values()]);
    },
  };
}
