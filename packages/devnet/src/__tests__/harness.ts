import { ApiPromise, WsProvider } from '@polkadot/api';
import type { SubmittableExtrinsic } from '@polkadot/api/types';
import type { KeyringPair } from '@polkadot/keyring/types';
import type { ISubmittableResult } from '@polkadot/types/types';
import { isSubnetError } from '@subnet/core';

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

type StorageCodec = { toJSON(): unknown; toString(): string };

/** `SubtensorModule.<item>(...args)` in the state after block `n`. */
export async function storageAt(h: Harness, n: number, item: string, ...args: unknown[]): Promise<StorageCodec> {
  const at = await h.api.at(await h.api.rpc.chain.getBlockHash(n));
  return (at.query['subtensorModule']![item]! as (...a: unknown[]) => Promise<StorageCodec>)(...args);
}

/** The same, as JSON. */
export const storageJson = async (h: Harness, n: number, item: string, ...args: unknown[]): Promise<unknown> => (await storageAt(h, n, item, ...args)).toJSON();

/** What `code` and `context` (`path`, `value`) a call threw as a SubnetError, or null when it returned. */
export function refusal(run: () => unknown): { code: string; path: unknown; value: unknown } | null {
  try {
    run();
    return null;
  } catch (e) {
    if (!isSubnetError(e)) throw e;
    const context = e.context as { path?: unknown; value?: unknown };
    return { code: e.code, path: context.path, value: context.value };
  }
}

/**
 * A devnet on `runtime` with 4 neurons, uids 0 (owner), 1 and 2 validators; uid 1 weights uids 2 and 3, uid 2 weights
 * uid 3 and serves an axon (10.0.0.2:8091).
 */
export async function harnessWithWeights(runtime: 'stateful' | 'legacy'): Promise<Harness> {
  const h = await harness({
    runtime,
    neurons: 4,
    validators: 3,
    tempo: 1000,
    weightsSetRateLimit: 0n,
    axons: [null, null, { ip: '10.0.0.2', port: 8091 }, null],
  });
  const [, v1, m2] = h.devnet.accounts;
  const first = await include(h, h.api.tx.subtensorModule!.setWeights!(1, [2, 3], [1, 1], 0), v1!.hotkey);
  const second = await include(h, h.api.tx.subtensorModule!.setWeights!(1, [3], [1], 0), m2!.hotkey);
  if (first.failed !== null || second.failed !== null) throw new Error(`setting the harness's weights failed: ${first.failed ?? second.failed ?? ''}`);
  return h;
}
