import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { mapModuleError, mapPoolError } from '../chain-error.js';
import { CHAIN_ERRORS, chainErrorCode, MODULE_ERROR_NAMES, POOL_CUSTOM_ERRORS } from '../error-codes.js';

const CODE = /^CHAIN_[A-Z0-9]+(_[A-Z0-9]+)*$/;

describe('error mapper properties', () => {
  it('every pool Custom error 0..255 maps to a CHAIN_ code in the table, keeping N; unlisted N are CHAIN_INVALID_TRANSACTION', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.constantFrom('1010: Invalid Transaction: ', 'RpcError: 1010: Invalid Transaction: ', ''),
        (n, prefix) => {
          const error = mapPoolError(new Error(`${prefix}Custom error: ${n}`));
          expect(error).toBeDefined();
          expect(error!.code).toMatch(CODE);
          expect(CHAIN_ERRORS.has(error!.code)).toBe(true);
          expect(error!.context.customError).toBe(n);
          expect(error!.context.source).toBe('pool');
          const row = POOL_CUSTOM_ERRORS.get(n);
          expect(error!.code).toBe(row ? chainErrorCode(row.chainName) : 'CHAIN_INVALID_TRANSACTION');
        },
      ),
      { numRuns: 300 },
    );
  });
  it('every module error name maps to a CHAIN_ code carrying the name; known names to their own code, others to CHAIN_UNKNOWN_MODULE_ERROR', () => {
    const camel = fc.array(fc.stringMatching(/^[A-Z][a-z]{1,8}$/), { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...MODULE_ERROR_NAMES), camel), (name) => {
        const error = mapModuleError('SubtensorModule', name);
        expect(error.code).toMatch(CODE);
        expect(CHAIN_ERRORS.has(error.code)).toBe(true);
        expect(error.context.chainName).toBe(name);
        expect(error.message).toContain(name);
        const known = CHAIN_ERRORS.get(chainErrorCode(name));
        expect(error.code).toBe(known ? known.code : 'CHAIN_UNKNOWN_MODULE_ERROR');
      }),
      { numRuns: 300 },
    );
  });
  it('distinct module error names never collide on one code', () => {
    expect(new Set(MODULE_ERROR_NAMES.map(chainErrorCode)).size).toBe(MODULE_ERROR_NAMES.length);
  });
});
