import { SubnetError } from '@subnet/core';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { WebSocket } from 'ws';

import { intIn } from './cli-args.js';
import { MAX_TIMER_MS } from './timer-limit.js';
import { DEVNET_ERROR_CODES } from './errors.js';

/** One `subnet-devnet fault ...` request: the admin method to call on the devnet at `url`. */
export interface FaultRequest {
  readonly url: string;
  readonly method: string;
  readonly params: readonly unknown[];
}

function int(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a non-negative integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** A delay Node's timers take as given (a longer one would fire after 1 ms), read as the devnet flags are. */
const delayMs = intIn('<ms>', 0, MAX_TIMER_MS);

/** `reorganize` takes its branch as a JSON list (checked by the devnet, which names a bad field). */
function branchJson(value: string): unknown {
  try {
    const parsed = JSON.parse(value) as unknown;
    if (Array.isArray(parsed)) return parsed;
  } catch {
    // reported below
  }
  throw new InvalidArgumentError(`expected a JSON list of branch blocks, got ${JSON.stringify(value)}`);
}

/** `reject-next` takes a custom error number, a POOL_ERRORS name, or a JSON `{ code, message, data? }`. */
function poolError(value: string): unknown {
  if (/^\d+$/.test(value)) return Number(value);
  if (value.trim().startsWith('{')) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      throw new InvalidArgumentError(`expected JSON { code, message, data? }, got ${JSON.stringify(value)}`);
    }
  }
  return value;
}

const SIMPLE: readonly (readonly [string, string, string])[] = [
  ['status', 'devnet_faultStatus', 'print whether the node is frozen or stalled, and how many submissions a delay holds'],
  ['freeze', 'devnet_faultFreeze', 'freeze the node: sockets stay open, nothing is answered, no blocks'],
  ['thaw', 'devnet_faultThaw', 'end a freeze: held requests are answered in order'],
  ['stall', 'devnet_faultStallBlockProduction', 'stop block production (RPC keeps answering)'],
  ['resume', 'devnet_faultResumeBlockProduction', 'resume block production'],
  ['drop-connections', 'devnet_faultDropConnections', "close every client connection (not this command's)"],
  ['drop-next', 'devnet_faultDropNextExtrinsic', 'accept the next extrinsic and never include it'],
  ['reset', 'devnet_faultReset', 'clear pending one-shot faults, thaw, resume production'],
];

/**
 * Parses `subnet-devnet fault <action> [value] [--url <ws url>]` (the arguments after `fault`).
 *
 * @param argv - the arguments after `fault`
 * @returns the admin request to send
 * @throws commander's error on an unknown action or a bad value, `DEVNET_USAGE` when no action is given (the CLI
 *   prints it with its code and exits 2)
 * @example
 * parseFaultArgs(['reject-next', '6', '--url', 'ws://127.0.0.1:9944']);
 * // { url: 'ws://127.0.0.1:9944', method: 'devnet_faultRejectNextSubmission', params: [6] }
 */
