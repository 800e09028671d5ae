import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { signatureVerify } from '@polkadot/util-crypto';
import { recomputeBundle, verifyBundle } from '@subnet/bundle';
import { canonicalJson, isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import {
  bountyBody,
  fakeChain,
  PG_SKIP_REASON,
  PG_URL,
  postExecutor,
  requirePostgresInCi,
  setupValidator,
  useCleanups,
  useKeys,
  workflowBody,
} from './helpers.js';

requirePostgresInCi();

const k = useKeys();

const cleanups = useCleanups();

const backends = [
  { name: 'SQLite', skip: false },
  { name: PG_URL === undefined ? `PostgreSQL (${PG_SKIP_REASON})` : 'PostgreSQL', skip: PG_URL === undefined },
];

for (const backend of backends) {
  describe.skipIf(backend.skip)(`epoch loop on ${backend.name}`, () => {
    const setup = (overrides: Record<string, unknown> = {}) => setupValidator(cleanups, backend.name === 'PostgreSQL', overrides);

    it('closes an epoch when the head enters the next: computes, submits once, records it, writes the signed bundle', async () => {
      const { start, dir } = await setup();
      const chain = fakeChain(k);
      const service = await start(chain);
      expect((await postExecutor(service.url, '/v1/workflow-runs', workflowBody('w1', k.miners[0]!.address))).status).toBe(201);
      expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('b1', k.miners[1]!.address))).status).toBe(201);
      chain.headBlock = 11n;
      await service.tick();
      await service.tick();
      expect(chain.submissions).toHaveLength(1);
      const path = join(dir, 'bundles', 'epoch-0.json');
      expect(existsSync(path)).toBe(true);
      const text = readFileSync(path, 'utf8');
      const bundle = verifyBundle(JSON.parse(text), (m, s, a) => signatureVerify(m, s, a).isValid);
      expect(bundle.submission.status).toBe('submitted');
      // Serialised once: the file holds the very canonical bytes that are stored and served.
      expect(text).toBe(`${canonicalJson(JSON.parse(text))}\n`);
      expect(`${await (await fetch(`${service.url}/v1/epochs/0/bundle`)).text()}\n`).toBe(text);
      expect(bundle.result.u16).toEqual(chain.submissions[0]);
      expect(recomputeBundle(bundle).identical).toBe(true);
      const metrics = await service.metrics.registry.metrics();
      expect(metrics).toMatch(/validator_submissions_total\{outcome="submitted"\} 1/);
      expect(metrics).toMatch(/validator_epoch_duration_seconds_count\{outcome="submitted"\} 1/);
    });

    it('--dry-run does everything except sign and submit', async () => {
      const { start, dir } = await setup({ chain: { epoch_length: 10, poll_ms: 20, dry_run: true } });
      const chain = fakeChain(k);
      const service = await start(chain);
      expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('b1', k.miners[1]!.address))).status).toBe(201);
      chain.headBlock = 11n;
      await service.tick();
      expect(chain.submissions).toHaveLength(0);
      const stored = JSON.parse(readFileSync(join(dir, 'bundles', 'epoch-0.json'), 'utf8')) as {
        signature: unknown;
        bundle: { submission: { status: string }; result: { u16: { weights: number[] } } };
      };
      expect(stored.signature).toBeNull();
      expect(stored.bundle.submission.status).toBe('dry_run');
      expect(stored.bundle.result.u16.weights.reduce((a, b) => a + b, 0)).toBe(65535);
    });

    it('a restart between epochs does not submit twice, and closes an epoch that ended while it was down', async () => {
      const { start } = await setup();
      const chain = fakeChain(k);
      let service = await start(chain);
      expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('b1', k.miners[1]!.address))).status).toBe(201);
      await service.stop();
      chain.headBlock = 13n; // epoch 0 ended while the validator was down
      service = await start(chain);
      expect(chain.submissions).toHaveLength(1);
      expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('b2', k.miners[2]!.address))).status).toBe(201);
      await service.stop();
      service = await start(chain); // restart within epoch 1: epoch 0 is not submitted again
      await service.tick();
      expect(chain.submissions).toHaveLength(1);
      chain.headBlock = 21n;
      await service.tick();
      expect(chain.submissions).toHaveLength(2);
      await service.stop();
      service = await start(chain);
      await service.tick();
      expect(chain.submissions).toHaveLength(2);
    });

    it('a submission interrupted by a crash is marked unknown and never resubmitted; its bundle says so', async () => {
      const { start } = await setup();
      const stuck = fakeChain(k);
      let release: (e: Error) => void = () => undefined;
      stuck.setWeights = () =>
        new Promise((_resolve, reject) => {
          release = reject;
        });
      const first = await start(stuck);
      expect((await postExecutor(first.url, '/v1/bounty-records', bountyBody('b1', k.miners[1]!.address))).status).toBe(201);
      stuck.headBlock = 11n;
      const hanging = first.tick();
      // The close computes in a worker thread (docs/spec.md G.47): its start alone may take a second on a loaded machine.
      await expect.poll(async () => (await first.storage.getEpoch(0))?.status, { timeout: 20_000 }).toBe('submitting');
      // A new process on the same database (the first is "dead" in the middle of its submission; on
      // PostgreSQL the second takes the leader lease over once the first's expires).
      await first.halt();
      const chain = fakeChain(k);
      chain.headBlock = 15n;
      const second = await start(chain);
      for (let i = 0; i < 100 && (await second.storage.getEpoch(0))?.status === 'submitting'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        await second.tick();
      }
      expect(chain.submissions).toHaveLength(0);
      const row = await second.storage.getEpoch(0);
      expect(row?.status).toBe('unknown');
      const bundle = JSON.parse(row?.bundle ?? '{}') as { bundle: { submission: { status: string; error: { code: string } } } };
      expect(bundle.bundle.submission).toMatchObject({ status: 'failed', error: { code: 'VALIDATOR_SUBMISSION_UNKNOWN' } });
      chain.headBlock = 21n;
      await second.tick();
      expect(chain.submissions).toHaveLength(1); // epoch 1 (empty) is submitted; epoch 0 is not
      release(new Error('process died'));
      // On PostgreSQL the old leader wakes up fenced out: its late write is refused, not applied.
      await hanging.catch((error: unknown) => {
        if (!isSubnetError(error, 'VALIDATOR_LEASE_LOST')) throw error;
      });
      if (second.storage.dialect === 'postgres') expect((await second.storage.getEpoch(0))?.status).toBe('unknown');
    });

    it('recovers from a chain disconnect mid-epoch: head reads fail, then resume; a dropped submission fails once and the next epoch submits', async () => {
      const { start } = await setup();
      const chain = fakeChain(k);
      const service = await start(chain);
      expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('b1', k.miners[1]!.address))).status).toBe(201);
      chain.failHeads = 3;
      for (let i = 0; i < 3; i++) await service.tick();
      expect((await fetch(`${service.url}/readyz`)).status).toBe(503);
      chain.headBlock = 11n;
      chain.failSubmits = 1;
      await service.tick();
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      expect((await service.storage.getEpoch(0))?.status).toBe('failed');
      expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('b2', k.miners[1]!.address))).status).toBe(201);
      chain.headBlock = 22n;
      await service.tick();
      expect(chain.submissions).toHaveLength(1);
      expect((await service.storage.getEpoch(1))?.status).toBe('submitted');
      const metrics = await service.metrics.registry.metrics();
      expect(metrics).toMatch(/validator_chain_reconnects_total 3/);
      expect(metrics).toMatch(/validator_chain_errors_total 3/);
      expect(metrics).toMatch(/validator_submissions_total\{outcome="failed"\} 1/);
    });
  });
}
