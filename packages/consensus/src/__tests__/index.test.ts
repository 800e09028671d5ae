import { expect, it } from 'vitest';

import * as consensus from '../index.js';

it('exports exactly the public API (every change here is an API change)', () => {
  expect(Object.keys(consensus).sort()).toEqual(
    [
      'CONSENSUS_ERROR_CODES',
      'CONSENSUS_WEIGHTS',
      'DEFAULT_ELIGIBILITY_FILTERS',
      'DEFAULT_EMISSION_TABLES',
      'MIN_GROUP_SIZE',
      'SEVERITIES',
      'VERDICTS',
      'canonicalFindingKey',
      'computeConsensus',
      'computeTaskConsensus',
      'emission',
      'findingKeyPreimage',
      'lookupFactor',
      'majorityThreshold',
      'normaliseEvidenceRef',
      'parseSssa',
      'selectVerificationGroup',
      'sssaFindingSchema',
      'sssaSchema',
      'verificationSeed',
      // Tasks and per-type reputation (docs/spec.md G.3).
      'DEFAULT_REPUTATION_SETTINGS',
      'assignTask',
      'memberRole',
      'parseReputationTable',
      'reputationTableSchema',
      'taskIdSchema',
      'taskTypeSchema',
      'updateReputations',
    ].sort(),
  );
});
