import { isSubnetError, SubnetError } from '@subnet/core';
import { createRequire } from 'node:module';

import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';

import type { Devnet } from './devnet.js';
import type { DevnetOptionsInput } from './devnet-options.js';
import { DEVNET_ERROR_CODES } from './errors.js';
import { runtimeVersionOf } from './metadata/runtime-version.js';
import { MAX_TIMER_MS } from './timer-limit.js';

/** Exit code of a failure the command line does not explain (the port cannot be bound, an admin request failed). */
export const EXIT_FAILURE = 1;
/** Exit code of an invalid command line (`DEVNET_USAGE`) or option values the devnet refuses (`DEVNET_INVALID_OPTIONS`). */
export const EXIT_INVALID_INPUT = 2;

/** This package's version (`--version`): read from its package.json, one folder up from `src/` and from `dist/`. */
const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/** The exit codes, as `subnet-devnet --help` lists them. */
const { listenFailed, usage, invalidOptions } = DEVNET_ERROR_CODES;
export const EXIT_CODES_HELP = [
  '',
  `Exit codes: 0 stopped by SIGINT or SIGTERM; 1 a failure to start (${listenFailed}: the port cannot be bound);`,
  `2 an invalid command line (${usage}: an unknown option, a missing or malformed value) or option values the devnet`,
  `refuses (${invalidOptions}, e.g. more validators than neurons). Errors are one line on stderr, or with --json one`,
  'JSON object { "error": { "code", "message" } } on stdout.',
].join('\n');

/**
 * A command-line error of commander as a coded error (`DEVNET_USAGE`): commander's own sentence, which names the
 * option or action and the value, without its `error: ` prefix. Help and version output are not errors (null).
 *
 * @param error - what parsing threw
 * @returns the coded error, or null when `error` is not a usage error
 * @example
 * usageError(e); // SubnetError [DEVNET_USAGE] unknown option '--bogus'
 */
export function usageError(error: unknown): SubnetError | null {
  if (isSubnetError(error)) return error.code === DEVNET_ERROR_CODES.usage ? error : null;
  if (!(error instanceof CommanderError)) return null;
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return null;
  const cause = error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
  return new SubnetError(DEVNET_ERROR_CODES.usage, cause);
}

/** What the CLI was asked to do. */
export interface CliRequest {
  readonly options: DevnetOptionsInput;
  readonly json: boolean;
}

function runtimeKind(value: string): 'legacy' | 'stateful' {
  if (value !== 'legacy' && value !== 'stateful') throw new InvalidArgumentError(`expected legacy or stateful, got ${JSON.stringify(value)}`);
  return value;
}

/** The largest u64 (`WeightsSetRateLimit`). */
const U64_MAX = 18_446_744_073_709_551_615n;

/**
 * A parser of an integer flag in `[min, max]`: commander reports a refusal as `option '--tempo <n>' argument '0' is
 * invalid. --tempo must be an integer in [1, 65535], got "0"`, naming the flag as typed and its range.
 */
export function intIn(flag: string, min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw outOfRange(flag, min, max, value);
    return Number(value);
  };
}

/** {@link intIn} for a u64 flag, read as a bigint (a Number would lose the low digits above 2^53). */
function u64(flag: string): (value: string) => bigint {
  return (value) => {
    if (!/^\d+$/.test(value) || BigInt(value) > U64_MAX) throw outOfRange(flag, 0, U64_MAX, value);
    return BigInt(value);
  };
}

function outOfRange(flag: string, min: number, max: number | bigint, value: string): InvalidArgumentError {
  return new InvalidArgumentError(`${flag} must be an integer in [${min}, ${max}], got ${JSON.stringify(value)}`);
}

/**
 * Parses `subnet-devnet` arguments (without `node` and the script path).
 *
 * @param argv - the arguments
 * @returns devnet options and output mode
 * @throws commander's error on unknown flags or bad values ({@link usageError} codes it; the CLI prints it and exits 2)
 * @example
 * parseCliArgs(['--port', '9944', '--neurons', '16']);
 */
