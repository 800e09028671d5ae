import { expandMetadata, Metadata, TypeRegistry } from '@polkadot/types';
import type { ChainProperties } from '@polkadot/types/interfaces';
import type { Codec, Registry } from '@polkadot/types/types';
import { SubnetError } from '@subnet/core';

import { DEVNET_SIGNED_EXTENSIONS } from './metadata/index.js';
import { compactStripLength, u8aConcat } from '@polkadot/util';
import { DEVNET_ERROR_CODES } from './errors.js';

/** The runtime version object served by `state_getRuntimeVersion` (JSON as a real node serves it). */
export interface DevnetRuntimeVersion {
  readonly specName: string;
  readonly implName: string;
  readonly authoringVersion: number;
  readonly specVersion: number;
  readonly implVersion: number;
  readonly apis: readonly (readonly [string, number])[];
  readonly transactionVersion: number;
  readonly stateVersion?: number;
  readonly systemVersion?: number;
}

/**
 * What the devnet serves as its runtime: prefixed metadata bytes (V14, V15 or V16), the runtime version and
 * the chain properties. By default it comes from the project's own metadata builder; tests may pass another.
 */
export interface DevnetRuntime {
  /** Prefixed metadata (`0x6d657461` magic + version byte + body). */
  readonly metadata: Uint8Array;
  /** The `state_getRuntimeVersion` object. */
  readonly runtimeVersion: DevnetRuntimeVersion;
  /** SS58 prefix of addresses (42 on Bittensor). */
  readonly ss58Prefix: number;
}

type StorageFn = ReturnType<typeof expandMetadata>['query'][string][string];

interface FieldMeta {
  readonly name: string | null;
  readonly typeName: string;
}

/** Registry plus helpers derived from the metadata: storage keys, value and event encoding, error indices. */
export interface RuntimeContext {
  readonly runtime: DevnetRuntime;
  readonly registry: Registry;
  readonly metadataVersion: number;
  /** Storage key (no length prefix) of `pallet.item(...keys)`, or `undefined` when the item is not in the metadata. */
  storageKey(pallet: string, item: string, keys: readonly unknown[]): Uint8Array | undefined;
  /** Encodes a storage value with the item's declared type. */
  encodeStorageValue(pallet: string, item: string, value: unknown): Uint8Array;
  /** Decodes a storage value with the item's declared type. */
  decodeStorageValue(pallet: string, item: string, bytes: Uint8Array): Codec;
  /** Whether the metadata declares the storage item. */
  hasStorage(pallet: string, item: string): boolean;
  /** SCALE bytes of a runtime event `pallet.name(fields...)`, or `undefined` if the metadata lacks it. */
  encodeEvent(pallet: string, name: string, fields: readonly unknown[]): Uint8Array | undefined;
  /** `{ index, error }` of a module error by name. */
  moduleError(pallet: string, name: string): { readonly index: number; readonly error: number };
  /** Type name (lookup) of a named field of an event, e.g. `dispatch_info` of `System.ExtrinsicSuccess`. */
  eventFieldType(pallet: string, name: string, field: number): string | undefined;
  /** Pallet index by name. */
  palletIndex(pallet: string): number | undefined;
  /** `[pallet index, call index]` of a call by its snake_case name, or `undefined`. */
  callIndex(pallet: string, call: string): Uint8Array | undefined;
}

function lcFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/**
 * Builds the {@link RuntimeContext} for a runtime: a registry with the Subtensor extensions declared.
 *
 * @param runtime - the metadata, runtime version and SS58 prefix to serve
 * @returns the context
 * @throws `DEVNET_METADATA_INVALID` when the metadata cannot be decoded
 * @example
 * const ctx = createRuntimeContext(runtime);
 */
