import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { createAxon, createSynapse, defineSynapse, synapseValues } from '@subnet/axon';
import type { Axon, Synapse } from '@subnet/axon';
import { recomputeBundle, verifyBundle } from '@subnet/bundle';
import type { QueryRecord } from '@subnet/bundle';
import { connectChain } from '@subnet/chain';
import { deriveDevAccounts, startDevnet } from '@subnet/devnet';
import { signatureVerify, cryptoWaitReady } from '@polkadot/util-crypto';
import { describe, expect, it } from 'vitest';

import type { EpochOutcome } from '../epoch-runner.js';
import { startValidator } from '../service.js';
import { silent, tempDir, testConfig } from './helpers.js';

/*
 * A subnet on the devnet (real WebSocket JSON-RPC) whose miners run axons of @subnet/axon on 127.0.0.1, served
 * at genesis: three honest, one slow (beyond the timeout), three hostile (garbage bytes, a huge body, a wrong
 * shape), one unreachable (a closed port) and one that never served. The validator (real service, SQLite)
 * takes one SSSA task and one workflow task from a task folder, queries every member of each group over real
 * HTTP, and the test ends with weights on chain and a signed bundle that shows every query with its outcome.
 */

const SEED = 'dispatch';
const TIMEOUT_SECONDS = 2.5;

// The subnet's synapse classes, as its Python would declare them.
const SecurityAudit = defineSynapse({
  name: 'SecurityAudit',
  fields: [
    ['task_id', { type: 'str' }],
    ['target', { type: 'str' }],
    ['sssa', { type: { optional: 'any' }, default: null }],
  ],
  requiredHashFields: [],
});
const WorkflowPlan = defineSynapse({
  name: 'WorkflowPlan',
  fields: [
    ['task', { type: { dict: 'any' } }],
    ['plan', { type: { optional: 'any' }, default: null }],
  ],
  requiredHashFields: [],
});
const synapseConfig = (d: typeof SecurityAudit, answer: string) => ({
  name: d.name,
  fields: d.fields.map(([name, spec]) => ({ name, type: spec.type, ...('default' in spec ? { default: spec.default } : {}) })),
  required_hash_fields: [],
  answer_field: answer,
});

const goodSssa = { verdict: 'ALLOW', risk_score: 0.2, findings: [], capabilities: ['fs.read'], dependencies: [], policy: { rules: [] } };
const goodPlan = { nodes: [{ id: 'fetch' }, { id: 'scan' }], edges: [{ from: 'fetch', to: 'scan' }] };

type Behaviour = 'honest' | 'slow' | 'garbage' | 'huge' | 'wrong_shape' | 'unreachable' | 'no_axon';
// uid 0: this validator, uid 1: another validator; miners from uid 2.
const MINERS: readonly Behaviour[] = ['honest', 'honest', 'honest', 'slow', 'garbage', 'huge', 'wrong_shape', 'unreachable', 'no_axon'];
const EXPECTED: Record<Behaviour, { outcome: string; status: number | null }> = {
  honest: { outcome: 'answered', status: 200 },
  slow: { outcome: 'timeout', status: 408 },
  garbage: { outcome: 'garbage', status: 422 },
  huge: { outcome: 'too_large', status: 400 },
  wrong_shape: { outcome: 'invalid_answer', status: 200 },
  unreachable: { outcome: 'unreachable', status: 503 },
  no_axon: { outcome: 'no_axon', status: null },
};

const withAnswer = (definition: typeof SecurityAudit, s: Synapse, field: string, value: unknown): Synapse => ({
  ...s,
  values: createSynapse(definition, { ...synapseValues(s), [field]: value }).values,
});

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve((server.address() as AddressInfo).port);
    });
  });
}
function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => {
      resolve();
    });
  });
}

