import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { DEFAULT_EMISSION_TABLES, emission } from '../index.js';
import type { EmissionFactors, EmissionTables } from '../index.js';

const factors: EmissionFactors = {
  compositeQ: 0.8,
  baseWeight: 1.25,
  tierMultiplier: 1.5,
  earlyBonus: 1.1,
  role: 'primary',
  consensus: 0.957,
  bootstrap: 0.9,
};

function errorOf(fn: () => unknown): { code: string; path: unknown } {
  try {
    fn();
  } catch (error) {
    if (isSubnetError(error)) return { code: error.code, path: error.context.path };
    throw error;
  }
  throw new Error('expected a throw');
}

describe('emission (SPEC B)', () => {
  it('= composite_Q · base_weight · tier_multiplier · early_bonus · role · consensus · bootstrap, left to right', () => {
    const result = emission(factors);
    expect(result.emission).toBe(0.8 * 1.25 * 1.5 * 1.1 * 1.0 * 0.957 * 0.9);
    expect(result.factors).toEqual({
      compositeQ: 0.8,
      baseWeight: 1.25,
      tierMultiplier: 1.5,
      earlyBonus: 1.1,
      role: 1,
      consensus: 0.957,
      bootstrap: 0.9,
    });
    expect(result.consensusNeutral).toBe(false);
  });

  it('role defaults: primary 1.0, auditor 0.6', () => {
    expect(DEFAULT_EMISSION_TABLES.role).toEqual({ primary: 1.0, auditor: 0.6 });
    expect(emission({ ...factors, role: 'auditor' }).factors.role).toBe(0.6);
    expect(emission({ ...factors, role: 'auditor' }).emission).toBe(0.8 * 1.25 * 1.5 * 1.1 * 0.6 * 0.957 * 0.9);
  });

  it('the role table is configuration', () => {
    const tables: EmissionTables = { role: { primary: 1.2, auditor: 0.75 } };
    expect(emission({ ...factors, role: 'auditor' }, tables).factors.role).toBe(0.75);
    expect(emission(factors, tables).emission).toBe(0.8 * 1.25 * 1.5 * 1.1 * 1.2 * 0.957 * 0.9);
  });

  it('a null consensus (group of fewer than 3) uses the neutral factor 1', () => {
    const result = emission({ ...factors, consensus: null });
    expect(result.factors.consensus).toBe(1);
    expect(result.consensusNeutral).toBe(true);
    expect(result.emission).toBe(0.8 * 1.25 * 1.5 * 1.1 * 1.0 * 1 * 0.9);
  });

  it('zero factors are valid and give zero', () => {
    expect(emission({ ...factors, earlyBonus: 0 }).emission).toBe(0);
  });

  it('is frozen', () => {
    const result = emission(factors);
    expect(Object.isFrozen(result)).toBe(true);
    expect(Object.isFrozen(result.factors)).toBe(true);
  });

  it.each([
    ['factors.compositeQ', { compositeQ: -0.1 }],
    ['factors.baseWeight', { baseWeight: Number.NaN }],
    ['factors.tierMultiplier', { tierMultiplier: Number.POSITIVE_INFINITY }],
    ['factors.earlyBonus', { earlyBonus: '1' }],
    ['factors.bootstrap', { bootstrap: undefined }],
    ['factors.consensus', { consensus: 1.2 }],
    ['factors.consensus', { consensus: undefined }],
    ['factors.role', { role: 'validator' }],
    ['factors', { earlybonus: 1 }],
  ])('rejects a bad factor with CONSENSUS_INVALID_FACTOR naming %s', (path, patch) => {
    expect(errorOf(() => emission({ ...factors, ...patch } as EmissionFactors))).toEqual({ code: 'CONSENSUS_INVALID_FACTOR', path });
  });

  it.each([
    ['tables.role.auditor', { role: { primary: 1, auditor: -0.6 } }],
    ['tables.role.primary', { role: { auditor: 0.6 } }],
  ])('rejects a bad table with CONSENSUS_INVALID_FACTOR naming %s', (path, tables) => {
    expect(errorOf(() => emission(factors, tables as EmissionTables))).toEqual({ code: 'CONSENSUS_INVALID_FACTOR', path });
  });

  it('an overflowing product of valid factors is CONSENSUS_EMISSION_OVERFLOW', () => {
    expect(errorOf(() => emission({ ...factors, compositeQ: 1e200, baseWeight: 1e200 })).code).toBe('CONSENSUS_EMISSION_OVERFLOW');
  });
});