export function createRuntimeContext(runtime: DevnetRuntime, registryIn?: Registry): RuntimeContext {
  let registry: Registry;
  let metadata: Metadata;
  try {
    if (registryIn === undefined) {
      const reg = new TypeRegistry();
      metadata = new Metadata(reg, runtime.metadata);
      reg.setMetadata(metadata, undefined, DEVNET_SIGNED_EXTENSIONS);
      reg.setChainProperties(
        reg.createType('ChainProperties', {
          ss58Format: runtime.ss58Prefix,
          tokenDecimals: 9,
          tokenSymbol: 'TAO',
        }) as unknown as ChainProperties,
      );
      registry = reg;
    } else {
      registry = registryIn;
      metadata = registry.metadata as unknown as Metadata;
      if (!(metadata instanceof Metadata)) metadata = new Metadata(registry, runtime.metadata);
    }
  } catch (cause) {
    throw new SubnetError(DEVNET_ERROR_CODES.metadataInvalid, 'the runtime metadata cannot be decoded', {
      context: { path: 'runtime.metadata', value: `${runtime.metadata.length} bytes` },
      cause,
    });
  }
  const decorated = expandMetadata(registry, metadata);
  const latest = metadata.asLatest;
  const pallets = new Map<string, (typeof latest.pallets)[number]>();
  for (const p of latest.pallets) pallets.set(p.name.toString(), p);

  const storageFns = new Map<string, StorageFn | undefined>();
  const keyCache = new Map<string, Uint8Array>();
  const valueType = new Map<string, string>();

  function fn(pallet: string, item: string): StorageFn | undefined {
    const id = `${pallet}.${item}`;
    if (storageFns.has(id)) return storageFns.get(id);
    const section = decorated.query[lcFirst(pallet)];
    const f = section?.[lcFirst(item)];
    storageFns.set(id, f);
    return f;
  }

  function typeOf(pallet: string, item: string): string {
    const id = `${pallet}.${item}`;
    const cached = valueType.get(id);
    if (cached !== undefined) return cached;
    const f = fn(pallet, item);
    if (f === undefined) {
      throw new SubnetError(DEVNET_ERROR_CODES.runtimeStorageUnknown, 'the metadata has no such storage item', {
        context: { path: 'storage', value: id },
      });
    }
    const t = f.meta.type;
    const name = registry.createLookupType(t.isPlain ? t.asPlain : t.asMap.value);
    valueType.set(id, name);
    return name;
  }

  const eventFields = new Map<string, { pallet: number; variant: number; fields: readonly FieldMeta[] } | undefined>();
  function eventMeta(pallet: string, name: string) {
    const id = `${pallet}.${name}`;
    if (eventFields.has(id)) return eventFields.get(id);
    const p = pallets.get(pallet);
    let found: { pallet: number; variant: number; fields: readonly FieldMeta[] } | undefined;
    if (p?.events.isSome === true) {
      const def = registry.lookup.getSiType(p.events.unwrap().type).def;
      if (def.isVariant) {
        for (const v of def.asVariant.variants) {
          if (v.name.toString() === name) {
            found = {
              pallet: p.index.toNumber(),
              variant: v.index.toNumber(),
              fields: v.fields.map((f) => ({
                name: f.name.isSome ? f.name.unwrap().toString() : null,
                typeName: registry.createLookupType(f.type),
              })),
            };
          }
        }
      }
    }
    eventFields.set(id, found);
    return found;
  }

  return {
    runtime,
    registry,
    metadataVersion: metadata.version,
    hasStorage: (pallet, item) => fn(pallet, item) !== undefined,
    storageKey(pallet, item, keys) {
      const f = fn(pallet, item);
      if (f === undefined) return undefined;
      const id = `${pallet}.${item}:${keys.map((k) => (typeof k === 'bigint' ? k.toString() : JSON.stringify(k))).join(',')}`;
      const cached = keyCache.get(id);
      if (cached !== undefined) return cached;
      const prefixed = keys.length === 0 ? f() : f(...(keys as unknown[]));
      // decorated storage keys carry a compact length prefix; strip it
      const key = compactStripLength(prefixed)[1];
      if (keyCache.size > 200_000) keyCache.clear();
      keyCache.set(id, key);
      return key;
    },
    encodeStorageValue: (pallet, item, value) => registry.createType(typeOf(pallet, item), value).toU8a(),
    decodeStorageValue: (pallet, item, bytes) => registry.createType(typeOf(pallet, item), bytes),
    encodeEvent(pallet, name, fields) {
      const m = eventMeta(pallet, name);
      if (m === undefined) return undefined;
      const parts: Uint8Array[] = [new Uint8Array([m.pallet, m.variant])];
      m.fields.forEach((f, i) => parts.push(registry.createType(f.typeName, fields[i]).toU8a()));
      return u8aConcat(...parts);
    },
    eventFieldType: (pallet, name, field) => eventMeta(pallet, name)?.fields[field]?.typeName,
    moduleError(pallet, name) {
      const p = pallets.get(pallet);
      if (p?.errors.isSome === true) {
        const def = registry.lookup.getSiType(p.errors.unwrap().type).def;
        if (def.isVariant) {
          const v = def.asVariant.variants.find((x) => x.name.toString() === name);
          if (v !== undefined) return { index: p.index.toNumber(), error: v.index.toNumber() };
        }
      }
      throw new SubnetError(DEVNET_ERROR_CODES.runtimeErrorUnknown, 'the metadata has no such module error', {
        context: { path: 'error', value: `${pallet}.${name}` },
      });
    },
    palletIndex: (pallet) => pallets.get(pallet)?.index.toNumber(),
    callIndex(pallet, call) {
      const p = pallets.get(pallet);
      if (p?.calls.isSome !== true) return undefined;
      const def = registry.lookup.getSiType(p.calls.unwrap().type).def;
      if (!def.isVariant) return undefined;
      const v = def.asVariant.variants.find((x) => x.name.toString() === call);
      return v === undefined ? undefined : new Uint8Array([p.index.toNumber(), v.index.toNumber()]);
    },
  };
}
