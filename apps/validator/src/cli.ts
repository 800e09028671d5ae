import { existsSync, writeFileSync } from 'node:fs';

import { isSubnetError, redactUrl } from '@subnet/core';
import { Command, InvalidArgumentError } from 'commander';

import { defaultConfigYaml, loadConfig } from './config.js';
import { runDemo } from './demo.js';
import { VALIDATOR_ERROR_CODES } from './errors.js';
import { handleSignals, startValidator } from './service.js';

function portArg(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is an integer 0..65535');
  return n;
}

function exitWith(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`error: ${redactUrl(message)}\n`);
  process.exit(isSubnetError(error, VALIDATOR_ERROR_CODES.invalidConfig) || isSubnetError(error, VALIDATOR_ERROR_CODES.configFile) ? 2 : 1);
}

const program = new Command()
  .name('subnet-validator')
  .description('The subnet validator: ingest evaluation records, compute and submit weights each epoch, publish signed audit bundles.');

program
  .command('init')
  .description('write a commented default configuration')
  .option('-c, --config <file>', 'where to write it', 'validator.yaml')
  .option('--force', 'overwrite an existing file')
  .action((opts: { config: string; force?: boolean }) => {
    if (existsSync(opts.config) && opts.force !== true) exitWith(new Error(`${opts.config} exists (use --force to overwrite)`));
    writeFileSync(opts.config, defaultConfigYaml());
    process.stdout.write(
      `wrote ${opts.config}\ncheck its wallet section, set SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN, then: subnet-validator run --config ${opts.config}\n`,
    );
  });

program
  .command('run')
  .description(
    'run the validator service; with a `dispatch` section in the configuration it also sends tasks to miners\' axons (README: "Dispatching tasks to axons")',
  )
  .requiredOption('-c, --config <file>', 'configuration file (YAML)')
  .option('--dry-run', 'compute and write bundles; never sign nor submit')
  .option('--host <host>', 'bind address')
  .option('--port <port>', 'port', portArg)
  .option('--database-url <url>', 'PostgreSQL URL (instead of SQLite)')
  .option('--database-path <path>', 'SQLite file')
  .option('--chain-endpoint <url>', 'chain WebSocket endpoint')
  .option('--bundles-dir <dir>', 'where bundles are written')
  .option('--log-level <level>', 'pino level')
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
        const config = loadConfig(file, process.env, flags);
        const service = await startValidator({ config });
        handleSignals(service);
      } catch (error) {
        exitWith(error);
      }
    },
  );

program
  .command('demo')
  .description('the default run: a devnet, a validator on SQLite in a temporary folder, sample miners over HTTP for a few epochs')
  .option('--epochs <n>', 'epochs to close', (v) => Number(v), 3)
  .action(async (opts: { epochs: number }) => {
    try {
      await runDemo({ epochs: opts.epochs, out: process.stdout });
      process.exit(0);
    } catch (error) {
      exitWith(error);
    }
  });

// A reader that stops early (`| head`) closes the pipe: end as a Unix tool killed by SIGPIPE would (141),
// quietly, instead of printing an EPIPE stack.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(141);
});

await program.parseAsync(process.argv);
