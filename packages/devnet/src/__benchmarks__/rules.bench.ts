import { bench, describe } from 'vitest';

import { maxUpscaleToU16, weightCommitHash } from '../weights-rules.js';

for (const n of [10, 100, 1000]) {
  const values = Array.from({ length: n }, (_, i) => (i * 7919) % 65536);
  const uids = Array.from({ length: n }, (_, i) => i);
  describe(`n = ${n}`, () => {
    bench('maxUpscaleToU16', () => {
      maxUpscaleToU16(values);
    });
    bench('weightCommitHash', () => {
      weightCommitHash(`0x${'11'.repeat(32)}`, 1, uids, values, [1, 2, 3, 4], 1n);
    });
  });
}
