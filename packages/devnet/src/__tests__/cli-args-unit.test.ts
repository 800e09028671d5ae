/**
 * `usageError` recognises the workspace's coded errors by their brand, as `isSubnetError` does, so a
 * `DEVNET_USAGE` thrown by another copy of `@subnet/core` (a consumer's nested install) is still a usage error.
 */
import { SubnetError } from '@subnet/core';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';

import { usageError } from '../cli-args.js';
import { DEVNET_ERROR_CODES } from '../errors.js';

/** A SubnetError as another copy of @subnet/core builds it: same brand, different class. */
function foreignSubnetError(code: string): Error {
  return Object.assign(new Error(`[${code}] from another copy`), { code, [Symbol.for('@subnet/core/SubnetError')]: true });
}

describe('usageError', () => {
  it('returns a DEVNET_USAGE error of this copy or of another copy of @subnet/core unchanged', () => {
    const own = new SubnetError(DEVNET_ERROR_CODES.usage, 'bad --port');
    expect(usageError(own)).toBe(own);
    const foreign = foreignSubnetError(DEVNET_ERROR_CODES.usage);
    expect(foreign).not.toBeInstanceOf(SubnetError);
    expect(usageError(foreign)).toBe(foreign);
  });

  it('is null for another code, for help and version output, and for a plain error', () => {
    expect(usageError(foreignSubnetError(DEVNET_ERROR_CODES.invalidOptions))).toBeNull();
    expect(usageError(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toBeNull();
    expect(usageError(new Error('boom'))).toBeNull();
  });

  it("turns commander's own error into DEVNET_USAGE without its 'error: ' prefix", () => {
    const error = usageError(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--bogus'"));
    expect(error?.code).toBe(DEVNET_ERROR_CODES.usage);
    expect(error?.message).toContain("unknown option '--bogus'");
    expect(error?.message).not.toContain('error: unknown');
  });
});
