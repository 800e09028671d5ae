import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { assignTask } from '@subnet/consensus';
import { describe, expect, it } from 'vitest';

import type { ValidatorService } from '../service.js';
import { signRequest } from '../signed-request.js';
import type { FakeChain, Keys } from './helpers.js';
import {
  fakeChain,
  nonce,
  PG_SKIP_REASON,
  PG_URL,
  postExecutor,
  postSigned,
  requirePostgresInCi,
  scoring,
  setupValidator,
  smallGroups,
  sssaDoc,
  useCleanups,
  useKeys,
  workflowBody,
} from './helpers.js';

requirePostgresInCi();

const k = useKeys();

const cleanups = useCleanups();

async function start(options: { postgres?: boolean; scoring?: unknown } = {}): Promise<{ service: ValidatorService; chain: FakeChain; dir: string }> {
  const { start: startOn, dir } = await setupValidator(cleanups, options.postgres === true, { scoring: options.scoring ?? smallGroups });
  const chain = fakeChain(k);
  return { service: await startOn(chain), chain, dir };
}

const json = async (res: Response) =>
  (await res.json()) as {
    error?: { code: string; path?: string };
    group?: { hotkey: string; role: string; uid: number }[];
    block_hash?: string;
    seed?: string;
    epoch?: number;
  };

