import type { KeyringPair } from '@polkadot/keyring/types';
import { signatureVerify } from '@polkadot/util-crypto';
import { recomputeBundle, verifyBundle } from '@subnet/bundle';
import { beforeAll, describe, expect, it, vi } from 'vitest';

import { signRequest } from '../signed-request.js';
import { bountyBody, nonce, postExecutor, postSigned, sssaDoc, TOKEN, useKeys, useService, workflowBody } from './helpers.js';

const k = useKeys();
const validator = useService(k);

const json = async (res: Response) => (await res.json()) as Record<string, unknown> & { error?: { code: string; path?: string; message: string } };

describe('executor endpoints (bearer token, idempotent by record id)', () => {
  it('POST /v1/workflow-runs: 201 accepted, 200 for the same record again, 409 for the same id with other content', async () => {
    const body = workflowBody('wf-1', k.miners[0]!.address);
    const first = await postExecutor(validator.url, '/v1/workflow-runs', body);
    expect(first.status).toBe(201);
    expect(await json(first)).toMatchObject({ status: 'accepted', record_id: 'wf-1', epoch: 0 });
    const again = await postExecutor(validator.url, '/v1/workflow-runs', body);
    expect(again.status).toBe(200);
    expect(await json(again)).toMatchObject({ status: 'duplicate', record_id: 'wf-1' });
    const other = await postExecutor(validator.url, '/v1/workflow-runs', { ...body, record: { ...body.record, actual_tao: 0.9 } });
    expect(other.status).toBe(409);
    expect((await json(other)).error?.code).toBe('RECORD_CONFLICT');
  });

  it('POST /v1/term-results and /v1/bounty-records accept good records', async () => {
    const term = await postExecutor(validator.url, '/v1/term-results', {
      record_id: 'term-1',
      miner_hotkey: k.miners[1]!.address,
      results: [{ task_id: 'a', tests_passed: 2, tests_total: 2, timed_out: false }],
    });
    expect(term.status).toBe(201);
    const bounty = await postExecutor(validator.url, '/v1/bounty-records', bountyBody('b-1', k.miners[2]!.address));
    expect(bounty.status).toBe(201);
  });

  it('401 without or with a wrong bearer token', async () => {
    const none = await postExecutor(validator.url, '/v1/bounty-records', bountyBody('b-x', k.miners[2]!.address), null);
    expect(none.status).toBe(401);
    expect((await json(none)).error?.code).toBe('UNAUTHORIZED');
    const wrong = await postExecutor(validator.url, '/v1/bounty-records', bountyBody('b-x', k.miners[2]!.address), `${TOKEN}x`);
    expect(wrong.status).toBe(401);
  });

  it('400 naming the field for an invalid record (schema, and the scoring packages’ own checks)', async () => {
    const bad = await postExecutor(validator.url, '/v1/bounty-records', { ...bountyBody('b-y', k.miners[2]!.address), valid_issues: -1 });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toMatchObject({ code: 'INVALID_RECORD', path: 'body.valid_issues' });
    const body = workflowBody('wf-bad', k.miners[0]!.address);
    const dag = await postExecutor(validator.url, '/v1/workflow-runs', { ...body, plan: { nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'a' }] } });
    expect(dag.status).toBe(400);
    expect((await json(dag)).error?.code).toMatch(/^COMPOSITE_/);
    const term = await postExecutor(validator.url, '/v1/term-results', {
      record_id: 'term-bad',
      miner_hotkey: k.miners[1]!.address,
      results: Array.from({ length: 5 }, (_, i) => ({ task_id: `t${i}`, tests_passed: 1, tests_total: 1, timed_out: false })),
    });
    expect(term.status).toBe(400); // 5 results for a 4-task benchmark
    expect((await json(term)).error?.code).toMatch(/^AGGREGATION_/);
  });

  it('422 for a miner that is not registered', async () => {
    const res = await postExecutor(validator.url, '/v1/bounty-records', bountyBody('b-z', k.stranger.address));
    expect(res.status).toBe(422);
    expect((await json(res)).error?.code).toBe('MINER_NOT_REGISTERED');
  });

  it('400 for malformed JSON, 413 for an oversized body, 415 for another media type', async () => {
    const malformed = await fetch(`${validator.url}/v1/bounty-records`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: '{"record_id": ',
    });
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).error?.code).toBe('MALFORMED_JSON');
    const big = await postExecutor(validator.url, '/v1/workflow-runs', { ...workflowBody('wf-big', k.miners[0]!.address), padding: 'x'.repeat(70 * 1024) });
    expect(big.status).toBe(413);
    expect((await json(big)).error?.code).toBe('BODY_TOO_LARGE');
    const text = await fetch(`${validator.url}/v1/bounty-records`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${TOKEN}` },
      body: 'hi',
    });
    expect(text.status).toBe(415);
  });

  it('400 MALFORMED_JSON says why the body is not JSON: empty, not UTF-8, or where the parser stopped', async () => {
    const send = async (body: RequestInit['body']) => {
      const res = await fetch(`${validator.url}/v1/bounty-records`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body,
      });
      return [res.status, (await json(res)).error] as const;
    };
    expect(await send('')).toEqual([400, { code: 'MALFORMED_JSON', message: 'the body is not valid JSON: it is empty (0 bytes)' }]);
    const notUtf8 = Buffer.concat([Buffer.from('{"record_id":"b'), Buffer.from([0xff]), Buffer.from('"}')]);
    expect(await send(notUtf8)).toEqual([
      400,
      { code: 'MALFORMED_JSON', message: 'the body is not valid JSON: its bytes are not UTF-8 (RFC 8259: JSON is UTF-8)' },
    ]);
    // The parser's own sentence, with the token and its position (V8's words, which vary by version).
    let parserWords = '';
    try {
      JSON.parse('{"record_id": 1,}');
    } catch (error) {
      parserWords = (error as SyntaxError).message;
    }
    expect(await send('{"record_id": 1,}')).toEqual([400, { code: 'MALFORMED_JSON', message: `the body is not valid JSON: ${parserWords}` }]);
    expect(parserWords).toMatch(/position 16|"\{"record_id": 1,\}"/);
  });

  it('a body that is not JSON is parsed once: the 400 says why without reading it a second time', async () => {
    // Nested arrays cut short: each reading costs the event loop time in proportion (about 0.5 s for 1 MiB of them), so a
    // second reading for the reason doubles what a sender with a token or a signature can spend per request.
    const body = `{"record_id": "parsed-once", "nested": ${'['.repeat(10_000)}`;
    const parse = vi.spyOn(JSON, 'parse');
    let res: Response;
    let readings: number;
    try {
      res = await fetch(`${validator.url}/v1/bounty-records`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body,
      });
      readings = parse.mock.calls.filter(([text]) => text === body).length;
    } finally {
      parse.mockRestore();
    }
    expect([res.status, (await json(res)).error?.code, readings]).toEqual([400, 'MALFORMED_JSON', 1]);
  });
});

describe('POST /v1/sssa (signed by the miner hotkey)', () => {
  const body = { task_id: 'task-1', sssa: sssaDoc() };
  beforeAll(async () => {
    // Four miners, groups of 3 primaries + 2 auditors: every miner is in every group.
    for (const taskId of ['task-1', 'task-2'])
      expect((await postExecutor(validator.url, '/v1/tasks', { task_id: taskId, task_type: 'mcp_server' })).status).toBe(201);
  });

  it('accepts a fresh, correctly signed SSSA from a registered miner', async () => {
    const res = await postSigned(validator.url, '/v1/sssa', k.miners[0]!, body);
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ status: 'accepted', epoch: 0 });
  });

  it('401 UNSIGNED without signature headers', async () => {
    const res = await fetch(`${validator.url}/v1/sssa`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(401);
    expect((await json(res)).error?.code).toBe('UNSIGNED');
  });

  it('401 BAD_SIGNATURE when signed by another key than the claimed hotkey, or the body was changed', async () => {
    const wrongSigner = await postSigned(validator.url, '/v1/sssa', k.miners[1]!, body, { claim: k.miners[0]!.address });
    expect(wrongSigner.status).toBe(401);
    expect((await json(wrongSigner)).error?.code).toBe('BAD_SIGNATURE');
  });

  it('401 STALE_TIMESTAMP for a timestamp outside the allowed skew', async () => {
    const res = await postSigned(validator.url, '/v1/sssa', k.miners[1]!, body, { timestamp: Date.now() - 10 * 60_000 });
    expect(res.status).toBe(401);
    expect((await json(res)).error?.code).toBe('STALE_TIMESTAMP');
  });

  it('409 NONCE_REPLAYED for a reused nonce', async () => {
    const n = nonce();
    const first = await postSigned(validator.url, '/v1/sssa', k.miners[2]!, { ...body, task_id: 'task-2' }, { nonce: n });
    expect(first.status).toBe(201);
    const replay = await postSigned(validator.url, '/v1/sssa', k.miners[2]!, { ...body, task_id: 'task-2' }, { nonce: n });
    expect(replay.status).toBe(409);
    expect((await json(replay)).error?.code).toBe('NONCE_REPLAYED');
  });

  it('403 NOT_REGISTERED for a valid signature by an unregistered hotkey', async () => {
    const res = await postSigned(validator.url, '/v1/sssa', k.stranger, body);
    expect(res.status).toBe(403);
    expect((await json(res)).error?.code).toBe('NOT_REGISTERED');
  });

  it('400 naming the field for an invalid SSSA document', async () => {
    const res = await postSigned(validator.url, '/v1/sssa', k.miners[3]!, { ...body, sssa: { ...sssaDoc(), risk_score: 2 } });
    expect(res.status).toBe(400);
    expect((await json(res)).error?.code).toMatch(/^CONSENSUS_/);
  });

  it('a body is parsed only once its signer is known (docs/spec.md G.18): unsigned or unregistered bodies are refused unread, malformed JSON is 400 for a registered signer; 413 before anything', async () => {
    /** `text` sent as is, signed by `pair` (or unsigned). */
    const send = (text: string, pair?: KeyringPair): Promise<Response> => {
      const headers = pair === undefined ? {} : signRequest(pair, { method: 'POST', path: '/v1/sssa', body: text, timestamp: Date.now(), nonce: nonce() });
      return fetch(`${validator.url}/v1/sssa`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text });
    };
    const codeOf = async (res: Response) => [res.status, (await json(res)).error?.code];
    // Before, each of the first two was parsed first and answered 400 MALFORMED_JSON.
    expect(await codeOf(await send('{'))).toEqual([401, 'UNSIGNED']);
    expect(await codeOf(await send('{', k.stranger))).toEqual([403, 'NOT_REGISTERED']);
    expect(await codeOf(await send('{', k.miners[3]))).toEqual([400, 'MALFORMED_JSON']);
    const big = await postSigned(validator.url, '/v1/sssa', k.miners[3]!, { ...body, sssa: { ...sssaDoc(), note: 'x'.repeat(70 * 1024) } });
    expect(big.status).toBe(413);
    // The executor's endpoints: the token on the headers before the body.
    const noToken = await fetch(`${validator.url}/v1/term-results`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(await codeOf(noToken)).toEqual([401, 'UNAUTHORIZED']);
  });
});

describe('POST /v1/peer-scores (signed by a registered validator)', () => {
  it('accepts scores for the current epoch from a validator with a permit, once', async () => {
    const doc = { epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: k.miners[1]!.address, score: 0.5 }] };
    const res = await postSigned(validator.url, '/v1/peer-scores', k.peer, doc);
    expect(res.status).toBe(201);
    const second = await postSigned(validator.url, '/v1/peer-scores', k.peer, { ...doc, scores: [{ miner_hotkey: k.miners[1]!.address, score: 0.9 }] });
    expect(second.status).toBe(409); // SPEC C.2: a second score is rejected, not averaged
  });

  it('403 for a registered neuron without a validator permit, 401 for a wrong signer, 409 for another epoch, 404 for a bounty challenge', async () => {
    const doc = { epoch: 0, challenge_id: 'workflow', scores: [{ miner_hotkey: k.miners[1]!.address, score: 0.5 }] };
    const miner = await postSigned(validator.url, '/v1/peer-scores', k.miners[0]!, doc);
    expect(miner.status).toBe(403);
    expect((await json(miner)).error?.code).toBe('NOT_A_VALIDATOR');
    const forged = await postSigned(validator.url, '/v1/peer-scores', k.stranger, doc, { claim: k.peer.address });
    expect(forged.status).toBe(401);
    const epoch = await postSigned(validator.url, '/v1/peer-scores', k.peer, { ...doc, epoch: 7 });
    expect(epoch.status).toBe(409);
    expect((await json(epoch)).error?.code).toBe('WRONG_EPOCH');
    const bounty = await postSigned(validator.url, '/v1/peer-scores', k.peer, { ...doc, challenge_id: 'bounty' });
    expect(bounty.status).toBe(404);
    const bad = await postSigned(validator.url, '/v1/peer-scores', k.peer, { ...doc, scores: [{ miner_hotkey: k.miners[1]!.address, score: 1.5 }] });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error?.path).toBe('body.scores[0].score');
  });
});

describe('read endpoints', () => {
  it('GET /healthz and /readyz', async () => {
    expect((await fetch(`${validator.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${validator.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await json(ready)).toMatchObject({ status: 'ready', epoch: 0 });
  });

  it('GET /v1/weights/latest and /v1/epochs/{n}/bundle are 404 before any epoch; a bad epoch is 400', async () => {
    expect((await fetch(`${validator.url}/v1/weights/latest`)).status).toBe(404);
    const none = await fetch(`${validator.url}/v1/epochs/0/bundle`);
    expect(none.status).toBe(404);
    expect((await json(none)).error?.code).toBe('BUNDLE_NOT_FOUND');
    expect((await fetch(`${validator.url}/v1/epochs/abc/bundle`)).status).toBe(400);
    expect((await fetch(`${validator.url}/v1/nothing`)).status).toBe(404);
  });

  it('GET /metrics counts accepted and rejected records by reason', async () => {
    const text = await (await fetch(`${validator.url}/metrics`)).text();
    expect(text).toMatch(/validator_records_accepted_total\{kind="workflow_run",outcome="inserted"\} 1/);
    expect(text).toMatch(/validator_records_rejected_total\{kind="sssa",reason="nonce_replayed"\} 1/);
    expect(text).toMatch(/validator_records_rejected_total\{kind="sssa",reason="stale_timestamp"\} 1/);
    expect(text).toMatch(/validator_records_rejected_total\{kind="bounty",reason="unauthorized"\} 2/);
  });

  it('after the epoch ends: GET /v1/epochs lists it, its bundle verifies, weights are the submitted ones', async () => {
    validator.chain.headBlock = 12n; // epoch 1 begins
    await validator.service.tick();
    const epochs = (await json(await fetch(`${validator.url}/v1/epochs`))) as { epochs: { epoch: number; status: string; bundle: string }[] };
    expect(epochs.epochs[0]).toMatchObject({ epoch: 0, status: 'submitted', bundle: '/v1/epochs/0/bundle' });
    const latest = (await json(await fetch(`${validator.url}/v1/weights/latest`))) as { epoch: number; uids: number[]; weights: number[] };
    expect(latest.epoch).toBe(0);
    expect(validator.chain.submissions).toEqual([{ uids: latest.uids, weights: latest.weights }]);
    const bundle = await fetch(`${validator.url}/v1/epochs/0/bundle`);
    expect(bundle.status).toBe(200);
    const signed = (await bundle.json()) as { bundle: { submission: { status: string; extrinsic_hash: string } } };
    const verified = verifyBundle(signed, (m, s, a) => signatureVerify(m, s, a).isValid);
    expect(verified.validator_hotkey).toBe(k.validator.address);
    expect(recomputeBundle(verified).identical).toBe(true);
    expect(signed.bundle.submission).toMatchObject({ status: 'submitted', extrinsic_hash: `0x${'ab'.repeat(32)}` });
  });
});
