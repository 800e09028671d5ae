import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
import { fakeChain, postExecutor, postSigned, silent, tempDir, testConfig, useCleanups, useKeys, workflowBody } from './helpers.js';

const k = useKeys();

const cleanups = useCleanups();

async function start(inputLimits: Record<string, number>): Promise<ValidatorService> {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const config = testConfig(t.dir, {
    server: { port: 0, executor_token: 'test-executor-token-0123456789', body_limit_bytes: 64 * 1024, input_limits: inputLimits },
  });
  const service = await startValidator({ config, chain: fakeChain(k), logger: silent, autoTick: false });
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
});
