import type { TypeBuilder } from './type-builder.js';

/** A storage hasher, as `StorageHasherV14` spells it. */
export type StorageHasher = 'Blake2_128' | 'Blake2_256' | 'Blake2_128Concat' | 'Twox128' | 'Twox256' | 'Twox64Concat' | 'Identity';

/** One storage item declaration. `fallback` is a JS value encoded with the value type (Default items only). */
export interface StorageDecl {
  readonly name: string;
  readonly modifier: 'Optional' | 'Default';
  readonly type: { readonly plain: number } | { readonly map: { readonly hashers: readonly StorageHasher[]; readonly key: number; readonly value: number } };
  /** The `ValueQuery` default as a JS value (absent: the type's zero value). Ignored for `Optional`. */
  readonly fallback?: unknown;
  readonly docs: readonly string[];
}

/** One pallet constant; `value` is a JS value encoded with `type`. */
export interface ConstantDecl {
  readonly name: string;
  readonly type: number;
  readonly value: unknown;
  readonly docs: readonly string[];
}

/** The call / event / error enum ids of a pallet (declared before the outer runtime enums). */
export interface PalletEnums {
  readonly calls?: number;
  readonly events?: number;
  readonly errors?: number;
}

/** A complete pallet declaration. */
export interface PalletDecl extends PalletEnums {
  readonly name: string;
  readonly index: number;
  readonly storage: readonly StorageDecl[];
  readonly constants: readonly ConstantDecl[];
  readonly docs: readonly string[];
}

/** Options of a storage map declaration. */
export interface MapOptions {
  /** `OptionQuery` (absent value decodes as `None`) instead of `ValueQuery`. */
  readonly optional?: boolean;
  /** The `ValueQuery` default as a JS value. */
  readonly fallback?: unknown;
  readonly docs?: readonly string[];
}

/** Helpers that declare storage items into a builder. */
export interface StorageHelpers {
  /** A plain (`StorageValue`) item. */
  plain(name: string, value: number, options?: MapOptions): StorageDecl;
  /** A map; one hasher per key; several keys become an N-map with a tuple key type. */
  map(name: string, keys: readonly (readonly [StorageHasher, number])[], value: number, options?: MapOptions): StorageDecl;
}

/**
 * Storage declaration helpers bound to a builder.
 *
 * @param b - The type builder (a tuple key type is declared for N-maps).
 * @returns `plain` and `map` helpers.
 */
export function storageHelpers(b: TypeBuilder): StorageHelpers {
  const finish = (name: string, type: StorageDecl['type'], options: MapOptions = {}): StorageDecl => ({
    name,
    modifier: options.optional === true ? 'Optional' : 'Default',
    type,
    ...(options.fallback === undefined ? {} : { fallback: options.fallback }),
    docs: options.docs ?? [],
  });
  return {
    plain: (name, value, options) => finish(name, { plain: value }, options),
    map: (name, keys, value, options) => {
      const first = keys[0];
      if (first === undefined) throw new RangeError(`storage map ${name} needs at least one key`);
      const key = keys.length === 1 ? first[1] : b.tuple(...keys.map(([, k]) => k));
      return finish(name, { map: { hashers: keys.map(([h]) => h), key, value } }, options);
    },
  };
}

/**
 * Build a variant list from names in index order (index = position), as `#[pallet::error]` does.
 *
 * @param names - Variant names in declaration order.
 * @returns `[index, name]` pairs.
 */
export function indexed(names: readonly string[]): (readonly [number, string])[] {
  return names.map((name, index) => [index, name] as const);
}
