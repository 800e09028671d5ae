import { existsSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { endQuietlyOnClosedPipes, integerFlagValue, usageCause } from '@subnet/cli-support';
import { describeSystemError, isSubnetError, redactUrl, SubnetError } from '@subnet/core';
import { Command, CommanderError, InvalidArgumentError } from 'commander';

import { VALIDATOR_ERROR_CODES } from './errors.js';

// The service, the demo and the configuration (with @polkadot/api, the storage drivers and the dev chain behind
// them) are imported by the command that needs them, when it runs: `--help`, `--version` and a usage error load
// none of it, so they answer in a fraction of a second instead of the 2 s those imports take. The configuration
// loads no @polkadot module either (it checks endpoints and the scoring section through subpaths), and `run` imports
// the service only once the configuration is valid.

/** `@subnet/wallet`'s code for a password that cannot be had (its prompt refused with it on Ctrl-C), reached through `@subnet/chain`. */
const PASSWORD_UNAVAILABLE = 'WALLET_PASSWORD_UNAVAILABLE';

/** This package's version (`--version`): read from its package.json, one folder up from `src/` and from `dist/`. */
const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/**
 * An integer flag's parser: decimal digits only (`integerFlagValue` of `@subnet/cli-support`, the rule of every CLI), so
 * `1e3`, `0x10`, ` 5`, `3.0` and `-0` are refused with what is wrong and the spelling to write; commander puts the flag
 * and the value as given in front (`option '--port <port>' argument '1e3' is invalid.`).
 */
function integerArg(option: string, min: number, max: number, why = '') {
  return (value: string): number => {
    const read = integerFlagValue(value, min, max);
    if (read.ok) return read.value;
    // The range's reason (`why`) is for a value out of it; a misspelt one is told what to write instead.
    const after = read.outOfRange ? why : ` in decimal digits; ${JSON.stringify(value)} ${read.problem}`;
    throw new InvalidArgumentError(`${option} must be an integer from ${min} to ${max}${after}`);
  };
}

/** Exit 2 for what the operator must fix in the configuration or the command line, 1 for any other failure. */
function exitWith(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`error: ${redactUrl(message)}\n`);
  const codes = [
    VALIDATOR_ERROR_CODES.invalidConfig,
    VALIDATOR_ERROR_CODES.configFile,
    VALIDATOR_ERROR_CODES.epochRenumbering,
    VALIDATOR_ERROR_CODES.headBehindDatabase,
    VALIDATOR_ERROR_CODES.databaseMismatch,
    VALIDATOR_ERROR_CODES.usage,
  ];
  process.exit(codes.some((code) => isSubnetError(error, code)) ? 2 : 1);
}

const EXIT_CODES_HELP = `
Exit codes: 0 done (init wrote the file, demo closed its epochs, run stopped on SIGTERM or SIGINT);
1 a failure at start-up or while running (storage, chain, wallet key, stopping, the signal sent
again while stopping) or of the demo; 2 an invalid configuration (VALIDATOR_INVALID_CONFIG,
VALIDATOR_CONFIG_FILE, VALIDATOR_EPOCH_RENUMBERING when chain.epoch_length would renumber the epochs
the database holds, VALIDATOR_HEAD_BEHIND_DATABASE when the chain head is below them,
VALIDATOR_DATABASE_MISMATCH when the database is another subnet's or another chain's) or command
line (VALIDATOR_USAGE: an unknown command or option, a missing option or value, a value out of
range, init over an existing file); 130 (SIGINT) or 143 (SIGTERM) the demo stopped before its last
epoch, its temporary folder removed, or run stopped before its service listened, what the start
created removed; 141 the reader closed the output early (EPIPE, as \`| head\` does).`;

