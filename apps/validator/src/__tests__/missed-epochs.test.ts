import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { recomputeBundle } from '@subnet/bundle';
import { describe, expect, it } from 'vitest';

import type { EpochRunnerDeps } from '../epoch-runner.js';
import { closeEndedEpochs } from '../missed-epochs.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import type { Storage } from '../storage.js';
import { bountyBody, captureLog, fakeChain, postExecutor, readBundle, setupValidator, tempDir, useCleanups, useKeys } from './helpers.js';

const k = useKeys();

const cleanups = useCleanups();

describe('every ended epoch that has records gets a bundle (missed-epochs.ts)', () => {
  it('tells a closed epoch by its head: the catch-up at an epoch boundary reads no bundle of the epochs it skips (docs/spec.md G.25)', async () => {
    const t = tempDir();
    const storage = openSqliteStorage(join(t.dir, 'v.db'));
    cleanups.push(t.cleanup, () => storage.close());
    for (let epoch = 0; epoch < 5; epoch++) {
      await storage.insertRecords([{ kind: 'bounty', recordId: `b${epoch}`, epoch, body: '{}', digest: `d${epoch}` }]);
      await storage.claimEpoch(epoch, { status: 'submitted', bundle: `{"bundle":{"epoch":${epoch}}}`, digest: `g${epoch}`, carry: '{}' });
    }
    const wholeRowsRead: number[] = [];
    const headsRead: number[] = [];
    const spied: Storage = {
      ...storage,
      getEpoch: (epoch) => {
        wholeRowsRead.push(epoch);
        return storage.getEpoch(epoch);
      },
      getEpochHead: (epoch) => {
        headsRead.push(epoch);
        return storage.getEpochHead(epoch);
      },
    };
    // Every ended epoch is closed: nothing to close, and only heads are read.
    expect(await closeEndedEpochs({ storage: spied } as unknown as EpochRunnerDeps, 5, { lastWithoutRecords: true })).toEqual([]);
    expect(headsRead).toEqual([0, 1, 2, 3, 4]);
    expect(wholeRowsRead).toEqual([]);
  });

  it('down across two epoch boundaries: the older epoch is published as missed (nothing sent), with a warning and a metric; ended epochs without records get none', async () => {
    const { dir, start } = await setupValidator(cleanups, false);
    const chain = fakeChain(k);
    let service = await start(chain, { logger: captureLog('info').logger });
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('e0', k.miners[0]!.address))).status).toBe(201);
    await service.stop();
    // Down from epoch 0 to epoch 3 (epoch_length 10): epoch 0 ended two boundaries ago, 1 and 2 had no records.
    chain.headBlock = 35n;
    const { logger, lines } = captureLog('info');
    service = await start(chain, { logger });
    expect(chain.submissions).toHaveLength(0);
    const row = await service.storage.getEpoch(0);
    expect(row?.status).toBe('missed');
    expect(existsSync(join(dir, 'bundles', 'epoch-0.json'))).toBe(true);
    const bundle = readBundle(dir, 0);
    expect(bundle.submission).toMatchObject({ status: 'missed', block: null, error: { code: 'VALIDATOR_EPOCH_MISSED' } });
    expect(bundle.result.u16.weights.reduce((a, b) => a + b, 0)).toBe(65535);
    expect(recomputeBundle(bundle).identical).toBe(true);
    expect(await service.storage.getEpoch(1)).toBeUndefined(); // no records: no bundle
    expect(lines.some((l) => l.level === 40 && typeof l.msg === 'string' && l.msg.startsWith('missed epoch') && l.epoch === 0)).toBe(true);
    // Coded, as every warning an alert may match on.
    expect(lines.find((l) => l.level === 40 && l.epoch === 0 && String(l.msg).startsWith('missed epoch'))).toMatchObject({ code: 'VALIDATOR_EPOCH_MISSED' });
    expect(await service.metrics.registry.metrics()).toMatch(/validator_missed_epochs_total 1/);
  });

  it('the epoch right before the head is still submitted after a restart, and older ones with records are missed, oldest first', async () => {
    const { start } = await setupValidator(cleanups, false);
    const chain = fakeChain(k);
    let service = await start(chain, { logger: captureLog('info').logger });
    await postExecutor(service.url, '/v1/bounty-records', bountyBody('a0', k.miners[0]!.address));
    await service.stop();
    chain.headBlock = 15n; // epoch 1: epoch 0 may still be submitted
    service = await start(chain, { logger: captureLog('info').logger });
    expect((await service.storage.getEpoch(0))?.status).toBe('submitted');
    await postExecutor(service.url, '/v1/bounty-records', bountyBody('a1', k.miners[1]!.address));
    await service.stop();
    chain.headBlock = 45n; // epoch 4: epoch 1 had records and is too late; 2 and 3 had none
    const outcomes: number[] = [];
    service = await start(chain, { logger: captureLog('info').logger });
    service.onEpoch((o) => outcomes.push(o.epoch));
    expect((await service.storage.getEpoch(1))?.status).toBe('missed');
    expect(chain.submissions).toHaveLength(1);
    await postExecutor(service.url, '/v1/bounty-records', bountyBody('a4', k.miners[2]!.address));
    chain.headBlock = 51n;
    await service.tick();
    expect((await service.storage.getEpoch(4))?.status).toBe('submitted');
    expect(outcomes).toEqual([4]);
    expect(chain.submissions).toHaveLength(2);
  });

  it('a loop that stalls across two boundaries while running publishes the skipped epoch as missed, then submits the last', async () => {
    const { start } = await setupValidator(cleanups, false);
    const chain = fakeChain(k);
    const service = await start(chain, { logger: captureLog('info').logger });
    await postExecutor(service.url, '/v1/bounty-records', bountyBody('s0', k.miners[0]!.address));
    const seen: [number, string][] = [];
    service.onEpoch((o) => seen.push([o.epoch, o.status]));
    chain.headBlock = 25n; // from epoch 0 straight to epoch 2
    await service.tick();
    expect(seen).toEqual([
      [0, 'missed'],
      [1, 'submitted'],
    ]);
    // Epoch 1 had no records and is still closed at its boundary: it scores no miner, so its weights are
    // the burn uid's alone (README, Epoch loop).
    expect(chain.submissions).toEqual([{ uids: [0], weights: [65535] }]);
  });
});
