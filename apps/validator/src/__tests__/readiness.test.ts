import { createServer, connect } from 'node:net';
import type { Server, Socket } from 'node:net';

import { Keyring } from '@polkadot/keyring';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { afterEach, describe, expect, it } from 'vitest';

import type { ChainPort } from '../chain-port.js';
import { observeMetagraphReads } from '../readiness.js';
import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
import type { FakeChain, Keys } from './helpers.js';
import {
  bountyBody,
  captureLog,
  fakeChain,
  freshSchema,
  keys,
  PG_SKIP_REASON,
  PG_URL,
  postExecutor,
  requirePostgresInCi,
  silent,
  tempDir,
  testConfig,
} from './helpers.js';

requirePostgresInCi();

interface Ready {
  status: string;
  error?: { code: string; message: string };
  checks: Record<string, { ok: boolean; detail: string }>;
}

const readyz = async (service: ValidatorService): Promise<{ status: number; body: Ready }> => {
  const res = await fetch(`${service.url}/readyz`);
  return { status: res.status, body: (await res.json()) as Ready };
};

describe('/readyz: ready only when the head is fresh, the hotkey may validate and storage answers', () => {
  let service: ValidatorService | undefined;
  let cleanup: (() => void) | undefined;
  afterEach(async () => {
    await service?.stop();
    service = undefined;
    cleanup?.();
    cleanup = undefined;
  });

  const start = async (k: Keys, chain: FakeChain, overrides: Record<string, unknown> = {}): Promise<ValidatorService> => {
    const t = tempDir();
    cleanup = t.cleanup;
    const base = testConfig(t.dir);
    service = await startValidator({ config: { ...base, chain: { ...base.chain, ...overrides } }, chain, logger: silent, autoTick: false });
    return service;
  };

  it('says where the uid went when the hotkey leaves the metagraph while running: a hotkey swap, warned once with the new hotkey (docs/spec.md G.21)', async () => {
    const k = await keys();
    const chain = fakeChain(k);
    chain.neurons[0] = { ...chain.neurons[0]!, coldkey: '5Cold', registeredAt: 3n };
    const t = tempDir();
    cleanup = t.cleanup;
    const { logger, lines } = captureLog('warn');
    service = await startValidator({ config: testConfig(t.dir), chain, logger, autoTick: false });
    expect((await readyz(service)).status).toBe(200);
    // swap_hotkey: uid 0 is another hotkey's, with the registration block it had
    await cryptoWaitReady();
    const newHotkey = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri('//swapped-validator').address;
    chain.neurons[0] = { ...chain.neurons[0], hotkey: newHotkey };
    chain.headBlock += 10n; // next epoch: the metagraph is read again
    await service.tick();
    const swapped = await readyz(service);
    expect(swapped.status).toBe(503);
    expect(swapped.body.checks.hotkey?.detail).toBe(
      `hotkey ${k.validator.address} is not registered on netuid 1: a hotkey swap moved uid 0 to ${newHotkey} (registered since block 3)`,
    );
    const said = lines.filter((l) => l.code === 'HOTKEY_SWAPPED');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: 40, hotkey: k.validator.address, uid: 0, newHotkey, registeredAt: '3' });
    expect(said[0]?.msg).toContain("restart the validator with the new hotkey's wallet (wallet.hotkey)");
    chain.headBlock += 10n;
    await service.tick();
    expect(lines.filter((l) => l.code === 'HOTKEY_SWAPPED')).toHaveLength(1);
  });

  it('names the failing check: hotkey not registered, then registered without a permit, then ready', async () => {
    const k = await keys();
    const chain = fakeChain(k);
    const self = chain.neurons.shift();
    const s = await start(k, chain);
    const unregistered = await readyz(s);
    expect(unregistered.status).toBe(503);
    expect(unregistered.body.error?.code).toBe('NOT_READY');
    expect(unregistered.body.checks.hotkey?.ok).toBe(false);
    expect(unregistered.body.error?.message).toContain('is not registered on netuid 1');
    expect(unregistered.body.checks.chain_head?.ok).toBe(true);
    expect(unregistered.body.checks.storage?.ok).toBe(true);

    chain.neurons.unshift({ ...self!, validatorPermit: false });
    chain.headBlock += 10n; // next epoch: the metagraph is read again
    await s.tick();
    const noPermit = await readyz(s);
    expect(noPermit.status).toBe(503);
    expect(noPermit.body.error?.message).toContain('has no validator permit');

    chain.neurons[0] = self!;
    chain.headBlock += 10n;
    await s.tick();
    const ready = await readyz(s);
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    expect(Object.values(ready.body.checks).every((c) => c.ok)).toBe(true);
  });

  it("the subnet owner's hotkey without a permit is ready where the runtime exempts the owner (Subtensor main), not on finney spec 393", async () => {
    const k = await keys();
    const chain = fakeChain(k);
    const self = chain.neurons[0]!;
    chain.neurons[0] = { ...self, validatorPermit: false };
    let exempt = true;
    chain.view = () => Promise.resolve({ block: chain.headBlock, tempo: 10, neurons: chain.neurons, ownerHotkey: self.hotkey, ownerStakeExempt: exempt });
    const s = await start(k, chain);
    await s.tick();
    const owner = await readyz(s);
    expect(owner.status).toBe(200);
    expect(owner.body.checks.hotkey?.detail).toBe(`hotkey is uid ${self.uid}, the subnet owner's: the chain takes its weights without a validator permit`);
    exempt = false;
    chain.headBlock += 10n;
    await s.tick();
    const legacy = await readyz(s);
    expect(legacy.status).toBe(503);
    expect(legacy.body.error?.message).toContain('has no validator permit');
  });

  it("says why the metagraph has not been read: the last read's failure, until a read succeeds", async () => {
    const k = await keys();
    const chain = fakeChain(k);
    const view = chain.view.bind(chain);
    let failing = true;
    // A node without state_getRuntimeVersion fails every metagraph read (docs/spec.md G.33).
    chain.view = () => (failing ? Promise.reject(new Error('the node cannot serve state_getRuntimeVersion at block 7')) : view());
    const t = tempDir();
    cleanup = t.cleanup;
    const { logger, lines } = captureLog('error');
    service = await startValidator({ config: testConfig(t.dir), chain, logger });
    await expect
      .poll(async () => (await readyz(service!)).body.checks.hotkey?.detail, { timeout: 10_000 })
      .toMatch(/^the metagraph has not been read yet: the last read failed \d+ s ago: the node cannot serve state_getRuntimeVersion at block 7$/);
    // The loop's own line is coded too, for an alert to match.
    expect(lines.find((l) => l.msg === 'epoch loop step failed')).toMatchObject({
      code: 'EPOCH_LOOP_STEP_FAILED',
      error: 'the node cannot serve state_getRuntimeVersion at block 7',
    });
    const res = await readyz(service);
    expect(res.status).toBe(503);
    expect(res.body.error?.message).toContain('the node cannot serve state_getRuntimeVersion at block 7');
    failing = false;
    await expect.poll(async () => (await readyz(service!)).status, { timeout: 10_000 }).toBe(200);
    expect((await readyz(service)).body.checks.hotkey?.detail).toBe('hotkey is uid 0 with a validator permit');
  });

  it("an epoch close's metagraph read that fails after a refresh succeeded keeps the refresh's judgement, and says it is older and why", async () => {
    const k = await keys();
    const chain = fakeChain(k);
    const s = await start(k, chain);
    const view = chain.view.bind(chain);
    chain.view = () => Promise.reject(new Error('RPC-CORE: state_call failed: https://user:secret@node.example'));
    chain.headBlock += 10n; // next epoch: its close reads the metagraph, and that read fails
    await expect(s.tick()).rejects.toThrow('RPC-CORE: state_call failed');
    const stale = await readyz(s);
    expect(stale.status).toBe(200);
    expect(stale.body.checks.hotkey).toEqual({
      ok: true,
      detail: expect.stringMatching(
        /^hotkey is uid 0 with a validator permit \(the last metagraph read failed \d+ s ago: RPC-CORE: state_call failed: https:\/\/\*\*\*@node\.example, so this is from the read \d+ s ago\)$/,
      ) as unknown,
    });
    // The node answers again: the close is retried on the next tick, and its read clears the failure.
    chain.view = view;
    await s.tick();
    expect((await readyz(s)).body.checks.hotkey).toEqual({ ok: true, detail: 'hotkey is uid 0 with a validator permit' });
  });

  it('a dry run is ready without a registered hotkey', async () => {
    const k = await keys();
    const chain = fakeChain(k);
    chain.neurons.shift();
    const s = await start(k, chain, { dry_run: true });
    const res = await readyz(s);
    expect(res.status).toBe(200);
    expect(res.body.checks.hotkey?.detail).toContain('dry run');
  });

  it('a head that stopped changing makes it not ready (stale_head_ms)', async () => {
    const k = await keys();
    const chain = fakeChain(k);
    // Long enough that a loaded machine answers the first /readyz before the head counts as stale.
    const s = await start(k, chain, { stale_head_ms: 3_000 });
    expect((await readyz(s)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3_300));
    await s.tick(); // same head block
    const stale = await readyz(s);
    expect(stale.status).toBe(503);
    expect(stale.body.checks.chain_head?.ok).toBe(false);
    expect(stale.body.error?.message).toContain('has not changed');
    chain.headBlock += 1n;
    await s.tick();
    expect((await readyz(s)).status).toBe(200);
  });

  it('a head that went back more than one epoch (the node reset, or syncing from scratch) makes it not ready, warned once, until it is back (docs/spec.md G.35)', async () => {
    const k = await keys();
    const chain = fakeChain(k);
    const t = tempDir();
    cleanup = t.cleanup;
    const { logger, lines } = captureLog('info');
    service = await startValidator({ config: testConfig(t.dir), chain, logger, autoTick: false });
    const s = service;
    chain.headBlock = 45n; // epoch 4 of 10 blocks
    await s.tick();
    expect((await readyz(s)).status).toBe(200);
    // The node comes back empty and serves block 15 (epoch 1). Before: ready, "head 15, changed 0 s ago", nothing logged.
    chain.headBlock = 15n;
    await s.tick();
    chain.headBlock = 16n;
    await s.tick();
    const behind = await readyz(s);
    expect(behind.status).toBe(503);
    expect(behind.body.checks.chain_head?.ok).toBe(false);
    expect(behind.body.checks.chain_head?.detail).toBe(
      'the chain head went back to block 16 (epoch 1 of 10 blocks) while records are filed under epoch 4: the node was reset or restarted empty and is syncing from an earlier block, or chain.endpoint now reaches another chain; records are still taken and filed under epoch 4, which closes when the head reaches block 50',
    );
    const warned = lines.filter((l) => l.code === 'HEAD_WENT_BACK');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ block: '15', epoch: 1, current_epoch: 4, epoch_length: 10 });
    // One epoch back is not this (a short reorganisation across a boundary): ready again at epoch 3.
    chain.headBlock = 35n;
    await s.tick();
    expect((await readyz(s)).status).toBe(200);
    expect(lines.filter((l) => l.msg === 'the chain head is back in epoch 3, at block 35')).toHaveLength(1);
  });

  it('serves the head block and when it last changed as gauges an alert can read (a frozen, stalled or reset node)', async () => {
    const k = await keys();
    const chain = fakeChain(k);
    const s = await start(k, chain);
    const gauge = async (name: string): Promise<number> => {
      const line = (await (await fetch(`${s.url}/metrics`)).text()).split('\n').find((l) => l.startsWith(`${name} `));
      return Number(line?.split(' ')[1]);
    };
    chain.headBlock = 7n;
    const before = Date.now() / 1000;
    await s.tick();
    expect(await gauge('validator_chain_head_block')).toBe(7);
    const changed = await gauge('validator_chain_head_changed_timestamp_seconds');
    expect(changed).toBeGreaterThanOrEqual(before - 1);
    expect(changed).toBeLessThanOrEqual(Date.now() / 1000);
    // The same head again: the block stays and so does when it changed (its age grows).
    await new Promise((r) => setTimeout(r, 1100));
    await s.tick();
    expect(await gauge('validator_chain_head_changed_timestamp_seconds')).toBe(changed);
    chain.headBlock = 3n; // a node reset: the gauge falls
    await s.tick();
    expect(await gauge('validator_chain_head_block')).toBe(3);
    expect(await gauge('validator_chain_head_changed_timestamp_seconds')).toBeGreaterThan(changed);
  });

  it('a failed head read makes it not ready, and says why and when, and when the head was last read (the node refused, froze or dropped)', async () => {
    const k = await keys();
    const chain = fakeChain(k);
    const s = await start(k, chain);
    chain.failHeads = 1;
    await s.tick();
    const res = await readyz(s);
    expect(res.status).toBe(503);
    // Before: "the last chain head read failed (last head 5)": the cause was only in the log.
    expect(res.body.checks.chain_head?.detail).toMatch(/^the last chain head read failed \d+ s ago: socket closed \(last head 5, read \d+ s ago\)$/);
    await s.tick();
    const again = await readyz(s);
    expect(again.status).toBe(200);
    expect(again.body.checks.chain_head?.detail).not.toContain('socket closed');
  });
});

