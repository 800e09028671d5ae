import { join } from 'node:path';

import { loadSigner } from '@subnet/chain';
import { devHotkeyUri, startDevnet } from '@subnet/devnet';
import type { Devnet, DevnetOptionsInput } from '@subnet/devnet';

import type { ChainPort, PendingReveal } from '../chain-port.js';
import { pendingRevealFields } from '../reveal-confirm.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import type { Storage } from '../storage.js';
import type { SubnetChainOptions } from '../subnet-chain.js';
import { connectSubnetChain } from '../subnet-chain.js';
import { tempDir } from './helpers.js';

/**
 * A devnet for the commit-reveal tests (not a test file): 6 neurons, 2 validators, tempo 10 (a reveal comes
 * about one chain epoch, 10 blocks, after its commit), no rate limit, 200 ms blocks, commit-reveal on; the
 * test adds the version, the runtime or a drand beacon (v4: `beacon: { period: 12 }`, one pulse per 12 s block
 * timestamp).
 */
export function startCommitRevealDevnet(options: Partial<DevnetOptionsInput>): Promise<Devnet> {
  return startDevnet({ neurons: 6, validators: 2, tempo: 10, weightsSetRateLimit: 0n, blockTime: 200, commitReveal: true, ...options });
}

/** Reads `read` every 200 ms until `done` accepts its value, then returns it; throws, with the last value, after `ms`. */
export async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The validator's real chain access to a devnet, signing as its first dev validator (uid 0) on netuid 1, with
 * `inBlock` inclusion and a commit store in a temporary folder; `options` adds to or replaces those. The folder
 * and the connection are closed by `cleanups` (a test's `useCleanups()` list).
 */
export async function devnetChainPort(devnet: Devnet, cleanups: (() => unknown)[], options: Partial<SubnetChainOptions> = {}): Promise<ChainPort> {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const chain = await connectSubnetChain({
    endpoint: devnet.url,
    netuid: 1,
    signer: await loadSigner({ kind: 'uri', uri: devHotkeyUri(devnet.options.seed, 0) }),
    wait: 'inBlock',
    commitStorePath: join(t.dir, 'commits.json'),
    ...options,
  });
  cleanups.push(() => chain.close());
  return chain;
}

/**
 * A SQLite storage in a temporary folder holding `epoch` submitted with `timelock` waiting for its reveal, as the epoch
 * loop leaves it, for a confirmation pass (`confirmPendingReveals`) to take up. Closed and removed by `cleanups`.
 */
export async function storageWithPendingReveal(cleanups: (() => unknown)[], epoch: number, timelock: PendingReveal): Promise<Storage> {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const storage = openSqliteStorage(join(t.dir, 'v.db'));
  cleanups.push(() => storage.close());
  await storage.claimEpoch(epoch, { status: 'submitted', ...pendingRevealFields(timelock) });
  return storage;
}
