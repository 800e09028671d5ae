import { expect, it } from 'vitest';

import { toWire } from '../index.js';

it('toWire turns camelCase keys to snake_case and keeps hotkeys, verdicts and other keys', () => {
  expect(toWire({ stakeFraction: 0.5, ALLOW: 2, '5Grw': [{ topScore: 1 }], skip: undefined })).toEqual({
    stake_fraction: 0.5,
    ALLOW: 2,
    '5Grw': [{ top_score: 1 }],
  });
});
