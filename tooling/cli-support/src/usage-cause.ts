import type { Command, CommanderError } from 'commander';

import { unknownOptionFirst } from './unknown-option-first.js';

/**
 * The cause of a usage error, as the CLIs print it after their code: commander's own sentence, which leads with the
 * option, the value and what is allowed, without its `error: ` prefix and on one line; a misspelt required flag is
 * reported as unknown first ({@link unknownOptionFirst}); the commands are named when the command is unknown or
 * missing. The program alone, or `help <topic>`: commander has printed the help and its message is only
 * `(outputHelp)`, so the cause is said here.
 *
 * @param error - what parsing threw (not help or version output, which exit 0)
 * @param program - the program that parsed
 * @param args - the user's arguments (without `node` and the script path)
 * @returns the sentence, e.g. `unknown option '--resluts' (Did you mean --results?)`
 * @example
 * usageCause(error, program, ['verfy']); // "unknown command 'verfy' (the commands: verify, fetch)"
 */
export function usageCause(error: CommanderError, program: Command, args: readonly string[]): string {
  const commands = program.commands.map((command) => command.name()).join(', ');
  if (error.code === 'commander.help') {
    const [first, topic] = args;
    const unknown = first === 'help' && topic !== undefined && !program.commands.some((command) => command.name() === topic);
    return unknown ? `unknown command '${topic}' (the commands: ${commands})` : `a command is required: ${commands}`;
  }
  const first = unknownOptionFirst(error, program, args);
  const cause = first.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
  return first.code === 'commander.unknownCommand' ? `${cause} (the commands: ${commands})` : cause;
}
