import { hexToU8a, u8aToHex } from '@polkadot/util';

import type { Handler, RpcContext } from './rpc-context.js';
import { str } from './rpc-context.js';
import { JSON_RPC_ERRORS, RpcFailure } from './rpc-errors.js';
import { stateCall } from './state-call.js';

/**
 * `state_*` reads at a block (best when absent): metadata, runtime version, storage (value, hash, size, keys,
 * paged keys, `queryStorageAt`) and `state_call`. A pruned block answers 4003, an unknown one 4001.
 *
 * @param rpc - the RPC context
 * @returns the handlers by method
 * @example
 * stateHandlers(rpc).state_getStorage([key], conn);
 */
export function stateHandlers(rpc: RpcContext): Record<string, Handler> {
  const { chain, blockByParam, storageAt, runtimeVersionJson } = rpc;
  const { registry } = chain.ctx;
  const metadataHex = u8aToHex(chain.ctx.runtime.metadata);
  return {
    state_getMetadata: (p) => {
      blockByParam(p[0]);
      return metadataHex;
    },
    state_getRuntimeVersion: (p) => {
      blockByParam(p[0]);
      return runtimeVersionJson();
    },
    state_getStorage: (p) => storageAt(str(p[0], 'key'), p[1]),
    state_getStorageAt: (p) => storageAt(str(p[0], 'key'), p[1]),
    state_getStorageHash: (p) => {
      const v = storageAt(str(p[0], 'key'), p[1]);
      return v === null ? null : registry.hash(hexToU8a(v)).toHex();
    },
    state_getStorageSize: (p) => {
      const v = storageAt(str(p[0], 'key'), p[1]);
      return v === null ? null : hexToU8a(v).length;
    },
    state_getKeysPaged: (p) => {
      const prefix = (typeof p[0] === 'string' ? p[0] : '0x').toLowerCase();
      const count = Number(p[1] ?? 1000);
      if (!Number.isInteger(count) || count < 0 || count > 1000) throw new RpcFailure(JSON_RPC_ERRORS.invalidParams('count must be 0..1000'));
      const start = typeof p[2] === 'string' ? p[2].toLowerCase() : null;
      const storage = chain.storageOf(blockByParam(p[3]));
      return [...storage.keys()]
        .filter((k) => k.startsWith(prefix) && (start === null || k > start))
        .sort()
        .slice(0, count);
    },
    state_getKeys: (p) => {
      const prefix = (typeof p[0] === 'string' ? p[0] : '0x').toLowerCase();
      return [...chain.storageOf(blockByParam(p[1])).keys()].filter((k) => k.startsWith(prefix)).sort();
    },
    state_queryStorageAt: (p) => {
      if (!Array.isArray(p[0])) throw new RpcFailure(JSON_RPC_ERRORS.invalidParams('keys must be an array'));
      const block = blockByParam(p[1]);
      const storage = chain.storageOf(block);
      return [{ block: block.hash, changes: (p[0] as unknown[]).map((k) => [k, storage.get(str(k, 'key').toLowerCase()) ?? null]) }];
    },
    state_call: (p) => stateCall(rpc, str(p[0], 'method'), typeof p[1] === 'string' ? p[1] : '0x', blockByParam(p[2])),
  };
}
