import type { Handler, RpcContext } from './rpc-context.js';
import { str } from './rpc-context.js';

/** Node identity as `system_*` reports it. */
export interface NodeInfo {
  readonly name: string;
  readonly version: string;
  readonly chainName: string;
}

/**
 * `system_*`: the node's name, version, chain, properties (ss58 prefix, 9 decimals, TAO), health, roles, sync
 * state and `system_accountNextIndex` (counting pooled transactions).
 *
 * @param rpc - the RPC context
 * @param info - the node's identity
 * @returns the handlers by method
 * @example
 * systemHandlers(rpc, { name: 'subnet-devnet', version: '0.0.0', chainName: 'Bittensor Devnet' });
 */
export function systemHandlers(rpc: RpcContext, info: NodeInfo): Record<string, Handler> {
  const { chain } = rpc;
  const { ctx } = chain;
  return {
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
  };
}
