import { expect, it } from 'vitest';

import * as mod from '../index.js';

it('exports exactly the public API', () => {
  expect(Object.keys(mod).sort()).toEqual(['MINER_CHECK_ERROR_CODES']);
});
