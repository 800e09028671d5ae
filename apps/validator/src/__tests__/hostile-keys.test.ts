import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { recomputeBundle } from '@subnet/bundle';
import type { Bundle } from '@subnet/bundle';
import { describe, expect, it } from 'vitest';

import { answerProblem } from '../dispatch/query-outcome.js';
import { bountyBody, fakeChain, postExecutor, postSigned, sssaDoc, startInDir, tempDir, TOKEN, useCleanups, useKeys, workflowBody } from './helpers.js';

/**
 * Object keys are data at the HTTP boundary too (docs/spec.md section 0 "Hostile shapes", G.2 "Prototype
 * names are ids", G.3 "an unknown key spelled `__proto__` is kept as data"): a body holding a `__proto__`
 * key is valid JSON and is judged by the record's schema like any other key, never refused as malformed.
 * And a number is stored as it was accepted: canonical JSON writes an integer beyond 2^53 as a decimal
 * string, so such a number is refused at ingest with a coded error instead of being stored as a string and
 * then excluded at the close for a type the sender never sent.
 */

const k = useKeys();
const cleanups = useCleanups();

async function start() {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const chain = fakeChain(k);
  const service = await startInDir(t.dir, chain, cleanups);
  /** Closes epoch 0 and returns its bundle as written to `bundles.dir`. */
  const close = async (): Promise<Bundle & { inputs: { workflow_runs: unknown[] } }> => {
    chain.headBlock = 12n;
    await service.tick();
    return (JSON.parse(readFileSync(join(t.dir, 'bundles', 'epoch-0.json'), 'utf8')) as { bundle: Bundle & { inputs: { workflow_runs: unknown[] } } }).bundle;
  };
  return { service, close };
}

/** POSTs a raw JSON text as the executor (so keys such as `__proto__` reach the server as written). */
const postText = (url: string, path: string, text: string) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: text });

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string; path?: string } }).error;

