import { mkdirSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';

import { Keyring } from '@polkadot/keyring';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import type { EpochConfig } from '@subnet/bundle';
import { listenLocal } from '@subnet/vitest-config/local-server';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';

import { dispatchConfigSchema } from '../dispatch/dispatch-config.js';
import { createDispatcher } from '../dispatch/dispatcher.js';
import type { Dispatcher } from '../dispatch/dispatcher.js';
import { createMetrics } from '../metrics.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import type { Storage } from '../storage.js';
import type { TaskRegistry } from '../task-registry.js';
import { createWriteQueue } from '../write-queue.js';
import { silent, tempDir } from './helpers.js';

/**
 * The epoch close waits for the dispatch rounds that were running when the epoch ended (their queries belong
 * to it), not for rounds that start afterwards for the new epoch. With two challenges whose rounds overlap,
 * a wait for "no round running" never ends while slow miners keep every round open: each challenge starts
 * its next round while the other's is still out. Real HTTP on 127.0.0.1; the axon holds each request until
 * the test lets it go, so nothing here depends on timing.
 */

let keyring: Keyring;
let t: ReturnType<typeof tempDir>;
let storage: Storage;
let close: (() => Promise<void>) | undefined;
let dispatcher: Dispatcher | undefined;
const held: { synapse: string; res: ServerResponse }[] = [];

beforeAll(async () => {
  await cryptoWaitReady();
  keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
});
beforeEach(() => {
  t = tempDir();
  storage = openSqliteStorage(join(t.dir, 'dispatch.sqlite'));
});
afterEach(async () => {
  const stopping = dispatcher?.stop();
  for (const h of held.splice(0)) h.res.writeHead(404, { 'content-type': 'application/json' }).end('{"message": "done"}');
  const release = setInterval(() => {
    for (const h of held.splice(0)) h.res.writeHead(404, { 'content-type': 'application/json' }).end('{"message": "done"}');
  }, 20);
  await stopping;
  clearInterval(release);
  dispatcher = undefined;
  await close?.();
  await storage.close();
  t.cleanup();
});

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function release(synapse: string): void {
  const i = held.findIndex((h) => h.synapse === synapse);
  const [h] = held.splice(i, 1);
  h?.res.writeHead(404, { 'content-type': 'application/json' }).end('{"message": "released"}');
}

it("settle() waits for the rounds running when it is called, not for the new epoch's rounds that start meanwhile", async () => {
  const server = await listenLocal((req, res) => {
    req.resume();
    held.push({ synapse: (req.url ?? '').slice(1), res });
  });
  close = server.close;
  const port = Number(new URL(server.url).port);
  const miner = keyring.addFromUri('//Bob').address;
  const challenges = ['wf_a', 'wf_b'].map((id) => {
    const folder = join(t.dir, id);
    mkdirSync(folder);
    const tasks = Array.from({ length: 20 }, (_, i) => ({ task_id: `${id}-${String(i).padStart(2, '0')}`, input: { task: {} } }));
    writeFileSync(join(folder, 'tasks.json'), JSON.stringify({ tasks }));
    return {
      challenge_id: id,
      synapse: {
        name: id === 'wf_a' ? 'PlanA' : 'PlanB',
        fields: [
          { name: 'task', type: { dict: 'any' } },
          { name: 'plan', type: { optional: 'any' }, default: null },
        ],
        answer_field: 'plan',
      },
      interval_ms: 50,
      timeout_seconds: 600,
      group_size: 1,
      task_source: { folder },
    };
  });
  const config = dispatchConfigSchema.parse({ allow_private_axons: true, challenges });
  let epoch = 1;
  const registry = {
    snapshot: (e: number) => Promise.resolve({ epoch: e, candidates: [{ hotkey: miner, uid: 1 }], reputations: null }),
  } as unknown as TaskRegistry;
  dispatcher = createDispatcher({
    config,
    scoring: {
      challenges: [
        { id: 'wf_a', kind: 'workflow' },
        { id: 'wf_b', kind: 'workflow' },
      ],
    } as unknown as EpochConfig,
    storage,
    queue: createWriteQueue(storage),
    chain: { finalizedHash: () => Promise.resolve(`0x${'11'.repeat(32)}`) },
    registry,
    signer: keyring.addFromUri('//Alice'),
    metrics: createMetrics(),
    logger: silent,
    env: {},
    currentEpoch: () => epoch,
    leading: () => true,
    axonOf: () => ({ ip: '127.0.0.1', port }),
  });
  dispatcher.start();
  // One round of each challenge is out, each waiting on its miner.
  await until('both rounds to query', () => held.some((h) => h.synapse === 'PlanA') && held.some((h) => h.synapse === 'PlanB'));

  // The epoch ends: the close waits for these two rounds.
  epoch = 2;
  let settled = false;
  const settling = dispatcher.settle().then(() => {
    settled = true;
  });
  release('PlanA');
  // A's next round (epoch 2) starts and queries while B's epoch-1 round is still out.
  await until("challenge A's next round to query", () => held.some((h) => h.synapse === 'PlanA'));
  expect(settled).toBe(false);
  release('PlanB');
  // Both rounds of epoch 1 are done: the close goes on, though A's epoch-2 round is still out.
  await until('settle() to resolve', () => settled);
  expect(held.some((h) => h.synapse === 'PlanA')).toBe(true);
  await settling;
}, 60_000);
