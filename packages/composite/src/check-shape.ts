import { checkInputShape, isSubnetError, SubnetError } from '@subnet/core';

/**
 * Runs core's `checkInputShape` (depth 64, size limits, JSON values only) and re-raises its error under
 * this package's code for that input, keeping core's code in `context.shapeCode` and the error as `cause`.
 */
export function checkShape(input: unknown, code: string, label: string): void {
  try {
    checkInputShape(input, undefined, label);
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    const text = error.message.slice(error.code.length + 3);
    const where = text.lastIndexOf(` at ${String(error.context.path)}`);
    throw new SubnetError(code, `invalid ${label}: ${where >= 0 ? text.slice(0, where) : text}`, {
      context: { ...error.context, shapeCode: error.code },
      cause: error,
    });
  }
}