export function parseFaultArgs(argv: readonly string[]): FaultRequest {
  let request: { method: string; params: unknown[] } | undefined;
  const program = new Command('subnet-devnet fault')
    .description("Injects a fault into a running devnet through its admin RPC (the devnet_fault* methods on the devnet's own WebSocket).")
    .option('--url <url>', 'the devnet WebSocket URL', 'ws://127.0.0.1:9944')
    .addHelpText(
      'after',
      `\nExit codes: 0 the devnet answered (its result printed as JSON); 1 the request failed (${DEVNET_ERROR_CODES.faultFailed}: no devnet at\nthe URL, or its JSON-RPC error); 2 an invalid command line (${DEVNET_ERROR_CODES.usage}: an unknown action or option, a missing or\nmalformed value).`,
    )
    // set before the actions are added, so they inherit it: a usage error is printed by the CLI with its code, and no
    // action at all is one too (commander would print the whole help on stderr)
    .configureOutput({ outputError: () => undefined, writeErr: () => undefined })
    .exitOverride()
    .allowExcessArguments(false);
  for (const [name, method, help] of SIMPLE) {
    program
      .command(name)
      .description(help)
      .exitOverride()
      .action(() => {
        request = { method, params: [] };
      });
  }
  program
    .command('delay-next')
    .description('hold the next extrinsic <ms> milliseconds before the pool sees it')
    .argument('<ms>', `milliseconds (0 to ${MAX_TIMER_MS})`, delayMs)
    .exitOverride()
    .action((ms: number) => {
      request = { method: 'devnet_faultDelayNextExtrinsic', params: [ms] };
    });
  program
    .command('reject-next')
    .description(
      'answer the next extrinsic with a pool error: a custom error number (6 = rate limit), a POOL_ERRORS name (stale, badProof, ...) or JSON { code, message, data? }',
    )
    .argument('<error>', 'the pool error', poolError)
    .exitOverride()
    .action((error: unknown) => {
      request = { method: 'devnet_faultRejectNextSubmission', params: [error] };
    });
  program
    .command('reorganize')
    .description(
      'replace the last <depth> unfinalised blocks by a branch from their parent: [branch] is JSON [{ "extrinsics"?: ["0x.."], "pulses"?: false }, ...] (default: <depth> empty blocks)',
    )
    .argument('<depth>', 'how many blocks to replace', int)
    .argument('[branch]', 'the new blocks, oldest first (at least <depth>)', branchJson)
    .option('--drop-retracted', 'forget the replaced transactions the branch leaves out (default: they return to the pool)')
    .exitOverride()
    .action((depth: number, branch: unknown, opts: { dropRetracted?: boolean }) => {
      const params: unknown[] = opts.dropRetracted === true ? [depth, branch ?? null, { retracted: 'drop' }] : branch === undefined ? [depth] : [depth, branch];
      request = { method: 'devnet_reorganize', params };
    });
  program
    .command('replace-neuron')
    .description(
      "give <uid> to a new hotkey in the next block, as Subtensor's replace_neuron does (BlockAtRegistration = that block, the uid's weights cleared); prints the new holder",
    )
    .argument('<uid>', 'the uid to replace', int)
    .argument('<hotkey>', 'the new hotkey: SS58 or 0x hex public key')
    .argument('[coldkey]', 'its coldkey (default: the hotkey itself)')
    .option(
      '--after-extrinsics',
      "include the registration after the block's other extrinsics (default: before them), so weights set in that block land and are then cleared with the uid",
    )
    .exitOverride()
    .action((uid: number, hotkey: string, coldkey: string | undefined, opts: { afterExtrinsics?: boolean }) => {
      const params: unknown[] = coldkey === undefined ? [uid, hotkey] : [uid, hotkey, coldkey];
      if (opts.afterExtrinsics === true) params.splice(2, 1, coldkey ?? null, { afterExtrinsics: true });
      request = { method: 'devnet_replaceNeuron', params };
    });
  program
    .command('swap-hotkey')
    .description(
      "move the neuron of registered <hotkey> to <new-hotkey> in the next block, as Subtensor's swap_hotkey does (the uid, its weights, stake and BlockAtRegistration stay); prints the uid and both hotkeys",
    )
    .argument('<hotkey>', 'the registered hotkey: SS58 or 0x hex public key')
    .argument('<new-hotkey>', 'the hotkey that takes its neuron: SS58 or 0x hex public key, not registered on the subnet')
    .option(
      '--after-extrinsics',
      "apply the swap after the block's other extrinsics (default: before them), so a set_weights of the old hotkey in that block lands and its weights stay with the uid",
    )
    .exitOverride()
    .action((hotkey: string, newHotkey: string, opts: { afterExtrinsics?: boolean }) => {
      request = { method: 'devnet_swapHotkey', params: opts.afterExtrinsics === true ? [hotkey, newHotkey, { afterExtrinsics: true }] : [hotkey, newHotkey] };
    });
  const noAction = (): SubnetError =>
    new SubnetError(DEVNET_ERROR_CODES.usage, `a fault action is required: ${program.commands.map((c) => c.name()).join(', ')}`);
  try {
    program.parse([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError && e.code === 'commander.help') throw noAction();
    // commander says "unknown command 'x'" (and maybe "Did you mean y?") but not which actions there are.
    if (e instanceof CommanderError && e.code === 'commander.unknownCommand') {
      const sentence = e.message
        .replace(/^error: unknown command/, 'unknown fault action')
        .replace(/\s*\n\s*\(Did you mean/, ' (did you mean')
        .replace(/\s*\n\s*/g, ' ');
      throw new SubnetError(DEVNET_ERROR_CODES.usage, `${sentence} (the actions: ${program.commands.map((c) => c.name()).join(', ')})`);
    }
    throw e;
  }
  if (request === undefined) throw noAction();
  return { url: program.opts<{ url: string }>().url, ...request };
}

/**
 * Sends one admin request over a WebSocket and returns its result.
 *
 * @param request - the request
 * @param timeoutMs - how long to wait for the answer
 * @returns the JSON-RPC result
 * @throws Error with the JSON-RPC error (`code: message: data`) or the connection failure
 * @example
 * await sendFaultRequest({ url, method: 'devnet_faultStatus', params: [] }); // { frozen: false, stalled: false, held: 0 }
 */
export async function sendFaultRequest(request: FaultRequest, timeoutMs = 10_000): Promise<unknown> {
  const ws = new WebSocket(request.url);
  try {
    return await new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`no answer to ${request.method} within ${String(timeoutMs)} ms`));
      }, timeoutMs);
      ws.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      ws.once('open', () => {
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: request.method, params: request.params }));
      });
      ws.on('message', (data) => {
        clearTimeout(timer);
        const reply = JSON.parse(Buffer.from(data as Uint8Array).toString('utf8')) as {
          result?: unknown;
          error?: { code: number; message: string; data?: string };
        };
        if (reply.error !== undefined) {
          const { code, message, data: detail } = reply.error;
          reject(new Error(`${String(code)}: ${message}${detail === undefined ? '' : `: ${detail}`}`));
        } else resolve(reply.result);
      });
    });
  } finally {
    ws.terminate();
  }
}
