import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { EpochOutcome } from '../epoch-runner.js';
import { bountyBody, captureLog, fakeChain, postExecutor, setupValidator, useCleanups, useKeys } from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

describe('bundles.dir refuses the file while running (made read-only, full, or replaced)', () => {
  it('the close goes on, says why with the epoch and code, and the file is written once the folder takes files again (docs/spec.md G.35)', async () => {
    const { start, dir } = await setupValidator(cleanups, false);
    const chain = fakeChain(k);
    const { logger, lines } = captureLog('info');
    const service = await start(chain, { logger });
    const outcomes: EpochOutcome[] = [];
    service.onEpoch((o) => outcomes.push(o));
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('b1', k.miners[0]!.address))).status).toBe(201);
    // A regular file where the folder was: every write there fails (for root too), as on a read-only mount.
    const bundles = join(dir, 'bundles');
    rmSync(bundles, { recursive: true });
    writeFileSync(bundles, '');
    chain.headBlock = 11n;
    await service.tick();
    await service.tick();
    // Before: the close threw ("epoch loop step failed" with the bare EEXIST/ENOTDIR, no epoch, no code), emitted no
    // outcome, and the file of epoch 0 was never written while the process ran.
    expect(lines.filter((l) => l.msg === 'epoch loop step failed')).toHaveLength(0);
    const refused = lines.filter((l) => l.code === 'BUNDLE_FILE_NOT_WRITTEN');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ epoch: 0, dir: bundles });
    expect(String(refused[0]!.msg)).toMatch(
      /^cannot write the bundle file of epoch 0 to bundles\.dir .* \(E[A-Z]+: .*\): the epoch's outcome and signed bundle are stored and served at \/v1\/epochs\/0\/bundle; the file is written once the folder can be written again$/,
    );
    expect(outcomes.map((o) => [o.epoch, o.status, o.bundlePath])).toEqual([[0, 'submitted', null]]);
    expect(chain.submissions).toHaveLength(1);
    const served = await (await fetch(`${service.url}/v1/epochs/0/bundle`)).text();

    // Still refused on later ticks: one warning, not one a tick.
    await service.tick();
    await service.tick();
    expect(lines.filter((l) => l.msg === 'writing held bundle files failed; retrying every tick')).toHaveLength(1);

    rmSync(bundles);
    await service.tick();
    const path = join(bundles, 'epoch-0.json');
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(`${served}\n`);
    expect(lines.filter((l) => l.msg === 'bundle file of epoch 0 written')).toHaveLength(1);
  });
});
