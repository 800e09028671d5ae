import { invalidArgument, requireString } from './arguments.js';

/**
 * The first `spec_version` of Subtensor's own line (spec name `node-subtensor`) whose `check_weights_min_stake` and
 * `check_validator_permit` let the subnet owner's hotkey through: opentensor/subtensor `e7f05a051` (2026-04-22,
 * `runtime/src/lib.rs:275`; its first parent, `:271`, is spec 394), the merge that brought `69627c0d5` to main.
 */
export const SUBTENSOR_OWNER_EXEMPTION_SPEC_VERSION = 397;

/** The runtime facts the owner exemption is decided by. */
export interface SubtensorRuntimeFacts {
  /** `RuntimeVersion.spec_name` of the runtime that executes the next block. */
  readonly specName: string;
  /** `RuntimeVersion.spec_version` of that runtime (a u32). */
  readonly specVersion: number;
  /** Whether the runtime keeps stateful epochs (`SubnetEpochIndex` / `LastEpochBlock`: spec 423 on). */
  readonly statefulEpochs: boolean;
}

/**
 * Whether a Subtensor runtime exempts the subnet owner's hotkey from the stake check (`NotEnoughStakeToSetWeights`)
 * and the validator-permit check (`NeuronNoValidatorPermit`) of weight setting: a runtime with stateful epochs (spec
 * 423 on, all after the exemption), or spec name `node-subtensor` at spec version 397 or later. Any other spec name,
 * and `node-subtensor` below 397 (finney's 393 among them), is judged not to exempt: a side branch's testnet build at
 * 394 to 396 may carry the exemption, but a spec number below 397 does not say so, and a refusal the chain would not
 * make costs less than a submission it refuses (docs/spec.md G.33).
 *
 * @param facts - spec name, spec version and whether the epochs are stateful
 * @returns whether the owner hotkey passes both checks whatever its stake and permit
 * @throws SubnetError `CORE_INVALID_ARGUMENT` naming the field (`facts`, `facts.specName`, `facts.specVersion`,
 *   `facts.statefulEpochs`) when it is not a string, a u32 or a boolean
 * @example
 * runtimeExemptsSubnetOwner({ specName: 'node-subtensor', specVersion: 397, statefulEpochs: false }); // true
 * runtimeExemptsSubnetOwner({ specName: 'node-subtensor', specVersion: 393, statefulEpochs: false }); // false
 */
export function runtimeExemptsSubnetOwner(facts: SubtensorRuntimeFacts): boolean {
  const given: unknown = facts;
  if (typeof given !== 'object' || given === null) invalidArgument('facts', 'must be an object with specName, specVersion and statefulEpochs', given);
  requireString(facts.specName, 'facts.specName');
  const version: unknown = facts.specVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0 || version > 0xffff_ffff) {
    invalidArgument('facts.specVersion', 'must be an integer from 0 to 4294967295 (a u32)', version);
  }
  const stateful: unknown = facts.statefulEpochs;
  if (typeof stateful !== 'boolean') invalidArgument('facts.statefulEpochs', 'must be a boolean', stateful);
  return stateful || (facts.specName === 'node-subtensor' && version >= SUBTENSOR_OWNER_EXEMPTION_SPEC_VERSION);
}
