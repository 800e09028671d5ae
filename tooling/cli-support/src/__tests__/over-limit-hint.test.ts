import { describe, expect, it } from 'vitest';

import { overLimitHint } from '../over-limit-hint.js';

const options = {
  maxListLength: { flag: '--max-list-length', most: 100_000 },
  maxDepth: { flag: '--max-depth', most: 64 },
};

describe('overLimitHint: the option that sets the limit an input went over', () => {
  it('names the option and its value, and how far it can be raised', () => {
    expect(overLimitHint({ path: 'x', value: '[5 elements]', limit: 3, limitName: 'maxListLength' }, options)).toBe(
      'the limit is --max-list-length 3: raise it (at most 100000) to allow more',
    );
  });

  it('says when the option is at its most', () => {
    expect(overLimitHint({ limit: 64, limitName: 'maxDepth' }, options)).toBe('the limit is --max-depth 64, the most it can be');
  });

  it('says nothing for a context that names no limit, or one the CLI has no option for (keys are data)', () => {
    expect(overLimitHint({ path: 'x', value: 1 }, options)).toBeUndefined();
    expect(overLimitHint({ limit: 3, limitName: 'maxObjectKeys' }, options)).toBeUndefined();
    expect(overLimitHint({ limit: 3, limitName: 'toString' }, options)).toBeUndefined();
    expect(overLimitHint({ limit: '3', limitName: 'maxListLength' }, options)).toBeUndefined();
  });
});
