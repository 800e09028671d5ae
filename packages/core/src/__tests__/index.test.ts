import { expect, it } from 'vitest';

import * as core from '../index.js';

it('exports exactly the public API (every change here is an API change)', () => {
  expect(Object.keys(core).sort()).toEqual([
    'BITTENSOR_SS58_PREFIX',
    'CANONICAL_JSON_MAX_DEPTH',
    'CANONICAL_JSON_TOO_DEEP',
    'CANONICAL_JSON_UNSUPPORTED',
    'CORE_ERROR_CODES',
    'CORE_INPUT_NOT_JSON',
    'CORE_INPUT_TOO_DEEP',
    'CORE_INPUT_TOO_LARGE',
    'CORE_MALFORMED_TEXT',
    'DEFAULT_INPUT_LIMITS',
    'SubnetError',
    'U64_MAX',
    'asciiLower',
    'asciiTrim',
    'asciiUpper',
    'assertWellFormed',
    'blockNumberSchema',
    'canonicalJson',
    'checkInputShape',
    'compareCodePoints',
    'decodeSs58',
    'describeValue',
    'digest',
    'encodeSs58',
    'findLoneSurrogate',
    'formatPath',
    'hotkeySchema',
    'isSubnetError',
    'nonNegativeFiniteSchema',
    'parseInput',
    'redactUrl',
    'sha256Hex',
    'u16WeightSchema',
    'uidSchema',
    'unitIntervalSchema',
  ]);
});