export function parseCliArgs(argv: readonly string[]): CliRequest {
  const program = new Command('subnet-devnet')
    .description('Local Subtensor-compatible dev chain on 127.0.0.1 (JSON-RPC over WebSocket, real SCALE and sr25519).')
    .version(VERSION, '-V, --version', 'print the version and exit')
    .option('--port <n>', 'TCP port on 127.0.0.1 (0 = any free port; at most 65535)', intIn('--port', 0, 65535), 9944)
    .option('--block-time <ms>', `milliseconds between blocks (0 = no blocks; at most ${MAX_TIMER_MS})`, intIn('--block-time', 0, MAX_TIMER_MS), 1000)
    .option('--netuid <n>', 'subnet id (1 to 4095)', intIn('--netuid', 1, 4095), 1)
    .option('--neurons <n>', 'registered neurons (1 to 4096)', intIn('--neurons', 1, 4096), 8)
    .option('--validators <n>', 'neurons with stake and validator permit (uids 0..n-1; 0 to 4096)', intIn('--validators', 0, 4096), 2)
    .option('--tempo <n>', 'subnet tempo in blocks (1 to 65535: a tempo of 0 never runs an epoch)', intIn('--tempo', 1, 65535), 360)
    // A bigint default is described by hand: commander prints a default with JSON.stringify, which throws on a bigint.
    .addOption(new Option('--rate-limit <n>', 'WeightsSetRateLimit in blocks (a u64)').argParser(u64('--rate-limit')).default(100n, '100'))
    .option('--runtime <kind>', 'runtime to run: stateful (Subtensor main) or legacy (finney spec 393 epochs)', runtimeKind, 'stateful')
    .option(
      '--spec-version <n>',
      'spec version of the legacy runtime (393 to 422; default 393): from 397 the subnet owner needs no stake or permit to set weights',
      intIn('--spec-version', 393, 422),
    )
    .option('--commit-reveal', 'enable commit-reveal v4: timelocked drand commits revealed by the chain, as on finney (see --commit-reveal-version)', false)
    .option(
      '--commit-reveal-version <n>',
      'CommitRevealWeightsVersion (a u16): 4 = timelocked drand commits (the default); 2 = legacy hash commits',
      intIn('--commit-reveal-version', 0, 65535),
      4,
    )
    .option('--finality-lag <n>', 'blocks between best and finalized (0 to 64)', intIn('--finality-lag', 0, 64), 0)
    .option('--seed <seed>', 'seed of the dev accounts (same seed, same chain)', 'devnet')
    .option('--json', 'print one JSON line instead of text', false)
    .addHelpText(
      'after',
      [
        '',
        'Faults on a running devnet (over its admin RPC, the devnet_fault* methods, devnet_reorganize, devnet_replaceNeuron and devnet_swapHotkey on the same WebSocket):',
        '  subnet-devnet fault <status|freeze|thaw|stall|resume|drop-connections|delay-next <ms>|drop-next|reject-next <error>|reset> [--url ws://127.0.0.1:9944]',
        '  subnet-devnet fault reorganize <depth> [branch-json] [--drop-retracted] [--url ws://127.0.0.1:9944]   (needs --finality-lag above <depth>)',
        '  subnet-devnet fault replace-neuron <uid> <hotkey> [coldkey] [--after-extrinsics] [--url ws://127.0.0.1:9944]   (replace_neuron: a new hotkey at <uid>)',
        '  subnet-devnet fault swap-hotkey <hotkey> <new-hotkey> [--after-extrinsics] [--url ws://127.0.0.1:9944]   (swap_hotkey: the neuron, uid and all, moves to <new-hotkey>)',
        '  subnet-devnet fault --help',
        EXIT_CODES_HELP,
      ].join('\n'),
    )
    // a usage error is printed by the CLI with its code, not by commander
    .configureOutput({ outputError: () => undefined })
    .exitOverride()
    .allowExcessArguments(false);
  program.parse([...argv], { from: 'user' });
  const o = program.opts<{
    port: number;
    blockTime: number;
    netuid: number;
    neurons: number;
    validators: number;
    tempo: number;
    rateLimit: bigint;
    commitReveal: boolean;
    commitRevealVersion: number;
    runtime: 'legacy' | 'stateful';
    specVersion?: number;
    finalityLag: number;
    seed: string;
    json: boolean;
  }>();
  return {
    options: {
      port: o.port,
      blockTime: o.blockTime,
      netuid: o.netuid,
      neurons: o.neurons,
      validators: o.validators,
      tempo: o.tempo,
      weightsSetRateLimit: o.rateLimit,
      commitReveal: o.commitReveal,
      commitRevealVersion: o.commitRevealVersion,
      runtime: o.runtime,
      ...(o.specVersion === undefined ? {} : { specVersion: o.specVersion }),
      finalityLag: o.finalityLag,
      seed: o.seed,
    },
    json: o.json,
  };
}

/**
 * The banner the CLI prints: URL, genesis hash and the dev accounts (addresses and public dev URIs).
 *
 * @param devnet - the running devnet
 * @param json - one JSON line instead of text
 * @returns the text to print
 * @example
 * console.log(formatBanner(devnet, false));
 */
export function formatBanner(devnet: Devnet, json: boolean): string {
  const accounts = devnet.accounts.map((a) => ({
    uid: a.uid,
    hotkey: a.hotkeyAddress,
    hotkey_uri: a.hotkeyUri,
    coldkey: a.coldkeyAddress,
    coldkey_uri: a.coldkeyUri,
    validator: a.uid < devnet.options.validators,
  }));
  // the CLI runs the devnet's own runtimes, whose spec version is the kind's or --spec-version
  const specVersion = runtimeVersionOf(devnet.options.runtime, devnet.options.specVersion).specVersion;
  if (json) {
    return JSON.stringify({
      url: devnet.url,
      genesis_hash: devnet.genesisHash,
      netuid: devnet.netuid,
      runtime: devnet.options.runtime,
      spec_version: specVersion,
      accounts,
    });
  }
  const lines = [
    `subnet-devnet listening on ${devnet.url}`,
    `genesis ${devnet.genesisHash}  runtime ${devnet.options.runtime} (spec ${specVersion})  netuid ${devnet.netuid}  tempo ${devnet.options.tempo}  commit-reveal ${devnet.options.commitReveal ? `on (v${devnet.options.commitRevealVersion})` : 'off'}`,
    'dev accounts (public dev derivations, never use on a real network):',
    ...accounts.map((a) => `  uid ${a.uid}${a.validator ? ' (validator)' : ''}  hotkey ${a.hotkey}  ${a.hotkey_uri}`),
  ];
  return lines.join('\n');
}