describe('hostile keys and numbers at HTTP ingest (docs/spec.md 0 "Hostile shapes", G.2, G.3)', () => {
  it('prototype names are ids: a workflow plan with a node `__proto__` and its error_handling entry is accepted and scored', async () => {
    const { service, close } = await start();
    const body = workflowBody('wf-proto', k.miners[0]!.address);
    const plan = JSON.parse(
      '{"nodes":[{"id":"__proto__"},{"id":"b"}],"edges":[{"from":"__proto__","to":"b"}],"error_handling":{"__proto__":{"retry_count":1}}}',
    ) as unknown;
    const text = JSON.stringify({ ...body, plan });
    expect(text).toContain('"error_handling":{"__proto__":{"retry_count":1}}');
    const res = await postText(service.url, '/v1/workflow-runs', text);
    expect([res.status, res.status === 201 ? undefined : await errorOf(res)]).toEqual([201, undefined]);
    const bundle = await close();
    expect(bundle.result.excluded).toEqual([]);
    const stored = bundle.inputs.workflow_runs[0] as { plan: { error_handling: Record<string, unknown> } };
    expect(Object.hasOwn(stored.plan.error_handling, '__proto__')).toBe(true);
    expect(recomputeBundle(bundle).identical).toBe(true);
  });

  it('an unknown SSSA key spelled `__proto__` is kept as data: the signed SSSA is accepted', async () => {
    const { service } = await start();
    const group = (
      (await (await postExecutor(service.url, '/v1/tasks', { task_id: 'proto-task', task_type: 'mcp_server' })).json()) as { group: { hotkey: string }[] }
    ).group;
    const member = k.miners.find((m) => m.address === group[0]?.hotkey);
    const sssa = { ...sssaDoc(), ...(JSON.parse('{"__proto__":{"tool":"x"}}') as object) };
    expect(Object.hasOwn(sssa, '__proto__')).toBe(true);
    const res = await postSigned(service.url, '/v1/sssa', member!, { task_id: 'proto-task', sssa });
    expect([res.status, res.status === 201 ? undefined : await errorOf(res)]).toEqual([201, undefined]);
  });

  it('a strict record with an unknown key `__proto__` is refused as an unknown key naming it, not as malformed JSON', async () => {
    const { service } = await start();
    const text = `{"__proto__":{"x":1},${JSON.stringify(bountyBody('b-x', k.miners[0]!.address)).slice(1)}`;
    const res = await postText(service.url, '/v1/bounty-records', text);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe('INVALID_RECORD');
    expect(error.message).toContain('__proto__');
  });

  it('a number canonical JSON would store as a string (an integer beyond 2^53) is refused at ingest naming the field; the good record beside it is scored', async () => {
    const { service, close } = await start();
    const good = workflowBody('wf-good', k.miners[1]!.address);
    const big = workflowBody('wf-big', k.miners[0]!.address);
    const refused = await postExecutor(service.url, '/v1/workflow-runs', { ...big, record: { ...big.record, actual_tao: 1e21 } });
    expect(refused.status).toBe(400);
    const error = await errorOf(refused);
    expect(error).toMatchObject({ code: 'UNSAFE_NUMBER', path: 'body.record.actual_tao' });
    expect(error.message).toContain('1e+21');
    expect((await postExecutor(service.url, '/v1/workflow-runs', good)).status).toBe(201);
    // 2^53 itself is written as a number, so it is kept (here in an unknown field the scorer never reads).
    const edge = await postExecutor(service.url, '/v1/workflow-runs', { ...big, record_id: 'wf-edge', record: { ...big.record, note: 2 ** 53 } });
    expect(edge.status).toBe(201);
    const bundle = await close();
    expect(bundle.result.excluded).toEqual([]);
    const runs = bundle.inputs.workflow_runs as { record_id: string; record: { note?: unknown } }[];
    expect(runs.map((r) => r.record_id)).toEqual(['wf-good', 'wf-edge']);
    expect(runs[1]?.record.note).toBe(2 ** 53);
    expect(recomputeBundle(bundle).identical).toBe(true);
  });

  it('decision (docs/spec.md G.37, G.38): safe numbers whose scored sum or product would pass 2^53 - 1 are refused at ingest naming the field; the epoch closes without them', async () => {
    const { service, close } = await start();
    const max = Number.MAX_SAFE_INTEGER;
    // A bounty record's points are 5 a valid issue: 1801439850948199 valid issues would be 9007199254740995 points.
    const bounty = await postExecutor(service.url, '/v1/bounty-records', bountyBody('b-big', k.miners[0]!.address, 1801439850948199));
    expect(bounty.status).toBe(400);
    const bountyError = await errorOf(bounty);
    expect(bountyError).toMatchObject({ code: 'INVALID_RECORD', path: 'body.valid_issues' });
    expect(bountyError.message).toBe(
      'at most 1801439850948198 valid issues, so that 5 points an issue stay at most 2^53 - 1 at body.valid_issues (got 1801439850948199)',
    );
    // A plan's declared retry budget is the sum of its retry counts.
    const run = workflowBody('wf-budget', k.miners[1]!.address);
    const plan = { ...run.plan, error_handling: { a: { retry_count: max }, b: { retry_count: max } } };
    const workflow = await postExecutor(service.url, '/v1/workflow-runs', { ...run, plan });
    expect(workflow.status).toBe(400);
    expect(await errorOf(workflow)).toMatchObject({ code: 'COMPOSITE_INVALID_PLAN', path: 'body.plan.error_handling.b.retry_count' });
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('b-ok', k.miners[2]!.address, 1801439850948198))).status).toBe(201);
    const bundle = await close();
    expect(bundle.result.excluded).toEqual([]);
    expect(JSON.stringify(bundle.result)).toContain('"points":9007199254740990');
    expect(recomputeBundle(bundle).identical).toBe(true);
  });

  it('a body that is not valid UTF-8 is refused as MALFORMED_JSON, not read with U+FFFD in place of its bytes', async () => {
    const { service, close } = await start();
    const body = workflowBody('wf-bytes', k.miners[0]!.address);
    // Valid as text: the same body with 'NOTE' is accepted (checked last, below).
    const text = JSON.stringify({ ...body, record: { ...body.record, note: 'NOTE' } });
    const at = text.indexOf('NOTE');
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(at + 4))]);
    const res = await fetch(`${service.url}/v1/workflow-runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: bytes,
    });
    expect([res.status, res.status === 201 ? 'accepted' : (await errorOf(res)).code]).toEqual([400, 'MALFORMED_JSON']);
    expect((await postText(service.url, '/v1/workflow-runs', text.replace('wf-bytes', 'wf-text'))).status).toBe(201);
    const bundle = await close();
    expect((bundle.inputs.workflow_runs as { record_id: string }[]).map((r) => r.record_id)).toEqual(['wf-text']);
  });

  it('a body that starts with a byte-order mark is read without it (RFC 8259 8.1, as fastify parses JSON): accepted and stored as the same record', async () => {
    const { service, close } = await start();
    const body = workflowBody('wf-bom', k.miners[0]!.address);
    const marked = await fetch(`${service.url}/v1/workflow-runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(body))]),
    });
    expect([marked.status, marked.status === 201 ? 'accepted' : (await errorOf(marked)).code]).toEqual([201, 'accepted']);
    // One mark only: a second one is text JSON does not allow.
    const twice = await postText(service.url, '/v1/workflow-runs', `\ufeff\ufeff${JSON.stringify(workflowBody('wf-bom2', k.miners[1]!.address))}`);
    expect([twice.status, (await errorOf(twice)).code]).toEqual([400, 'MALFORMED_JSON']);
    const bundle = await close();
    const runs = bundle.inputs.workflow_runs as { record_id: string; record: unknown }[];
    expect(runs.map((r) => r.record_id)).toEqual(['wf-bom']);
    expect(runs[0]?.record).toEqual(body.record);
  });

  it('a workflow task id longer than a window id may be (1024) is refused at ingest with the code the close would exclude it with, not accepted and then lost', async () => {
    const { service, close } = await start();
    const longest = workflowBody('wf-1024', k.miners[0]!.address, 't'.repeat(1024));
    expect((await postExecutor(service.url, '/v1/workflow-runs', longest)).status).toBe(201);
    const tooLong = await postExecutor(service.url, '/v1/workflow-runs', workflowBody('wf-1025', k.miners[1]!.address, 't'.repeat(1025)));
    expect(tooLong.status).toBe(400);
    expect(await errorOf(tooLong)).toMatchObject({ code: 'COMPOSITE_INVALID_WINDOW_ENTRY', path: 'body.task.task_id' });
    const bundle = await close();
    expect(bundle.result.excluded).toEqual([]);
    expect((bundle.inputs.workflow_runs as { record_id: string }[]).map((r) => r.record_id)).toEqual(['wf-1024']);
  });
});

