import { expect, it } from 'vitest';

import * as core from '../index.js';

it('exports exactly the public API (every change here is an API change)', () => {
  expect(Object.keys(core).sort()).toEqual([
    'BITTENSOR_SS58_PREFIX',
    'CANONICAL_JSON_UNSUPPORTED',
    'SubnetError',
    'U64_MAX',
    'blockNumberSchema',
    'canonicalJson',
    'compareCodePoints',
    'decodeSs58',
    'describeValue',
    'digest',
    'encodeSs58',
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
