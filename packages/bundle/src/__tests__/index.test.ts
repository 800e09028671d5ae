import { expect, it } from 'vitest';

import * as bundle from '../index.js';

it('exports exactly the public API (every change here is an API change)', () => {
  expect(Object.keys(bundle).sort()).toEqual([
    'BUNDLE_ERROR_CODES',
    'BUNDLE_SCHEMA_VERSION',
    'CHALLENGE_KINDS',
    'QUERY_OUTCOMES',
    'RECORD_MAX_DEPTH',
    'SUBMISSION_STATUSES',
    'bountyInputSchema',
    'buildBundle',
    'bundleDigest',
    'bundleSchema',
    'challengeSettingsSchema',
    'computeEpoch',
    'decayStateEntrySchema',
    'epochConfigSchema',
    'epochInputsSchema',
    'neuronEntrySchema',
    'parseEpochConfig',
    'parseEpochInputs',
    'peerScoreSchema',
    'queryListSchema',
    'queryRecordSchema',
    'recomputeBundle',
    'signBundle',
    'signedBundleSchema',
    'signedBundleText',
    'sr25519Verifier',
    'sssaSubmissionSchema',
    'stakeEntrySchema',
    'submissionRecordSchema',
    'taskRecordSchema',
    'termResultSchema',
    'termResultsSchema',
    'termTaskResultSchema',
    'toWire',
    'verifyBundle',
    'workflowRunSchema',
  ]);
});
