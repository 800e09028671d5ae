import type { TxStatus } from './chain.js';
import { releaseHeld } from './held-finality.js';
import type { Handler, RpcContext } from './rpc-context.js';
import { str } from './rpc-context.js';
import { RpcFailure } from './rpc-errors.js';
import type { SubmissionInterceptor } from './submission-interceptor.js';

function watchStatusJson(status: TxStatus): unknown {
  return status;
}

/**
 * `author_pendingExtrinsics`, `author_submitExtrinsic` and `author_submitAndWatchExtrinsic` (statuses
 * `ready`/`future`, `inBlock`, `finalized`, `invalid`), each submission passing the fault interceptor first.
 * A `finalized` update is held until the client read the block and its events (`held-finality.ts`).
 *
 * @param rpc - the RPC context
 * @param interceptor - the fault-injection hook
 * @returns the handlers by method
 * @example
 * authorHandlers(rpc, interceptor).author_submitExtrinsic([hex], conn);
 */
export function authorHandlers(rpc: RpcContext, interceptor: SubmissionInterceptor): Record<string, Handler> {
  const { chain, newSubId, notify } = rpc;
  return {
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
  };
}
