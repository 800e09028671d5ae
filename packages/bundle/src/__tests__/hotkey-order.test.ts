import fc from 'fast-check';
import { expect, it } from 'vitest';

import { compareCodePoints, encodeSs58 } from '@subnet/core';

import { compareHotkeys } from '../hotkey-order.js';

it('orders SS58 hotkeys exactly as compareCodePoints does (any public key, any network prefix)', () => {
  const hotkey = fc.tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 0, max: 16383 })).map(([key, prefix]) => encodeSs58(key, prefix));
  fc.assert(
    fc.property(hotkey, hotkey, (a, b) => {
      expect(Math.sign(compareHotkeys(a, b))).toBe(Math.sign(compareCodePoints(a, b)));
      expect(compareHotkeys(a, a)).toBe(0);
    }),
    { numRuns: 2000 },
  );
});
