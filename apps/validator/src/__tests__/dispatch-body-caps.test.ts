import { join } from 'node:path';

import { listenLocal, writeEndlessly } from '@subnet/vitest-config/local-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createPlanOutbox } from '../dispatch/plan-webhook.js';
import { httpTaskSource, MAX_TASK_SOURCE_BYTES } from '../dispatch/task-source.js';
import { createMetrics } from '../metrics.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import { createWriteQueue } from '../write-queue.js';
import { silent, tempDir } from './helpers.js';

/**
 * The dispatcher's two HTTP clients read no more of an answer than they need: a task endpoint's answer is
 * refused once it passes MAX_TASK_SOURCE_BYTES, whether or not it declares a length, and the executor
 * webhook's answer is judged by its status alone. A server that answers with an endless body (1 MiB every
 * 10 ms here) can then neither grow the validator's memory nor hold a round until the timeout, which is
 * set far beyond the test's own.
 */
const MiB = 'x'.repeat(1 << 20);
let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => {
  t.cleanup();
});

describe('endless answers to the dispatcher', () => {
  it('a task endpoint whose 200 never ends fails the round as too large once it passes the limit, not at the timeout', async () => {
    const server = await listenLocal((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"tasks":["');
      writeEndlessly(response, MiB);
    });
    try {
      const source = httpTaskSource({ url: `${server.url}/next`, challengeId: 'sssa', timeoutMs: 120_000 });
      await expect(source.next({ epoch: 1, limit: 5, dispatched: () => Promise.resolve(false) })).rejects.toThrow(
        `the task endpoint ${server.url}/next answered more than ${MAX_TASK_SOURCE_BYTES} bytes`,
      );
    } finally {
      await server.close();
    }
  }, 60_000);

  it('an executor webhook whose 200 never ends has the plan delivered at once, recorded and not sent again', async () => {
    let requests = 0;
    const server = await listenLocal((request, response) => {
      requests += 1;
      request.resume();
      response.writeHead(200, { 'content-type': 'application/json' });
      writeEndlessly(response, MiB);
    });
    const storage = openSqliteStorage(join(t.dir, 'outbox.sqlite'));
    try {
      const queue = createWriteQueue(storage);
      const metrics = createMetrics();
      const outbox = createPlanOutbox({
        webhook: { url: `${server.url}/plans`, timeoutMs: 120_000, attempts: 3 },
        storage,
        queue,
        metrics,
        logger: silent,
        backoffMs: () => 1,
      });
      const plan = {
        record_id: 'plan-endless',
        challenge_id: 'workflow',
        task_id: 'wf-1',
        task_type: 'workflow',
        miner_hotkey: 'x',
        miner_uid: 2,
        input: {},
        plan: { nodes: [{ id: 'a' }] },
      };
      await queue.submit({ kind: 'workflow_plan', recordId: plan.record_id, epoch: 4, body: JSON.stringify(plan), digest: 'd' });
      outbox.deliver(plan, 4);
      await outbox.settle();
      expect(await storage.findRecord('plan_delivery', plan.record_id)).toBeDefined();
      expect(await metrics.registry.metrics()).toContain('validator_dispatch_plan_deliveries_total{outcome="delivered"} 1');
      await outbox.retry(4);
      await outbox.settle();
      expect(requests).toBe(1);
    } finally {
      await server.close();
      await storage.close();
    }
  }, 60_000);
});
