import { isSubnetError } from '@subnet/core';
import type { SubnetError } from '@subnet/core';

/** Runs fn and returns the SubnetError it threw; fails the test when it throws nothing or something else. */
export function thrown(fn: () => unknown): SubnetError {
  try {
    fn();
  } catch (error) {
    if (isSubnetError(error)) return error;
    throw new Error(`expected a SubnetError, got ${String(error)}`);
  }
  throw new Error('expected a SubnetError, nothing was thrown');
}
