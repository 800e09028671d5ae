import { devHotkeyUri, startDevnet } from '@subnet/devnet';
import type { Devnet, DevnetOptionsInput } from '@subnet/devnet';

import { createChainClient } from '../chain-client.js';
import type { ChainClient, ChainClientOptions } from '../chain-client.js';
import { loadSigner } from '../keys.js';
import type { ChainSigner } from '../keys.js';

/**
 * The two runtimes finney can run (`@subnet/devnet` `runtime`): every test that depends on epochs runs on both
 * (`describe.each(RUNTIMES)`).
 */
export const RUNTIMES = ['legacy', 'stateful'] as const;
export type Runtime = (typeof RUNTIMES)[number];

export interface Harness {
  readonly devnet: Devnet;
  readonly client: ChainClient;
  /** Produces blocks every few ms until `work` settles; returns its result (or throws its error). */
  drive<T>(work: Promise<T>, everyMs?: number): Promise<T>;
  /**
   * Deterministic manual-mode driver: each time the pool holds an extrinsic, produces exactly one block
   * (plus `extraBlocks` when the work still waits, e.g. for finality), until `work` settles.
   */
  includeNext<T>(work: Promise<T>, extraBlocks?: number): Promise<T>;
  /**
   * Produces no block until the pool holds `work`'s first extrinsic, includes it in the next block (the block a
   * timelock prediction assumes: its head + 1, however long the client took to sign), then produces blocks every
   * `everyMs` until `work` settles. `drive` alone lets a slow client's commit land an epoch later than predicted.
   */
  includeThenDrive<T>(work: Promise<T>, everyMs?: number): Promise<T>;
  /**
   * Waits until a `faults.delayNextExtrinsic` delay holds `work`'s submission (or `work` settles first), producing no
   * block: blocks produced next are ones the held extrinsic misses.
   */
  untilHeld(work: Promise<unknown>): Promise<void>;
  /** A signer for a devnet uid with the devnet's key type. */
  signerFor(uid: number): Promise<ChainSigner>;
  nonceOf(address: string): Promise<bigint>;
  close(): Promise<void>;
}

const pause = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/**
 * Starts a manual-mode devnet (ed25519 dev keys unless the options say otherwise: fast signing; the sr25519
 * path is covered by `devnet-set-weights.test.ts`) and a chain client for `uid` over a real WebSocket.
 */
export async function startHarness(devnetOptions: DevnetOptionsInput = {}, uid = 0, clientOptions: Partial<ChainClientOptions> = {}): Promise<Harness> {
  const keyType = devnetOptions.keyType ?? 'ed25519';
  const devnet = await startDevnet({ blockTime: 0, keyType, ...devnetOptions });
  const signerFor = (u: number): Promise<ChainSigner> => loadSigner({ kind: 'uri', uri: devHotkeyUri(devnetOptions.seed ?? 'devnet', u), keyType });
  const client = await createChainClient({
    network: devnet.url,
    signer: await signerFor(uid),
    staleHeadMs: 0,
    pollMs: 15,
    inclusionTimeoutMs: 8_000,
    requestTimeoutMs: 5_000,
    initialBackoffMs: 50,
    maxBackoffMs: 200,
    ...clientOptions,
  });
  const watch = <T>(work: Promise<T>): { settled: Promise<T>; isDone: () => boolean } => {
    const state = { done: false };
    const settled = work.finally(() => {
      state.done = true;
    });
    settled.catch(() => undefined);
    return { settled, isDone: () => state.done };
  };
  const drive = async <T>(work: Promise<T>, everyMs = 25): Promise<T> => {
    const { settled, isDone } = watch(work);
    while (!isDone()) {
      await pause(everyMs);
      if (!isDone()) await devnet.produceBlock();
    }
    return settled;
  };
  const includeNext = async <T>(work: Promise<T>, extraBlocks = 0): Promise<T> => {
    const { settled, isDone } = watch(work);
    while (!isDone()) {
      if (devnet.poolSize() === 0) {
        await pause(3);
        continue;
      }
      await devnet.produceBlock();
      for (let i = 0; i < extraBlocks; i += 1) {
        await pause(20);
        if (isDone()) break;
        await devnet.produceBlock();
      }
    }
    return settled;
  };
  const includeThenDrive = async <T>(work: Promise<T>, everyMs = 25): Promise<T> => {
    const { settled, isDone } = watch(work);
    while (!isDone() && devnet.poolSize() === 0) await pause(3);
    if (!isDone()) await devnet.produceBlock();
    return drive(settled, everyMs);
  };
  const untilHeld = async (work: Promise<unknown>): Promise<void> => {
    const { isDone } = watch(work);
    while (devnet.faults.held === 0 && !isDone()) await pause(3);
  };
  return {
    devnet,
    client,
    drive,
    includeNext,
    includeThenDrive,
    untilHeld,
    signerFor,
    nonceOf: async (address) => (await client.connection.request('system_accountNextIndex', (api) => api.rpc.system.accountNextIndex(address))).toBigInt(),
    close: async () => {
      await client.close();
      await devnet.stop();
    },
  };
}
