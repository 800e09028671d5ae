import { isSubnetError, runtimeExemptsSubnetOwner } from '@subnet/core';
import type { SubtensorRuntimeFacts } from '@subnet/core';

import { chainError } from './chain-error.js';
import type { ChainError } from './chain-error.js';
import { epochRuntime } from './epoch-schedule.js';
import type { MetagraphSnapshot, RuntimeSpec } from './metagraph-snapshot.js';

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
  const missing = (): ChainError =>
    chainError('InvalidInput', 'the snapshot has no runtime version (a spec name and a u32 spec version) to decide the owner exemption by', {
      source: 'client',
      path: 'snapshot.runtimeVersion',
      value: version,
    });
  if (typeof version !== 'object' || version === null) throw missing();
  const { specName, specVersion } = version as Partial<RuntimeSpec>;
  try {
    // core checks the spec name is a string and the spec version a u32
    return runtimeExemptsSubnetOwner({ specName, specVersion, statefulEpochs: epochRuntime(snapshot.epoch) === 'stateful' } as SubtensorRuntimeFacts);
  } catch (error) {
    if (isSubnetError(error, 'CORE_INVALID_ARGUMENT')) throw missing();
    throw error;
  }
}
