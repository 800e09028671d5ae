import type { AddressInfo } from 'node:net';

import { compactToU8a, hexToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { decodeAddress } from '@polkadot/util-crypto';
import type { WebSocket } from 'ws';
import { WebSocketServer } from 'ws';

import type { BlockRecord, Chain, TxStatus } from './chain.js';
import type { JsonRpcErrorObject } from './rpc-errors.js';
import { JSON_RPC_ERRORS, RpcFailure } from './rpc-errors.js';
import { nextEpochStartBlock } from './epoch-rules.js';
import type { AdminHandler, AdminServer } from './rpc-admin.js';

/** Hooks the fault injector uses to intercept submissions. */
export interface SubmissionInterceptor {
  /** Called before every submission; may delay it, replace it with an error, or mark it lost. */
  intercept(): Promise<{ readonly reject?: JsonRpcErrorObject; readonly lost?: boolean }>;
}

/** A running JSON-RPC server. */
export interface RpcServer {
  readonly url: string;
  readonly port: number;
  /** Closes every client connection (they may reconnect). */
  dropConnections(): number;
  /** Number of open client connections. */
  connections(): number;
  /** Holds (true) or releases (false) every answer and notification, except the admin namespace's. */
  setFrozen(frozen: boolean): void;
  close(): Promise<void>;
}

interface Conn {
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

type Handler = (params: readonly unknown[], conn: Conn) => unknown;

const SUBSCRIPTIONS: Record<string, { notify: string; unsubscribe: readonly string[] }> = {
  chain_subscribeNewHeads: { notify: 'chain_newHead', unsubscribe: ['chain_unsubscribeNewHeads', 'chain_unsubscribeNewHead', 'unsubscribe_newHead'] },
  chain_subscribeFinalizedHeads: {
    notify: 'chain_finalizedHead',
    unsubscribe: ['chain_unsubscribeFinalizedHeads', 'chain_unsubscribeFinalisedHeads'],
  },
  chain_subscribeAllHeads: { notify: 'chain_allHead', unsubscribe: ['chain_unsubscribeAllHeads'] },
  state_subscribeRuntimeVersion: {
    notify: 'state_runtimeVersion',
    unsubscribe: ['state_unsubscribeRuntimeVersion', 'chain_unsubscribeRuntimeVersion'],
  },
  state_subscribeStorage: { notify: 'state_storage', unsubscribe: ['state_unsubscribeStorage'] },
  author_submitAndWatchExtrinsic: { notify: 'author_extrinsicUpdate', unsubscribe: ['author_unwatchExtrinsic'] },
};

const ALIASES: Record<string, string> = {
  chain_subscribeNewHead: 'chain_subscribeNewHeads',
  subscribe_newHead: 'chain_subscribeNewHeads',
  chain_subscribeFinalisedHeads: 'chain_subscribeFinalizedHeads',
  chain_subscribeRuntimeVersion: 'state_subscribeRuntimeVersion',
  chain_getFinalisedHead: 'chain_getFinalizedHead',
  chain_getRuntimeVersion: 'state_getRuntimeVersion',
  state_getKeysPagedAt: 'state_getKeysPaged',
};

/** Header JSON as a Substrate node serves it. */
export function headerJson(block: BlockRecord): Record<string, unknown> {
  return {
    parentHash: block.parentHash,
    number: `0x${block.number.toString(16)}`,
    stateRoot: block.stateRoot,
    extrinsicsRoot: block.extrinsicsRoot,
    digest: { logs: [] },
  };
}

function str(v: unknown, name: string): string {
  if (typeof v !== 'string') throw new RpcFailure(JSON_RPC_ERRORS.invalidParams(`${name} must be a string`));
  return v;
}

function encodeOptionU64(v: bigint | null): string {
  if (v === null) return '0x00';
  const out = new Uint8Array(9);
  out[0] = 1;
  let x = v;
  for (let i = 1; i < 9; i += 1) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return u8aToHex(out);
}

/**
 * Starts the WebSocket JSON-RPC server on 127.0.0.1 for a chain.
 *
 * @param chain - the chain engine
 * @param port - TCP port (0 = any free port)
 * @param interceptor - fault-injection hook for submissions
 * @param info - node name and version for `system_*`
 * @param admin - builds the admin namespace (`devnet_fault*`) from the server's connection control, or none
 * @returns the running server
 * @throws `DEVNET_LISTEN_FAILED` when the port cannot be bound
 * @example
 * const server = await startRpcServer(chain, 0, faults, { name: 'subnet-devnet', version: '0.0.0' });
 */
export async function startRpcServer(
  chain: Chain,
  port: number,
  interceptor: SubmissionInterceptor,
  info: { readonly name: string; readonly version: string; readonly chainName: string },
  admin?: (server: AdminServer) => Readonly<Record<string, AdminHandler>>,
): Promise<RpcServer> {
  const { ctx } = chain;
  const { registry } = ctx;
  const metadataHex = u8aToHex(ctx.runtime.metadata);
  const conns = new Set<Conn>();
  let frozen = false;
  let nextSub = 0;
  const newSubId = (): string => {
    nextSub += 1;
    return `devnet-sub-${nextSub}`;
  };

  const sendNow = (conn: Conn, payload: unknown): void => {
    if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(JSON.stringify(payload));
  };
  const send = (conn: Conn, payload: unknown): void => {
    if (frozen) conn.outbox.push(JSON.stringify(payload));
    else sendNow(conn, payload);
  };
  const notify = (conn: Conn, method: string, subscription: string, result: unknown): void => {
    send(conn, { jsonrpc: '2.0', method, params: { subscription, result } });
  };

  function runtimeVersionJson(): unknown {
    const v = ctx.runtime.runtimeVersion;
    return { ...v, apis: v.apis.map(([h, n]) => [h, n]) };
  }

  function stateCall(method: string, data: string, block: BlockRecord): string {
    const bytes = hexToU8a(data);
    const metadataVersion = ctx.metadataVersion;
    switch (method) {
      case 'Core_version':
        return registry.createType('RuntimeVersion', runtimeVersionJson()).toHex();
      case 'Metadata_metadata':
        return u8aToHex(u8aConcat(compactToU8a(ctx.runtime.metadata.length), ctx.runtime.metadata));
      case 'Metadata_metadata_versions':
        return registry.createType('Vec<u32>', [metadataVersion]).toHex();
      case 'Metadata_metadata_at_version': {
        const v = registry.createType('u32', bytes).toNumber();
        if (v !== metadataVersion) return '0x00';
        return u8aToHex(u8aConcat(new Uint8Array([1]), compactToU8a(ctx.runtime.metadata.length), ctx.runtime.metadata));
      }
      case 'AccountNonceApi_account_nonce': {
        const who = u8aToHex(bytes.subarray(0, 32));
        return u8aToHex(registry.createType('u32', block.state.nonces.get(who) ?? 0).toU8a());
      }
      case 'SubnetInfoRuntimeApi_get_next_epoch_start_block': {
        const netuid = registry.createType('u16', bytes).toNumber();
        const subnet = block.state.subnets.get(netuid);
        return encodeOptionU64(subnet === undefined ? null : nextEpochStartBlock(subnet, BigInt(block.state.number)));
      }
      default:
        throw new RpcFailure({ code: 4003, message: `Client error: Execution failed: Exported method ${method} is not found` });
    }
  }

  function blockByParam(v: unknown): BlockRecord {
    return chain.resolve(v);
  }

  function storageAt(key: string, at: unknown): string | null {
    const block = blockByParam(at);
    return chain.storageOf(block).get(key.toLowerCase()) ?? null;
  }

  function releaseHeld(conn: Conn, hash: string): void {
    const held = conn.heldFinal.get(hash);
    if (held === undefined) return;
    conn.heldFinal.delete(hash);
    for (const r of held.release) r();
  }

  function noteRead(conn: Conn, method: string, params: readonly unknown[]): void {
    if (conn.heldFinal.size === 0) return;
    let at: unknown;
    let kind: 'block' | 'storage' | null = null;
    if (method === 'chain_getBlock') {
      at = params[0];
      kind = 'block';
    } else if (method === 'state_getStorage' || method === 'state_getStorageAt' || method === 'state_queryStorageAt') {
      at = params[1];
      kind = 'storage';
    }
    if (kind === null || typeof at !== 'string') return;
    const hash = at.toLowerCase();
    const held = conn.heldFinal.get(hash);
    if (held === undefined) return;
    held[kind] = true;
    if (held.block && held.storage) {
      setTimeout(() => {
        releaseHeld(conn, hash);
      }, 25);
    }
  }

  function watchStatusJson(status: TxStatus): unknown {
    return status;
  }

  const handlers: Record<string, Handler> = {
    rpc_methods: () => ({ version: 1, methods: Object.keys(handlers).concat(Object.keys(ALIASES)).sort() }),
    system_chain: () => info.chainName,
    system_name: () => info.name,
    system_version: () => info.version,
    system_chainType: () => 'Development',
    system_properties: () => ({ ss58Format: ctx.runtime.ss58Prefix, tokenDecimals: 9, tokenSymbol: 'TAO' }),
    system_health: () => ({ peers: 0, isSyncing: false, shouldHavePeers: false }),
    system_localPeerId: () => '12D3KooWDevnetLocalPeer',
    system_nodeRoles: () => ['Authority'],
    system_peers: () => [],
    system_syncState: () => ({ startingBlock: 0, currentBlock: chain.best().number, highestBlock: chain.best().number }),
    system_accountNextIndex: (p) => chain.accountNextIndex(str(p[0], 'address')),
    chain_getBlockHash: (p) => {
      const one = (v: unknown): string | null => {
        if (v === undefined || v === null) return chain.best().hash;
        const n = typeof v === 'string' ? Number(v.startsWith('0x') ? BigInt(v) : BigInt(v)) : Number(v);
        return chain.blockByNumber(n)?.hash ?? null;
      };
      return Array.isArray(p[0]) ? (p[0] as unknown[]).map(one) : one(p[0]);
    },
    chain_getHeader: (p) => {
      if (p[0] === undefined || p[0] === null) return headerJson(chain.best());
      const b = chain.blockByHash(str(p[0], 'hash'));
      return b === undefined ? null : headerJson(b);
    },
    chain_getBlock: (p) => {
      const b = p[0] === undefined || p[0] === null ? chain.best() : chain.blockByHash(str(p[0], 'hash'));
      return b === undefined ? null : { block: { header: headerJson(b), extrinsics: b.extrinsics }, justifications: null };
    },
    chain_getFinalizedHead: () => chain.finalized().hash,
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
    state_call: (p) => stateCall(str(p[0], 'method'), typeof p[1] === 'string' ? p[1] : '0x', blockByParam(p[2])),
    author_pendingExtrinsics: () => chain.pendingExtrinsics(),
    author_submitExtrinsic: async (p) => {
      const hex = str(p[0], 'extrinsic');
      const decision = await interceptor.intercept();
      if (decision.reject !== undefined) throw new RpcFailure(decision.reject);
      return chain.submit(hex, undefined, { lost: decision.lost === true });
    },
    author_submitAndWatchExtrinsic: async (p, conn) => {
      const hex = str(p[0], 'extrinsic');
      const decision = await interceptor.intercept();
      if (decision.reject !== undefined) throw new RpcFailure(decision.reject);
      const id = newSubId();
      const watcher = (status: TxStatus): void => {
        if (typeof status === 'object' && 'inBlock' in status && !conn.heldFinal.has(status.inBlock)) {
          const h = status.inBlock;
          conn.heldFinal.set(h, { block: false, storage: false, release: [] });
          setTimeout(() => {
            releaseHeld(conn, h);
          }, 1000).unref();
        }
        if (typeof status === 'object' && 'finalized' in status) {
          const held = conn.heldFinal.get(status.finalized);
          if (held !== undefined && !(held.block && held.storage)) {
            held.release.push(() => {
              watcher(status);
            });
            return;
          }
        }
        notify(conn, 'author_extrinsicUpdate', id, watchStatusJson(status));
        if (typeof status === 'object' && 'finalized' in status) conn.unsubscribers.delete(id);
        if (status === 'invalid' || status === 'dropped') conn.unsubscribers.delete(id);
      };
      const hash = chain.submit(hex, watcher, { lost: decision.lost === true });
      conn.unsubscribers.set(id, () => {
        chain.unwatch(hash, watcher);
      });
      return id;
    },
    chain_subscribeNewHeads: (_p, conn) => {
      const id = newSubId();
      const off = chain.addListener({
        newBest: (b) => {
          notify(conn, 'chain_newHead', id, headerJson(b));
        },
      });
      conn.unsubscribers.set(id, off);
      queueMicrotask(() => {
        notify(conn, 'chain_newHead', id, headerJson(chain.best()));
      });
      return id;
    },
    chain_subscribeAllHeads: (_p, conn) => {
      const id = newSubId();
      const off = chain.addListener({
        newBest: (b) => {
          notify(conn, 'chain_allHead', id, headerJson(b));
        },
      });
      conn.unsubscribers.set(id, off);
      queueMicrotask(() => {
        notify(conn, 'chain_allHead', id, headerJson(chain.best()));
      });
      return id;
    },
    chain_subscribeFinalizedHeads: (_p, conn) => {
      const id = newSubId();
      const off = chain.addListener({
        finalized: (b) => {
          notify(conn, 'chain_finalizedHead', id, headerJson(b));
        },
      });
      conn.unsubscribers.set(id, off);
      queueMicrotask(() => {
        notify(conn, 'chain_finalizedHead', id, headerJson(chain.finalized()));
      });
      return id;
    },
    state_subscribeRuntimeVersion: (_p, conn) => {
      const id = newSubId();
      conn.unsubscribers.set(id, () => undefined);
      queueMicrotask(() => {
        notify(conn, 'state_runtimeVersion', id, runtimeVersionJson());
      });
      return id;
    },
    state_subscribeStorage: (p, conn) => {
      const keys = Array.isArray(p[0]) ? (p[0] as unknown[]).map((k) => str(k, 'key').toLowerCase()) : null;
      const id = newSubId();
      let last = new Map<string, string | null>();
      const emit = (block: BlockRecord, initial: boolean): void => {
        const storage = chain.storageOf(block);
        const watched = keys ?? [...new Set([...storage.keys(), ...last.keys()])].sort();
        const next = new Map<string, string | null>();
        const changes: [string, string | null][] = [];
        for (const k of watched) {
          const v = storage.get(k) ?? null;
          next.set(k, v);
          if (initial || last.get(k) !== v) changes.push([k, v]);
        }
        last = next;
        if (initial || changes.length > 0) notify(conn, 'state_storage', id, { block: block.hash, changes });
      };
      const off = chain.addListener({
        newBest: (b) => {
          emit(b, false);
        },
      });
      conn.unsubscribers.set(id, off);
      queueMicrotask(() => {
        emit(chain.best(), true);
      });
      return id;
    },
  };

  const unsubscribeMethods = new Set(Object.values(SUBSCRIPTIONS).flatMap((s) => s.unsubscribe));
  for (const m of unsubscribeMethods) {
    handlers[m] = (p, conn) => {
      const id = str(p[0], 'subscription');
      const off = conn.unsubscribers.get(id);
      if (off === undefined) return false;
      off();
      conn.unsubscribers.delete(id);
      return true;
    };
  }

  const adminMethods = new Set<string>();
  if (admin !== undefined) {
    const built = admin({
      dropConnectionsExcept(caller) {
        let n = 0;
        for (const c of [...conns]) {
          if (c === caller) continue;
          c.ws.terminate();
          n += 1;
        }
        return n;
      },
    });
    for (const [name, handler] of Object.entries(built)) {
      handlers[name] = handler;
      adminMethods.add(name);
    }
  }
  const isAdminRequest = (m: unknown): boolean => typeof m === 'object' && m !== null && adminMethods.has(String((m as { method?: unknown }).method));

  async function handleOne(msg: unknown, conn: Conn): Promise<unknown> {
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      return { jsonrpc: '2.0', id: null, error: JSON_RPC_ERRORS.invalidRequest };
    }
    const req = msg as { id?: unknown; method?: unknown; params?: unknown; jsonrpc?: unknown };
    const id = req.id ?? null;
    if (typeof req.method !== 'string' || req.jsonrpc !== '2.0') return { jsonrpc: '2.0', id, error: JSON_RPC_ERRORS.invalidRequest };
    const name = ALIASES[req.method] ?? req.method;
    const handler = handlers[name];
    if (handler === undefined) return { jsonrpc: '2.0', id, error: JSON_RPC_ERRORS.methodNotFound(req.method) };
    const params = req.params === undefined ? [] : req.params;
    if (!Array.isArray(params)) return { jsonrpc: '2.0', id, error: JSON_RPC_ERRORS.invalidParams('params must be an array') };
    try {
      const result: unknown = await handler(params, conn);
      noteRead(conn, name, params);
      return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
    } catch (e) {
      if (e instanceof RpcFailure) return { jsonrpc: '2.0', id, error: e.rpc };
      return { jsonrpc: '2.0', id, error: JSON_RPC_ERRORS.internal(e instanceof Error ? e.message : String(e)) };
    }
  }

  const wss = new WebSocketServer({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', () => {
      resolve();
    });
    wss.once('error', reject);
  });
  function onText(conn: Conn, text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      send(conn, { jsonrpc: '2.0', id: null, error: JSON_RPC_ERRORS.parse });
      return;
    }
    if (Array.isArray(parsed)) {
      if (parsed.length === 0) {
        send(conn, { jsonrpc: '2.0', id: null, error: JSON_RPC_ERRORS.invalidRequest });
        return;
      }
      if (frozen) {
        conn.inbox.push(text);
        return;
      }
      void Promise.all(parsed.map((m) => handleOne(m, conn))).then((r) => {
        send(conn, r);
      });
    } else if (isAdminRequest(parsed)) {
      // the admin namespace answers even while the node is frozen
      void handleOne(parsed, conn).then((r) => {
        sendNow(conn, r);
      });
    } else if (frozen) {
      conn.inbox.push(text);
    } else {
      void handleOne(parsed, conn).then((r) => {
        send(conn, r);
      });
    }
  }

  function setFrozen(value: boolean): void {
    if (frozen === value) return;
    frozen = value;
    if (frozen) return;
    for (const conn of conns) {
      for (const text of conn.outbox.splice(0)) if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(text);
      for (const text of conn.inbox.splice(0)) onText(conn, text);
    }
  }

  wss.on('connection', (ws) => {
    const conn: Conn = { ws, unsubscribers: new Map(), heldFinal: new Map(), inbox: [], outbox: [] };
    conns.add(conn);
    ws.on('message', (data) => {
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Uint8Array).toString('utf8');
      onText(conn, text);
    });
    ws.on('close', () => {
      for (const off of conn.unsubscribers.values()) off();
      conn.unsubscribers.clear();
      conns.delete(conn);
    });
    ws.on('error', () => undefined);
  });
  const actualPort = (wss.address() as AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${actualPort}`,
    port: actualPort,
    dropConnections() {
      const n = conns.size;
      for (const c of [...conns]) c.ws.terminate();
      return n;
    },
    connections: () => conns.size,
    setFrozen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of [...conns]) c.ws.terminate();
        wss.close(() => {
          resolve();
        });
      }),
  };
}

/** Hex public key of an SS58 address or 0x key. */
export function accountHex(address: string): string {
  return u8aToHex(decodeAddress(address));
}