const program = new Command()
  .name('subnet-validator')
  .description('The subnet validator: ingest evaluation records, compute and submit weights each epoch, publish signed audit bundles.')
  .version(VERSION, '-V, --version', 'print the version and exit')
  .exitOverride()
  // A parse error is written below with its code, not by commander.
  .configureOutput({ outputError: () => undefined })
  .addHelpText(
    'after',
    `${EXIT_CODES_HELP}

Examples:
  subnet-validator demo                                  # the default run: a devnet, a validator, three epochs
  subnet-validator init --config validator.yaml          # then edit its wallet section
  export SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN='at least 16 characters'
  subnet-validator run --config validator.yaml --wallet.name validator --wallet.hotkey default`,
  );

program
  .command('init')
  .description('write a commented default configuration')
  .option('-c, --config <file>', 'where to write it (- for standard output)', 'validator.yaml')
  .option('--force', 'overwrite an existing file')
  .addHelpText(
    'after',
    `
Examples:
  subnet-validator init
  subnet-validator init --config /etc/subnet/validator.yaml --force
  subnet-validator init --config - | less                # print it instead`,
  )
  .action(async (opts: { config: string; force?: boolean }) => {
    // `-` is standard output, as for the other CLIs (it wrote a file named `-`).
    if (opts.config === '-') {
      const { defaultConfigYaml } = await import('./config.js');
      process.stdout.write(defaultConfigYaml());
      return;
    }
    // A folder is no file to write, with or without --force (writing it failed with Node's bare EISDIR).
    if (existsSync(opts.config) && statSync(opts.config).isDirectory()) {
      exitWith(
        new SubnetError(
          VALIDATOR_ERROR_CODES.configFile,
          `cannot write the configuration file ${opts.config}: it is a folder; give --config a file name, such as ${join(opts.config, 'validator.yaml')}`,
          { context: { path: opts.config } },
        ),
      );
    }
    if (existsSync(opts.config) && opts.force !== true) {
      exitWith(new SubnetError(VALIDATOR_ERROR_CODES.usage, `${opts.config} exists: pass --force to overwrite it, or another --config <file>`));
    }
    const { defaultConfigYaml } = await import('./config.js');
    try {
      writeFileSync(opts.config, defaultConfigYaml());
    } catch (error) {
      // Coded, with the OS reason and what to do; it was Node's own line (`ENOENT: no such file or directory, open …`), exit 1.
      const reason = describeSystemError(error);
      const code = (error as NodeJS.ErrnoException).code;
      const advice =
        code === 'ENOENT'
          ? `create its folder ${dirname(opts.config)} first, or give --config a path in a folder that exists`
          : 'give --config a path this process can write';
      exitWith(
        new SubnetError(
          VALIDATOR_ERROR_CODES.configFile,
          `cannot write the configuration file ${opts.config}${reason === undefined ? '' : `: ${reason}`}; ${advice}`,
          {
            context: { path: opts.config },
            cause: error,
          },
        ),
      );
    }
    process.stdout.write(
      `wrote ${opts.config}\ncheck its wallet section, set SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN, then: subnet-validator run --config ${opts.config}\n`,
    );
  });

