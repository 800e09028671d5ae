import type { Handler, RpcContext } from './rpc-context.js';
import { headerJson, str } from './rpc-context.js';

/**
 * `chain_getBlockHash` (one number or a list), `chain_getHeader`, `chain_getBlock`, `chain_getFinalizedHead`.
 *
 * @param rpc - the RPC context
 * @returns the handlers by method
 * @example
 * chainHandlers(rpc).chain_getFinalizedHead([], conn);
 */
export function chainHandlers(rpc: RpcContext): Record<string, Handler> {
  const { chain } = rpc;
  return {
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
  };
}
