import { runtimeExemptsSubnetOwner } from '@subnet/core';

import { chainError } from './chain-error.js';
import { epochRuntime } from './epoch-schedule.js';
import type { MetagraphSnapshot } from './metagraph-snapshot.js';

/**
 * Whether the chain lets the subnet owner's hotkey set weights without the stake and validator-permit checks at the
 * block after the snapshot's: the runtime read with the snapshot has stateful epochs, or is `node-subtensor` at spec
 * 397 or later (`runtimeExemptsSubnetOwner` of `@subnet/core`; opentensor/subtensor `e7f05a051`, docs/spec.md G.33).
 *
 * @param snapshot - the snapshot's `epoch` and `runtimeVersion`
 * @returns whether the owner hotkey is exempt
 * @throws SubnetError `CHAIN_INVALID_INPUT` at `snapshot.runtimeVersion` when the snapshot holds no spec name and u32
 *   spec version (a snapshot built by hand without them)
 * @example if (exemptsSubnetOwner(snapshot) && snapshot.ownerHotkey === hotkey) skipStakeCheck()
 */
export function exemptsSubnetOwner(snapshot: Pick<MetagraphSnapshot, 'epoch' | 'runtimeVersion'>): boolean {
  const version: unknown = snapshot.runtimeVersion;
  const spec = typeof version === 'object' && version !== null ? (version as Record<string, unknown>) : undefined;
  const specVersion = spec?.['specVersion'];
  if (
    spec === undefined ||
    typeof spec['specName'] !== 'string' ||
    typeof specVersion !== 'number' ||
    !Number.isInteger(specVersion) ||
    specVersion < 0 ||
    specVersion > 0xffff_ffff
  ) {
    throw chainError('InvalidInput', 'the snapshot has no runtime version (a spec name and a u32 spec version) to decide the owner exemption by', {
      source: 'client',
      path: 'snapshot.runtimeVersion',
      value: version,
    });
  }
  return runtimeExemptsSubnetOwner({ specName: spec['specName'], specVersion, statefulEpochs: epochRuntime(snapshot.epoch) === 'stateful' });
}