program
  .command('run')
  .description(
    'run the validator service; with a `dispatch` section in the configuration it also sends tasks to miners\' axons (README: "Dispatching tasks to axons")',
  )
  .requiredOption('-c, --config <file>', 'configuration file, required (YAML; `subnet-validator init` writes one with every default)')
  .option('--dry-run', 'compute and write bundles; never sign nor submit (chain.dry_run)')
  .option('--host <host>', 'bind address (server.host; default: 127.0.0.1)')
  .option('--port <port>', 'HTTP port, 0 to 65535 (server.port; default: 8091)', integerArg('--port', 0, 65535))
  .option('--database-url <url>', 'PostgreSQL URL, instead of SQLite (database.url)')
  .option('--database-path <path>', 'SQLite file (database.path; default: ./validator.sqlite)')
  .option('--chain-endpoint <url>', 'ws:// or wss:// URL, or finney, test or local (chain.endpoint; default: ws://127.0.0.1:9944)')
  .option('--bundles-dir <dir>', 'where signed audit bundles are written (bundles.dir; default: ./bundles)')
  .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (log.level; default: info)')
  .option(
    '--wallet.name <name>',
    'btcli wallet name (default: SUBNET_VALIDATOR_WALLET__NAME, else BT_WALLET_NAME, else wallet.name in the configuration file, else default)',
  )
  .option(
    '--wallet.hotkey <hotkey>',
    'btcli hotkey name (default: SUBNET_VALIDATOR_WALLET__HOTKEY, else BT_WALLET_HOTKEY, else wallet.hotkey in the configuration file, else default)',
  )
  .option(
    '--wallet.path <path>',
    'wallets directory (default: SUBNET_VALIDATOR_WALLET__PATH, else BT_WALLET_PATH, else wallet.path in the configuration file, else ~/.bittensor/wallets)',
  )
  .addHelpText(
    'after',
    `
A flag overrides the environment (SUBNET_VALIDATOR_<SECTION>__<KEY>, e.g. SUBNET_VALIDATOR_SERVER__PORT=9000), which
overrides the file; the defaults shown are those of an absent key. The executor token has no default and no flag:
set SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN (at least 16 characters). SIGINT or SIGTERM stops it within 5 s (exit 0;
1 when closing did not end by then; before it listens, while it waits for the chain or a password: 130 or 143, and
what the start created is removed).

Examples:
  subnet-validator run --config validator.yaml --wallet.name validator --wallet.hotkey default
  subnet-validator run --config validator.yaml --dry-run --port 9000 --log-level debug
  subnet-validator run --config validator.yaml --database-url postgresql://user@127.0.0.1:5432/validator`,
  )
  .action(
    async (opts: {
      config: string;
      dryRun?: boolean;
      host?: string;
      port?: number;
      databaseUrl?: string;
      databasePath?: string;
      chainEndpoint?: string;
      bundlesDir?: string;
      logLevel?: string;
      'wallet.name'?: string;
      'wallet.hotkey'?: string;
      'wallet.path'?: string;
    }) => {
      try {
        const { config: file, 'wallet.name': walletName, 'wallet.hotkey': walletHotkey, 'wallet.path': walletPath, ...rest } = opts;
        const flags = {
          ...rest,
          ...(walletName === undefined ? {} : { walletName }),
          ...(walletHotkey === undefined ? {} : { walletHotkey }),
          ...(walletPath === undefined ? {} : { walletPath }),
        };
        // The configuration is read and checked before the service is imported: a mistake in it is reported in a
        // fraction of a second, not after the 2 s that @polkadot/api, the storage drivers and the rest take to load.
        const { loadConfig } = await import('./config.js');
        const config = loadConfig(file, process.env, flags);
        const [{ default: pino }, { startFootprint }, { handleSignals, startValidator }] = await Promise.all([
          import('pino'),
          import('./start-footprint.js'),
          import('./service.js'),
        ]);
        // One JSON logger for the service and its signal lines (a plain stderr line among JSON ones breaks log parsers).
        const logger = pino({ level: config.log.level, base: { service: 'subnet-validator' } });
        // Ctrl-C or SIGTERM before the service listens (waiting for the chain, or at the password prompt) stops the
        // start and removes what it created, as a failed start does (docs/spec.md G.10); it ended the process with no
        // word and left the new database and bundles folder.
        const taken = startFootprint(config);
        // Kept once the service listens; a signal from then on, while the start finishes, is the running service's.
        let listened = false;
        let deferred: NodeJS.Signals | undefined;
        const footprint = {
          undo: () => {
            taken.undo();
          },
          keep: () => {
            listened = true;
            taken.keep();
          },
        };
        const duringStart = (signal: NodeJS.Signals): void => {
          if (listened) {
            deferred ??= signal;
            return;
          }
          logger.warn(`${signal} while starting, before the service listened: stopped, and what this start created is removed`);
          // At the exit, after @subnet/chain released the commit store's lock (its exit listener came first, when the
          // start took the lock): a commit store folder this start created is then empty, and goes too.
          process.once('exit', () => {
            footprint.undo();
          });
          process.exit(signalExitCode(signal));
        };
        process.on('SIGINT', duringStart);
        process.on('SIGTERM', duringStart);
        let service;
        try {
          service = await startValidator({ config, logger, footprint });
        } catch (error) {
          process.off('SIGINT', duringStart);
          process.off('SIGTERM', duringStart);
          // Ctrl-C at the password prompt: the terminal is in raw mode there, so it sends no SIGINT; the prompt's refusal
          // says it was one, and the start stops as on the signal (exit 130, what it created removed).
          if (isSubnetError(error, PASSWORD_UNAVAILABLE) && error.context.signal === 'SIGINT') duringStart('SIGINT');
          throw error;
        }
        // The service's listeners replace the start's without a moment with none (docs/spec.md G.10): a SIGTERM sent as
        // "listening" was printed was dropped once in five starts, and the service ran on.
        handleSignals(
          service,
          (line) => {
            logger.warn(line);
          },
          undefined,
          duringStart,
        );
        // A signal that came after the service listened, while its start finished, stops it now.
        if (deferred !== undefined) process.kill(process.pid, deferred);
      } catch (error) {
        exitWith(error);
      }
    },
  );

