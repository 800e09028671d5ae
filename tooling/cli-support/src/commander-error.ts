import type { CommanderError } from 'commander';

/**
 * Whether `error` is one of commander's errors, recognised by its code (`commander.*`) and exit code rather than by
 * `instanceof`: the class of another copy of commander would not match.
 *
 * @param error - anything caught
 * @returns true for a commander error
 * @example
 * isCommanderError(new InvalidArgumentError('no')); // true (code 'commander.invalidArgument')
 */
export function isCommanderError(error: unknown): error is CommanderError {
  if (!(error instanceof Error)) return false;
  const { code, exitCode } = error as { code?: unknown; exitCode?: unknown };
  return typeof code === 'string' && code.startsWith('commander.') && typeof exitCode === 'number';
}
