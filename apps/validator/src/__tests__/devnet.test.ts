import { readdirSync, readFileSync } from 'node:fs';

import { join } from 'node:path';

import { signatureVerify } from '@polkadot/util-crypto';
import { recomputeBundle, verifyBundle } from '@subnet/bundle';
import { connectChain } from '@subnet/chain';
import { devHotkeyUri, startDevnet } from '@subnet/devnet';
import pino from 'pino';
import { describe, expect, it } from 'vitest';

import { runDemo } from '../demo.js';
import type { EpochOutcome } from '../epoch-runner.js';
import { startValidator } from '../service.js';
import { bountyBody, postExecutor, silent, tempDir, testConfig } from './helpers.js';
import { startCommitRevealDevnet } from './commit-reveal-devnet.js';

/** Waits until the service answers /readyz with 200, as a client should before its first POST. */
async function untilReady(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if ((await fetch(`${url}/readyz`)).status === 200) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not become ready in 30 s`);
}

describe('on a real devnet (@subnet/devnet over WebSocket JSON-RPC, @subnet/chain)', () => {
  it('the default run: records over HTTP, weights land on the devnet each epoch, signed bundles that recompute identically', async () => {
    const t = tempDir();
    const lines: string[] = [];
    const sink = { write: (s: string) => lines.push(s) } as unknown as NodeJS.WritableStream;
    try {
      // Its embedded defaults are a configuration start-up has nothing to warn about (warnings on the first
      // run a user makes would teach them to ignore warnings).
      const logged: string[] = [];
      const logger = pino({ level: 'warn' }, { write: (line: string) => logged.push(line) });
      const { outcomes } = await runDemo({ epochs: 2, out: sink, dir: t.dir, logger });
      expect(logged).toEqual([]);
      expect(outcomes.map((o) => o.status)).toEqual(['submitted', 'submitted']);
      for (const o of outcomes) {
        expect(o.submission?.extrinsic_hash).toMatch(/^0x[0-9a-f]{64}$/);
        expect(o.submission?.call).toMatch(/^SubtensorModule\.set_(mechanism_)?weights$/);
        const bundle = verifyBundle(JSON.parse(readFileSync(o.bundlePath ?? '', 'utf8')), (m, s, a) => signatureVerify(m, s, a).isValid);
        expect(bundle.result.u16).toEqual(o.u16);
        expect(recomputeBundle(bundle).identical).toBe(true);
      }
      expect(lines.join('')).toContain('| epoch | status | block | extrinsic | weights (uid: u16) | bundle |');
      // The epoch it started in is closed at its boundary without records, and its bundle is in the folder too: the
      // run says so, so that a verify of the folder does not count more bundles than the table shows.
      const first = outcomes[0]?.epoch ?? 0;
      const started =
        lines
          .join('')
          .split('\n')
          .find((l) => l.startsWith(`epoch ${first - 1} was closed too`)) ?? '';
      expect(started).toMatch(
        /^epoch \d+ was closed too, with no records fed to it: submitted at block \d+, weights 0: 65535 \(no miner scored: all weight to the burn uid, scoring\.pipeline\.burn_uid 0\), bundle /,
      );
      expect(started.endsWith(`bundle ${join(t.dir, 'bundles', `epoch-${first - 1}.json`)}`)).toBe(true);
      expect(readdirSync(join(t.dir, 'bundles')).sort()).toEqual([first - 1, first, first + 1].map((e) => `epoch-${e}.json`).sort());
      // It ends by saying where the bundles are and how anyone checks them.
      // (the whole command, runnable as printed from the repository root), and that the folder stays.
      const text = lines.join('');
      expect(text).toContain(`check them: auditor-replay verify ${join(t.dir, 'bundles')}\n`);
      expect(text).toContain(`(from this repository's root: node apps/auditor-replay/bin/auditor-replay.js verify ${join(t.dir, 'bundles')})\n`);
      expect(text.trimEnd().split('\n').at(-1)).toBe(`the devnet and the validator have stopped; ${t.dir} stays until you remove it (rm -rf ${t.dir})`);
    } finally {
      t.cleanup();
    }
  }, 240_000);

  it('a chain disconnect mid-epoch is survived: the connection comes back and the next epoch submits', async () => {
    const devnet = await startDevnet({ neurons: 6, validators: 2, tempo: 360, weightsSetRateLimit: 0n, blockTime: 100 });
    const t = tempDir();
    const outcomes: EpochOutcome[] = [];
    const config = testConfig(t.dir, {
      validator: { hotkey_uri: devHotkeyUri(devnet.options.seed, 0) },
      chain: { endpoint: devnet.url, epoch_length: 15, poll_ms: 100 },
    });
    const service = await startValidator({ config, logger: silent });
    try {
      service.onEpoch((o) => outcomes.push(o));
      await untilReady(service.url);
      const miner = devnet.accounts[3]?.hotkey.address ?? '';
      expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('before-drop', miner))).status).toBe(201);
      devnet.faults.dropConnections();
      const deadline = Date.now() + 60_000;
      while (!outcomes.some((o) => o.status === 'submitted') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(outcomes.some((o) => o.status === 'submitted')).toBe(true);
      const metrics = await service.metrics.registry.metrics();
      const reconnects = Number(/validator_chain_reconnects_total (\d+)/.exec(metrics)?.[1] ?? 0);
      expect(reconnects).toBeGreaterThanOrEqual(1);
    } finally {
      await service.stop();
      await devnet.stop();
      t.cleanup();
    }
  }, 90_000);

  it('on a commit-reveal v2 subnet it commits, keeps the salt in its commit store, embargoes the bundle, and reveals in the window', async () => {
    // A reveal window is one chain epoch (10 blocks, 2 s here), two chain epochs after the commit's; validator epochs
    // (40 blocks) are longer, so the loop is idle, and revealing, for most of every window.
    const devnet = await startCommitRevealDevnet({ commitRevealVersion: 2, revealPeriodEpochs: 2n });
    const t = tempDir();
    const outcomes: EpochOutcome[] = [];
    const config = testConfig(t.dir, {
      validator: { hotkey_uri: devHotkeyUri(devnet.options.seed, 0) },
      chain: { endpoint: devnet.url, epoch_length: 40, poll_ms: 100, commit_store: join(t.dir, 'commits.json') },
    });
    const service = await startValidator({ config, logger: silent });
    const reader = await connectChain({ network: devnet.url });
    const weightsOfUid0 = () =>
      reader.request('weights', async (api) => {
        const query = api.query.subtensorModule?.weights;
        if (query === undefined) throw new Error('the devnet metadata has no SubtensorModule.Weights');
        return (await query(devnet.netuid, 0)).toJSON() as unknown[];
      });
    try {
      service.onEpoch((o) => outcomes.push(o));
      await untilReady(service.url);
      const miner = devnet.accounts[3]?.hotkey.address ?? '';
      expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('cr-v2', miner))).status).toBe(201);
      let deadline = Date.now() + 60_000;
      while (!outcomes.some((o) => o.status === 'submitted') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const committed = outcomes.find((o) => o.status === 'submitted');
      // The submission is the confirmed commit, not weights: nothing is set until the reveal.
      expect(committed?.submission?.call).toMatch(/^SubtensorModule\.commit_(mechanism_)?weights$/);
      // Until this validator reveals the commit, its weights are not served (docs/spec.md G.22): the window opens
      // at least one chain epoch (11 blocks, 2.2 s) after the commit.
      const epoch = committed?.epoch ?? -1;
      const early = await fetch(`${service.url}/v1/epochs/${epoch}/bundle`);
      expect(early.status).toBe(425);
      expect(((await early.json()) as { error: { message: string } }).error.message).toMatch(
        new RegExp(`^epoch ${epoch}'s weights are committed with commit-reveal v2 and this validator reveals them from block \\d+;`),
      );
      const storedHashes = () =>
        (JSON.parse(readFileSync(join(t.dir, 'commits.json'), 'utf8')) as { commits: { commit_hash: string }[] }).commits.map((c) => c.commit_hash);
      const [first] = storedHashes();
      expect(first).toMatch(/^0x[0-9a-f]{64}$/);
      deadline = Date.now() + 60_000;
      let weights: unknown[] = [];
      while (weights.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        weights = await weightsOfUid0();
      }
      expect(weights.length).toBeGreaterThan(0);
      // Once the client has confirmed the reveal (WeightsRevealed, Weights read back) it drops that
      // commit's salt; later epochs may have committed again.
      while (storedHashes().includes(first ?? '') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(storedHashes()).not.toContain(first);
      // The reveal lifted the embargo: the bundle is served with the signed outcome, naming the reveal's block.
      // (the client drops the salt inside revealPending; the outcome is recorded when it returns)
      await expect.poll(async () => (await fetch(`${service.url}/v1/epochs/${epoch}/bundle`)).status, { timeout: 10_000 }).toBe(200);
      const doc = (await (await fetch(`${service.url}/v1/epochs/${epoch}/bundle`)).json()) as { reveal?: Record<string, unknown> };
      expect(doc.reveal).toMatchObject({ kind: 'reveal_attestation', status: 'revealed', commit_hash: first, reveal_round: null });
      expect(doc.reveal?.['reveal_block']).toMatch(/^\d+$/);
    } finally {
      await reader.close();
      await service.stop();
      await devnet.stop();
      t.cleanup();
    }
  }, 120_000);
});
