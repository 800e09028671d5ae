import type { InputLimits } from '@subnet/core';
import { checkInputShape, DEFAULT_INPUT_LIMITS } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { fastSssa } from '../fast-sssa.js';
import { sssaSchema } from '../index.js';

import example from './fixtures/worked-example.json' with { type: 'json' };
import { docArb, mutate, mutationArb } from './sssa-arbitraries.js';

// The hand-written validator must accept exactly what the input limits and the zod schema accept together
// (the schema is the readable statement of the rules and names the field of an error).
function slowAccepts(input: unknown, limits: InputLimits): boolean {
  try {
    checkInputShape(input, limits, 'sssa');
  } catch {
    return false;
  }
  return sssaSchema.safeParse(input).success;
}

const SMALL: InputLimits = { maxDepth: 6, maxListLength: 3, maxStringLength: 12, maxObjectKeys: 9 };

describe('the hand-written SSSA validator accepts exactly what the input limits and sssaSchema accept', () => {
  it('on the worked-example documents (all valid)', () => {
    for (const member of example.members) {
      expect(fastSssa(member.sssa, DEFAULT_INPUT_LIMITS)).toEqual(sssaSchema.parse(member.sssa));
    }
  });

  it.each([
    ['default limits', DEFAULT_INPUT_LIMITS],
    ['small limits', SMALL],
  ])('on random documents and random mutations of them (%s)', (_name, limits) => {
    fc.assert(
      fc.property(docArb, fc.nat(), mutationArb, fc.boolean(), (doc, which, mutation, mutated) => {
        const input = mutated ? mutate(doc, which, mutation) : doc;
        const fast = fastSssa(input, limits);
        expect(fast !== undefined).toBe(slowAccepts(input, limits));
        // What is accepted is built as the schema builds it (the schema drops a `__proto__` key, we keep it).
        if (fast !== undefined && !JSON.stringify(input).includes('"__proto__"')) expect(fast).toEqual(sssaSchema.parse(input));
      }),
      { numRuns: 3000 },
    );
  });
});