describe('hostile numbers in a miner axon answer (dispatch)', () => {
  it('an answer holding a number canonical JSON would store as a string is an invalid answer (UNSAFE_NUMBER), not stored as answered', () => {
    const plan = { nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }], error_handling: { a: { timeout_seconds: 1e21 } } };
    expect(answerProblem('workflow', plan, 'plan')).toMatch(/^UNSAFE_NUMBER: .*plan\.error_handling\.a\.timeout_seconds \(got 1e\+21\)/);
    expect(answerProblem('sssa', { ...sssaDoc(), extra: [2 ** 53 + 2] }, 'sssa')).toMatch(/^UNSAFE_NUMBER: .*sssa\.extra\[0\]/);
    expect(answerProblem('workflow', { ...plan, error_handling: { a: { timeout_seconds: 2 ** 53 } } }, 'plan')).toBeUndefined();
  });
});

describe('hostile URLs', () => {
  it('a URL that is not valid percent-encoding or has an over-long parameter gets the API error shape { error: { code, message } }', async () => {
    const { service } = await start();
    const bad = await fetch(`${service.url}/v1/tasks/%ff`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { code: 'BAD_REQUEST', message: expect.stringContaining('/v1/tasks/%ff') as unknown } });
    const long = await fetch(`${service.url}/v1/tasks/${'t'.repeat(1000)}`);
    expect(long.status).toBe(414);
    expect(await long.json()).toEqual({ error: { code: 'BAD_REQUEST', message: expect.stringContaining('param') as unknown } });
  });
});
