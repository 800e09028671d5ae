import { expectPublishedCodes } from '@subnet/vitest-config/error-codes';
import { describe, expect, it } from 'vitest';

import { CONSENSUS_ERROR_CODES } from '../index.js';

// Every code value ever published, written out by hand. Codes are append-only: add a line here when a
// code is added; a change or removal of any line below is a breaking change and must not happen.
const PUBLISHED = {
  invalidSssa: 'CONSENSUS_INVALID_SSSA',
  invalidEvidenceRef: 'CONSENSUS_INVALID_EVIDENCE_REF',
  invalidFinding: 'CONSENSUS_INVALID_FINDING',
  invalidGroup: 'CONSENSUS_INVALID_GROUP',
  invalidFactor: 'CONSENSUS_INVALID_FACTOR',
  emissionOverflow: 'CONSENSUS_EMISSION_OVERFLOW',
  invalidSelection: 'CONSENSUS_INVALID_SELECTION',
  invalidArgument: 'CONSENSUS_INVALID_ARGUMENT',
  duplicateMember: 'CONSENSUS_DUPLICATE_MEMBER',
} as const;

describe('error codes are append-only', () => {
  it('every published code keeps its name, value and place; the codes are unique and frozen', () => {
    expectPublishedCodes(CONSENSUS_ERROR_CODES, PUBLISHED);
  });

  it('every code in CONSENSUS_ERROR_CODES is listed here, in order (a new code is added to this list)', () => {
    expect(Object.entries(CONSENSUS_ERROR_CODES)).toEqual(Object.entries(PUBLISHED));
  });

  it('code values are prefixed CONSENSUS_ and upper snake case', () => {
    for (const value of Object.values(CONSENSUS_ERROR_CODES)) expect(value).toMatch(/^CONSENSUS_[A-Z0-9_]+$/);
  });
});
