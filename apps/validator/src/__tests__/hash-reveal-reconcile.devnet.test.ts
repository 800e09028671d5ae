import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadSigner } from '@subnet/chain';
import { SubnetError } from '@subnet/core';
import { devHotkeyUri } from '@subnet/devnet';
import { describe, expect, it } from 'vitest';

import type { ChainPort } from '../chain-port.js';
import type { EpochOutcome } from '../epoch-runner.js';
import { startValidator } from '../service.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import { connectSubnetChain } from '../subnet-chain.js';
import { bountyBody, postExecutor, silent, tempDir, testConfig, useCleanups } from './helpers.js';
import { startCommitRevealDevnet, waitFor } from './commit-reveal-devnet.js';

const cleanups = useCleanups();

/**
 * A commit-reveal v2 commit whose submission was interrupted (the process died after the commit landed, before the
 * outcome was recorded) is reconciled by another instance, whose own commit store never held its salt: the salt was
 * written into the epoch row before the commit was signed, so the new leader reveals it (docs/spec.md G.22).
 */
describe.each(['stateful', 'legacy'] as const)('a commit-reveal v2 commit reconciled by another instance (real devnet, %s runtime)', (runtime) => {
  it('is revealed from the salt kept with its epoch before sending, not left to expire', async () => {
    const devnet = await startCommitRevealDevnet({ commitRevealVersion: 2, revealPeriodEpochs: 2n, runtime });
    cleanups.push(() => devnet.stop());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const uri = devHotkeyUri(devnet.options.seed, 0);
    const chain = { endpoint: devnet.url, epoch_length: 40, poll_ms: 100 };
    const storeA = join(t.dir, 'a-commits.json');
    const storeB = join(t.dir, 'b-commits.json');
    const configA = testConfig(t.dir, { validator: { hotkey_uri: uri }, chain: { ...chain, commit_store: storeA } });

    // Instance A: the commit lands, then the process "dies" before it records the outcome or reveals anything.
    const real = await connectSubnetChain({
      endpoint: devnet.url,
      netuid: 1,
      signer: await loadSigner({ kind: 'uri', uri }),
      wait: 'inBlock',
      commitStorePath: storeA,
    });
    const landed: { commitHash?: string; block?: bigint } = {};
    const crashing: ChainPort = {
      ...real,
      setWeights: async (uids, weights, options) => {
        const submission = await real.setWeights(uids, weights, options);
        Object.assign(landed, { commitHash: submission.hashCommit?.commitHash, block: submission.block });
        throw new SubnetError('CHAIN_CONNECTION_LOST', 'the process died right after the commit landed');
      },
      findSubmission: () => Promise.reject(new Error('crashed before reconciling')),
      revealPending: () => Promise.resolve([]),
    };
    const first = await startValidator({ config: configA, chain: crashing, logger: silent });
    cleanups.push(() => first.stop());
    let halted: Promise<void> | undefined;
    first.onEpoch((o: EpochOutcome) => {
      if (o.status === 'submitting') halted ??= first.halt();
    });
    await waitFor(
      'readiness',
      async () => (await fetch(`${first.url}/readyz`)).status,
      (s) => s === 200,
      60_000,
    );
    const miner = devnet.accounts[3]?.hotkey.address ?? '';
    expect((await postExecutor(first.url, '/v1/bounty-records', bountyBody('v2-crash', miner))).status).toBe(201);
    await waitFor(
      'the interrupted commit',
      () => Promise.resolve(halted !== undefined),
      (h) => h,
      60_000,
    );
    await halted;
    // What A's epoch row holds: the commit with its salt, written before sending; nothing served (reveal_status null).
    const servedA = (await (await fetch(`${first.url}/v1/epochs`)).json()) as { epochs: { epoch: number; status: string; reveal: unknown }[] };
    expect(servedA.epochs[0]).toMatchObject({ status: 'submitting', reveal: null });
    expect(JSON.stringify(servedA)).not.toContain('salt');
    await first.stop();
    expect(landed.commitHash).toMatch(/^0x[0-9a-f]{64}$/);
    const left = openSqliteStorage(configA.database.path);
    const [row] = await left.listEpochs(1);
    await left.close();
    expect(row).toMatchObject({ status: 'submitting', revealStatus: null });
    const kept = JSON.parse(row?.reveal ?? '{}') as { scheme?: string; commit_hash?: string; commit?: { commit_hash?: string; salt?: unknown[] } };
    expect(kept).toMatchObject({ scheme: 'hash', commit_hash: landed.commitHash, commit: { commit_hash: landed.commitHash } });
    expect(kept.commit?.salt?.length).toBeGreaterThan(0);

    // Instance B: the same database and hotkey, its own commit store, which never saw the commit.
    const configB = testConfig(t.dir, { validator: { hotkey_uri: uri }, chain: { ...chain, commit_store: storeB } });
    const second = await startValidator({ config: configB, logger: silent, autoTick: false });
    cleanups.push(() => second.stop());
    const epoch = row?.epoch ?? -1;
    const reconciled = await second.storage.getEpoch(epoch);
    expect(reconciled).toMatchObject({ status: 'submitted', revealStatus: 'pending' });
    expect(JSON.parse(reconciled?.reveal ?? '{}')).toMatchObject({
      scheme: 'hash',
      commit_hash: landed.commitHash,
      commit: { commit_hash: landed.commitHash },
    });
    const outcome = await waitFor(
      'the reveal outcome',
      async () => {
        await second.tick();
        return (await second.storage.getEpoch(epoch))?.revealStatus;
      },
      (s) => s !== 'pending',
      60_000,
    );
    expect(outcome).toBe('revealed');
    const recorded = JSON.parse((await second.storage.getEpoch(epoch))?.reveal ?? '{}') as Record<string, unknown>;
    expect(recorded).toMatchObject({ commit_hash: landed.commitHash });
    expect(recorded['commit']).toBeUndefined();
    // B's own store never held the commit: the salt came from the epoch row.
    const own = existsSync(storeB) ? (JSON.parse(readFileSync(storeB, 'utf8')) as { commits: unknown[] }).commits : [];
    expect(own).toEqual([]);
  }, 180_000);
});
