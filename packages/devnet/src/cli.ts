import { isSubnetError } from '@subnet/core';

import { formatBanner, parseCliArgs } from './cli-args.js';
import { parseFaultArgs, sendFaultRequest } from './cli-fault.js';
import { startDevnet } from './devnet.js';

async function fault(argv: readonly string[]): Promise<void> {
  let request;
  try {
    request = parseFaultArgs(argv);
  } catch (e) {
    const err = e as { code?: string; exitCode?: number; message?: string };
    if (err.code?.startsWith('commander.') !== true) process.stderr.write(`${err.message ?? String(e)}\n`);
    process.exitCode = err.exitCode ?? 1;
    return;
  }
  try {
    process.stdout.write(`${JSON.stringify(await sendFaultRequest(request))}\n`);
  } catch (e) {
    process.stderr.write(`${request.method} failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === 'fault') {
    await fault(process.argv.slice(3));
    return;
  }
  let request;
  try {
    request = parseCliArgs(process.argv.slice(2));
  } catch (e) {
    const err = e as { code?: string; exitCode?: number; message?: string };
    if (err.code?.startsWith('commander.') === true) {
      process.exitCode = err.exitCode ?? 1; // commander already printed help or the error
      return;
    }
    process.stderr.write(`${err.message ?? String(e)}\n`);
    process.exitCode = 1;
    return;
  }
  try {
    const devnet = await startDevnet(request.options);
    process.stdout.write(`${formatBanner(devnet, request.json)}\n`);
    const shutdown = (): void => {
      void devnet.stop().then(() => process.exit(0));
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  } catch (e) {
    process.stderr.write(`${isSubnetError(e) ? e.message : String(e)}\n`);
    process.exitCode = 1;
  }
}

void main();
