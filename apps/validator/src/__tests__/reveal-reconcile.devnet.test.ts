import { loadSigner } from '@subnet/chain';
import { SubnetError } from '@subnet/core';
import { devHotkeyUri } from '@subnet/devnet';
import { describe, expect, it } from 'vitest';

import type { ChainPort } from '../chain-port.js';
import type { EpochOutcome } from '../epoch-runner.js';
import { startValidator } from '../service.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import { connectSubnetChain } from '../subnet-chain.js';
import { timelockRecordFromJson } from '../timelock-record-json.js';
import { bountyBody, postExecutor, silent, tempDir, testConfig, useCleanups } from './helpers.js';
import { startCommitRevealDevnet, waitFor } from './commit-reveal-devnet.js';

interface ServedEpoch {
  readonly epoch: number;
  readonly status: string;
  readonly submission: { readonly status?: string; readonly call?: string; readonly extrinsic_hash?: string; readonly reconciled?: unknown } | null;
  readonly reveal: Record<string, unknown> | null;
}

const until = <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => waitFor(what, read, done, 120_000);

const cleanups = useCleanups();

describe.each(['stateful', 'legacy'] as const)(
  'a timelocked commit found on chain by reconciliation after a crash (real devnet, commit-reveal v4, %s runtime)',
  (runtime) => {
    it('gets the commit record rebuilt from its extrinsic and its reveal confirmed `revealed`, as a commit that returned normally', async () => {
      const devnet = await startCommitRevealDevnet({ runtime, beacon: { period: 12 } });
      cleanups.push(() => devnet.stop());
      const t = tempDir();
      cleanups.push(t.cleanup);
      const uri = devHotkeyUri(devnet.options.seed, 0);
      const config = testConfig(t.dir, { validator: { hotkey_uri: uri }, chain: { endpoint: devnet.url, epoch_length: 40, poll_ms: 100 } });

      // First life: the commit lands, then the process "dies" before it can record the outcome. Its chain access
      // cannot search (the crash is before any reconciliation), so the row is left `submitting` with its claim.
      const real = await connectSubnetChain({
        endpoint: devnet.url,
        netuid: 1,
        signer: await loadSigner({ kind: 'uri', uri }),
        wait: 'inBlock',
        commitStorePath: config.chain.commit_store,
      });
      const landed: { block?: bigint; extrinsicHash?: string; commitHash?: string } = {};
      const crashing: ChainPort = {
        ...real,
        setWeights: async (uids, weights) => {
          const submission = await real.setWeights(uids, weights);
          Object.assign(landed, { block: submission.block, extrinsicHash: submission.extrinsicHash, commitHash: submission.timelock?.commitHash });
          throw new SubnetError('CHAIN_CONNECTION_LOST', 'the process died right after the commit landed');
        },
        findSubmission: () => Promise.reject(new Error('crashed before reconciling')),
      };
      const first = await startValidator({ config, chain: crashing, logger: silent });
      cleanups.push(() => first.stop());
      let halted: Promise<void> | undefined;
      first.onEpoch((o: EpochOutcome) => {
        // Stop following the chain at once: no later tick may reconcile (what a killed process looks like).
        if (o.status === 'submitting') halted ??= first.halt();
      });
      const miner = devnet.accounts[3]?.hotkey.address ?? '';
      await until(
        'readiness',
        async () => (await fetch(`${first.url}/readyz`)).status,
        (s) => s === 200,
      );
      expect((await postExecutor(first.url, '/v1/bounty-records', bountyBody('crash-1', miner))).status).toBe(201);
      await until(
        'the interrupted commit',
        () => Promise.resolve(halted !== undefined),
        (h) => h,
      );
      await halted;
      await first.stop();
      expect(landed.commitHash).toMatch(/^0x[0-9a-f]{64}$/);

      const left = openSqliteStorage(config.database.path);
      const [row] = await left.listEpochs(1);
      await left.close();
      expect(row).toMatchObject({ status: 'submitting', revealStatus: null, reveal: null });

      // Second life, with the real chain access: start-up reconciliation finds the commit and records its reveal as pending.
      // Ticks are driven by the test: the start-up tick reconciles; confirmation runs on the ticks after it.
      const service = await startValidator({ config, logger: silent, autoTick: false });
      cleanups.push(() => service.stop());
      const epochs = async (): Promise<ServedEpoch[]> => {
        await service.tick();
        return ((await (await fetch(`${service.url}/v1/epochs`)).json()) as { epochs: ServedEpoch[] }).epochs;
      };
      const reconciled = await service.storage.getEpoch(row?.epoch ?? -1);
      expect(reconciled).toMatchObject({ status: 'submitted', revealStatus: 'pending' });
      // The rebuilt record is the commit the chain holds: same hash, block and extrinsic; its reveal block is
      // predicted from the state right before the commit's block (checked against the chain's reveal below).
      const pending = JSON.parse(reconciled?.reveal ?? '{}') as { commit_hash?: string; due_block?: string; record?: string };
      expect(pending.commit_hash).toBe(landed.commitHash);
      expect(BigInt(pending.due_block ?? '0')).toBeGreaterThan(landed.block ?? 0n);
      expect(timelockRecordFromJson(pending.record ?? '')).toMatchObject({
        commitHash: landed.commitHash,
        commitBlock: landed.block,
        extrinsicHash: landed.extrinsicHash,
        hotkey: service.hotkey,
        netuid: 1,
      });

      const served = await until('the reveal outcome', epochs, (list) => list.find((e) => e.epoch === row?.epoch)?.reveal?.['status'] === 'revealed');
      const epoch = served.find((e) => e.epoch === row?.epoch);
      expect(epoch?.submission).toMatchObject({ status: 'submitted', extrinsic_hash: landed.extrinsicHash, reconciled: expect.any(Object) });
      expect(epoch?.submission?.call).toMatch(/^SubtensorModule\.commit_timelocked_(mechanism_)?weights$/);
      expect(epoch?.reveal).toMatchObject({ status: 'revealed', commit_hash: landed.commitHash, due_block: pending.due_block });
      // The chain reveals within the predicted reveal epoch (tempo 10): from its first block until the round's pulse is stored.
      const revealBlock = BigInt(String(epoch?.reveal?.['block']));
      const due = BigInt(pending.due_block ?? '0');
      expect(revealBlock >= due && revealBlock <= due + 10n).toBe(true);
      const metrics = await (await fetch(`${service.url}/metrics`)).text();
      expect(metrics).toMatch(/validator_submissions_total\{outcome="reconciled_submitted"\} 1/);
      expect(metrics).toMatch(/validator_reveal_confirmations_total\{outcome="revealed",reason=""\} 1/);
    }, 240_000);
  },
);