describe('the validator dispatches tasks to axons (issue 16 item 2) on a real devnet', () => {
  it('queries every group member concurrently, records each outcome, stores honest answers, and lands weights', async () => {
    await cryptoWaitReady();
    const accounts = deriveDevAccounts(SEED, 2 + MINERS.length);
    const validator = accounts[0]?.hotkey;
    if (validator === undefined) throw new Error('no validator account');
    const caller = (hotkey: string) => (hotkey === validator.address ? { validatorPermit: true, stake: 10n ** 13n } : undefined);
    const axons: Axon[] = [];
    const servers: Server[] = [];
    const t = tempDir();
    const plans: unknown[] = [];
    const webhook = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        plans.push({ authorization: req.headers.authorization, body: JSON.parse(body) as unknown });
        res.writeHead(202).end();
      });
    });
    servers.push(webhook);
    const webhookPort = await listen(webhook);
    const ports: (number | null)[] = [];
    for (const [i, behaviour] of MINERS.entries()) {
      const hotkey = accounts[2 + i]?.hotkey.address ?? '';
      if (behaviour === 'no_axon') ports.push(null);
      else if (behaviour === 'unreachable') {
        const probe = createServer();
        const port = await listen(probe);
        await close(probe);
        ports.push(port);
      } else if (behaviour === 'garbage') {
        const raw = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"sssa": [1, 2, <garbage'));
        servers.push(raw);
        ports.push(await listen(raw));
      } else {
        const sssaFor = (): unknown =>
          behaviour === 'huge'
            ? { ...goodSssa, padding: 'x'.repeat(100 * 1024) }
            : behaviour === 'wrong_shape'
              ? { verdict: 'MAYBE', risk_score: 7 }
              : goodSssa;
        const planFor = (): unknown =>
          behaviour === 'huge' ? { ...goodPlan, padding: 'x'.repeat(100 * 1024) } : behaviour === 'wrong_shape' ? { nodes: 'none' } : goodPlan;
        const pause = async (): Promise<void> => {
          if (behaviour === 'slow') await new Promise((r) => setTimeout(r, TIMEOUT_SECONDS * 1000 * 3));
        };
        const axon = await createAxon({
          hotkey,
          port: 0,
          caller,
          handlers: [
            { definition: SecurityAudit, forward: async (s) => (await pause(), withAnswer(SecurityAudit, s, 'sssa', sssaFor())) },
            { definition: WorkflowPlan, forward: async (s) => (await pause(), withAnswer(WorkflowPlan, s, 'plan', planFor())) },
          ],
        });
        axons.push(axon);
        ports.push(axon.port);
      }
    }

    const devnet = await startDevnet({
      seed: SEED,
      neurons: 2 + MINERS.length,
      validators: 2,
      tempo: 360,
      weightsSetRateLimit: 0n,
      blockTime: 100,
      axons: [null, null, ...ports.map((port) => (port === null ? null : { ip: '127.0.0.1', port }))],
    });
    const tasksDir = join(t.dir, 'tasks');
    mkdirSync(join(tasksDir, 'sssa'), { recursive: true });
    mkdirSync(join(tasksDir, 'workflow'), { recursive: true });
    writeFileSync(
      join(tasksDir, 'sssa', 'audit-1.json'),
      JSON.stringify({ task_id: 'audit-1', task_type: 'mcp_server', input: { task_id: 'audit-1', target: 'github.com/example/server' } }),
    );
    writeFileSync(
      join(tasksDir, 'workflow', 'batch.json'),
      JSON.stringify({ tasks: [{ task_id: 'wf-1', input: { task: { task_id: 'wf-1', constraints: { max_budget_tao: 1, max_latency_seconds: 60 } } } }] }),
    );
    process.env.DISPATCH_TEST_WEBHOOK_TOKEN = 'webhook-token-0123456789';
    const config = testConfig(t.dir, {
      validator: { hotkey_uri: accounts[0]?.hotkeyUri },
      chain: { endpoint: devnet.url, epoch_length: 60, poll_ms: 100, commit_store: join(t.dir, 'commits.json') },
      scoring: {
        pipeline: { min_validators: 1, min_stake_fraction: 0 },
        challenges: [
          { id: 'workflow', kind: 'workflow', alpha: 0.3, weight_cap: 1 },
          // Every miner is in the group: 3 primaries by reputation, 6 auditors drawn.
          { id: 'sssa', kind: 'sssa', alpha: 0.6, weight_cap: 1, assignment: { primaries: 3, auditors: 6 } },
        ],
      },
      dispatch: {
        concurrency: 4,
        max_response_bytes: 64 * 1024,
        // The devnet's axons are served on 127.0.0.1.
        allow_private_axons: true,
        executor_webhook: { url: `http://127.0.0.1:${webhookPort}/plans`, token_env: 'DISPATCH_TEST_WEBHOOK_TOKEN' },
        challenges: [
          {
            challenge_id: 'sssa',
            synapse: synapseConfig(SecurityAudit, 'sssa'),
            interval_ms: 300,
            timeout_seconds: TIMEOUT_SECONDS,
            group_size: 9,
            task_source: { folder: join(tasksDir, 'sssa') },
          },
          {
            challenge_id: 'workflow',
            synapse: synapseConfig(WorkflowPlan, 'plan'),
            interval_ms: 300,
            timeout_seconds: TIMEOUT_SECONDS,
            group_size: 9,
            task_source: { folder: join(tasksDir, 'workflow') },
          },
        ],
      },
    });
    const service = await startValidator({ config, logger: silent });
    const reader = await connectChain({ network: devnet.url });
    const outcomes: EpochOutcome[] = [];
    service.onEpoch((o) => outcomes.push(o));
    try {
      // The epoch whose close carries the queries: the first submitted bundle with queries in it.
      const deadline = Date.now() + 200_000;
      let bundle: ReturnType<typeof verifyBundle> | undefined;
      while (bundle === undefined && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        for (const o of outcomes) {
          if (o.status !== 'submitted' || o.bundlePath === null) continue;
          const verified = verifyBundle(JSON.parse(readFileSync(o.bundlePath, 'utf8')), (m, s, a) => signatureVerify(m, s, a).isValid);
          if ((verified.queries?.length ?? 0) > 0) bundle = verified;
        }
      }
      if (bundle === undefined) throw new Error(`no submitted bundle with queries; outcomes: ${JSON.stringify(outcomes.map((o) => o.status))}`);
      // The queries are signed with the bundle and leave its recomputation as it was.
      expect(recomputeBundle(bundle).identical).toBe(true);
      const queries = bundle.queries ?? [];
      // Every member of both groups was queried once, each with the outcome its behaviour calls for.
      expect(queries).toHaveLength(2 * MINERS.length);
      for (const challenge of ['sssa', 'workflow']) {
        const mine = queries.filter((q: QueryRecord) => q.challenge_id === challenge);
        expect(mine.map((q) => q.miner_uid).sort((a, b) => a - b)).toEqual(MINERS.map((_, i) => 2 + i));
        for (const q of mine) {
          const behaviour = MINERS[q.miner_uid - 2] ?? 'no_axon';
          expect({ uid: q.miner_uid, behaviour, outcome: q.outcome, status: q.status_code }).toEqual({
            uid: q.miner_uid,
            behaviour,
            outcome: EXPECTED[behaviour].outcome,
            status: EXPECTED[behaviour].status,
          });
          expect(q.reason === null).toBe(behaviour === 'honest');
          expect(q.record_id !== null).toBe(behaviour === 'honest');
          expect(q.synapse).toBe(challenge === 'sssa' ? 'SecurityAudit' : 'WorkflowPlan');
          expect(q.block_hash).toMatch(/^0x[0-9a-f]{64}$/);
        }
      }
      // The slow axon did not hold up the others: an honest answer took a fraction of the timeout.
      const honestMs = queries.filter((q) => q.outcome === 'answered').map((q) => q.elapsed_ms);
      expect(Math.min(...honestMs)).toBeLessThan(TIMEOUT_SECONDS * 1000);

      // The honest SSSAs went into consensus as records of the task: three members, a consensus computed.
      const inputs = bundle.inputs as { tasks: { task_id: string }[]; sssa_submissions: { miner_uid: number; record_id: string }[] };
      expect(inputs.tasks.map((x) => x.task_id)).toEqual(['audit-1']);
      expect(inputs.sssa_submissions.map((s) => s.miner_uid).sort()).toEqual([2, 3, 4]);
      const answered = queries.filter((q) => q.challenge_id === 'sssa' && q.outcome === 'answered').map((q) => q.record_id);
      expect(inputs.sssa_submissions.map((s) => s.record_id).sort()).toEqual([...answered].sort());

      // The honest plans went to the executor webhook with the task and the bearer token.
      const delivered = plans as { authorization: string; body: { task_id: string; miner_uid: number; plan: unknown; input: unknown; epoch: number } }[];
      expect(delivered.map((p) => p.body.miner_uid).sort()).toEqual([2, 3, 4]);
      for (const p of delivered) {
        expect(p.authorization).toBe('Bearer webhook-token-0123456789');
        expect(p.body).toMatchObject({ task_id: 'wf-1', plan: goodPlan, input: { task: { task_id: 'wf-1' } }, epoch: bundle.epoch });
      }

      // Weights on chain: the honest miners are weighted, no failing miner is.
      const weights = await reader.request('weights', async (api) => {
        const query = api.query.subtensorModule?.weights;
        if (query === undefined) throw new Error('no SubtensorModule.Weights');
        return (await query(devnet.netuid, 0)).toJSON() as [number, number][];
      });
      const weighted = new Set(weights.filter(([, w]) => w > 0).map(([uid]) => uid));
      for (const uid of [2, 3, 4]) expect(weighted.has(uid)).toBe(true);
      for (const uid of [5, 6, 7, 8, 9, 10]) expect(weighted.has(uid)).toBe(false);

      // Metrics count queries by outcome.
      const metrics = await service.metrics.registry.metrics();
      expect(metrics).toContain('validator_dispatch_queries_total{challenge="sssa",outcome="timeout"} 1');
      expect(metrics).toContain('validator_dispatch_queries_total{challenge="sssa",outcome="answered"} 3');
      expect(metrics).toContain('validator_dispatch_plan_deliveries_total{outcome="delivered"} 3');
    } finally {
      delete process.env.DISPATCH_TEST_WEBHOOK_TOKEN;
      await reader.close();
      await service.stop();
      await devnet.stop();
      for (const a of axons) await a.close();
      for (const s of servers) await close(s);
      t.cleanup();
    }
  }, 260_000);
});
