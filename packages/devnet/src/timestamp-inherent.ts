import type { RuntimeContext } from './runtime-context.js';

/**
 * The unsigned `Timestamp.set(now)` inherent, first in every block.
 *
 * @param ctx - the runtime context
 * @param callIndex - `Timestamp.set`'s call index (`ctx.callIndex('Timestamp', 'set')`, looked up once), or undefined
 * @param now - the block timestamp (ms)
 * @returns the extrinsic hex, or undefined when the metadata has no `Timestamp.set`
 * @example
 * timestampInherent(ctx, ctx.callIndex('Timestamp', 'set'), 1_735_689_612_000n);
 */
export function timestampInherent(ctx: RuntimeContext, callIndex: Uint8Array | undefined, now: bigint): string | undefined {
  if (callIndex === undefined) return undefined;
  const call = ctx.registry.createType('Call', { callIndex, args: { now } });
  return ctx.registry.createType('Extrinsic', call).toHex();
}
