import { u8aConcat } from '@polkadot/util';

import type { DevnetEvent } from './devnet-call.js';
import type { RuntimeContext } from './runtime-context.js';

/**
 * SCALE `EventRecord` of a devnet event: phase (`ApplyExtrinsic(index)` or `Initialization`), the event (a field
 * `{ moduleError: name }` becomes `DispatchError::Module` of `SubtensorModule`), no topics.
 *
 * @param ctx - the runtime context
 * @param phase - the extrinsic index, or `'init'` for `on_initialize`
 * @param ev - the event
 * @returns the record bytes, or undefined when the metadata does not declare the event
 * @example
 * encodeEventRecord(ctx, 1, { pallet: 'SubtensorModule', name: 'WeightsSet', fields: [1, 2] });
 */
export function encodeEventRecord(ctx: RuntimeContext, phase: number | 'init', ev: DevnetEvent): Uint8Array | undefined {
  const fields = ev.fields.map((f) => {
    if (typeof f === 'object' && f !== null && 'moduleError' in f) {
      const { index, error } = ctx.moduleError('SubtensorModule', (f as { moduleError: string }).moduleError);
      return { Module: { index, error: [error, 0, 0, 0] } };
    }
    return f;
  });
  const body = ctx.encodeEvent(ev.pallet, ev.name, fields);
  if (body === undefined) return undefined;
  const phaseBytes = phase === 'init' ? new Uint8Array([2]) : u8aConcat(new Uint8Array([0]), ctx.registry.createType('u32', phase).toU8a());
  return u8aConcat(phaseBytes, body, new Uint8Array([0]));
}

/**
 * The `DispatchInfo` of `ExtrinsicSuccess` / `ExtrinsicFailed`: the timestamp inherent is Mandatory and pays,
 * the weights calls are Normal and `Pays::No`.
 *
 * @param mandatory - the inherent
 * @returns the dispatch info value
 * @example
 * dispatchInfo(false); // { weight: { refTime: 100000000, proofSize: 0 }, class: 'Normal', paysFee: 'No' }
 */
export function dispatchInfo(mandatory: boolean): unknown {
  return {
    weight: { refTime: mandatory ? 5_000_000 : 100_000_000, proofSize: 0 },
    class: mandatory ? 'Mandatory' : 'Normal',
    paysFee: mandatory ? 'Yes' : 'No',
  };
}
