import type { Command, Option } from 'commander';
import { CommanderError } from 'commander';

/** Every flag a command line may mean at `command`: its own, its parents' (global) and its subcommands', and help. */
function flagsAt(command: Command): Set<string> {
  const flags = new Set(['--help', '-h']);
  const add = (c: Command) => {
    for (const option of c.options) for (const flag of [option.long, option.short]) if (flag !== undefined) flags.add(flag);
  };
  for (let c: Command | null = command; c !== null; c = c.parent) add(c);
  const down = (c: Command) => {
    for (const sub of c.commands) {
      add(sub);
      down(sub);
    }
  };
  down(command);
  return flags;
}

/**
 * Refuses a flag taken as the value of the flag before it (`--total-tasks --json`: commander gives `--total-tasks` the
 * value `--json`), for every option of `program` and its subcommands that takes a value, as a usage error thrown while
 * parsing: `--total-tasks needs a value (got the flag --json)`, before any command runs, so `--json` among the
 * arguments still selects the JSON error. An option's own parser (choices) runs after the check.
 *
 * @param program - the built program (options and subcommands added)
 * @throws CommanderError `commander.optionMissingArgument` from parsing, when a value is one of the flags there
 * @example refuseFlagsAsValues(buildProgram(io, state))
 */
export function refuseFlagsAsValues(program: Command): void {
  const visit = (command: Command) => {
    const flags = flagsAt(command);
    for (const option of command.options) if (option.required || option.optional) guard(option, flags);
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
}

function guard(option: Option, flags: ReadonlySet<string>): void {
  const parse = option.parseArg;
  const name = option.long ?? option.short ?? option.flags;
  option.argParser((value: string, previous: unknown) => {
    if (flags.has(value)) {
      throw new CommanderError(1, 'commander.optionMissingArgument', `${name} needs a value (got the flag ${value})`);
    }
    if (parse !== undefined) return parse<unknown>(value, previous);
    // commander collects a variadic option's values itself only when it has no parser of its own
    if (option.variadic) return Array.isArray(previous) && previous !== option.defaultValue ? [...(previous as unknown[]), value] : [value];
    return value;
  });
}
