import type { Command, CommanderError } from 'commander';

import { isCommanderError } from './commander-error.js';

/**
 * Commander checks required options before unknown ones, so a mistyped required flag (`--resluts`) reads as
 * "required option '--results <file>' not specified". The unknown option, with commander's "Did you mean" hint, is the
 * cause: it is returned instead when the subcommand's part of the command line holds one.
 *
 * The program must have `exitOverride()` set before its subcommands are added (they inherit it), as every CLI of the
 * workspace does: commander's unknown-option report then throws instead of ending the process. That report is untyped
 * in commander's declarations (commander is pinned, and this package's tests pin its sentence).
 *
 * @param error - what parsing threw
 * @param program - the program that parsed
 * @param args - the user's arguments (without `node` and the script path)
 * @returns commander's unknown-option error when `error` is a missing required option and the subcommand's arguments
 *   hold an unknown option; `error` itself otherwise
 * @example
 * unknownOptionFirst(error, program, ['verify', '--resluts', 'r.json']).message;
 * // "error: unknown option '--resluts'\n(Did you mean --results?)"
 */
export function unknownOptionFirst(error: CommanderError, program: Command, args: readonly string[]): CommanderError {
  if (error.code !== 'commander.missingMandatoryOptionValue') return error;
  const at = args.findIndex((arg) => program.commands.some((command) => command.name() === arg));
  const sub = program.commands.find((command) => command.name() === args[at]);
  if (sub === undefined) return error;
  const flag = sub.parseOptions([...args.slice(at + 1)]).unknown.find((arg) => arg.startsWith('-'));
  if (flag === undefined) return error;
  try {
    (sub as unknown as { unknownOption(flag: string): never }).unknownOption(flag);
  } catch (unknown) {
    if (isCommanderError(unknown)) return unknown;
  }
  return error;
}
