import type { TypeRegistry } from '@polkadot/types';
import { compactToU8a, u8aConcat, u8aToU8a } from '@polkadot/util';
import { SubnetError } from '@subnet/core';
import { DEVNET_ERROR_CODES } from '../errors.js';

function palletNamed(registry: TypeRegistry, pallet: string) {
  const found = registry.metadata.pallets.find((p) => p.name.toString() === pallet);
  if (found === undefined) {
    throw new SubnetError(DEVNET_ERROR_CODES.unknownPallet, `the devnet metadata has no pallet ${pallet}`, { context: { path: 'pallet', value: pallet } });
  }
  return found;
}

function variantIndex(registry: TypeRegistry, pallet: string, kind: 'events' | 'errors', name: string): { pallet: number; variant: number } {
  const p = palletNamed(registry, pallet);
  const code = kind === 'events' ? DEVNET_ERROR_CODES.unknownEvent : DEVNET_ERROR_CODES.unknownError;
  const enumType = p[kind];
  const variant = enumType.isSome
    ? registry.lookup.getSiType(enumType.unwrap().type).def.asVariant.variants.find((v) => v.name.toString() === name)
    : undefined;
  if (variant === undefined) {
    throw new SubnetError(code, `the devnet metadata has no ${kind === 'events' ? 'event' : 'error'} ${pallet}.${name}`, {
      context: { path: 'name', value: `${pallet}.${name}` },
    });
  }
  return { pallet: p.index.toNumber(), variant: variant.index.toNumber() };
}

/**
 * SCALE-encode one runtime event (`RuntimeEvent`): `[pallet index, event index] ‖ fields`.
 *
 * @param registry - A registry with the devnet metadata.
 * @param pallet - Pallet name, e.g. `'SubtensorModule'`.
 * @param name - Event name, e.g. `'WeightsSet'`.
 * @param args - The event fields in order, as values `@polkadot/types` accepts (numbers, bigints, ss58
 *   addresses, hex, `{ Module: { index, error } }` for a `DispatchError`).
 * @returns The encoded event.
 * @throws SubnetError `DEVNET_UNKNOWN_PALLET`, `DEVNET_UNKNOWN_EVENT`, or `DEVNET_BAD_EVENT_ARGS` when
 *   `args` does not have one value per field.
 * @example
 * encodeEvent(registry, 'SubtensorModule', 'WeightsSet', [1, 0]); // 0x0705 0100 0000
 */
export function encodeEvent(registry: TypeRegistry, pallet: string, name: string, args: readonly unknown[]): Uint8Array {
  const { pallet: p, variant } = variantIndex(registry, pallet, 'events', name);
  const index = new Uint8Array([p, variant]);
  const EventData = registry.findMetaEvent(index);
  const bad = (cause?: unknown) =>
    new SubnetError(DEVNET_ERROR_CODES.badEventArgs, `cannot encode event ${pallet}.${name} from ${args.length} value(s)`, {
      context: { path: 'args', value: args },
      cause,
    });
  let fields: InstanceType<typeof EventData>;
  try {
    fields = new EventData(registry, [...args]);
  } catch (cause) {
    throw bad(cause);
  }
  if (fields.meta.fields.length !== args.length) throw bad();
  return u8aConcat(index, fields.toU8a());
}

/** Where in the block an event was emitted. */
export type EventPhase = { readonly applyExtrinsic: number } | 'Finalization' | 'Initialization';

/** One `frame_system::EventRecord` to encode. */
export interface EventRecordInput {
  readonly phase: EventPhase;
  /** An encoded event (see {@link encodeEvent}). */
  readonly event: Uint8Array;
  /** Topics (32-byte hashes); usually empty. */
  readonly topics?: readonly (Uint8Array | `0x${string}`)[];
}

/**
 * SCALE-encode `Vec<EventRecord>`: the value of `System.Events` for a block.
 *
 * @param records - The records in emission order.
 * @returns The encoded storage value.
 * @throws SubnetError `DEVNET_BAD_EVENT_RECORD` for an extrinsic index that is not a u32 or a topic that
 *   is not 32 bytes.
 * @example
 * encodeEventRecords([{ phase: { applyExtrinsic: 1 }, event: encodeEvent(registry, 'System', 'ExtrinsicSuccess', [info]) }]);
 */
export function encodeEventRecords(records: readonly EventRecordInput[]): Uint8Array {
  const parts: Uint8Array[] = [compactToU8a(records.length)];
  records.forEach((record, i) => {
    const { phase } = record;
    if (phase === 'Finalization') parts.push(new Uint8Array([1]));
    else if (phase === 'Initialization') parts.push(new Uint8Array([2]));
    else {
      const n = phase.applyExtrinsic;
      if (!Number.isInteger(n) || n < 0 || n > 0xffff_ffff) {
        throw new SubnetError(DEVNET_ERROR_CODES.badEventRecord, `records[${i}].phase.applyExtrinsic must be a u32`, {
          context: { path: `records[${i}].phase.applyExtrinsic`, value: n },
        });
      }
      const le = new Uint8Array(5);
      le[0] = 0;
      new DataView(le.buffer).setUint32(1, n, true);
      parts.push(le);
    }
    parts.push(record.event);
    const topics = (record.topics ?? []).map((t) => u8aToU8a(t));
    topics.forEach((t, j) => {
      if (t.length !== 32) {
        throw new SubnetError(DEVNET_ERROR_CODES.badEventRecord, `records[${i}].topics[${j}] must be 32 bytes`, {
          context: { path: `records[${i}].topics[${j}]`, value: t.length },
        });
      }
    });
    parts.push(compactToU8a(topics.length), ...topics);
  });
  return u8aConcat(...parts);
}

/** A `DispatchError::Module` value, as `@polkadot/types` accepts it inside an event's fields. */
export interface ModuleDispatchError {
  readonly Module: { readonly index: number; readonly error: Uint8Array };
}

/**
 * The `DispatchError::Module { index, error: [e, 0, 0, 0] }` of a pallet error, by name, with the
 * indices of the devnet metadata (= finney's): what `ExtrinsicFailed` and `BatchWeightItemFailed` carry.
 *
 * @throws SubnetError `DEVNET_UNKNOWN_PALLET` or `DEVNET_UNKNOWN_ERROR`.
 * @example
 * moduleError(registry, 'SubtensorModule', 'SettingWeightsTooFast'); // { Module: { index: 7, error: [28,0,0,0] } }
 */
export function moduleError(registry: TypeRegistry, pallet: string, name: string): ModuleDispatchError {
  const { pallet: index, variant } = variantIndex(registry, pallet, 'errors', name);
  return Object.freeze({ Module: Object.freeze({ index, error: new Uint8Array([variant, 0, 0, 0]) }) });
}
