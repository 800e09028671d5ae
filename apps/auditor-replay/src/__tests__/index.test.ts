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
    'compareChainWeights',
    'compareFileNames',
    'createProgress',
    'diffJson',
    'expandOperands',
    'fetchBundles',
    'formatJsonPath',
    'formatMismatch',
    'formatReport',
    'formatTable',
    'loadDocument',
    'locateDifference',
    'openChainReader',
    'renderChart',
    'renderHtmlReport',
    'runCli',
    'shortValue',
    'signatureVerifier',
    'verifyBundles',
  ]);
});
