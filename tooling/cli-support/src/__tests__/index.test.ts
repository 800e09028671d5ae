import { expect, it } from 'vitest';

import * as api from '../index.js';

it('exports exactly these names (a change of the public API shows here)', () => {
  expect(Object.keys(api).sort()).toEqual([
    'decimalFlagValue',
    'documentKind',
    'editDistance',
    'endQuietlyOnClosedPipes',
    'integerFlagValue',
    'isCommanderError',
    'missingKeyHint',
    'nearestKey',
    'overLimitHint',
    'unknownOptionFirst',
    'usageCause',
    'wrongKindSentence',
  ]);
});
