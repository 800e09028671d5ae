import { describe, expect, it } from 'vitest';

import { isSubnetError, runtimeExemptsSubnetOwner, SUBTENSOR_OWNER_EXEMPTION_SPEC_VERSION } from '../index.js';

// The reference, written out from opentensor/subtensor: e7f05a051 (runtime/src/lib.rs:275, spec 397) is the first
// main commit whose check_weights_min_stake (pallets/subtensor/src/lib.rs:2521-2526) and check_validator_permit
// (subnets/weights.rs:1165-1170) let the owner through; its first parent is spec 394 without them; stateful epochs
// arrived in 06032d518 (spec 423).
const subtensor = (specVersion: number, statefulEpochs = false) => runtimeExemptsSubnetOwner({ specName: 'node-subtensor', specVersion, statefulEpochs });

describe("docs/spec.md G.33: the subnet owner's exemption is read from the runtime version", () => {
  it('node-subtensor exempts the owner from spec 397 on, not at 396 or finney spec 393, whatever its epochs', () => {
    expect([subtensor(393), subtensor(394), subtensor(396), subtensor(397), subtensor(400), subtensor(422)]).toEqual([false, false, false, true, true, true]);
    expect(SUBTENSOR_OWNER_EXEMPTION_SPEC_VERSION).toBe(397);
  });
  it('a runtime with stateful epochs exempts the owner at any spec version and under any spec name', () => {
    expect([subtensor(423, true), subtensor(425, true), subtensor(396, true)]).toEqual([true, true, true]);
    expect(runtimeExemptsSubnetOwner({ specName: 'another-chain', specVersion: 1, statefulEpochs: true })).toBe(true);
  });
  it('another spec name with legacy epochs does not exempt the owner, whatever its spec version', () => {
    expect(runtimeExemptsSubnetOwner({ specName: 'another-chain', specVersion: 500, statefulEpochs: false })).toBe(false);
    expect(runtimeExemptsSubnetOwner({ specName: 'Node-Subtensor', specVersion: 500, statefulEpochs: false })).toBe(false);
  });
  it('refuses facts that are not a string spec name, a u32 spec version and a boolean, naming the field', () => {
    const pathOf = (facts: unknown): unknown => {
      try {
        runtimeExemptsSubnetOwner(facts as never);
      } catch (error) {
        if (isSubnetError(error, 'CORE_INVALID_ARGUMENT')) return error.context.path;
        throw error;
      }
      return 'no error';
    };
    expect(pathOf(null)).toBe('facts');
    expect(pathOf({ specName: 7, specVersion: 397, statefulEpochs: false })).toBe('facts.specName');
    expect(pathOf({ specName: 'node-subtensor', specVersion: '397', statefulEpochs: false })).toBe('facts.specVersion');
    expect(pathOf({ specName: 'node-subtensor', specVersion: 397.5, statefulEpochs: false })).toBe('facts.specVersion');
    expect(pathOf({ specName: 'node-subtensor', specVersion: 2 ** 32, statefulEpochs: false })).toBe('facts.specVersion');
    expect(pathOf({ specName: 'node-subtensor', specVersion: 397, statefulEpochs: 'no' })).toBe('facts.statefulEpochs');
  });
});
