import { compactToU8a, hexToU8a, u8aConcat, u8aToHex } from '@polkadot/util';

import type { BlockRecord } from './chain.js';
import { nextEpochStartBlock } from './epoch-rules.js';
import type { RpcContext } from './rpc-context.js';
import { RpcFailure } from './rpc-errors.js';

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
 * `state_call`: the runtime APIs the devnet answers (`Core_version`, `Metadata_metadata*`,
 * `AccountNonceApi_account_nonce`, `SubnetInfoRuntimeApi_get_next_epoch_start_block`), SCALE in and out.
 *
 * @param rpc - the RPC context
 * @param method - the runtime API method
 * @param data - the SCALE arguments (hex)
 * @param block - the block to answer at
 * @returns the SCALE result (hex)
 * @throws RpcFailure 4003 for an unknown method, as a node answers
 * @example
 * stateCall(rpc, 'Core_version', '0x', chain.best());
 */
export function stateCall(rpc: RpcContext, method: string, data: string, block: BlockRecord): string {
  const { ctx } = rpc.chain;
  const { registry } = ctx;
  const bytes = hexToU8a(data);
  const metadataVersion = ctx.metadataVersion;
  switch (method) {
    case 'Core_version':
      return registry.createType('RuntimeVersion', rpc.runtimeVersionJson()).toHex();
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