program
  .command('demo')
  .description('the default run: a devnet, a validator on SQLite in a temporary folder, sample miners over HTTP for a few epochs')
  .option('--epochs <n>', 'epochs to close, 1 to 10', integerArg('--epochs', 1, 10, ' (the demo closes them within 180 s, about 10 s each)'), 3)
  .addHelpText(
    'after',
    `
It prints one row per epoch and the folder of the signed bundles; check them with auditor-replay verify <folder>.
Ctrl-C stops it and removes its temporary folder (exit 130).

Examples:
  subnet-validator demo
  subnet-validator demo --epochs 1`,
  )
  .action(async (opts: { epochs: number }) => {
    // Ctrl-C stops the devnet and the validator and removes the demo's temporary folder (a half-run demo has no
    // bundles to check); the same signal again exits at once.
    const controller = new AbortController();
    let stoppedBy: NodeJS.Signals | undefined;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (stoppedBy !== undefined) process.exit(signalExitCode(signal));
      stoppedBy = signal;
      process.stderr.write(`${signal}: stopping the demo's validator and devnet and removing its temporary folder (send it again to exit at once)\n`);
      controller.abort(new Error(`stopped by ${signal}`));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const { runDemo } = await import('./demo.js');
      await runDemo({ epochs: opts.epochs, out: process.stdout, signal: controller.signal });
      process.exit(0);
    } catch (error) {
      if (stoppedBy !== undefined) {
        process.stderr.write(`demo stopped by ${stoppedBy} before its last epoch: nothing left behind\n`);
        process.exit(signalExitCode(stoppedBy));
      }
      exitWith(error);
    }
  });

/** A shell's exit status for a process ended by a signal: 128 + its number (130 for SIGINT, 143 for SIGTERM). */
function signalExitCode(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 130 : 143;
}

// A closed standard output ends the run quietly with 141; a closed standard error keeps the run's own exit code.
endQuietlyOnClosedPipes();

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // --help exits 0 (the help is written); every other parse error is a wrong command line.
  if (!(error instanceof CommanderError)) throw error;
  if (error.exitCode !== 0) {
    process.stderr.write(`error: [${VALIDATOR_ERROR_CODES.usage}] ${usageCause(error, program, process.argv.slice(2))}\n(run "${helpCommand()}" for usage)\n`);
    process.exitCode = 2;
  }
}

/** The help to read after a usage error: the subcommand's when the command line names one. */
function helpCommand(): string {
  const sub = program.commands.find((command) => command.name() === process.argv[2]);
  return sub === undefined ? 'subnet-validator --help' : `subnet-validator ${sub.name()} --help`;
}
