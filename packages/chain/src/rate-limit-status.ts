import { chainError } from './chain-error.js';
import { intArg, objectArg } from './client-arguments.js';
import type { ClientContext } from './client-context.js';
import type { RateLimitStatus } from './client-types.js';
import { readMetagraph } from './metagraph.js';

/**
 * The client's `nextAllowedBlock`: when the rate limit (`WeightsSetRateLimit` blocks after `LastUpdate`) lets
 * this signer set or commit weights again, read at the head.
 *
 * @param ctx - the client context
 * @param args - netuid and mecid
 * @returns the signer's uid, the head, the first allowed block, and whether a call built now passes
 * @throws SubnetError `CHAIN_INVALID_INPUT`, `CHAIN_HOT_KEY_NOT_REGISTERED_IN_SUB_NET`, or a read's code
 */
export async function rateLimitStatus(ctx: ClientContext, args: { readonly netuid: number; readonly mecid?: number }): Promise<RateLimitStatus> {
  objectArg(args, 'args');
  const netuid = intArg(args.netuid, 'netuid', 4095);
  const mecid = intArg(args.mecid ?? 0, 'mecid', 255);
  const snapshot = await readMetagraph(ctx.connection, { netuid, mecid });
  const address = ctx.signer.address;
  const uid = snapshot.hotkeys.indexOf(address);
  if (uid < 0) {
    throw chainError('HotKeyNotRegisteredInSubNet', `hotkey ${address} is not registered on netuid ${netuid}`, {
      stage: 'preflight',
      path: 'hotkey',
      value: address,
    });
  }
  const last = snapshot.lastUpdate[uid] ?? 0n;
  const next = last === 0n ? 0n : last + snapshot.hyperparameters.weightsRateLimit;
  return Object.freeze({ uid, head: snapshot.block, nextAllowedBlock: next, allowedNow: snapshot.block + 1n >= next });
}
