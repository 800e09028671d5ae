import type { BlockRecord } from './chain.js';
import type { Handler, RpcContext } from './rpc-context.js';
import { headerJson, str } from './rpc-context.js';

/** Each subscription method: its notification method and its unsubscribe aliases. */
export const SUBSCRIPTIONS: Readonly<Record<string, { notify: string; unsubscribe: readonly string[] }>> = {
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

/**
 * The subscriptions: new / all / finalized heads (the current head first), runtime version, storage changes
 * (all keys or a list, the current values first); plus every unsubscribe alias of {@link SUBSCRIPTIONS}.
 *
 * @param rpc - the RPC context
 * @returns the handlers by method
 * @example
 * subscriptionHandlers(rpc).chain_subscribeNewHeads([], conn);
 */
export function subscriptionHandlers(rpc: RpcContext): Record<string, Handler> {
  const { chain, newSubId, notify, runtimeVersionJson } = rpc;
  const handlers: Record<string, Handler> = {
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
  return handlers;
}
