import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { openSqliteStorage } from '../sqlite-storage.js';
import type { Keys } from './helpers.js';
import { bountyBody, postExecutor, startChildValidator, TOKEN, useKeys, useTempDir } from './helpers.js';

/** Sends ingests from `workers` concurrent loops until stopped; returns the ids acknowledged with a 2xx. */
function burst(url: string, k: Keys, prefix: string, workers = 32): { stop: () => void; acked: string[]; done: Promise<void> } {
  const acked: string[] = [];
  let running = true;
  let next = 0;
  const loop = async (): Promise<void> => {
    while (running) {
      const signal = AbortSignal.timeout(5000);
      const id = `${prefix}-${next++}`;
      try {
        const res = await fetch(`${url}/v1/bounty-records`, {
          method: 'POST',
          signal,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
          body: JSON.stringify(bountyBody(id, k.miners[next % 4]!.address, next % 50)),
        });
        if (res.status >= 200 && res.status < 300) acked.push(id);
      } catch {
        return; // the process died: this request was never acknowledged
      }
    }
  };
  const done = Promise.all(Array.from({ length: workers }, () => loop())).then(() => undefined);
  return { stop: () => (running = false), acked, done };
}

/** Waits for the client loops, at most 3 s: a request cut by the kill never gets a response (nor an ack). */
function settle(done: Promise<void>): Promise<void> {
  return Promise.race([done, new Promise<void>((resolve) => setTimeout(resolve, 3000))]);
}

const k = useKeys();
const t = useTempDir();

describe('durability', () => {
  it('every record acknowledged with a 2xx survives SIGKILL during a burst of ingests, and the restarted validator serves it', async () => {
    const dir = join(t.dir, 'kill');
    const first = await startChildValidator(dir, 60_000, 'pipe');
    const load = burst(first.url, k, 'kill');
    while (load.acked.length < 400) await new Promise((r) => setTimeout(r, 5));
    first.proc.kill('SIGKILL');
    await first.exited;
    expect(first.proc.signalCode).toBe('SIGKILL'); // the validator process itself died, not a wrapper
    load.stop();
    await settle(load.done);
    const acked = [...load.acked];
    expect(acked.length).toBeGreaterThanOrEqual(400);
    const storage = openSqliteStorage(join(dir, 'validator.sqlite'));
    const missing: string[] = [];
    for (const id of acked) if ((await storage.findRecord('bounty', id)) === undefined) missing.push(id);
    await storage.close();
    expect(missing).toEqual([]);
    const second = await startChildValidator(dir, 60_000, 'pipe');
    const again = await postExecutor(second.url, '/v1/bounty-records', bountyBody(acked[0]!, k.miners[1]!.address, 1));
    expect([200, 409]).toContain(again.status); // the id is known after the restart
    second.proc.kill('SIGKILL');
    await second.exited;
  }, 120_000);

  it('SIGTERM finishes in-flight requests and exits 0; every acknowledged record is stored', async () => {
    const dir = join(t.dir, 'term');
    const first = await startChildValidator(dir, 60_000, 'pipe');
    const load = burst(first.url, k, 'term');
    while (load.acked.length < 200) await new Promise((r) => setTimeout(r, 5));
    first.proc.kill('SIGTERM');
    const code = await first.exited;
    load.stop();
    await settle(load.done);
    expect(code).toBe(0);
    const storage = openSqliteStorage(join(dir, 'validator.sqlite'));
    const missing: string[] = [];
    for (const id of load.acked) if ((await storage.findRecord('bounty', id)) === undefined) missing.push(id);
    await storage.close();
    expect(missing).toEqual([]);
  }, 90_000);
});
