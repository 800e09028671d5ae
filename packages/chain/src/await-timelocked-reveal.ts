import { millisecondsArg, objectArg, waitArg } from './client-arguments.js';
import type { ClientContext } from './client-context.js';
import type { TimelockedCommitRecord } from './timelock-commit.js';
import { runtimeBlockTimeSeconds } from './timelock-context.js';
import { confirmTimelockedReveal } from './timelock-reveal.js';
import { checkTimelockedRecord } from './timelocked-record-check.js';
import type { TimelockedReveal } from './timelock-reveal.js';

/**
 * The client's `confirmTimelockedReveal`: waits until the chain revealed a timelocked commit, by default for
 * 2 x (the blocks to the predicted reveal block + 400) block times (room for the chain's retries and deferrals),
 * and at least the inclusion timeout.
 *
 * @param ctx - the client context (poll interval, block time, reveal timeout)
 * @param record - the commit
 * @param args - `wait` and an explicit `timeoutMs`
 * @returns the confirmed reveal
 * @throws SubnetError `CHAIN_INVALID_INPUT` (`wait`), and the codes of `confirmTimelockedReveal`
 */
export async function awaitTimelockedReveal(
  ctx: ClientContext,
  record: TimelockedCommitRecord,
  args: { readonly wait?: 'inBlock' | 'finalized'; readonly timeoutMs?: number } = {},
): Promise<TimelockedReveal> {
  checkTimelockedRecord(record);
  objectArg(args, 'args');
  const wait = waitArg(args.wait);
  const timeoutMs = millisecondsArg(args.timeoutMs, 'timeoutMs');
  const blockMs = (ctx.timelock?.blockTimeSeconds ?? runtimeBlockTimeSeconds(ctx.connection.api) ?? 12) * 1000;
  const head = (await ctx.connection.request('chain_getHeader', (a) => a.rpc.chain.getHeader())).number.toBigInt();
  const target = record.prediction?.revealBlock ?? head;
  const blocks = Number(target > head ? target - head : 0n) + 400;
  const revealTimeoutMs = timeoutMs ?? ctx.timelock?.revealTimeoutMs ?? Math.max(ctx.timeoutMs, 2 * blocks * blockMs);
  return confirmTimelockedReveal(ctx.connection, record, { pollMs: ctx.pollMs, timeoutMs: revealTimeoutMs, wait });
}
