import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';

import { signatureVerify } from '@polkadot/util-crypto';
import { recomputeBundle, verifyBundle } from '@subnet/bundle';
import type { Bundle } from '@subnet/bundle';
import { connectChain } from '@subnet/chain';
import { devHotkeyUri, startDevnet } from '@subnet/devnet';
import { describe, expect, it } from 'vitest';

import type { EpochOutcome } from '../epoch-runner.js';
import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
import { postExecutor, silent, tempDir, testConfig, useCleanups } from './helpers.js';

/**
 * Issue 16 item 5: two validators of the project (each its own hotkey, SQLite file and bundles folder) on one
 * devnet, each configured with the other as its peer. Executors feed both with term results; after each
 * close each one sends the other its own scores of the epoch it just closed, which the other counts in its
 * close of the next epoch (docs/spec.md G.4), and both set weights on chain.
 */

interface PeerScoreInput {
  readonly record_id: string;
  readonly validator_hotkey: string;
  readonly challenge_id: string;
  readonly miner_hotkey: string;
  readonly score: number;
}

const cleanups = useCleanups();

/**
 * A TCP relay on 127.0.0.1, listening from the start on a port of its own: each connection is passed to the port
 * `to` names (refused until then). Each validator names the other's relay as its peer, so neither has to listen on a
 * port chosen before it starts (a port found free and closed can be taken by another test file meanwhile).
 */
