import { nonNegativeFiniteSchema, parseInput, SubnetError } from '@subnet/core';
import { z } from 'zod';

import type { Role } from './consensus-types.js';
import { CONSENSUS_ERROR_CODES } from './errors.js';
import { deepFreeze } from './freeze.js';

/** Configuration of {@link emission}: the role multipliers. */
export interface EmissionTables {
  /** Multiplier per role; every value finite and >= 0. */
  readonly role: Readonly<Record<Role, number>>;
}

/**
 * The default tables: role primary 1.0, auditor 0.6 (SPEC section B). Base weights, tier multipliers,
 * early bonus and bootstrap have no defaults: they are per-task inputs.
 *
 * @example emission(factors, DEFAULT_EMISSION_TABLES)
 */
export const DEFAULT_EMISSION_TABLES: EmissionTables = Object.freeze({
  role: Object.freeze({ primary: 1.0, auditor: 0.6 }),
});

/** The per-task inputs of {@link emission}. */
export interface EmissionFactors {
  /** The task's composite quality score Q (finite, >= 0). */
  readonly compositeQ: number;
  /** The task type's base weight, from the operator's table (finite, >= 0). */
  readonly baseWeight: number;
  /** The miner's tier multiplier, from the operator's table (finite, >= 0). */
  readonly tierMultiplier: number;
  /** The early-submission bonus factor (finite, >= 0; 1 for none). */
  readonly earlyBonus: number;
  /** The miner's role in the verification group; its multiplier comes from `tables.role`. */
  readonly role: Role;
  /** The miner's consensus score in [0, 1], or `null` (group of fewer than 3) for the neutral factor 1. */
  readonly consensus: number | null;
  /** The bootstrap factor (finite, >= 0; 1 for none). */
  readonly bootstrap: number;
}

/** The numbers that were multiplied, in formula order. */
export interface EmissionFactorValues {
  readonly compositeQ: number;
  readonly baseWeight: number;
  readonly tierMultiplier: number;
  readonly earlyBonus: number;
  /** The role multiplier looked up in the table. */
  readonly role: number;
  /** The consensus factor used (1 when the consensus was `null`). */
  readonly consensus: number;
  readonly bootstrap: number;
}

/** The result of {@link emission} (frozen). */
export interface EmissionResult {
  /** The product, `compositeQ · baseWeight · tierMultiplier · earlyBonus · role · consensus · bootstrap`. */
  readonly emission: number;
  /** The factors used. */
  readonly factors: EmissionFactorValues;
  /** The role looked up. */
  readonly role: Role;
  /** True when the consensus was `null` and the neutral factor 1 was used. */
  readonly consensusNeutral: boolean;
}

const factorsSchema = z.strictObject({
  compositeQ: nonNegativeFiniteSchema,
  baseWeight: nonNegativeFiniteSchema,
  tierMultiplier: nonNegativeFiniteSchema,
  earlyBonus: nonNegativeFiniteSchema,
  role: z.enum(['primary', 'auditor']),
  consensus: z.number().min(0).max(1).nullable(),
  bootstrap: nonNegativeFiniteSchema,
});

const tablesSchema = z.strictObject({
  role: z.strictObject({ primary: nonNegativeFiniteSchema, auditor: nonNegativeFiniteSchema }),
});

/**
 * A miner's per-task emission (SPEC section B):
 * `composite_Q · base_weight · tier_multiplier · early_bonus · role · consensus · bootstrap`, multiplied
 * left to right in that order. A `null` consensus (group of fewer than 3) uses the neutral factor 1.
 *
 * @param factors - the per-task factors (camelCase); unknown keys are rejected so a typo cannot pass
 * @param tables - the role table (default primary 1.0, auditor 0.6); read base weights and tier multipliers
 *   from their tables with {@link lookupFactor}, which reads own entries only
 * @returns the product and the factors used (frozen)
 * @throws SubnetError `CONSENSUS_INVALID_FACTOR` naming the factor (`factors.earlyBonus`) or table entry
 *   (`tables.role.auditor`) that is not finite and >= 0 (consensus: in [0, 1] or null);
 *   `CONSENSUS_EMISSION_OVERFLOW` when the product of valid factors is not finite
 * @example
 * emission({ compositeQ: 0.8, baseWeight: 1, tierMultiplier: 1.5, earlyBonus: 1, role: 'auditor',
 *   consensus: 0.785, bootstrap: 1 }).emission // 0.8 * 1 * 1.5 * 1 * 0.6 * 0.785 * 1
 */
export function emission(factors: EmissionFactors, tables: EmissionTables = DEFAULT_EMISSION_TABLES): EmissionResult {
  const f = parseInput(factorsSchema, factors, CONSENSUS_ERROR_CODES.invalidFactor, 'factors');
  const t = parseInput(tablesSchema, tables, CONSENSUS_ERROR_CODES.invalidFactor, 'tables');
  // f.role is 'primary' or 'auditor' (validated) and t.role a fresh object of exactly those two keys.
  const role = f.role === 'primary' ? t.role.primary : t.role.auditor;
  const consensus = f.consensus ?? 1;
  const product = f.compositeQ * f.baseWeight * f.tierMultiplier * f.earlyBonus * role * consensus * f.bootstrap;
  if (!Number.isFinite(product)) {
    throw new SubnetError(CONSENSUS_ERROR_CODES.emissionOverflow, 'the emission product is not finite', {
      context: { path: 'factors', value: product },
    });
  }
  return deepFreeze({
    emission: product,
    factors: {
      compositeQ: f.compositeQ,
      baseWeight: f.baseWeight,
      tierMultiplier: f.tierMultiplier,
      earlyBonus: f.earlyBonus,
      role,
      consensus,
      bootstrap: f.bootstrap,
    },
    role: f.role,
    consensusNeutral: f.consensus === null,
  });
}
