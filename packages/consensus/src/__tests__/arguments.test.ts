import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import {
  canonicalFindingKey,
  computeConsensus,
  computeTaskConsensus,
  emission,
  findingKeyPreimage,
  lookupFactor,
  majorityThreshold,
  normaliseEvidenceRef,
  parseSssa,
  selectVerificationGroup,
  verificationSeed,
} from '../index.js';

// Issue 14 item 6: every exported function answers bad input with a coded error: never NaN, a TypeError
// or a silent coercion.
const HASH = `0x${'ab'.repeat(32)}`;
const factors = { compositeQ: 1, baseWeight: 1, tierMultiplier: 1, earlyBonus: 1, role: 'primary', consensus: 1, bootstrap: 1 };
const BAD: readonly (readonly [string, string, () => unknown])[] = [
  ['majorityThreshold(NaN)', 'CONSENSUS_INVALID_ARGUMENT', () => majorityThreshold(Number.NaN)],
  ['majorityThreshold(-1)', 'CONSENSUS_INVALID_ARGUMENT', () => majorityThreshold(-1)],
  ['majorityThreshold(2.5)', 'CONSENSUS_INVALID_ARGUMENT', () => majorityThreshold(2.5)],
  ['majorityThreshold("4")', 'CONSENSUS_INVALID_ARGUMENT', () => majorityThreshold('4' as unknown as number)],
  ['majorityThreshold(2^53)', 'CONSENSUS_INVALID_ARGUMENT', () => majorityThreshold(2 ** 53)],
  ['verificationSeed(short hash)', 'CONSENSUS_INVALID_ARGUMENT', () => verificationSeed('0x12', 't')],
  ['verificationSeed(upper-case hash)', 'CONSENSUS_INVALID_ARGUMENT', () => verificationSeed(HASH.toUpperCase(), 't')],
  ['verificationSeed(blank task)', 'CONSENSUS_INVALID_ARGUMENT', () => verificationSeed(HASH, ' \t')],
  ['verificationSeed(number task)', 'CONSENSUS_INVALID_ARGUMENT', () => verificationSeed(HASH, 7 as unknown as string)],
  ['verificationSeed(lone surrogate)', 'CONSENSUS_INVALID_ARGUMENT', () => verificationSeed(HASH, 't\ud800')],
  ['emission()', 'CONSENSUS_INVALID_FACTOR', () => emission(undefined as never)],
  ['emission(NaN factor)', 'CONSENSUS_INVALID_FACTOR', () => emission({ ...factors, earlyBonus: Number.NaN } as never)],
  ['emission(string factor)', 'CONSENSUS_INVALID_FACTOR', () => emission({ ...factors, bootstrap: '1' } as never)],
  ['emission(null tables)', 'CONSENSUS_INVALID_FACTOR', () => emission(factors as never, null as never)],
  ['emission(__proto__ role)', 'CONSENSUS_INVALID_FACTOR', () => emission({ ...factors, role: '__proto__' } as never)],
  ['lookupFactor(array table)', 'CONSENSUS_INVALID_ARGUMENT', () => lookupFactor([] as never, 'a', 1)],
  ['lookupFactor(number key)', 'CONSENSUS_INVALID_ARGUMENT', () => lookupFactor({}, 1 as never, 1)],
  ['lookupFactor(NaN fallback)', 'CONSENSUS_INVALID_ARGUMENT', () => lookupFactor({}, 'a', Number.NaN)],
  ['lookupFactor(negative entry)', 'CONSENSUS_INVALID_FACTOR', () => lookupFactor({ a: -1 }, 'a', 1)],
  ['normaliseEvidenceRef(null)', 'CONSENSUS_INVALID_EVIDENCE_REF', () => normaliseEvidenceRef(null as never)],
  ['findingKeyPreimage(null)', 'CONSENSUS_INVALID_FINDING', () => findingKeyPreimage(null)],
  ['canonicalFindingKey([])', 'CONSENSUS_INVALID_FINDING', () => canonicalFindingKey([])],
  ['parseSssa(label 3)', 'CONSENSUS_INVALID_ARGUMENT', () => parseSssa({}, 3 as never)],
  ['parseSssa(options "x")', 'CONSENSUS_INVALID_ARGUMENT', () => parseSssa({}, 'sssa', 'x' as never)],
  ['computeConsensus()', 'CONSENSUS_INVALID_GROUP', () => computeConsensus(undefined as never)],
  ['computeConsensus(explain "yes")', 'CONSENSUS_INVALID_GROUP', () => computeConsensus({ taskId: 't', members: [], explain: 'yes' as never })],
  ['computeTaskConsensus()', 'CONSENSUS_INVALID_GROUP', () => computeTaskConsensus(undefined as never)],
  ['computeTaskConsensus(limits -1)', 'CONSENSUS_INVALID_ARGUMENT', () => computeTaskConsensus({ taskId: 't', members: [], limits: { maxDepth: -1 } })],
  ['selectVerificationGroup()', 'CONSENSUS_INVALID_SELECTION', () => selectVerificationGroup(undefined as never)],
  [
    'selectVerificationGroup(k NaN)',
    'CONSENSUS_INVALID_SELECTION',
    () => selectVerificationGroup({ candidates: [], blockHash: HASH, taskId: 't', k: Number.NaN }),
  ],
];

describe('every exported function checks its arguments', () => {
  it.each(BAD)('%s throws %s', (_name, code, call) => {
    let thrown: unknown;
    try {
      call();
    } catch (error) {
      thrown = error;
    }
    expect(isSubnetError(thrown, code)).toBe(true);
  });

  it('valid arguments still work (the checks refuse nothing valid)', () => {
    expect([majorityThreshold(0), majorityThreshold(5)]).toEqual([1, 3]);
    expect(verificationSeed(HASH, 'task-1')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('configuration tables read own keys only (SPEC 0: keys are data)', () => {
  it('a task type of "constructor", "__proto__" or "toString" gets its own entry or the fallback, never an inherited value', () => {
    const baseWeights = { mcp_server: 2 };
    expect(lookupFactor(baseWeights, 'constructor', 1, 'base_weights')).toBe(1);
    expect(lookupFactor(baseWeights, '__proto__', 1, 'base_weights')).toBe(1);
    expect(lookupFactor(baseWeights, 'toString', 1, 'base_weights')).toBe(1);
    expect(lookupFactor(baseWeights, 'mcp_server', 1, 'base_weights')).toBe(2);
    const parsed = JSON.parse('{"__proto__": 3, "constructor": 4}') as Record<string, number>;
    expect([lookupFactor(parsed, '__proto__', 1), lookupFactor(parsed, 'constructor', 1)]).toEqual([3, 4]);
    expect(lookupFactor(new Map([['constructor', 5]]), 'constructor', 1)).toBe(5);
    expect(lookupFactor(Object.assign(Object.create(null) as object, { a: 6 }), 'a', 1)).toBe(6);
  });

  it('a bad entry is CONSENSUS_INVALID_FACTOR naming it', () => {
    try {
      lookupFactor({ mcp_server: Number.POSITIVE_INFINITY }, 'mcp_server', 1, 'base_weights');
      expect.unreachable();
    } catch (error) {
      expect(isSubnetError(error, 'CONSENSUS_INVALID_FACTOR')).toBe(true);
      expect((error as { context: { path: string } }).context.path).toBe('base_weights.mcp_server');
    }
  });
});
