import { expect, it } from 'vitest';

import { AXON_ERROR_CODES } from '../errors.js';
import * as axon from '../index.js';

it('exports exactly the public API (every change here is an API change)', () => {
  expect(Object.keys(axon).sort()).toEqual([
    'AXON_ERROR_CODES',
    'BASE_SYNAPSE_FIELDS',
    'EMPTY_BODY_HASH',
    'EMPTY_TERMINAL',
    'NONCE_RULES',
    'NONCE_STORE_DEFAULTS',
    'PY_NONE',
    'SDK_VERSION_AS_INT',
    'TERMINAL_INFO_TYPE',
    'axonIpToString',
    'axonUrl',
    'axonsStorageKey',
    'callOutcome',
    'checkNonce',
    'computeBodyHash',
    'createAxon',
    'createDendrite',
    'createNonceStore',
    'createSynapse',
    'decodeAxonInfo',
    'defaultBlacklist',
    'defineSynapse',
    'fromPy',
    'handleAxonRequest',
    'parseJsonText',
    'parseSynapseHeaders',
    'parseSynapseJson',
    'pyFloatRepr',
    'pyJsonDumps',
    'pyRepr',
    'pyStr',
    'pyStrRepr',
    'serveAxonAccepts',
    'signatureMessage',
    'synapseBodyHash',
    'synapseHeaders',
    'synapseJson',
    'synapseToPy',
    'synapseValues',
    'toPy',
    'validatePy',
    'verifySynapseSignature',
  ]);
});

it('the codes are append-only: this list only grows', () => {
  expect(Object.values(AXON_ERROR_CODES)).toEqual([
    'AXON_INVALID_DEFINITION',
    'AXON_INVALID_JSON',
    'AXON_INVALID_VALUE',
    'AXON_INVALID_HEADER',
    'AXON_INVALID_AXON_INFO',
    'AXON_SERVER_START',
  ]);
});
