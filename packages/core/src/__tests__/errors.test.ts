import { describe, expect, it } from 'vitest';

import type * as ErrorsModule from '../errors.js';
import { describeValue, isSubnetError, SubnetError } from '../index.js';

describe('SubnetError', () => {
  it('carries a stable code, a typed context, a message naming path and value, and the cause', () => {
    const cause = new Error('underlying');
    const error = new SubnetError('COMPOSITE_INVALID_DAG', 'edge points at an unknown node', {
      context: { path: 'plan.edges[0].to', value: 'ghost' },
      cause,
    });
    expect(error.code).toBe('COMPOSITE_INVALID_DAG');
    expect(error.context.path).toBe('plan.edges[0].to');
    expect(error.message).toBe('[COMPOSITE_INVALID_DAG] edge points at an unknown node at plan.edges[0].to (got "ghost")');
    expect(error.cause).toBe(cause);
    expect(error.name).toBe('SubnetError');
    expect(error).toBeInstanceOf(Error);
  });

  it('leaves path and value out of the message when the context has none', () => {
    expect(new SubnetError('CHAIN_TIMEOUT', 'no answer in 30 s').message).toBe('[CHAIN_TIMEOUT] no answer in 30 s');
  });
});

describe('isSubnetError', () => {
  it('recognises the error, and checks the code when asked', () => {
    const error = new SubnetError('CORE_X', 'x');
    expect(isSubnetError(error)).toBe(true);
    expect(isSubnetError(error, 'CORE_X')).toBe(true);
    expect(isSubnetError(error, 'CORE_Y')).toBe(false);
  });

  it('rejects plain errors and look-alikes without the brand', () => {
    expect(isSubnetError(new Error('x'))).toBe(false);
    expect(isSubnetError({ code: 'CORE_X', name: 'SubnetError' })).toBe(false);
    expect(isSubnetError(null)).toBe(false);
    expect(isSubnetError('CORE_X')).toBe(false);
  });

  it('works across a duplicate copy of the package (not instanceof)', async () => {
    // A second instance of the module, as two copies of @subnet/core in one tree would give.
    const specifier = '../errors.ts?duplicate-copy';
    const copy = (await import(/* @vite-ignore */ specifier)) as typeof ErrorsModule;
    const foreign = new copy.SubnetError('CORE_X', 'from the other copy');
    expect(copy.SubnetError).not.toBe(SubnetError);
    expect(foreign instanceof SubnetError).toBe(false);
    expect(isSubnetError(foreign, 'CORE_X')).toBe(true);
  });
});

describe('describeValue', () => {
  it('spells out what JSON would hide', () => {
    expect(describeValue(Number.NaN)).toBe('NaN');
    expect(describeValue(Number.NEGATIVE_INFINITY)).toBe('-Infinity');
    expect(describeValue(-0)).toBe('-0');
    expect(describeValue(undefined)).toBe('undefined');
    expect(describeValue(12n)).toBe('12n');
    expect(describeValue({ a: Number.NaN })).toBe('{"a":"NaN"}');
  });
  it('cuts long values at 80 characters', () => {
    const text = describeValue('x'.repeat(500));
    expect(text).toHaveLength(80);
    expect(text.endsWith('...')).toBe(true);
  });
});
