import { ApiPromise, WsProvider } from '@polkadot/api';
import type { SubmittableExtrinsic } from '@polkadot/api/types';
import type { KeyringPair } from '@polkadot/keyring/types';
import type { ISubmittableResult } from '@polkadot/types/types';

import type { Devnet } from '../devnet.js';
import { startDevnet } from '../devnet.js';
import type { DevnetOptionsInput } from '../devnet-options.js';
import { DEVNET_SIGNED_EXTENSIONS } from '../metadata/index.js';

/** A devnet plus an unmodified ApiPromise connected to it over a real WebSocket. */
export interface Harness {
  readonly devnet: Devnet;
  readonly api: ApiPromise;
  close(): Promise<void>;
}

export async function connect(url: string): Promise<ApiPromise> {
  return ApiPromise.create({
    provider: new WsProvider(url, 100),
    noInitWarn: true,
    throwOnConnect: true,
    signedExtensions: DEVNET_SIGNED_EXTENSIONS,
  });
}

export async function harness(options: DevnetOptionsInput = {}): Promise<Harness> {
  const devnet = await startDevnet(options);
  const api = await connect(devnet.url);
  return {
    devnet,
    api,
    async close() {
      await api.disconnect();
      await devnet.stop();
    },
  };
}

/** What happened to a submitted extrinsic once included. */
export interface Included {
  readonly statuses: readonly string[];
  readonly blockHash: string;
  /** `section.method` of the events of this extrinsic. */
  readonly events: readonly string[];
  /** Module error name when the dispatch failed (`ExtrinsicFailed`). */
  readonly failed: string | null;
  readonly result: ISubmittableResult;
}

type Tx = SubmittableExtrinsic<'promise'>;

/**
 * Signs and sends with `signAndSend`, produces one block once the pool has it, and waits for Finalized.
 */
export async function include(h: Harness, tx: Tx, signer: KeyringPair): Promise<Included> {
  const statuses: string[] = [];
  let sawPool!: () => void;
  const inPool = new Promise<void>((r) => (sawPool = r));
  const done = new Promise<ISubmittableResult>((resolve, reject) => {
    tx.signAndSend(signer, (r) => {
      statuses.push(r.status.type);
      if (r.status.isReady || r.status.isFuture) sawPool();
      if (r.status.isFinalized) resolve(r);
      if (r.status.isInvalid || r.status.isDropped) reject(new Error(r.status.type));
    }).catch(reject);
  });
  await Promise.race([inPool, done.then(() => undefined)]);
  await h.devnet.produceBlocks(1 + h.devnet.options.finalityLag);
  const result = await done;
  let failed: string | null = null;
  if (result.dispatchError?.isModule === true) {
    failed = h.api.registry.findMetaError(result.dispatchError.asModule).name;
  }
  return {
    statuses,
    blockHash: result.status.asFinalized.toHex(),
    events: result.events.map((e) => `${e.event.section}.${e.event.method}`),
    failed,
    result,
  };
}

/** Submits and returns the RPC error message of a pool rejection (throws if accepted). */
export async function rejection(tx: Tx, signer: KeyringPair): Promise<string> {
  try {
    await tx.signAndSend(signer);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error('the pool accepted the extrinsic');
}

export const waitFor = async (pred: () => boolean, ms = 5000): Promise<void> => {
  const start = Date.now();
  while (!pred()) {
    if (Date.now() - start > ms) throw new Error('timeout');
    await new Promise((r) => setTimeout(r, 5));
  }
};
