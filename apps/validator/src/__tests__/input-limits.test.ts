import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
import { captureLog, fakeChain, postExecutor, postSigned, silent, tempDir, testConfig, useCleanups, useKeys, workflowBody } from './helpers.js';

const k = useKeys();

const cleanups = useCleanups();

async function start(inputLimits: Record<string, number>, logger = silent): Promise<ValidatorService> {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const config = testConfig(t.dir, {
    server: { port: 0, executor_token: 'test-executor-token-0123456789', body_limit_bytes: 64 * 1024, input_limits: inputLimits },
  });
  const service = await startValidator({ config, chain: fakeChain(k), logger, autoTick: false });
  cleanups.push(() => service.stop());
  return service;
}

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string; path?: string } }).error;

function configError(inputLimits: Record<string, unknown>): { code: string; message: string; path: unknown; value: unknown } {
  const t = tempDir();
  try {
    testConfig(t.dir, { server: { input_limits: inputLimits } });
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    return { code: error.code, message: error.message, path: error.context.path, value: error.context.value };
  } finally {
    t.cleanup();
  }
  throw new Error('the configuration was accepted');
}

describe('configured input size limits at ingest (server.input_limits, docs/spec.md G.6)', () => {
  it('input limits: the defaults are core’s (depth 64, 100000 elements, 1048576 code units, 10000 keys)', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    expect(testConfig(t.dir).server.input_limits).toEqual({ max_depth: 64, max_list_length: 100000, max_string_length: 1048576, max_object_keys: 10000 });
  });

  it('input limits: a limit above core’s default, below 1 or not an integer is a coded configuration error naming the field and value', () => {
    for (const [field, value] of [
      ['max_depth', 65],
      ['max_list_length', 0],
      ['max_string_length', 1.5],
      ['max_object_keys', 10001],
    ] as const) {
      const error = configError({ [field]: value });
      expect(error.code).toBe('VALIDATOR_INVALID_CONFIG');
      expect(error.path).toBe(`server.input_limits.${field}`);
      expect(error.value).toBe(value);
      expect(error.message).toContain(`server.input_limits.${field}`);
      expect(error.message).toContain(String(value));
    }
    expect(configError({ max_bytes: 10 }).code).toBe('VALIDATOR_INVALID_CONFIG');
  });

  it('input limits: a body over a configured list, string, key or depth limit gets a coded 400 naming the path; one at the limit is accepted', async () => {
    const service = await start({ max_depth: 6, max_list_length: 3, max_string_length: 60, max_object_keys: 12 });
    const miner = k.miners[0]!.address;

    const atLimit = workflowBody('r-ok', miner);
    const ok = await postExecutor(service.url, '/v1/workflow-runs', { ...atLimit, record: { ...atLimit.record, notes: ['a', 'b', 'c'] } });
    expect(ok.status, JSON.stringify(await ok.clone().json())).toBe(201);

    const longList = await postExecutor(service.url, '/v1/workflow-runs', {
      ...workflowBody('r-list', miner),
      record: { ...atLimit.record, notes: ['a', 'b', 'c', 'd'] },
    });
    expect(longList.status).toBe(400);
    expect(await errorOf(longList)).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_LARGE', path: 'body.record.notes' }));

    const longString = await postExecutor(service.url, '/v1/workflow-runs', {
      ...workflowBody('r-str', miner),
      record: { ...atLimit.record, note: 'x'.repeat(61) },
    });
    expect(longString.status).toBe(400);
    const stringError = await errorOf(longString);
    expect(stringError).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_LARGE', path: 'body.record.note' }));
    expect(stringError.message).toContain('60');

    const manyKeys = await postExecutor(service.url, '/v1/workflow-runs', {
      ...workflowBody('r-keys', miner),
      record: { ...atLimit.record, ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`extra_${i}`, 1])) },
    });
    expect(manyKeys.status).toBe(400);
    expect(await errorOf(manyKeys)).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_LARGE', path: 'body.record' }));

    // body (1) > record (2) > a (3) > b (4) > c (5) > d (6) > e (7): one level past 6.
    const deep = await postExecutor(service.url, '/v1/workflow-runs', {
      ...workflowBody('r-deep', miner),
      record: { ...atLimit.record, a: { b: { c: { d: { e: {} } } } } },
    });
    expect(deep.status).toBe(400);
    expect(await errorOf(deep)).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_DEEP', path: 'body.record.a.b.c.d.e' }));

    // Signed endpoints are checked the same way, before the signature is even read.
    const signed = await postSigned(service.url, '/v1/peer-scores', k.peer, { epoch: 0, challenge_id: 'term', scores: [1, 2, 3, 4] });
    expect(signed.status).toBe(400);
    expect((await errorOf(signed)).code).toBe('CORE_INPUT_TOO_LARGE');
  });

  it('input limits: each refusal by a limit names its setting, the value in force, its environment variable and its largest value, in the answer and the access log line (docs/spec.md G.24)', async () => {
    const { logger, lines } = captureLog('info');
    const service = await start({ max_depth: 6, max_list_length: 3, max_string_length: 60, max_object_keys: 12 }, logger);
    const miner = k.miners[0]!.address;
    const base = workflowBody('r-base', miner);
    const setting = (key: string, value: number, largest: number) =>
      `server.input_limits.${key} = ${value} (environment variable SUBNET_VALIDATOR_SERVER__INPUT_LIMITS__${key.toUpperCase()}, at most ${largest})`;
    const cases = [
      [{ ...base.record, notes: ['a', 'b', 'c', 'd'] }, 'a list has more than 3 elements (4)', setting('max_list_length', 3, 100000)],
      [{ ...base.record, note: 'x'.repeat(61) }, 'a string is longer than 60 characters (61)', setting('max_string_length', 60, 1048576)],
      [{ ...base.record, ['k'.repeat(61)]: 1 }, 'a key is longer than 60 characters (61)', setting('max_string_length', 60, 1048576)],
      [
        { ...base.record, ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`extra_${i}`, 1])) },
        'an object has more than 12 keys',
        setting('max_object_keys', 12, 10000),
      ],
      [{ ...base.record, a: { b: { c: { d: { e: {} } } } } }, 'input nests deeper than 6 levels', setting('max_depth', 6, 64)],
    ] as const;
    for (const [i, [record, cause, named]] of cases.entries()) {
      const before = lines.length;
      const res = await postExecutor(service.url, '/v1/workflow-runs', { ...workflowBody(`r-${i}`, miner), record });
      expect(res.status).toBe(400);
      const { message } = await errorOf(res);
      // The cause first, then the setting: `a list has more than 3 elements (4) at … ; the limit is …` (the code is in `code`).
      expect(message).toContain(cause);
      expect(message.endsWith(`; the limit is ${named}`), message).toBe(true);
      const access = lines.slice(before).filter((l) => l.msg === 'request');
      expect(access.map((l) => [l.status, l.limit])).toEqual([[400, named]]);
    }
  });

  it('input limits: a body over server.body_limit_bytes gets 413 naming the setting and its value, in the answer and the access log line', async () => {
    const { logger, lines } = captureLog('info');
    const service = await start({}, logger);
    const before = lines.length;
    const res = await postExecutor(service.url, '/v1/workflow-runs', { ...workflowBody('r-big', k.miners[0]!.address), padding: 'x'.repeat(70 * 1024) });
    expect(res.status).toBe(413);
    const named = 'server.body_limit_bytes = 65536 (environment variable SUBNET_VALIDATOR_SERVER__BODY_LIMIT_BYTES, at most 67108864)';
    expect(await errorOf(res)).toEqual({ code: 'BODY_TOO_LARGE', message: `the body exceeds 65536 bytes; the limit is ${named}` });
    const access = lines.slice(before).filter((l) => l.msg === 'request');
    expect(access.map((l) => [l.status, l.code, l.limit])).toEqual([[413, 'BODY_TOO_LARGE', named]]);
  });
});
