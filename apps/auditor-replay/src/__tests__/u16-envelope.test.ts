import { beforeAll, describe, expect, it } from 'vitest';

import { bundleSchema } from '@subnet/bundle';
import { parseInput } from '@subnet/core';
import { z } from 'zod';
import type { SignatureVerifier, SignedBundle } from '@subnet/bundle';

import { isU16Vector } from '../audit-bundle.js';
import { AUDITOR_ERROR_CODES } from '../errors.js';
import { auditBundle, signatureVerifier } from '../index.js';
import { keys, signedBundle } from './fixtures.js';

const u16Schema = bundleSchema.shape.result.shape.u16;
/** The whole envelope as the auditor parsed it before (zod over every field but the four computeEpoch parses). */
const wholeEnvelope = bundleSchema.extend({ config: z.unknown(), inputs: z.unknown(), stakes: z.unknown(), metagraph: z.unknown() });
function wholeSchemaMessage(bundle: unknown): string {
  try {
    parseInput(wholeEnvelope, bundle, AUDITOR_ERROR_CODES.invalidBundle, 'signed.bundle');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the whole schema passed');
}
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** u16 vectors the schema passes or refuses, each made so that one detail decides. */
function candidates(): { name: string; value: unknown }[] {
  const inherited = Object.create({ weights: [1] }) as Record<string, unknown>;
  inherited.uids = [0];
  const nullProto = Object.create(null) as Record<string, unknown>;
  nullProto.uids = [0, 1];
  nullProto.weights = [65535, 0];
  class Vector {
    uids = [0];
    weights = [1];
  }
  // eslint-disable-next-line no-sparse-arrays -- a hole is what it checks
  const holed = [0, , 2];
  return [
    { name: 'plain', value: { uids: [0, 1, 65535], weights: [65535, 0, 7] } },
    { name: 'empty lists', value: { uids: [], weights: [] } },
    { name: 'keys in the other order', value: { weights: [3], uids: [4] } },
    { name: 'no prototype', value: nullProto },
    { name: 'a class instance', value: new Vector() },
    { name: 'an inherited key', value: inherited },
    { name: 'an extra key', value: { uids: [0], weights: [1], x: 1 } },
    { name: 'no weights', value: { uids: [0] } },
    { name: '__proto__ as an own key', value: JSON.parse('{"uids":[0],"weights":[1],"__proto__":{}}') },
    { name: '65536', value: { uids: [65536], weights: [1] } },
    { name: '-1', value: { uids: [0], weights: [-1] } },
    { name: '1.5', value: { uids: [0], weights: [1.5] } },
    { name: 'NaN', value: { uids: [0], weights: [Number.NaN] } },
    { name: 'a numeric string', value: { uids: ['0'], weights: [1] } },
    { name: 'a hole', value: { uids: holed, weights: [1, 2, 3] } },
    { name: 'a list as the vector', value: [[0], [1]] },
    { name: 'lists of lists', value: { uids: [[0]], weights: [[1]] } },
    { name: 'a string for a list', value: { uids: 'x', weights: [1] } },
    { name: 'an array-like object for a list', value: { uids: [0], weights: { 0: 1, length: 1 } } },
    { name: 'null', value: null },
  ];
}

describe('isU16Vector: the u16 check the auditor runs without zod', () => {
  it('is true only where the bundle schema passes, and true for every plain valid vector', () => {
    for (const { name, value } of candidates()) {
      const schemaPasses = u16Schema.safeParse(value).success;
      // Sufficient: a vector it accepts always passes the schema (it may refuse more: the schema then decides).
      if (isU16Vector(value)) expect(schemaPasses, name).toBe(true);
      // Plain objects that pass the schema are never sent to the slow parse.
      if (schemaPasses && typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
        expect(isU16Vector(value), name).toBe(true);
      }
    }
  });
});

describe('auditBundle with the u16 vector checked by hand', () => {
  let verify: SignatureVerifier;
  let good: SignedBundle;
  beforeAll(async () => {
    verify = await signatureVerifier();
    good = signedBundle(await keys(), { miners: 4, epoch: 9 });
  });

  it('refuses a u16 weight out of range with the schema error and path, as when zod checked the whole bundle', () => {
    const doc = copy(good) as unknown as { bundle: { result: { u16: { weights: number[] } } } };
    doc.bundle.result.u16.weights[1] = 70000;
    const { audit } = auditBundle(doc, 'big-weight.json', verify);
    expect(audit.status).toBe('invalid');
    expect(audit.error?.path).toBe('signed.bundle.result.u16.weights[1]');
    expect(audit.error?.message).toBe(wholeSchemaMessage(doc.bundle));
    expect(audit.error?.message).toContain('65535');
  });

  it('names the first problem in schema order when the u16 vector and a later field are both wrong', () => {
    const doc = copy(good) as unknown as { bundle: { result: { u16: { uids: unknown[] } }; submission: { status: string } } };
    doc.bundle.result.u16.uids[0] = 'zero';
    doc.bundle.submission.status = 'sent';
    const { audit } = auditBundle(doc, 'two-problems.json', verify);
    expect(audit.status).toBe('invalid');
    expect(audit.error?.path).toBe('signed.bundle.result.u16.uids[0]');
    expect(audit.error?.message).toBe(wholeSchemaMessage(doc.bundle));
  });
});
