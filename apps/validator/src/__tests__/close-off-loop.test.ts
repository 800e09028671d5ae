import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { startValidator } from '../service.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import { describe, expect, it } from 'vitest';

import { captureLog, fakeChain, tempDir, testConfig, until, useCleanups, useKeys } from './helpers.js';
import type { FakeChain } from './helpers.js';
import { largeEpochInput, storedRecordsOf } from './large-epoch.js';

/**
 * docs/spec.md G.47: an epoch is computed in a worker thread, so the HTTP server answers while an epoch closes. Each
 * test starts a validator on a fake chain whose metagraph is a large generated epoch's (256 miners, 16 validators),
 * stores that epoch's records as epoch 0 (3,638 stored records: 15,000 once the peers' score documents are expanded per miner), and moves the head into epoch 1; the order of events is read from the
 * validator's own log (the close says when it starts computing), never from a clock.
 */
const k = useKeys();
const cleanups = useCleanups();

async function startLarge(
  epochWorker?: URL,
): Promise<{ service: Awaited<ReturnType<typeof startValidator>>; chain: FakeChain; dir: string; lines: Record<string, unknown>[]; stored: number }> {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const { input } = largeEpochInput({
    miners: 256,
    validators: 16,
    workflowRunsPerMiner: 4,
    sssaTasks: 8,
    findingsPerSssa: 3,
    self: k.validator.address,
    epoch: 0,
  });
  const chain = fakeChain(k);
  const stakes = new Map(input.stakes.map((s) => [s.validator_hotkey, BigInt(s.stake)]));
  chain.neurons = input.metagraph.map((n) => ({ uid: n.uid, hotkey: n.hotkey, stake: stakes.get(n.hotkey) ?? 0n, validatorPermit: stakes.has(n.hotkey) }));
  const log = captureLog('debug');
  const service = await startValidator({
    config: testConfig(t.dir),
    chain,
    logger: log.logger,
    autoTick: false,
    ...(epochWorker === undefined ? {} : { epochWorker }),
  });
  cleanups.push(() => service.stop());
  const records = storedRecordsOf(input, 0);
  await service.storage.insertRecords(records.map((r) => ({ ...r, kind: r.kind as never })));
  chain.headBlock = 11n;
  return { service, chain, dir: t.dir, lines: log.lines, stored: records.length };
}

const computing = (lines: readonly Record<string, unknown>[]): boolean => lines.some((l) => l.msg === 'computing epoch 0 in a worker thread');

describe('the server answers while an epoch close computes (docs/spec.md G.47)', () => {
  it('GET /readyz on 127.0.0.1, sent once the close is computing, is answered before the close ends; the close then says how long it computed', async () => {
    const { service, chain, lines, stored } = await startLarge();
    const order: string[] = [];
    let ended = false;
    const close = service.tick().then(() => {
      ended = true;
      order.push('close ended');
    });
    // The close's start of computation, or its end when it never says it computes (the computation on the event loop).
    await until('the close to start computing or to end', () => (computing(lines) || ended ? true : undefined), 120_000, 5);
    const readyz = fetch(`${service.url}/readyz`).then(async (response) => {
      order.push(`readyz answered ${response.status}`);
      return (await response.json()) as { status: string };
    });
    await Promise.all([close, readyz]);
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect(order).toEqual(['readyz answered 200', 'close ended']);
    expect((await readyz).status).toBe('ready');
    expect(chain.submissions).toHaveLength(1);
    const closed = lines.find((l) => l.msg === 'epoch closed');
    expect(closed).toMatchObject({ epoch: 0, status: 'submitted', computedOn: 'worker', records: stored });
    expect(closed?.computeSeconds).toEqual(expect.any(Number));
  }, 300_000);

  it('a stop while the close computes abandons it after the stop grace: nothing of the epoch is recorded (the next start closes it)', async () => {
    // A worker that never answers: the computation outlasts the stop's grace whatever this machine's speed.
    const never = join(tempDir().dir, 'never-answers.mjs');
    writeFileSync(never, 'setInterval(() => undefined, 1000);\n');
    const { service, chain, dir, lines } = await startLarge(pathToFileURL(never));
    let ended = false;
    const close = service.tick().then(
      () => {
        ended = true;
        return 'ended';
      },
      (error: unknown) => error,
    );
    await until('the close to start computing or to end', () => (computing(lines) || ended ? true : undefined), 120_000, 5);
    await service.stop();
    expect(await close).toBe('ended');
    const warning = lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('stopping: the work in flight did not finish'));
    expect(warning?.unfinished).toEqual([expect.stringMatching(/^the epoch loop \(closing the epochs that ended before epoch 1\)$/)]);
    expect(lines.some((l) => l.msg === 'epoch loop step failed')).toBe(false);
    expect(chain.submissions).toEqual([]);
    const storage = openSqliteStorage(join(dir, 'validator.sqlite'));
    try {
      expect(await storage.getEpochHead(0)).toBeUndefined();
    } finally {
      await storage.close();
    }
  }, 300_000);
});
