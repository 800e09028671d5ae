import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';

import { isCommanderError, unknownOptionFirst, usageCause } from '../index.js';

/**
 * A program as the CLIs of the workspace build theirs: exit override and silent errors set before the subcommands
 * (which inherit them), a required option, a global option before the command.
 */
function program(): Command {
  const root = new Command('tool')
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined })
    .option('--max-depth <n>', 'a global option');
  root
    .command('verify')
    .requiredOption('--results <file>', 'the results')
    .option('--json', 'JSON')
    .action(() => undefined);
  root.command('fetch').action(() => undefined);
  return root;
}

/** What parsing `args` threw (commander's own error), with the program that threw it. */
function parseError(args: readonly string[]): { error: CommanderError; program: Command } {
  const p = program();
  try {
    p.parse([...args], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return { error, program: p };
    throw error;
  }
  throw new Error(`parsing ${args.join(' ')} did not fail`);
}

describe('unknownOptionFirst: a misspelt required flag is reported as unknown, before "missing required option"', () => {
  it('commander alone says the required option is missing', () => {
    const { error } = parseError(['verify', '--resluts', 'r.json']);
    expect(error.code).toBe('commander.missingMandatoryOptionValue');
    expect(error.message).toBe("error: required option '--results <file>' not specified");
  });

  it('the unknown option comes first, with commander\'s "Did you mean" hint', () => {
    const args = ['verify', '--resluts', 'r.json'];
    const { error, program: p } = parseError(args);
    const first = unknownOptionFirst(error, p, args);
    expect(first.code).toBe('commander.unknownOption');
    expect(first.exitCode).toBe(1);
    expect(first.message).toBe("error: unknown option '--resluts'\n(Did you mean --results?)");
    expect(usageCause(error, p, args)).toBe("unknown option '--resluts' (Did you mean --results?)");
  });

  it('also after a global option and before the right flag', () => {
    const args = ['--max-depth', '8', 'verify', '--jsn', '--resluts', 'r.json'];
    const { error, program: p } = parseError(args);
    expect(usageCause(error, p, args)).toBe("unknown option '--jsn' (Did you mean --json?)");
  });

  it('a required option truly missing (no unknown option) stays what commander said', () => {
    const args = ['verify', '--json'];
    const { error, program: p } = parseError(args);
    expect(unknownOptionFirst(error, p, args)).toBe(error);
    expect(usageCause(error, p, args)).toBe("required option '--results <file>' not specified");
  });

  it('any other error is returned as it is', () => {
    const args = ['verify', '--results'];
    const { error, program: p } = parseError(args);
    expect(error.code).toBe('commander.optionMissingArgument');
    expect(unknownOptionFirst(error, p, args)).toBe(error);
  });
});

describe('usageCause: the sentence the CLIs print after their usage code', () => {
  it('an unknown command names the commands', () => {
    const args = ['verfy'];
    const { error, program: p } = parseError(args);
    expect(usageCause(error, p, args)).toBe("unknown command 'verfy' (Did you mean verify?) (the commands: verify, fetch)");
  });

  it('no command, or help for one that does not exist: said here (commander printed the help)', () => {
    const none = parseError([]);
    expect(none.error.code).toBe('commander.help');
    expect(usageCause(none.error, none.program, [])).toBe('a command is required: verify, fetch');
    const topic = parseError(['help', 'verfy']);
    expect(usageCause(topic.error, topic.program, ['help', 'verfy'])).toBe("unknown command 'verfy' (the commands: verify, fetch)");
  });
});

describe('isCommanderError: by code, not by class', () => {
  it("recognises commander's errors and their subclasses", () => {
    expect(isCommanderError(parseError(['verfy']).error)).toBe(true);
    expect(isCommanderError(new InvalidArgumentError('no'))).toBe(true);
  });

  it('recognises an error of another copy of commander (same shape, another class)', () => {
    const foreign = Object.assign(new Error('error: unknown option'), { code: 'commander.unknownOption', exitCode: 1 });
    expect(isCommanderError(foreign)).toBe(true);
  });

  it('refuses what is not one', () => {
    expect(isCommanderError(new Error('plain'))).toBe(false);
    expect(isCommanderError(Object.assign(new Error('x'), { code: 'ENOENT', exitCode: 1 }))).toBe(false);
    expect(isCommanderError({ code: 'commander.unknownOption', exitCode: 1, message: 'not an Error' })).toBe(false);
    expect(isCommanderError(undefined)).toBe(false);
  });
});