/**
 * A TCP proxy in front of PostgreSQL that the test can cut (every connection dropped, new ones refused)
 * and restore on the same port: a real storage outage without stopping the shared server.
 */
async function cuttableProxy(target: URL): Promise<{ url: string; cut: () => Promise<void>; restore: () => Promise<void>; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = (): Promise<void> =>
    new Promise((resolve) => {
      server = createServer((client) => {
        const upstream = connect({ host: target.hostname, port: Number(target.port || 5432) });
        sockets.add(client).add(upstream);
        const drop = (): void => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        const address = server?.address();
        if (typeof address === 'object' && address !== null) port = address.port;
        resolve();
      });
    });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (server === undefined) resolve();
      else
        server.close(() => {
          resolve();
        });
      server = undefined;
    });
  await listen();
  const url = new URL(target.toString());
  url.port = String(port);
  return { url: url.toString(), cut: stop, restore: listen, close: stop };
}

describe.skipIf(PG_URL === undefined)(`storage outage on PostgreSQL${PG_URL === undefined ? ` (${PG_SKIP_REASON})` : ''}`, () => {
  let service: ValidatorService | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await service?.stop().catch(() => undefined);
    service = undefined;
    await cleanup?.();
    cleanup = undefined;
  });

  it('readyz says storage, ingest answers 503 STORAGE_UNAVAILABLE with Retry-After, the loop warns once, and all resumes', async () => {
    const k = await keys();
    const chain = fakeChain(k);
    const proxy = await cuttableProxy(new URL(PG_URL ?? ''));
    const { schema, drop } = await freshSchema();
    const t = tempDir();
    cleanup = async () => {
      await proxy.close();
      await drop();
      t.cleanup();
    };
    const { logger, lines } = captureLog('info');
    const base = testConfig(t.dir, { database: { url: proxy.url } });
    service = await startValidator({ config: base, chain, logger, postgresSchema: schema, autoTick: false });
    const s = service;
    expect((await postExecutor(s.url, '/v1/bounty-records', bountyBody('before', k.miners[0]!.address))).status).toBe(201);
    expect((await readyz(s)).status).toBe(200);

    await proxy.cut();
    const down = await readyz(s);
    expect(down.status).toBe(503);
    expect(down.body.checks.storage?.ok).toBe(false);
    expect(down.body.error?.message).toContain('storage');
    const refused = await postExecutor(s.url, '/v1/bounty-records', bountyBody('during', k.miners[0]!.address));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as Ready).error?.code).toBe('STORAGE_UNAVAILABLE');
    // Three epoch boundaries pass while storage is down: one warning, not one per tick.
    for (let i = 0; i < 3; i++) {
      chain.headBlock += 10n;
      await s.tick().catch(() => undefined);
    }
    expect(lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('storage unreachable')).length).toBe(1);
    expect(lines.filter((l) => l.msg === 'epoch loop step failed').length).toBe(0);

    await proxy.restore();
    chain.headBlock += 1n;
    await s.tick();
    expect((await readyz(s)).status).toBe(200);
    expect((await postExecutor(s.url, '/v1/bounty-records', bountyBody('after', k.miners[0]!.address))).status).toBe(201);
    expect(lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('storage reachable again')).length).toBe(1);
  });
});

