import { expect, it } from 'vitest';

import * as validator from '../index.js';

it('exports exactly the public API (every change here is an API change)', () => {
  expect(Object.keys(validator).sort()).toEqual([
    'ComputationAbandoned',
    'DEFAULT_HTTP_LIMITS',
    'ENV_PREFIX',
    'MIGRATIONS',
    'RECEIVER_HEADER',
    'RecordsUnreadable',
    'SIGNATURE_HEADERS',
    'VALIDATOR_ERROR_CODES',
    'buildServer',
    'checkReadiness',
    'closeEndedEpochs',
    'closeEpoch',
    'connectSubnetChain',
    'createEpochComputer',
    'createMetrics',
    'createWriteQueue',
    'defaultConfigYaml',
    'envOverlay',
    'handleSignals',
    'inputsFromRecords',
    'loadConfig',
    'openPostgresStorage',
    'openSqliteStorage',
    'publishBundle',
    'reconcileInterrupted',
    'redactConfig',
    'resolveConfig',
    'runDemo',
    'signRequest',
    'signedMessage',
    'stakeSet',
    'startValidator',
    'validatorConfigSchema',
    'verifySignedRequest',
  ]);
});
