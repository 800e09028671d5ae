import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { isSubnetError } from '@subnet/core';
import { listenLocal, writeEndlessly } from '@subnet/vitest-config/local-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { defaultConfigYaml, redactConfig } from '../config.js';
import { createPlanOutbox } from '../dispatch/plan-webhook.js';
import { createLimiter } from '../dispatch/limiter.js';
import { answerProblem, failedCall, MAX_REASON_LENGTH, reasonText } from '../dispatch/query-outcome.js';
import { folderTaskSource, httpTaskSource, MAX_TASK_SOURCE_BYTES } from '../dispatch/task-source.js';
import { createMetrics } from '../metrics.js';
import { startValidator } from '../service.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import { createWriteQueue } from '../write-queue.js';
import { fakeChain, keys, silent, tempDir, testConfig } from './helpers.js';

function codeOf(fn: () => unknown): { code: string; path: unknown } {
  try {
    fn();
  } catch (error) {
    if (isSubnetError(error)) return { code: error.code, path: error.context.path };
    throw error;
  }
  throw new Error('expected an error');
}

const sssaSynapse = {
  name: 'SecurityAudit',
  fields: [
    { name: 'target', type: 'str' },
    { name: 'sssa', type: { optional: 'any' }, default: null },
  ],
  answer_field: 'sssa',
};
const dispatchSection = (over: Record<string, unknown> = {}) => ({
  challenges: [{ challenge_id: 'sssa', synapse: sssaSynapse, task_source: { folder: './tasks' }, ...over }],
});

/** A workflow plan as the dispatcher stores it. */
const samplePlan = (recordId: string) => ({
  record_id: recordId,
  challenge_id: 'workflow',
  task_id: 'wf-1',
  task_type: 'workflow',
  miner_hotkey: 'x',
  miner_uid: 2,
  input: {},
  plan: { nodes: [{ id: 'a' }] },
});

/** A plan outbox on a real SQLite file, posting to `url` with no pause between attempts. */
function outboxFor(url: string, storage: ReturnType<typeof openSqliteStorage>, webhook: { timeoutMs: number; attempts: number }) {
  const queue = createWriteQueue(storage);
  const metrics = createMetrics();
  const outbox = createPlanOutbox({ webhook: { url, ...webhook }, storage, queue, metrics, logger: silent, backoffMs: () => 1 });
  return { outbox, queue, metrics };
}

/** 1 MiB: what a server answering with an endless body writes every 10 ms. */
const MiB = 'x'.repeat(1 << 20);

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => {
  t.cleanup();
});

