import { passRate } from '@subnet/aggregation';
import { scoreWorkflow } from '@subnet/composite';
import { parseSssa } from '@subnet/consensus';
import { describeValue, isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { bountyBody, postExecutor, postSigned, sssaDoc, TOKEN, useKeys, useService, workflowBody } from './helpers.js';

/**
 * An HTTP error answer names the field and the value the client sent, as every coded error of the project does
 * (STYLE "Errors"): a schema refusal says what was sent at the path, a malformed epoch or unknown task id is quoted,
 * and a route that does not exist is named with its method. Real HTTP on 127.0.0.1.
 */
const k = useKeys();
const validator = useService(k);

async function errorOf(res: Response): Promise<{ code: string; message: string; path?: string }> {
  return ((await res.json()) as { error: { code: string; message: string; path?: string } }).error;
}

describe('HTTP error answers name the value sent', () => {
  it('INVALID_RECORD: the schema message, the path and the value (got -3)', async () => {
    const res = await postExecutor(validator.url, '/v1/bounty-records', { ...bountyBody('b-neg', k.miners[2]!.address), valid_issues: -3 });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: 'INVALID_RECORD', path: 'body.valid_issues' });
    expect(error.message).toMatch(/ at body\.valid_issues \(got -3\)$/);
  });

  it('INVALID_RECORD for a missing field has no value to quote, and a key spelled __proto__ is read as data', async () => {
    const { record_id: _dropped, ...missing } = bountyBody('b-missing', k.miners[2]!.address);
    const res = await postExecutor(validator.url, '/v1/bounty-records', missing);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: 'INVALID_RECORD', path: 'body.record_id' });
    expect(error.message).not.toContain('(got');
    const proto = await postExecutor(
      validator.url,
      '/v1/bounty-records',
      JSON.parse(`{"__proto__": {"a": 1}, ${JSON.stringify(bountyBody('b-proto', k.miners[2]!.address)).slice(1)}`) as object,
    );
    expect(proto.status).toBe(400);
    expect((await errorOf(proto)).message).toContain('__proto__');
  });

  it('MINER_NOT_REGISTERED names the hotkey sent, so the executor can tell which record it was', async () => {
    const res = await postExecutor(validator.url, '/v1/bounty-records', bountyBody('b-stranger', k.stranger.address));
    expect(res.status).toBe(422);
    expect(await errorOf(res)).toEqual({
      code: 'MINER_NOT_REGISTERED',
      message: `the miner hotkey is not registered on the subnet at body.miner_hotkey (got "${k.stranger.address}")`,
      path: 'body.miner_hotkey',
    });
  });

  it('UNSUPPORTED_MEDIA_TYPE names the content-type sent and the one to send', async () => {
    const form = await fetch(`${validator.url}/v1/bounty-records`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'record_id=b-form',
    });
    expect(form.status).toBe(415);
    expect(await errorOf(form)).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'the body must be JSON sent with content-type: application/json at headers.content-type (got "application/x-www-form-urlencoded")',
      path: 'headers.content-type',
    });
    const none = await fetch(`${validator.url}/v1/bounty-records`, { method: 'POST', body: new Uint8Array([123, 125]) });
    expect(none.status).toBe(415);
    expect(await errorOf(none)).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'the body must be JSON sent with content-type: application/json; the request has no content-type header at headers.content-type',
      path: 'headers.content-type',
    });
  });

  it('UNAUTHORIZED says whether the bearer token is missing or not the configured one, never quoting it', async () => {
    const body = JSON.stringify(bountyBody('b-auth', k.miners[2]!.address));
    const missing = await fetch(`${validator.url}/v1/bounty-records`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(missing.status).toBe(401);
    expect(await errorOf(missing)).toEqual({
      code: 'UNAUTHORIZED',
      message: "no authorization header: send authorization: Bearer <the validator's server.executor_token> at headers.authorization",
      path: 'headers.authorization',
    });
    const wrong = await fetch(`${validator.url}/v1/bounty-records`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer not-the-token-0123456789' },
      body,
    });
    expect(wrong.status).toBe(401);
    const error = await errorOf(wrong);
    expect(error).toEqual({
      code: 'UNAUTHORIZED',
      message: "the bearer token is not this validator's server.executor_token (SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN) at headers.authorization",
      path: 'headers.authorization',
    });
    expect(error.message).not.toContain('not-the-token');
  });

  it('INVALID_EPOCH quotes the epoch sent', async () => {
    const res = await fetch(`${validator.url}/v1/epochs/abc/bundle`);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({
      code: 'INVALID_EPOCH',
      message: 'the epoch is a non-negative integer in 1-15 decimal digits without a leading zero at params.n (got "abc")',
      path: 'params.n',
    });
  });

  it('UNKNOWN_TASK quotes the task id asked for', async () => {
    const res = await fetch(`${validator.url}/v1/tasks/task-typo`);
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({
      code: 'UNKNOWN_TASK',
      message: 'no task with this id was registered with this validator at params.id (got "task-typo")',
      path: 'params.id',
    });
  });

  it('UNKNOWN_TASK of a signed SSSA quotes the task id sent', async () => {
    const res = await postSigned(validator.url, '/v1/sssa', k.miners[0]!, { task_id: 'task-nope', sssa: sssaDoc() });
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({
      code: 'UNKNOWN_TASK',
      message: 'no task with this id was registered with this validator at body.task_id (got "task-nope")',
      path: 'body.task_id',
    });
  });

  it('CHALLENGE_NOT_CONFIGURED of a peer document quotes the challenge id sent, and says a bounty challenge takes no peer scores', async () => {
    const doc = (challengeId: string) => ({ epoch: 0, challenge_id: challengeId, scores: [{ miner_hotkey: k.miners[0]!.address, score: 0.5 }] });
    const unknown = await postSigned(validator.url, '/v1/peer-scores', k.peer, doc('workflw'));
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toEqual({
      code: 'CHALLENGE_NOT_CONFIGURED',
      message: 'no evaluation challenge with this id runs on this validator at body.challenge_id (got "workflw")',
      path: 'body.challenge_id',
    });
    const bounty = await postSigned(validator.url, '/v1/peer-scores', k.peer, doc('bounty'));
    expect(bounty.status).toBe(404);
    expect(await errorOf(bounty)).toEqual({
      code: 'CHALLENGE_NOT_CONFIGURED',
      message:
        'the challenge with this id is a bounty challenge, which takes no peer scores (its records come from the executor) at body.challenge_id (got "bounty")',
      path: 'body.challenge_id',
    });
  });

  it('decision (docs/spec.md G.40): a task id holding U+0000 is 400 INVALID_RECORD at body.task_id, for a task and for an SSSA; no task answers GET for it', async () => {
    const id = 'task\u0000nul';
    const message = `a task id must not hold U+0000 (NUL): it keys a stored row, and PostgreSQL text cannot hold it at body.task_id (got ${JSON.stringify(id)})`;
    const task = await postExecutor(validator.url, '/v1/tasks', { task_id: id, task_type: 'mcp_server' });
    expect([task.status, await errorOf(task)]).toEqual([400, { code: 'INVALID_RECORD', message, path: 'body.task_id' }]);
    const sssa = await postSigned(validator.url, '/v1/sssa', k.miners[0]!, { task_id: id, sssa: sssaDoc() });
    expect([sssa.status, await errorOf(sssa)]).toEqual([400, { code: 'INVALID_RECORD', message, path: 'body.task_id' }]);
    const read = await fetch(`${validator.url}/v1/tasks/task%00nul`);
    expect([read.status, (await errorOf(read)).code]).toEqual([404, 'UNKNOWN_TASK']);
  });

  it('decision (docs/spec.md G.41): every task id POST /v1/tasks takes, up to 256 characters, is read back by GET /v1/tasks/{id}', async () => {
    for (const id of ['t'.repeat(101), 'l'.repeat(256), '任'.repeat(256)]) {
      expect((await postExecutor(validator.url, '/v1/tasks', { task_id: id, task_type: 'mcp_server' })).status).toBe(201);
      const read = await fetch(`${validator.url}/v1/tasks/${encodeURIComponent(id)}`);
      expect([read.status, ((await read.json()) as { task_id?: string }).task_id]).toEqual([200, id]);
    }
    expect((await postExecutor(validator.url, '/v1/tasks', { task_id: 'l'.repeat(257), task_type: 'mcp_server' })).status).toBe(400);
  });

  it('decision (docs/spec.md G.46 (d)): a task id blank only to Unicode (U+00A0, U+FEFF, U+2028) is registered, read back and takes an SSSA; ASCII tab and space are blank', async () => {
    for (const [i, id] of ['\u00a0', '\ufeff', '\u2028', ' \u00a0\t'].entries()) {
      const task = await postExecutor(validator.url, '/v1/tasks', { task_id: id, task_type: 'mcp_server' });
      expect([task.status, task.status === 201 ? undefined : await errorOf(task)]).toEqual([201, undefined]);
      const group = ((await task.json()) as { group: { hotkey: string }[] }).group;
      const read = await fetch(`${validator.url}/v1/tasks/${encodeURIComponent(id)}`);
      expect([read.status, ((await read.json()) as { task_id?: string }).task_id]).toEqual([200, id]);
      const member = k.miners.find((m) => m.address === group[i % group.length]?.hotkey)!;
      const sssa = await postSigned(validator.url, '/v1/sssa', member, { task_id: id, sssa: sssaDoc() });
      expect([sssa.status, sssa.status === 201 ? undefined : await errorOf(sssa)]).toEqual([201, undefined]);
    }
    for (const id of ['\t', ' ', '\t \n']) {
      const task = await postExecutor(validator.url, '/v1/tasks', { task_id: id, task_type: 'mcp_server' });
      expect([task.status, await errorOf(task)]).toEqual([
        400,
        { code: 'INVALID_RECORD', message: `must not be blank at body.task_id (got ${JSON.stringify(id)})`, path: 'body.task_id' },
      ]);
      const type = await postExecutor(validator.url, '/v1/tasks', { task_id: `typed-${id.length}`, task_type: id });
      expect([type.status, (await errorOf(type)).path]).toEqual([400, 'body.task_type']);
    }
  });

  it('NOT_FOUND names the method and the path asked for, never the query string', async () => {
    const res = await fetch(`${validator.url}/v1/epoch?token=secret`);
    expect(res.status).toBe(404);
    const error = await errorOf(res);
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toBe('no such endpoint: GET /v1/epoch (README: HTTP API)');
    const del = await fetch(`${validator.url}/healthz`, { method: 'DELETE' });
    expect((await errorOf(del)).message).toBe('no such endpoint: DELETE /healthz (README: HTTP API)');
  });

  it('a POST to no endpoint is NOT_FOUND whatever its content-type, not UNSUPPORTED_MEDIA_TYPE: the path is what is wrong', async () => {
    const variants: Record<string, string>[] = [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/json' }];
    for (const headers of variants) {
      const res = await fetch(`${validator.url}/v1/workflow-run`, { method: 'POST', headers, body: '{}' });
      expect(res.status).toBe(404);
      expect((await errorOf(res)).message).toBe('no such endpoint: POST /v1/workflow-run (README: HTTP API)');
    }
    // A GET-only page asked for with POST is no endpoint either.
    const page = await fetch(`${validator.url}/pages`, { method: 'POST', body: 'x' });
    expect(page.status).toBe(404);
    // The endpoint itself still refuses another content-type, naming it.
    const wrongType = await fetch(`${validator.url}/v1/workflow-runs`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(wrongType.status).toBe(415);
    expect((await errorOf(wrongType)).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

/** What a scoring package throws for `run`, as it throws it (its own path and message). */
function refusalOf(run: () => unknown): { code: string; message: string; path: string; value: unknown } {
  try {
    run();
  } catch (error) {
    if (isSubnetError(error) && typeof error.context.path === 'string')
      return { code: error.code, message: error.message, path: error.context.path, value: error.context.value };
  }
  throw new Error('the scoring package took the input');
}

/** The package's message without the `[CODE] ` it starts with, which an answer leaves to its `code` (docs/spec.md G.46 (c)). */
function unled(own: { code: string; message: string }): string {
  expect(own.message.startsWith(`[${own.code}] `), own.message).toBe(true);
  return own.message.slice(own.code.length + 3);
}

describe("decision (docs/spec.md G.42 (b)): a scoring package's refusal at ingest names the path as the sender sent it", () => {
  const max = Number.MAX_SAFE_INTEGER;
  type Body = ReturnType<typeof workflowBody>;
  const workflows: [string, string, (base: Body) => Body][] = [
    [
      'COMPOSITE_INVALID_PLAN',
      'plan.error_handling.b.retry_count',
      (b) => ({ ...b, plan: { ...b.plan, error_handling: { a: { retry_count: max }, b: { retry_count: max } } } }),
    ],
    ['COMPOSITE_INVALID_DAG', 'plan.edges[0]', (b) => ({ ...b, plan: { nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'a' }] } })],
    [
      'COMPOSITE_INVALID_TASK',
      'task.constraints.max_budget_tao',
      (b) => ({ ...b, task: { ...b.task, constraints: { max_budget_tao: -1, max_latency_seconds: 60 } } }),
    ],
    ['COMPOSITE_INVALID_RECORD', 'record.steps_completed', (b) => ({ ...b, record: { ...b.record, steps_completed: 3 } })],
  ];
  it.each(workflows)("%s: body.%s, in the message and the path; the package's own error is unchanged", async (code, path, make) => {
    const body = make(workflowBody('wf-path', k.miners[0]!.address));
    const own = refusalOf(() => scoreWorkflow({ task: body.task, plan: body.plan, record: body.record }));
    expect([own.code, own.path]).toEqual([code, path]);
    const res = await postExecutor(validator.url, '/v1/workflow-runs', body);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toEqual({ code, message: unled(own).replace(` at ${path} (got `, ` at body.${path} (got `), path: `body.${path}` });
    expect(error.message).toMatch(new RegExp(` at body\\.${path.replace(/[.[\]]/g, '\\$&')} \\(got .+\\)$`));
  });

  it("AGGREGATION_*: a term result's task fields are named as sent (task_id, tests_passed), under body.results", async () => {
    const result = (task_id: string, tests_passed = 1) => ({ task_id, tests_passed, tests_total: 1, timed_out: false });
    const cases: [unknown[], string, string][] = [
      [[result('t0'), result('t0')], 'results[1].taskId', 'body.results[1].task_id'],
      [[result('t0'), result('t1', 2)], 'results[1].testsPassed', 'body.results[1].tests_passed'],
      [[0, 1, 2, 3, 4].map((i) => result(`t${i}`)), 'results.length', 'body.results.length'],
    ];
    for (const [results, own, sent] of cases) {
      const ownError = refusalOf(() =>
        passRate(
          (results as ReturnType<typeof result>[]).map((t) => ({
            taskId: t.task_id,
            testsPassed: t.tests_passed,
            testsTotal: t.tests_total,
            timedOut: t.timed_out,
          })),
          4,
        ),
      );
      expect(ownError.path).toBe(own);
      const res = await postExecutor(validator.url, '/v1/term-results', { record_id: 'term-path', miner_hotkey: k.miners[1]!.address, results });
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toEqual({
        code: ownError.code,
        message: unled(ownError).replace(` at ${own} (got ${describeValue(ownError.value)})`, ` at ${sent} (got ${describeValue(ownError.value)})`),
        path: sent,
      });
    }
  });
});

describe('decision (docs/spec.md G.46 (c)): an ingest refusal has one form: the code in `code`, the message without `[CODE] `', () => {
  it('a scoring package refusal (composite, consensus) and a shape refusal (core) answer as a schema refusal does; the package error keeps its lead', async () => {
    // composite: scoreWorkflow's refusal of the record.
    const body = workflowBody('wf-lead', k.miners[0]!.address);
    const record = { ...body.record, steps_completed: 3 };
    const composite = refusalOf(() => scoreWorkflow({ task: body.task, plan: body.plan, record }));
    const wf = await postExecutor(validator.url, '/v1/workflow-runs', { ...body, record });
    expect([wf.status, await errorOf(wf)]).toEqual([
      400,
      { code: composite.code, message: unled(composite).replace(' at record.', ' at body.record.'), path: 'body.record.steps_completed' },
    ]);
    // consensus: parseSssa's refusal of a signed SSSA, named as sent (body.sssa.…, docs/spec.md G.42 (b)).
    const group = (
      (await (await postExecutor(validator.url, '/v1/tasks', { task_id: 'lead-task', task_type: 'mcp_server' })).json()) as {
        group: { hotkey: string }[];
      }
    ).group;
    const member = k.miners.find((m) => m.address === group[0]?.hotkey)!;
    const sssa = { ...sssaDoc(), risk_score: 2 };
    const consensus = refusalOf(() => parseSssa(sssa));
    expect(consensus).toMatchObject({ code: 'CONSENSUS_INVALID_SSSA', path: 'sssa.risk_score' });
    const signed = await postSigned(validator.url, '/v1/sssa', member, { task_id: 'lead-task', sssa });
    expect([signed.status, await errorOf(signed)]).toEqual([
      400,
      { code: consensus.code, message: unled(consensus).replace(' at sssa.risk_score ', ' at body.sssa.risk_score '), path: 'body.sssa.risk_score' },
    ]);
    // core: a body that nests deeper than the input limit, and one holding a lone surrogate (no limit to name).
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    const tooDeep = await errorOf(await postExecutor(validator.url, '/v1/bounty-records', { ...bountyBody('b-deep', k.miners[2]!.address), deep }));
    expect(tooDeep.code).toBe('CORE_INPUT_TOO_DEEP');
    expect(tooDeep.message).toMatch(/^input nests deeper than 64 levels at body\.deep/);
    const lone = await fetch(`${validator.url}/v1/bounty-records`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: `{"lone":"\\ud800",${JSON.stringify(bountyBody('b-lone', k.miners[2]!.address)).slice(1)}`,
    });
    const notJson = await errorOf(lone);
    expect(notJson.code).toBe('CORE_INPUT_NOT_JSON');
    expect(notJson.message.startsWith('['), notJson.message).toBe(false);
    expect(notJson.message).toContain(' at body.lone');
  });
});

describe('decision (docs/spec.md G.46 (f)): a workflow plan cycle is answered in a bounded message', () => {
  it('a 1,000-node cycle names 8 ids, how many more and the way back, at body.plan.edges[0]', async () => {
    const k1000 = 1000;
    const id = (i: number) => `n${i}`;
    const plan = {
      nodes: Array.from({ length: k1000 }, (_, i) => ({ id: id(i) })),
      edges: Array.from({ length: k1000 }, (_, i) => ({ from: id(i), to: id((i + 1) % k1000) })),
    };
    const res = await postExecutor(validator.url, '/v1/workflow-runs', { ...workflowBody('wf-ring', k.miners[0]!.address), plan });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: 'COMPOSITE_INVALID_DAG', path: 'body.plan.edges[0]' });
    expect(error.message).toMatch(
      /^invalid workflow DAG: cycle of 1000 nodes: n0 -> n1 -> n2 -> n3 -> n4 -> n5 -> n6 -> n7 -> \.\.\. \(992 more\) -> n0 at body\.plan\.edges\[0\] \(got \["n0",/,
    );
    expect(error.message.length).toBeLessThan(300);
  });
});
