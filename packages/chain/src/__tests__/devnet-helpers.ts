import { devHotkeyUri, startDevnet } from '@subnet/devnet';
import type { Devnet, DevnetOptionsInput } from '@subnet/devnet';

import { createChainClient } from '../chain-client.js';
import type { ChainClient, ChainClientOptions } from '../chain-client.js';
import { loadSigner } from '../keys.js';

export interface Harness {
  readonly devnet: Devnet;
  readonly client: ChainClient;
  /** Produces blocks every few ms until `work` settles; returns its result (or throws its error). */
  drive<T>(work: Promise<T>, everyMs?: number): Promise<T>;
  nonceOf(address: string): Promise<bigint>;
  close(): Promise<void>;
}

export async function startHarness(
  devnetOptions: DevnetOptionsInput = {},
  uid = 0,
  clientOptions: Partial<ChainClientOptions> = {},
): Promise<Harness> {
  const devnet = await startDevnet({ blockTime: 0, ...devnetOptions });
  const signer = await loadSigner({ kind: 'uri', uri: devHotkeyUri(devnetOptions.seed ?? 'devnet', uid) });
  const client = await createChainClient({
    network: devnet.url,
    signer,
    staleHeadMs: 0,
    pollMs: 15,
    inclusionTimeoutMs: 8_000,
    requestTimeoutMs: 5_000,
    initialBackoffMs: 50,
    maxBackoffMs: 200,
    ...clientOptions,
  });
  const drive = async <T>(work: Promise<T>, everyMs = 25): Promise<T> => {
    const state = { done: false };
    const settled = work.finally(() => {
      state.done = true;
    });
    settled.catch(() => undefined);
    const isDone = (): boolean => state.done;
    while (!isDone()) {
      await new Promise((r) => setTimeout(r, everyMs));
      if (!isDone()) await devnet.produceBlock();
    }
    return settled;
  };
  return {
    devnet,
    client,
    drive,
    nonceOf: async (address) => (await client.connection.api.rpc.system.accountNextIndex(address)).toBigInt(),
    close: async () => {
      await client.close();
      await devnet.stop();
    },
  };
}
