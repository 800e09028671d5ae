import type { TypeRegistry } from '@polkadot/types';
import { decorateStorage } from '@polkadot/types/metadata/decorate';
import type { Storage } from '@polkadot/types/metadata/decorate/types';
import type { StorageEntry } from '@polkadot/types/primitive/types';
import { compactStripLength, u8aConcat } from '@polkadot/util';
import { xxhashAsU8a } from '@polkadot/util-crypto';
import { SubnetError } from '@subnet/core';
import { METADATA_VERSION } from './build-metadata.js';
import { DEVNET_ERROR_CODES } from '../errors.js';

const decorated = new WeakMap<TypeRegistry, Storage>();

function decorate(registry: TypeRegistry): Storage {
  let storage = decorated.get(registry);
  if (storage === undefined) {
    storage = decorateStorage(registry, registry.metadata, METADATA_VERSION);
    decorated.set(registry, storage);
  }
  return storage;
}

/**
 * The decorated storage entry `pallet.item` (metadata names, e.g. `'SubtensorModule'`, `'Weights'`).
 *
 * @throws SubnetError `DEVNET_UNKNOWN_STORAGE` when the metadata has no such item.
 * @example
 * storageEntry(registry, 'SubtensorModule', 'Tempo').meta.modifier.toString(); // 'Default'
 */
export function storageEntry(registry: TypeRegistry, pallet: string, item: string): StorageEntry {
  for (const section of Object.values(decorate(registry))) {
    for (const entry of Object.values(section)) {
      if (entry.prefix === pallet && entry.meta.name.toString() === item) return entry;
    }
  }
  throw new SubnetError(DEVNET_ERROR_CODES.unknownStorage, `the devnet metadata has no storage item ${pallet}.${item}`, {
    context: { path: 'item', value: `${pallet}.${item}` },
  });
}

/**
 * The full storage key of `pallet.item(keys...)`, hashed with the item's hashers: what
 * `state_getStorage` receives. Map keys are passed in order (`[netuidIndex, uid]` for a double map).
 *
 * @param registry - A registry with the devnet metadata (see `createDevnetRegistry`).
 * @param pallet - Pallet (storage prefix) name, e.g. `'SubtensorModule'`.
 * @param item - Storage item name, e.g. `'Weights'`.
 * @param keys - The map keys (none for a plain item); any value the key types accept.
 * @returns The raw key bytes (no length prefix).
 * @throws SubnetError `DEVNET_UNKNOWN_STORAGE` for an unknown item; `DEVNET_BAD_STORAGE_KEY` when the
 *   number of keys does not match the item.
 * @example
 * u8aToHex(storageKey(registry, 'SubtensorModule', 'Weights', [1, 0]));
 */
export function storageKey(registry: TypeRegistry, pallet: string, item: string, keys: readonly unknown[] = []): Uint8Array {
  const entry = storageEntry(registry, pallet, item);
  let prefixed: Uint8Array;
  try {
    prefixed = entry(...keys);
  } catch (cause) {
    throw new SubnetError(DEVNET_ERROR_CODES.badStorageKey, `cannot build the key of ${pallet}.${item} from ${keys.length} key(s)`, {
      context: { path: 'keys', value: keys },
      cause,
    });
  }
  return compactStripLength(prefixed)[1];
}

/**
 * The 32-byte prefix `twox128(pallet) ‖ twox128(item)` shared by every key of a storage item (for
 * `state_getKeysPaged` and iteration).
 *
 * @throws SubnetError `DEVNET_UNKNOWN_STORAGE` when the metadata has no such item.
 * @example
 * storagePrefix(registry, 'SubtensorModule', 'Weights').length; // 32
 */
export function storagePrefix(registry: TypeRegistry, pallet: string, item: string): Uint8Array {
  storageEntry(registry, pallet, item);
  return u8aConcat(xxhashAsU8a(pallet, 128), xxhashAsU8a(item, 128));
}