describe('observeMetagraphReads', () => {
  it('reports each view() as it ends, passes results and errors on, and keeps the other members, also of a frozen chain access', async () => {
    const k = await keys();
    const fake = fakeChain(k);
    let fail = false;
    const chain = Object.freeze({ ...fake, view: () => (fail ? Promise.reject(new Error('node gone')) : fake.view()) });
    const seen: (string | undefined)[] = [];
    const observed = observeMetagraphReads(chain, (error) => seen.push(error?.message));
    expect((await observed.view()).neurons).toBe(fake.neurons);
    fail = true;
    await expect(observed.view()).rejects.toThrow('node gone');
    expect(seen).toEqual([undefined, 'node gone']);
    expect(observed.hotkey).toBe(chain.hotkey);
    expect(await observed.head()).toBe(fake.headBlock);
  });

  it('calls the other members on the chain access itself, so one whose methods use private fields works as before', async () => {
    const k = await keys();
    const fake = fakeChain(k);
    // An embedder's chain access written as a class: its methods read `#fake`, which only the instance has.
    class ClassChain {
      readonly #fake = fake;
      get hotkey(): string {
        return this.#fake.hotkey;
      }
      view() {
        return this.#fake.view();
      }
      head() {
        return this.#fake.head();
      }
    }
    const seen: (string | undefined)[] = [];
    const observed = observeMetagraphReads(new ClassChain() as unknown as ChainPort, (error) => seen.push(error?.message));
    expect(observed.hotkey).toBe(fake.hotkey);
    expect(await observed.head()).toBe(fake.headBlock);
    expect((await observed.view()).neurons).toBe(fake.neurons);
    expect(seen).toEqual([undefined]);
  });
});
