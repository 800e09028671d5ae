import { expect, it } from 'vitest';

import * as mod from '../index.js';

it('exports exactly the public API', () => {
  expect(Object.keys(mod).sort()).toEqual([
    'AUDITOR_ERROR_CODES',
    'EXIT_CODES',
    'IDENTITY_KEYS',
    'auditBundle',
    'auditFile',
    'buildReport',
    'bundleUrl',
    'chainReadError',
    'compareChainWeights',
    'compareFileNames',
    'createProgress',
    'diffJson',
    'downstreamMismatches',
    'expandOperands',
    'fetchBundles',
    'findEquivocations',
    'findRootCause',
    'formatChecks',
    'formatJsonPath',
    'formatMismatch',
    'formatReport',
    'formatTable',
    'loadDocument',
    'locateDifference',
    'openChainReader',
    'orderMismatches',
    'pipelineRank',
    'renderChart',
    'renderHtmlReport',
    'runCli',
    'shortValue',
    'signatureVerifier',
    'verdict',
    'verifyBundles',
  ]);
});
