import type { AddressInfo } from 'node:net';

import { WebSocketServer } from 'ws';

import type { BlockRecord, Chain } from './chain.js';
import { noteRead } from './held-finality.js';
import type { AdminHandler, AdminServer } from './rpc-admin.js';
import { authorHandlers } from './rpc-author-handlers.js';
import { chainHandlers } from './rpc-chain-handlers.js';
import type { Conn, Handler, RpcContext } from './rpc-context.js';
import { JSON_RPC_ERRORS, RpcFailure } from './rpc-errors.js';
import { stateHandlers } from './rpc-state-handlers.js';
import { subscriptionHandlers } from './rpc-subscription-handlers.js';
import type { NodeInfo } from './rpc-system-handlers.js';
import { systemHandlers } from './rpc-system-handlers.js';
import type { SubmissionInterceptor } from './submission-interceptor.js';

export type { SubmissionInterceptor } from './submission-interceptor.js';
export { headerJson } from './rpc-context.js';

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

const ALIASES: Record<string, string> = {
  chain_subscribeNewHead: 'chain_subscribeNewHeads',
  subscribe_newHead: 'chain_subscribeNewHeads',
  chain_subscribeFinalisedHeads: 'chain_subscribeFinalizedHeads',
  chain_subscribeRuntimeVersion: 'state_subscribeRuntimeVersion',
  chain_getFinalisedHead: 'chain_getFinalizedHead',
  chain_getRuntimeVersion: 'state_getRuntimeVersion',
  state_getKeysPagedAt: 'state_getKeysPaged',
};

/**
 * Starts the WebSocket JSON-RPC server on 127.0.0.1 for a chain: the handler groups (`system_*`, `chain_*`,
 * `state_*`, `author_*`, subscriptions, the admin namespace) behind one dispatcher, batches, aliases, and the
 * freeze gate (while frozen, requests and notifications are held per connection, in order).
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
  info: NodeInfo,
  admin?: (server: AdminServer) => Readonly<Record<string, AdminHandler>>,
): Promise<RpcServer> {
  const { ctx } = chain;
  const conns = new Set<Conn>();
  let frozen = false;
  let nextSub = 0;

  const sendNow = (conn: Conn, payload: unknown): void => {
    if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(JSON.stringify(payload));
  };
  const send = (conn: Conn, payload: unknown): void => {
    if (frozen) conn.outbox.push(JSON.stringify(payload));
    else sendNow(conn, payload);
  };
  const blockByParam = (v: unknown): BlockRecord => chain.resolve(v);
  const rpc: RpcContext = {
    chain,
    send,
    notify: (conn, method, subscription, result) => {
      send(conn, { jsonrpc: '2.0', method, params: { subscription, result } });
    },
    newSubId: () => {
      nextSub += 1;
      return `devnet-sub-${nextSub}`;
    },
    runtimeVersionJson: () => {
      const v = ctx.runtime.runtimeVersion;
      return { ...v, apis: v.apis.map(([h, n]) => [h, n]) };
    },
    blockByParam,
    storageAt: (key, at) => chain.storageOf(blockByParam(at)).get(key.toLowerCase()) ?? null,
  };

  const handlers: Record<string, Handler> = {
    rpc_methods: () => ({ version: 1, methods: Object.keys(handlers).concat(Object.keys(ALIASES)).sort() }),
    ...systemHandlers(rpc, info),
    ...chainHandlers(rpc),
    ...stateHandlers(rpc),
    ...authorHandlers(rpc, interceptor),
    ...subscriptionHandlers(rpc),
  };

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
