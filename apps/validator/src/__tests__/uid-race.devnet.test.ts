/**
 * docs/spec.md G.7 on a real devnet (@subnet/devnet over WebSocket JSON-RPC, the validator's real chain access): a
 * miner's uid is given to a new hotkey (`devnet.replaceNeuron`, Subtensor's `replace_neuron`) after the close read
 * the metagraph and before it sends. Subtensor masks only weights set at or before the uid's registration block
 * (`epoch/run_epoch.rs:722-728` at 14bc6f9f9), so a vector computed from the old metagraph and sent now gives the old
 * miner's weight to the newcomer. The close must check the uids' holders before sending and recompute once.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Keyring } from '@polkadot/keyring';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { parseEpochConfig } from '@subnet/bundle';
import { connectChain } from '@subnet/chain';
import { startDevnet } from '@subnet/devnet';
import type { Devnet } from '@subnet/devnet';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';

import type { ChainPort, ChainView } from '../chain-port.js';
import { closeEpoch } from '../epoch-runner.js';
import { createMetrics } from '../metrics.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import { devnetChainPort } from './commit-reveal-devnet.js';
import { bountyBody, scoring, tempDir, useCleanups } from './helpers.js';

const EPOCH = 3;
const cleanups = useCleanups();

let newcomers: string[];
beforeAll(async () => {
  await cryptoWaitReady();
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  newcomers = ['//uid-race//1', '//uid-race//2'].map((uri) => keyring.addFromUri(uri).address);
});

/** Waits until `read` answers `want` (polled every 50 ms, 20 s at most). */
async function until<T>(read: () => Promise<T>, want: T): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await read()) !== want) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(want)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A devnet (6 neurons, validators 0 and 1, 100 ms blocks), the validator's chain access as uid 0, a reader, and an
 * epoch whose records give bounty scores to the miners at uids 3 and 4.
 */
async function setUp(): Promise<{
  devnet: Devnet;
  chain: ChainPort;
  holder: (uid: number) => Promise<string>;
  weightsOfUid0: () => Promise<[number, number][]>;
  close: (chain: ChainPort) => ReturnType<typeof closeEpoch>;
  logged: Record<string, unknown>[];
}> {
  const devnet = await startDevnet({ neurons: 6, validators: 2, tempo: 360, weightsSetRateLimit: 0n, blockTime: 100 });
  cleanups.push(() => devnet.stop());
  const chain = await devnetChainPort(devnet, cleanups);
  const reader = await connectChain({ network: devnet.url });
  cleanups.push(() => reader.close());
  const holder = (uid: number) => reader.request('keys', async (api) => String(await api.query.subtensorModule!.keys!(devnet.netuid, uid)));
  const weightsOfUid0 = () =>
    reader.request('weights', async (api) => (await api.query.subtensorModule!.weights!(devnet.netuid, 0)).toJSON() as [number, number][]);
  const t = tempDir();
  cleanups.push(t.cleanup);
  const storage = openSqliteStorage(join(t.dir, 'validator.sqlite'));
  cleanups.push(() => storage.close());
  for (const uid of [3, 4]) {
    const body = JSON.stringify(bountyBody(`bounty-${String(uid)}`, devnet.accounts[uid]!.hotkeyAddress, 10 * uid));
    await storage.insertRecords([
      { kind: 'bounty', recordId: `bounty-${String(uid)}`, epoch: EPOCH, body, digest: createHash('sha256').update(body).digest('hex') },
    ]);
  }
  const logged: Record<string, unknown>[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => logged.push(JSON.parse(line) as Record<string, unknown>) });
  const close = (port: ChainPort) =>
    closeEpoch(
      {
        netuid: devnet.netuid,
        scoring: parseEpochConfig(scoring),
        storage,
        chain: port,
        signer: undefined,
        dryRun: false,
        bundlesDir: join(t.dir, 'bundles'),
        metrics: createMetrics(),
        logger,
      },
      EPOCH,
    );
  return { devnet, chain, holder, weightsOfUid0, close, logged };
}

/** The chain access, with `onView(n)` run after its n-th view (0-based) is read, before the close goes on. */
function racing(chain: ChainPort, onView: (n: number) => Promise<void>): ChainPort {
  let views = 0;
  return {
    ...chain,
    view: async (): Promise<ChainView> => {
      const view = await chain.view();
      await onView(views);
      views += 1;
      return view;
    },
  };
}

describe('a uid that changes hands between the metagraph read and the send (docs/spec.md G.7, on a real devnet)', () => {
  it('no weight goes to the hotkey that registered into uid 3 after the view: the epoch is recomputed from a fresh metagraph and that vector is sent', async () => {
    const { devnet, chain, holder, weightsOfUid0, close, logged } = await setUp();
    const oldHotkey = devnet.accounts[3]!.hotkeyAddress;
    const newHotkey = newcomers[0]!;
    const port = racing(chain, async (n) => {
      if (n !== 0) return;
      devnet.replaceNeuron(3, newHotkey);
      await until(() => holder(3), newHotkey);
    });
    const outcome = await close(port);
    expect(outcome.status).toBe('submitted');
    const onChain = await weightsOfUid0();
    // the miner scored at uid 4 keeps its weight; the newcomer at uid 3, which the epoch never scored, gets none
    expect(onChain.find(([uid]) => uid === 4)?.[1]).toBeGreaterThan(0);
    expect(onChain.find(([uid]) => uid === 3)?.[1] ?? 0).toBe(0);
    expect(outcome.u16?.weights[outcome.u16.uids.indexOf(3)] ?? 0).toBe(0);
    // the bundle shows the metagraph the sent vector was computed from
    const bundle = (JSON.parse(readFileSync(outcome.bundlePath ?? '', 'utf8')) as { bundle: { metagraph: { hotkey: string; uid: number }[] } }).bundle;
    expect(bundle.metagraph.find((n) => n.uid === 3)?.hotkey).toBe(newHotkey);
    expect(bundle.metagraph.some((n) => n.hotkey === oldHotkey)).toBe(false);
    // a warning names the uid, the old and the new hotkey
    expect(logged).toContainEqual(expect.objectContaining({ level: 40, epoch: EPOCH, uid: 3, oldHotkey, newHotkey }));
  }, 90_000);

  it('uids that change hands again after the recomputation: nothing is sent, the epoch fails with VALIDATOR_UID_CHANGED', async () => {
    const { devnet, chain, holder, weightsOfUid0, close, logged } = await setUp();
    const port = racing(chain, async (n) => {
      // uid 3 after the first view, uid 4 after the second (the recomputation's)
      const uid = n === 0 ? 3 : 4;
      devnet.replaceNeuron(uid, newcomers[n]!);
      await until(() => holder(uid), newcomers[n]!);
    });
    const outcome = await close(port);
    expect(outcome.status).toBe('failed');
    expect(outcome.submission?.error?.code).toBe('VALIDATOR_UID_CHANGED');
    expect(outcome.submission?.extrinsic_hash).toBeNull();
    expect(await weightsOfUid0()).toEqual([]);
    expect(logged).toContainEqual(expect.objectContaining({ level: 40, uid: 4, oldHotkey: devnet.accounts[4]!.hotkeyAddress, newHotkey: newcomers[1] }));
  }, 90_000);
});
