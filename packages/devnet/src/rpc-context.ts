import type { WebSocket } from 'ws';

import type { BlockRecord, Chain } from './chain.js';
import { JSON_RPC_ERRORS, RpcFailure } from './rpc-errors.js';

/** One client connection. */
export interface Conn {
  readonly ws: WebSocket;
  readonly unsubscribers: Map<string, () => void>;
  /**
   * `finalized` watch updates held until the client has fetched the block and its events at that hash
   * (as @polkadot/api does on `inBlock`): its `switchMap` would otherwise drop the `InBlock` result when
   * `finalized` follows at once (finality lag 0). Released after both reads, or after 1 s.
   */
  readonly heldFinal: Map<string, { block: boolean; storage: boolean; release: (() => void)[] }>;
  /** Messages received while the node was frozen, answered in order at the thaw. */
  readonly inbox: string[];
  /** Messages to send held while the node was frozen. */
  readonly outbox: string[];
}

/** A JSON-RPC method handler: positional params and the calling connection. */
export type Handler = (params: readonly unknown[], conn: Conn) => unknown;

/** What every RPC handler group shares: the chain, the connection's send path and the block helpers. */
export interface RpcContext {
  readonly chain: Chain;
  /** Sends a JSON-RPC message (held while the node is frozen). */
  readonly send: (conn: Conn, payload: unknown) => void;
  /** Sends a subscription notification. */
  readonly notify: (conn: Conn, method: string, subscription: string, result: unknown) => void;
  /** A fresh subscription id. */
  readonly newSubId: () => string;
  /** The runtime version as `state_getRuntimeVersion` answers it. */
  readonly runtimeVersionJson: () => unknown;
  /** The block an optional `at` parameter names (best when absent). */
  readonly blockByParam: (at: unknown) => BlockRecord;
  /** A storage value at a block, or null. */
  readonly storageAt: (key: string, at: unknown) => string | null;
}

/** Header JSON as a Substrate node serves it. */
export function headerJson(block: BlockRecord): Record<string, unknown> {
  return {
    parentHash: block.parentHash,
    number: `0x${block.number.toString(16)}`,
    stateRoot: block.stateRoot,
    extrinsicsRoot: block.extrinsicsRoot,
    digest: { logs: [...block.digestLogs] },
  };
}

/** A string parameter, or -32602 naming it. */
export function str(v: unknown, name: string): string {
  if (typeof v !== 'string') throw new RpcFailure(JSON_RPC_ERRORS.invalidParams(`${name} must be a string`));
  return v;
}