async function relay(): Promise<{ url: string; to: (port: number) => void; close: () => Promise<void> }> {
  let target: number | undefined;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client)).on('error', () => client.destroy());
    if (target === undefined) {
      client.destroy();
      return;
    }
    const upstream = connect({ host: '127.0.0.1', port: target });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream)).on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    to: (port) => {
      target = port;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('two validators exchanging scores on a real devnet', () => {
  it('each aggregates the scores the other sent for the epoch it had just closed, and both land weights', async () => {
    const devnet = await startDevnet({ neurons: 6, validators: 2, tempo: 360, weightsSetRateLimit: 0n, blockTime: 100 });
    cleanups.push(() => devnet.stop());
    const miners = [2, 3, 4, 5].map((uid) => devnet.accounts[uid]?.hotkey.address ?? '');
    const relays = [await relay(), await relay()];
    for (const r of relays) cleanups.push(() => r.close());
    const services: ValidatorService[] = [];
    const outcomes: EpochOutcome[][] = [[], []];
    for (const i of [0, 1]) {
      const t = tempDir();
      cleanups.push(t.cleanup);
      const config = testConfig(t.dir, {
        validator: { hotkey_uri: devHotkeyUri(devnet.options.seed, i) },
        server: { port: 0, executor_token: `peer-exchange-token-${i}-0123456789` },
        // The peer's document has the receiver's whole next epoch (150 blocks) to arrive.
        chain: { endpoint: devnet.url, epoch_length: 150, poll_ms: 500, commit_store: join(t.dir, 'commits.json') },
        peers: { urls: [relays[1 - i]!.url], attempts: 6, backoff_ms: 100, timeout_ms: 5000 },
      });
      const service = await startValidator({ config, logger: silent });
      cleanups.push(() => service.stop());
      services.push(service);
      relays[i]!.to(Number(new URL(service.url).port));
      service.onEpoch((o) => outcomes[i]?.push(o));
    }
    const [a, b] = services as [ValidatorService, ValidatorService];

    // Executors report term results to each validator in every epoch; the two disagree a little.
    const fed = [new Set<number>(), new Set<number>()];
    const feed = async (i: number): Promise<void> => {
      const service = services[i] as ValidatorService;
      const epoch = service.currentEpoch();
      if (epoch === undefined || fed[i]?.has(epoch) === true) return;
      fed[i]?.add(epoch);
      for (const [m, miner] of miners.entries()) {
        const res = await postExecutor(
          service.url,
          '/v1/term-results',
          {
            record_id: `term-${epoch}-${m}`,
            miner_hotkey: miner,
            results: [0, 1, 2, 3].map((task) => ({ task_id: `t${task}`, tests_passed: task <= m + i ? 1 : 0, tests_total: 1, timed_out: false })),
          },
          `peer-exchange-token-${i}-0123456789`,
        );
        expect(res.status).toBeLessThan(300);
      }
    };

    // Each bundle is read and its signature verified once.
    const verified = new Map<string, Bundle>();
    const bundleOf = (i: number, epoch: number): Bundle | undefined => {
      const path = outcomes[i]?.find((o) => o.epoch === epoch)?.bundlePath;
      if (path === undefined || path === null) return undefined;
      const known = verified.get(path);
      if (known !== undefined) return known;
      const bundle = verifyBundle(JSON.parse(readFileSync(path, 'utf8')), (m, s, k) => signatureVerify(m, s, k).isValid);
      verified.set(path, bundle);
      return bundle;
    };
    const fromPeer = (bundle: Bundle, peer: string): PeerScoreInput[] =>
      (bundle.inputs as { peer_scores: PeerScoreInput[] }).peer_scores.filter((p) => p.validator_hotkey === peer);
    /** The first epoch whose bundle at validator i lists the other's scores (whatever became of its weights). */
    const exchanged = (i: number): number | undefined =>
      outcomes[i]?.find((o) => o.bundlePath !== null && fromPeer(bundleOf(i, o.epoch) as Bundle, services[1 - i]?.hotkey ?? '').length > 0)?.epoch;
    const submitted = (i: number): boolean => outcomes[i]?.some((o) => o.status === 'submitted') === true;

    const deadline = Date.now() + 400_000;
    while ((exchanged(0) === undefined || exchanged(1) === undefined || !submitted(0) || !submitted(1)) && Date.now() < deadline) {
      await feed(0);
      await feed(1);
      await new Promise((r) => setTimeout(r, 500));
    }
    const epochs = [exchanged(0), exchanged(1)];
    expect(epochs, 'both validators aggregated the other one’s scores').not.toContain(undefined);

    for (const i of [0, 1]) {
      const self = services[i] as ValidatorService;
      const other = services[1 - i] as ValidatorService;
      const n = epochs[i] as number;
      const bundle = bundleOf(i, n) as Bundle;
      const peerScores = fromPeer(bundle, other.hotkey);
      // The other's scores are the own scores of its signed bundle of the epoch before: the epoch it had
      // just closed when it sent them.
      const theirs = bundleOf(1 - i, n - 1);
      expect(theirs, `validator ${1 - i} closed epoch ${n - 1}`).toBeDefined();
      const term = theirs?.result.challenges.find((c) => c.id === 'term');
      expect(peerScores.map((p) => [p.miner_hotkey, p.score]).sort()).toEqual(term?.own_scores.map((s) => [s.miner_hotkey, s.score]).sort());
      // Stored by the receiver under the close that counts them, with the epoch they are of.
      const stored = (await self.storage.records(n))
        .filter((r) => r.kind === 'peer_score')
        .map((r) => JSON.parse(r.body) as { epoch: number; validator_hotkey: string });
      expect(stored).toContainEqual(expect.objectContaining({ epoch: n - 1, validator_hotkey: other.hotkey }));
      // Aggregated, not excluded: one evaluation per miner from the peer, next to this validator's own.
      expect(bundle.result.excluded.filter((e) => e.list === 'peer_scores')).toEqual([]);
      const aggregation = JSON.stringify(bundle.result.aggregation);
      expect(aggregation.split(`"validator_hotkey":"${other.hotkey}"`).length - 1).toBeGreaterThanOrEqual(peerScores.length);
      expect(recomputeBundle(bundle).identical).toBe(true);
      const metrics = await self.metrics.registry.metrics();
      expect(Number(/validator_peer_publish_total\{result="delivered"\} (\d+)/.exec(metrics)?.[1] ?? 0)).toBeGreaterThanOrEqual(1);
    }

    // Both validators' weights are on chain (a close on a loaded machine may fail its preflight or be
    // missed; each validator submitted at least one epoch).
    expect([submitted(0), submitted(1)]).toEqual([true, true]);
    const reader = await connectChain({ network: devnet.url });
    cleanups.push(() => reader.close());
    for (const uid of [0, 1]) {
      const weights = await reader.request('weights', async (api) => {
        const query = api.query.subtensorModule?.weights;
        if (query === undefined) throw new Error('the devnet metadata has no SubtensorModule.Weights');
        return (await query(devnet.netuid, uid)).toJSON() as unknown[];
      });
      expect(weights.length, `weights of uid ${uid}`).toBeGreaterThan(0);
    }
    expect(a.hotkey).not.toBe(b.hotkey);
  }, 480_000);
});