describe('tasks and roles come from the validator (SPEC B, docs/spec.md G.3)', () => {
  it('task assignment: POST /v1/tasks records the finalized block hash and answers the group drawn from the candidate snapshot', async () => {
    const { service, chain } = await start();
    const res = await postExecutor(service.url, '/v1/tasks', { task_id: 'audit-1', task_type: 'mcp_server' });
    expect(res.status).toBe(201);
    const answer = await json(res);
    const blockHash = `0x${chain.headBlock.toString(16).padStart(64, '0')}`;
    expect(answer.block_hash).toBe(blockHash);
    // The reference: the draw over the four miners (no validator permit) at the initial reputation.
    const expected = assignTask({
      taskId: 'audit-1',
      taskType: 'mcp_server',
      blockHash,
      candidates: k.miners.map((m, i) => ({ uid: i + 2, hotkey: m.address })),
      reputations: null,
      primaries: 1,
      auditors: 1,
    });
    expect(answer.group?.map((m) => [m.hotkey, m.role])).toEqual(expected.members.map((m) => [m.hotkey, m.role]));
    expect(answer.seed).toBe(expected.seed);
    const lookedUp = await json(await fetch(`${service.url}/v1/tasks/audit-1`));
    expect(lookedUp.group).toEqual(answer.group);
  });

  it('task assignment: a second registration of an id with other content is 409 TASK_ALREADY_REGISTERED; no token is 401', async () => {
    const { service } = await start();
    expect((await postExecutor(service.url, '/v1/tasks', { task_id: 't', task_type: 'a' })).status).toBe(201);
    const again = await postExecutor(service.url, '/v1/tasks', { task_id: 't', task_type: 'b' });
    expect(again.status).toBe(409);
    expect((await json(again)).error?.code).toBe('TASK_ALREADY_REGISTERED');
    expect((await postExecutor(service.url, '/v1/tasks', { task_id: 'u', task_type: 'a' }, null)).status).toBe(401);
    const role = await postExecutor(service.url, '/v1/tasks', { task_id: 'v', task_type: 'a', role: 'primary' });
    expect(role.status).toBe(400);
  });

  it('ingest checks: an SSSA for an unknown task is 404 UNKNOWN_TASK, from outside the group 403 NOT_IN_GROUP, a second one 409 DUPLICATE_SSSA', async () => {
    const { service } = await start();
    const group = (await json(await postExecutor(service.url, '/v1/tasks', { task_id: 'g', task_type: 'mcp_server' }))).group ?? [];
    const inside = k.miners.filter((m) => group.some((g) => g.hotkey === m.address));
    const outside = k.miners.filter((m) => !group.some((g) => g.hotkey === m.address));
    expect(inside).toHaveLength(2);
    const unknown = await postSigned(service.url, '/v1/sssa', inside[0]!, { task_id: 'invented', sssa: sssaDoc() });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error?.code).toBe('UNKNOWN_TASK');
    const stranger = await postSigned(service.url, '/v1/sssa', outside[0]!, { task_id: 'g', sssa: sssaDoc() });
    expect(stranger.status).toBe(403);
    expect((await json(stranger)).error?.code).toBe('NOT_IN_GROUP');
    expect((await postSigned(service.url, '/v1/sssa', inside[0]!, { task_id: 'g', sssa: sssaDoc() })).status).toBe(201);
    const second = await postSigned(service.url, '/v1/sssa', inside[0]!, { task_id: 'g', sssa: sssaDoc('BLOCK') });
    expect(second.status).toBe(409);
    expect((await json(second)).error?.code).toBe('DUPLICATE_SSSA');
    const chooses = await postSigned(service.url, '/v1/sssa', inside[1]!, { task_id: 'g', role: 'primary', task_type: 'x', sssa: sssaDoc() });
    expect(chooses.status).toBe(400);
  });

  it('ingest checks: a peer-score document signed with the validator own hotkey is 403 SELF_SIGNED_PEER_SCORES', async () => {
    const { service } = await start();
    const res = await postSigned(service.url, '/v1/peer-scores', k.validator, {
      epoch: 0,
      challenge_id: 'term',
      scores: [{ miner_hotkey: k.miners[0]!.address, score: 1 }],
    });
    expect(res.status).toBe(403);
    expect((await json(res)).error?.code).toBe('SELF_SIGNED_PEER_SCORES');
  });

  it('input shape: a body nesting 4,000 levels is 400 CORE_INPUT_TOO_DEEP at every ingest endpoint', async () => {
    const { service } = await start({ scoring });
    let deep: unknown = 'leaf';
    for (let i = 0; i < 4000; i++) deep = { x: deep };
    const miner = k.miners[0]!;
    const executor = [
      ['/v1/workflow-runs', { ...workflowBody('deep', miner.address), extra: deep }],
      ['/v1/term-results', { record_id: 'deep', miner_hotkey: miner.address, results: [], extra: deep }],
      ['/v1/bounty-records', { record_id: 'deep', miner_hotkey: miner.address, valid_issues: 1, invalid_issues: 0, starred_repos: 0, extra: deep }],
      ['/v1/tasks', { task_id: 'deep', task_type: 'x', extra: deep }],
    ] as const;
    for (const [path, body] of executor) {
      const res = await postExecutor(service.url, path, body);
      expect([path, res.status, (await json(res)).error?.code]).toEqual([path, 400, 'CORE_INPUT_TOO_DEEP']);
    }
    // Signed endpoints: the signature is checked on the bytes first (docs/spec.md G.18), then the parsed shape.
    const signedDeep = (path: string, pair: Keys['validator'], body: unknown) => {
      const text = JSON.stringify(body);
      return fetch(`${service.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signRequest(pair, { method: 'POST', path, body: text, timestamp: Date.now(), nonce: nonce() }) },
        body: text,
      });
    };
    const sssa = await signedDeep('/v1/sssa', miner, { task_id: 'x', sssa: deep });
    expect([sssa.status, (await json(sssa)).error?.code]).toEqual([400, 'CORE_INPUT_TOO_DEEP']);
    const peer = await signedDeep('/v1/peer-scores', k.peer, { epoch: 0, challenge_id: 'term', scores: [], extra: deep });
    expect([peer.status, (await json(peer)).error?.code]).toEqual([400, 'CORE_INPUT_TOO_DEEP']);
  });

  const backends = [
    { name: 'SQLite', postgres: false, skip: false },
    { name: PG_URL === undefined ? `PostgreSQL (${PG_SKIP_REASON})` : 'PostgreSQL', postgres: true, skip: PG_URL === undefined },
  ];
  for (const backend of backends) {
    it.skipIf(backend.skip)(`per-type reputation is carried between epochs in storage (${backend.name}); the bundle records it before and after`, async () => {
      const { service, chain, dir } = await start({ postgres: backend.postgres });
      const group = (await json(await postExecutor(service.url, '/v1/tasks', { task_id: 'rep-0', task_type: '__proto__' }))).group ?? [];
      const member = k.miners.find((m) => m.address === group[0]?.hotkey);
      expect((await postSigned(service.url, '/v1/sssa', member!, { task_id: 'rep-0', sssa: sssaDoc() })).status).toBe(201);
      chain.headBlock = 15n; // epoch 1
      await service.tick();
      const read = (epoch: number) =>
        JSON.parse(readFileSync(join(dir, 'bundles', `epoch-${epoch}.json`), 'utf8')) as {
          bundle: {
            inputs: { reputations: unknown };
            result: { reputations: { task_type: string; hotkey: string; reputation: number }[]; excluded: unknown[] };
          };
        };
      const first = read(0).bundle;
      // The member that sent a valid SSSA to a group of n < 3 observes nothing; the other member, assigned
      // and silent, observes 0: 0.9 * 0.5.
      expect(first.result.reputations).toEqual([{ task_type: '__proto__', hotkey: group[1]?.hotkey, reputation: 0.9 * 0.5 }]);
      expect(first.result.excluded).toEqual([]);
      // Epoch 1 draws from that table, read back from storage (a restart in between changes nothing).
      const again = await postExecutor(service.url, '/v1/tasks', { task_id: 'rep-1', task_type: '__proto__' });
      expect(again.status).toBe(201);
      chain.headBlock = 25n; // epoch 2
      await service.tick();
      expect(existsSync(join(dir, 'bundles', 'epoch-1.json'))).toBe(true);
      expect(read(1).bundle.inputs.reputations).toEqual(first.result.reputations);
    });
  }
});