describe('dispatch configuration (dispatch/dispatch-config.ts)', () => {
  it('is off unless configured; a section gets its defaults (12 s timeout, group = the sssa draw)', () => {
    expect(testConfig(t.dir).dispatch).toBeUndefined();
    const config = testConfig(t.dir, { dispatch: dispatchSection() });
    expect(config.dispatch).toMatchObject({ concurrency: 16, max_response_bytes: 1024 * 1024, allow_private_axons: false });
    expect(config.dispatch?.challenges[0]).toMatchObject({ interval_ms: 12_000, tasks_per_round: 1, timeout_seconds: 12 });
  });

  it('refuses what cannot run, naming the path: unknown or undispatchable challenge, wrong group size, no webhook, answer without default', () => {
    expect(codeOf(() => testConfig(t.dir, { dispatch: dispatchSection({ challenge_id: 'nope' }) }))).toEqual({
      code: 'VALIDATOR_INVALID_CONFIG',
      path: 'dispatch.challenges[0].challenge_id',
    });
    expect(codeOf(() => testConfig(t.dir, { dispatch: dispatchSection({ challenge_id: 'bounty' }) })).path).toBe('dispatch.challenges[0].challenge_id');
    // The helpers' sssa challenge draws 3 primaries + 2 auditors.
    expect(codeOf(() => testConfig(t.dir, { dispatch: dispatchSection({ group_size: 4 }) })).path).toBe('dispatch.challenges[0].group_size');
    expect(testConfig(t.dir, { dispatch: dispatchSection({ group_size: 5 }) }).dispatch?.challenges[0]?.group_size).toBe(5);
    expect(codeOf(() => testConfig(t.dir, { dispatch: dispatchSection({ challenge_id: 'workflow' }) })).path).toBe('dispatch.executor_webhook');
    const noDefault = {
      ...sssaSynapse,
      fields: [
        { name: 'target', type: 'str' },
        { name: 'sssa', type: 'any' },
      ],
    };
    expect(codeOf(() => testConfig(t.dir, { dispatch: dispatchSection({ synapse: noDefault }) })).path).toBe('dispatch.challenges[0].synapse.answer_field');
    expect(codeOf(() => testConfig(t.dir, { dispatch: dispatchSection({ timeout_seconds: 0 }) })).path).toBe('dispatch.challenges[0].timeout_seconds');
  });

  it("the README's example and the init file's commented section are valid configurations", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Dispatching tasks to axons'));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const example = parseYaml(yaml) as { dispatch: unknown };
    const config = testConfig(t.dir, { dispatch: example.dispatch });
    expect(config.dispatch?.challenges.map((c) => [c.challenge_id, 'folder' in c.task_source ? 'folder' : 'url'])).toEqual([
      ['sssa', 'folder'],
      ['workflow', 'url'],
    ]);
    const init = defaultConfigYaml();
    const commented = init
      .slice(init.indexOf('# dispatch:'))
      .split('\n')
      .filter((line) => line.startsWith('# '))
      .map((line) => line.slice(2))
      .join('\n');
    const fromInit = parseYaml(commented) as { dispatch: unknown };
    expect(testConfig(t.dir, { dispatch: fromInit.dispatch }).dispatch?.challenges[0]?.synapse.name).toBe('SecurityAudit');
  });

  it('logs no credentials of task endpoints and webhooks', () => {
    const config = testConfig(t.dir, {
      dispatch: {
        executor_webhook: { url: 'https://user:secret@executor.example/plans' },
        challenges: [{ challenge_id: 'sssa', synapse: sssaSynapse, task_source: { url: 'https://bot:hunter2@tasks.example/next?token=task-token-abc' } }],
      },
    });
    // The configuration names paths in the test's temporary folder, whose random name could hold a short word.
    const text = JSON.stringify(redactConfig(config));
    expect(text).not.toContain('secret');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('task-token-abc');
    expect(text).toContain('tasks.example');
  });

  it('a token_env that is not set stops start-up with a coded error naming it', async () => {
    const k = await keys();
    const config = testConfig(t.dir, {
      dispatch: dispatchSection({ task_source: { url: 'http://127.0.0.1:9/tasks', token_env: 'DISPATCH_TEST_UNSET_TOKEN' } }),
    });
    const chain = fakeChain(k);
    await expect(startValidator({ config, chain, logger: silent, autoTick: false })).rejects.toMatchObject({
      code: 'VALIDATOR_INVALID_CONFIG',
      context: { path: 'dispatch.challenges[0].task_source.token_env', value: 'DISPATCH_TEST_UNSET_TOKEN' },
    });
    expect(chain.closed).toBe(true);
  });
});

