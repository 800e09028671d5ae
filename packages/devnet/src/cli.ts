import { isSubnetError, redactUrl, SubnetError } from '@subnet/core';

import { EXIT_FAILURE, EXIT_INVALID_INPUT, formatBanner, parseCliArgs, usageError } from './cli-args.js';
import { parseFaultArgs, sendFaultRequest } from './cli-fault.js';
import type { FaultRequest } from './cli-fault.js';
import { DEVNET_ERROR_CODES } from './errors.js';

// The dev chain itself (with @polkadot/types and the runtime metadata behind it) is imported when a chain is to be
// started: `--help`, a usage error and `fault` (a WebSocket request) do not load it, so they answer in a fraction of a
// second instead of about one.

/** Prints a coded error: one line on stderr (and where to read the usage), or one JSON object on stdout with --json. */
function report(error: SubnetError, json: boolean, helpCommand: string | null): void {
  if (json) {
    process.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`);
    return;
  }
  process.stderr.write(`error: ${error.message}\n${helpCommand === null ? '' : `(run "${helpCommand}" for usage)\n`}`);
}

/** Parses with `parse`; a usage error is reported with its code and exit 2, help and version output exit 0. */
function parseOrExit<T>(parse: () => T, json: boolean, helpCommand: string): T | undefined {
  try {
    return parse();
  } catch (e) {
    const usage = usageError(e);
    if (usage !== null) {
      report(usage, json, helpCommand);
      process.exitCode = EXIT_INVALID_INPUT;
      return undefined;
    }
    const err = e as { code?: string; exitCode?: number; message?: string };
    if (err.code?.startsWith('commander.') === true) {
      process.exitCode = err.exitCode ?? 0; // help or version, printed by commander
      return undefined;
    }
    throw e;
  }
}

/** A failed admin request as the CLI's coded error: the method, the URL (credentials hidden) and the reason. */
function faultFailed(request: FaultRequest, cause: unknown): SubnetError {
  const reason = redactUrl(cause instanceof Error ? cause.message : String(cause));
  // Nothing at the URL is the common case (the devnet stopped, or another port): say what to do.
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const advice = code === 'ECONNREFUSED' ? '; no devnet listens there: start one (subnet-devnet --port <n>) or give the URL it printed with --url' : '';
  return new SubnetError(DEVNET_ERROR_CODES.faultFailed, `${request.method} failed at ${redactUrl(request.url)}: ${reason}${advice}`, {
    context: { method: request.method },
    cause,
  });
}

async function fault(argv: readonly string[]): Promise<void> {
  const request = parseOrExit(() => parseFaultArgs(argv), false, 'subnet-devnet fault --help');
  if (request === undefined) return;
  try {
    process.stdout.write(`${JSON.stringify(await sendFaultRequest(request))}\n`);
  } catch (e) {
    report(faultFailed(request, e), false, null);
    process.exitCode = EXIT_FAILURE;
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === 'fault') {
    await fault(process.argv.slice(3));
    return;
  }
  const argv = process.argv.slice(2);
  // parsing failed, so --json is looked for in the raw arguments (before a `--`)
  const end = argv.indexOf('--');
  const json = (end < 0 ? argv : argv.slice(0, end)).includes('--json');
  const request = parseOrExit(() => parseCliArgs(argv), json, 'subnet-devnet --help');
  if (request === undefined) return;
  const { listenFailedError, startDevnet } = await import('./devnet.js');
  try {
    const devnet = await startDevnet(request.options);
    process.stdout.write(`${formatBanner(devnet, request.json)}\n`);
    const shutdown = (): void => {
      void devnet.stop().then(() => process.exit(0));
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  } catch (e) {
    if (!isSubnetError(e)) {
      process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = EXIT_FAILURE;
      return;
    }
    const invalid = isSubnetError(e, DEVNET_ERROR_CODES.invalidOptions);
    // The API names its option (options.port); the user typed --port.
    const shown = isSubnetError(e, DEVNET_ERROR_CODES.listenFailed) ? listenFailedError(request.options.port ?? 9944, e.cause, '--port') : e;
    report(shown, request.json, invalid ? 'subnet-devnet --help' : null);
    process.exitCode = invalid ? EXIT_INVALID_INPUT : EXIT_FAILURE;
  }
}

void main();
