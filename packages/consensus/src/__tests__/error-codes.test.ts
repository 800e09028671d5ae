import { describe, expect, it } from 'vitest';

import { CONSENSUS_ERROR_CODES } from '../index.js';

// Every code value ever published, written out by hand. Codes are append-only: add a line here when a
// code is added; a change or removal of any line below is a breaking change and must not happen.
const PUBLISHED: readonly (readonly [string, string])[] = [
  ['invalidSssa', 'CONSENSUS_INVALID_SSSA'],
  ['invalidEvidenceRef', 'CONSENSUS_INVALID_EVIDENCE_REF'],
  ['invalidFinding', 'CONSENSUS_INVALID_FINDING'],
  ['invalidGroup', 'CONSENSUS_INVALID_GROUP'],
  ['invalidFactor', 'CONSENSUS_INVALID_FACTOR'],
  ['emissionOverflow', 'CONSENSUS_EMISSION_OVERFLOW'],
  ['invalidSelection', 'CONSENSUS_INVALID_SELECTION'],
  ['invalidArgument', 'CONSENSUS_INVALID_ARGUMENT'],
  ['duplicateMember', 'CONSENSUS_DUPLICATE_MEMBER'],
];

describe('error codes are append-only', () => {
  it.each(PUBLISHED)('%s is still %s', (name, value) => {
    expect(Object.hasOwn(CONSENSUS_ERROR_CODES, name)).toBe(true);
    expect((CONSENSUS_ERROR_CODES as Record<string, string>)[name]).toBe(value);
  });

  it('every code in CONSENSUS_ERROR_CODES is listed here (a new code is added to this list)', () => {
    expect(Object.entries(CONSENSUS_ERROR_CODES)).toEqual(PUBLISHED.map(([name, value]) => [name, value]));
  });

  it('code values are unique, prefixed CONSENSUS_ and upper snake case', () => {
    const values = Object.values(CONSENSUS_ERROR_CODES);
    expect(new Set(values).size).toBe(values.length);
    for (const value of values) expect(value).toMatch(/^CONSENSUS_[A-Z0-9_]+$/);
  });
});