describe('query outcomes (docs/spec.md G.6 "Queries")', () => {
  it("maps the dendrite's status codes to coded outcomes, the SDK's table", () => {
    expect(failedCall(408, 'Request timeout after 2.5 seconds')).toEqual({ outcome: 'timeout', reason: '408 Request timeout after 2.5 seconds' });
    expect(failedCall(503, 'Service unavailable at 127.0.0.1:1/X').outcome).toBe('unreachable');
    expect(failedCall(403, 'Forbidden. Key is blacklisted').outcome).toBe('refused');
    expect(failedCall(401, 'Not Verified').outcome).toBe('refused');
    expect(failedCall(400, 'Payload error: the response exceeds 1024 bytes').outcome).toBe('too_large');
    expect(failedCall(422, 'Failed to parse response: Unexpected token').outcome).toBe('garbage');
    // The axon's own 422 (a FastAPI body error) or 400 is the axon's error, not an unreadable answer.
    expect(failedCall(422, null).outcome).toBe('axon_error');
    expect(failedCall(400, 'Bad request').outcome).toBe('axon_error');
    expect(failedCall(500, 'Internal Server Error #1').outcome).toBe('axon_error');
    expect(failedCall(404, "Synapse name 'X' not found").outcome).toBe('axon_error');
  });

  it("keeps a hostile axon's message bounded and well-formed", () => {
    expect(reasonText('x'.repeat(10_000))).toHaveLength(MAX_REASON_LENGTH);
    expect(reasonText('a\uD800b')).toBe('a\uFFFDb');
    expect(failedCall(500, 'y'.repeat(600)).reason.length).toBe(MAX_REASON_LENGTH);
  });

  it("checks an answer against its challenge's schema before it is stored", () => {
    const sssa = { verdict: 'ALLOW', risk_score: 0.1, findings: [], capabilities: [], dependencies: [], policy: { rules: [] } };
    expect(answerProblem('sssa', sssa, 'sssa')).toBeUndefined();
    expect(answerProblem('sssa', null, 'sssa')).toBe('the answer field sssa is empty');
    expect(answerProblem('sssa', { ...sssa, verdict: 'MAYBE' }, 'sssa')).toMatch(/^CONSENSUS_/);
    // An integer beyond 2^53 comes from the dendrite as a bigint: UNSAFE_NUMBER, as at ingest (docs/spec.md G.6).
    expect(answerProblem('sssa', { ...sssa, big: 2n ** 70n }, 'sssa')).toMatch(/^UNSAFE_NUMBER: .* at sssa\.big \(got 1180591620717411303424\)$/);
    let deep: unknown = 1;
    for (let i = 0; i < 80; i += 1) deep = [deep];
    expect(answerProblem('sssa', { ...sssa, deep }, 'sssa')).toMatch(/^CORE_INPUT_TOO_DEEP/);
    expect(answerProblem('workflow', { nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] }, 'plan')).toBeUndefined();
    expect(
      answerProblem(
        'workflow',
        {
          nodes: [{ id: 'a' }, { id: 'b' }],
          edges: [
            { from: 'a', to: 'b' },
            { from: 'b', to: 'a' },
          ],
        },
        'plan',
      ),
    ).toMatch(/^invalid workflow plan: .*cycle/);
  });
});

