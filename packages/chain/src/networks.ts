/**
 * Named networks and endpoint resolution. Also the `@subnet/chain/networks` subpath, built into a file of its own
 * without `@polkadot/api`: a program that only checks a configured endpoint (the validator's `run`, before it connects)
 * loads no `@polkadot/*` module. Its one error is `CHAIN_INVALID_INPUT` (`CHAIN_ERROR_CODES.invalidInput` of the root).
 */
import { redactUrl } from '@subnet/core';

import { chainError } from './chain-error.js';

/** Named networks and their public endpoints (Python SDK, opentensor/bittensor bb526e6 `bittensor/core/settings.py:31-34`). */
export const NETWORKS: Readonly<Record<'finney' | 'test' | 'local', readonly string[]>> = Object.freeze({
  finney: Object.freeze(['wss://entrypoint-finney.opentensor.ai:443']),
  test: Object.freeze(['wss://test.finney.opentensor.ai:443']),
  local: Object.freeze(['ws://127.0.0.1:9944']),
});

/** A network name, one URL, or a list of names and URLs tried in order. */
export type NetworkInput = string | readonly string[];

/**
 * Turns network names (`finney`, `test`, `local`) and `ws://`/`wss://` URLs into the endpoint list the
 * connection tries in order (duplicates removed, order kept).
 *
 * @param network - a name, a URL, or a list of them
 * @returns the endpoints
 * @throws SubnetError `CHAIN_INVALID_INPUT` for an unknown name, a non-WebSocket URL, or an empty list
 * @example resolveEndpoints(['ws://10.0.0.5:9944', 'finney']) // ['ws://10.0.0.5:9944', 'wss://entrypoint-finney.opentensor.ai:443']
 */
export function resolveEndpoints(network: NetworkInput): readonly string[] {
  const items = typeof network === 'string' ? [network] : network;
  if (items.length === 0) throw chainError('InvalidInput', 'at least one network or endpoint is needed', { source: 'client', path: 'network', value: [] });
  const out: string[] = [];
  items.forEach((item, i) => {
    const path = typeof network === 'string' ? 'network' : `network[${i}]`;
    const named = (NETWORKS as Record<string, readonly string[] | undefined>)[item];
    if (named) {
      out.push(...named);
      return;
    }
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      throw chainError('InvalidInput', 'not a network name (finney, test, local) nor a ws:// or wss:// URL', {
        source: 'client',
        path,
        value: redactUrl(item),
      });
    }
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
      throw chainError('InvalidInput', 'an endpoint URL must be ws:// or wss://', { source: 'client', path, value: redactUrl(item) });
    }
    out.push(item);
  });
  return Object.freeze([...new Set(out)]);
}