describe('task sources', () => {
  it('a folder: files by name, one task or { tasks }, unusable entries reported, dispatched ones and repeats skipped, at most limit', async () => {
    const dir = join(t.dir, 'tasks');
    mkdirSync(dir);
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ tasks: [{ task_id: 't2', input: { target: 'x' } }, { task_id: 't3' }, { task_id: '' }] }));
    writeFileSync(join(dir, 'a.json'), '{"task_id": "t1", "task_type": "mcp_server", "input": {"target": "y", "__proto__": "data"}}');
    writeFileSync(join(dir, 'c.json'), '{ not json');
    writeFileSync(join(dir, 'd.json'), JSON.stringify({ task_id: 't1' }));
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    const source = folderTaskSource(dir);
    const batch = await source.next({ epoch: 1, limit: 10, dispatched: (id) => Promise.resolve(id === 't3') });
    expect(batch.tasks.map((x) => x.task_id)).toEqual(['t1', 't2']);
    expect(Object.hasOwn(batch.tasks[0]?.input ?? {}, '__proto__')).toBe(true);
    expect(batch.problems).toHaveLength(3);
    expect(batch.problems[0]).toMatch(/^b\.json: .* at task\.tasks\[2\]\.task_id$/);
    expect(batch.problems[1]).toMatch(/^c\.json: /);
    expect(batch.problems[2]).toMatch(/task t1 is listed twice/);
    const one = await source.next({ epoch: 1, limit: 1, dispatched: () => Promise.resolve(false) });
    expect(one.tasks.map((x) => x.task_id)).toEqual(['t1']);
  });

  it('an HTTP endpoint: GET with challenge_id, epoch, limit and the bearer token; 204 is none; anything else fails the round', async () => {
    const seen: IncomingMessage[] = [];
    let answer: { status: number; body: string } = { status: 200, body: JSON.stringify({ tasks: [{ task_id: 'h1' }, { task_id: 'h2' }, { bad: true }] }) };
    const server: Server = createServer((req, res) => {
      seen.push(req);
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
    await new Promise<void>((resolve) => {
      server.listen(0, '127.0.0.1', () => {
        resolve();
      });
    });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/next`;
      const source = httpTaskSource({ url, challengeId: 'sssa', token: 'tok-123', timeoutMs: 5000 });
      const batch = await source.next({ epoch: 7, limit: 5, dispatched: (id) => Promise.resolve(id === 'h1') });
      expect(batch.tasks.map((x) => x.task_id)).toEqual(['h2']);
      expect(batch.problems).toHaveLength(1);
      expect(seen[0]?.url).toBe('/next?challenge_id=sssa&epoch=7&limit=5');
      expect(seen[0]?.headers.authorization).toBe('Bearer tok-123');
      answer = { status: 204, body: '' };
      expect((await source.next({ epoch: 7, limit: 5, dispatched: () => Promise.resolve(false) })).tasks).toEqual([]);
      answer = { status: 500, body: '{}' };
      await expect(source.next({ epoch: 7, limit: 5, dispatched: () => Promise.resolve(false) })).rejects.toThrow(/answered 500/);
      answer = { status: 200, body: '[1, 2]' };
      await expect(source.next({ epoch: 7, limit: 5, dispatched: () => Promise.resolve(false) })).rejects.toThrow(/did not answer \{ "tasks"/);
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    }
  });

  it('an HTTP endpoint whose 200 never ends fails the round as too large once it passes 16 MiB, not at the timeout (the rest is not read)', async () => {
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
});

describe('bounded concurrency and the plan outbox', () => {
  it('the limiter never runs more than its limit at once and runs everything', async () => {
    const limiter = createLimiter(3);
    let active = 0;
    let peak = 0;
    const runs = Array.from({ length: 10 }, (_, i) =>
      limiter.run(async () => {
        active += 1;
        peak = Math.max(peak, active);
        expect(limiter.active()).toBeLessThanOrEqual(3);
        await new Promise((r) => setTimeout(r, 5));
        active -= 1;
        if (i === 4) throw new Error('a failing task frees its slot too');
        return i;
      }),
    );
    const settled = await Promise.allSettled(runs);
    expect(settled.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual([0, 1, 2, 3, 'failed', 5, 6, 7, 8, 9]);
    expect(peak).toBe(3);
    expect(limiter.active()).toBe(0);
  });

  it('a plan whose webhook fails is stored undelivered and sent again by retry; delivery is recorded once it lands', async () => {
    const storage = openSqliteStorage(join(t.dir, 'outbox.sqlite'));
    let failing = true;
    const received: unknown[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(failing ? 503 : 200).end();
      });
    });
    await new Promise<void>((resolve) => {
      server.listen(0, '127.0.0.1', () => {
        resolve();
      });
    });
    try {
      const { outbox, queue, metrics } = outboxFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}/plans`, storage, {
        timeoutMs: 5000,
        attempts: 2,
      });
      const plan = samplePlan('plan-1');
      await queue.submit({ kind: 'workflow_plan', recordId: 'plan-1', epoch: 4, body: JSON.stringify(plan), digest: 'd' });
      outbox.deliver(plan, 4);
      await outbox.settle();
      expect(received).toHaveLength(2);
      expect(await storage.findRecord('plan_delivery', 'plan-1')).toBeUndefined();
      expect(await metrics.registry.metrics()).toContain('validator_dispatch_plan_deliveries_total{outcome="failed"} 1');
      failing = false;
      await outbox.retry(4);
      await outbox.settle();
      expect(received).toHaveLength(3);
      expect(received[2]).toEqual({ epoch: 4, ...plan });
      expect(await storage.findRecord('plan_delivery', 'plan-1')).toBeDefined();
      await outbox.retry(4);
      await outbox.settle();
      expect(received).toHaveLength(3);
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
      await storage.close();
    }
  });

  it('an executor webhook whose 200 never ends has the plan delivered at once (its body is not read), recorded and not sent again', async () => {
    let requests = 0;
    const server = await listenLocal((request, response) => {
      requests += 1;
      request.resume();
      response.writeHead(200, { 'content-type': 'application/json' });
      writeEndlessly(response, MiB);
    });
    const storage = openSqliteStorage(join(t.dir, 'outbox.sqlite'));
    try {
      const { outbox, queue, metrics } = outboxFor(`${server.url}/plans`, storage, { timeoutMs: 120_000, attempts: 3 });
      const plan = samplePlan('plan-endless');
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
