/**
 * A tiny DSL that assigns type ids into a scale-info portable registry.
 *
 * Every type the devnet metadata describes is declared by hand through this builder. The builder hands
 * out ids in declaration order and deduplicates structurally identical declarations (same path, params
 * and definition), so `b.sequence(u16)` called twice yields one id, the way scale-info does.
 *
 * The output (`PortableTypeJson[]`) has the JSON shape `@polkadot/types` accepts for
 * `PortableRegistry.types`, so it feeds `registry.createType('MetadataV15', ...)` directly.
 */

/** A scale-info primitive, as `Si1TypeDefPrimitive` spells it. */
export type Primitive = 'Bool' | 'Char' | 'Str' | 'U8' | 'U16' | 'U32' | 'U64' | 'U128' | 'U256' | 'I8' | 'I16' | 'I32' | 'I64' | 'I128' | 'I256';

/** One field of a composite or of an enum variant. */
export interface FieldJson {
  readonly name: string | null;
  readonly type: number;
  readonly typeName: string | null;
  readonly docs: readonly string[];
}

/** One enum variant with its explicit SCALE index. */
export interface VariantJson {
  readonly name: string;
  readonly fields: readonly FieldJson[];
  readonly index: number;
  readonly docs: readonly string[];
}

/** A generic type parameter (`type: null` when the parameter is phantom / not a concrete type). */
export interface ParamJson {
  readonly name: string;
  readonly type: number | null;
}

/** A scale-info type definition (one key set, as the `Si1TypeDef` enum). */
export type TypeDefJson =
  | { readonly composite: { readonly fields: readonly FieldJson[] } }
  | { readonly variant: { readonly variants: readonly VariantJson[] } }
  | { readonly sequence: { readonly type: number } }
  | { readonly array: { readonly len: number; readonly type: number } }
  | { readonly tuple: readonly number[] }
  | { readonly primitive: Primitive }
  | { readonly compact: { readonly type: number } };

/** One entry of the portable registry. */
export interface PortableTypeJson {
  readonly id: number;
  readonly type: {
    readonly path: readonly string[];
    readonly params: readonly ParamJson[];
    readonly def: TypeDefJson;
    readonly docs: readonly string[];
  };
}

/** A field declaration: `[name, type, typeName?]`; `name` null for tuple-struct / unnamed fields. */
export type FieldDecl = readonly [name: string | null, type: number, typeName?: string];

/** A variant declaration: `[index, name, fields?, docs?]`. */
export type VariantDecl = readonly [index: number, name: string, fields?: readonly FieldDecl[], docs?: readonly string[]];

/** The builder handed to declaration functions. */
export interface TypeBuilder {
  /** A primitive (`'U16'`, `'Bool'`, ...). */
  primitive(p: Primitive): number;
  /** `Vec<T>`. */
  sequence(of: number): number;
  /** `[T; len]`. */
  array(len: number, of: number): number;
  /** `(A, B, ...)`; `tuple()` is `()`. */
  tuple(...of: number[]): number;
  /** `Compact<T>`. */
  compact(of: number): number;
  /** A struct with a Rust path such as `['frame_system', 'AccountInfo']`. */
  composite(path: readonly string[], fields: readonly FieldDecl[], params?: readonly ParamJson[], docs?: readonly string[]): number;
  /** An enum with a Rust path and explicit variant indices. */
  variant(path: readonly string[], variants: readonly VariantDecl[], params?: readonly ParamJson[], docs?: readonly string[]): number;
  /** `Option<T>` (scale-info path `Option`, variants None = 0, Some = 1). */
  option(of: number): number;
  /** `Result<T, E>` (scale-info path `Result`, variants Ok = 0, Err = 1). */
  result(ok: number, err: number): number;
  /** The declared types, ids 0..n-1 in order. */
  types(): readonly PortableTypeJson[];
}

function toFields(fields: readonly FieldDecl[]): FieldJson[] {
  return fields.map(([name, type, typeName]) => ({ name, type, typeName: typeName ?? null, docs: [] }));
}

/**
 * Create an empty type builder.
 *
 * @returns A {@link TypeBuilder}; ids start at 0 and follow declaration order.
 * @example
 * const b = createTypeBuilder();
 * const u16 = b.primitive('U16');
 * const vecU16 = b.sequence(u16); // === b.sequence(u16)
 */
export function createTypeBuilder(): TypeBuilder {
  const entries: PortableTypeJson[] = [];
  const byKey = new Map<string, number>();

  const add = (path: readonly string[], params: readonly ParamJson[], def: TypeDefJson, docs: readonly string[] = []): number => {
    for (const ref of referencedIds(def, params)) {
      if (!Number.isInteger(ref) || ref < 0 || ref >= entries.length) {
        throw new RangeError(`type builder: reference to undeclared type id ${ref} in ${path.join('::') || JSON.stringify(def)}`);
      }
    }
    const key = JSON.stringify([path, params, def]);
    const existing = byKey.get(key);
    if (existing !== undefined) return existing;
    const id = entries.length;
    entries.push({ id, type: { path: [...path], params: [...params], def, docs: [...docs] } });
    byKey.set(key, id);
    return id;
  };

  return {
    primitive: (p) => add([], [], { primitive: p }),
    sequence: (of) => add([], [], { sequence: { type: of } }),
    array: (len, of) => add([], [], { array: { len, type: of } }),
    tuple: (...of) => add([], [], { tuple: [...of] }),
    compact: (of) => add([], [], { compact: { type: of } }),
    composite: (path, fields, params = [], docs = []) => add(path, params, { composite: { fields: toFields(fields) } }, docs),
    variant: (path, variants, params = [], docs = []) => {
      const seen = new Set<number>();
      for (const [index, name] of variants) {
        if (!Number.isInteger(index) || index < 0 || index > 255 || seen.has(index)) {
          throw new RangeError(`type builder: variant ${path.join('::')}::${name} has invalid or duplicate index ${index}`);
        }
        seen.add(index);
      }
      return add(
        path,
        params,
        {
          variant: {
            variants: variants.map(([index, name, fields = [], vdocs = []]) => ({ name, fields: toFields(fields), index, docs: [...vdocs] })),
          },
        },
        docs,
      );
    },
    option: (of) =>
      add(['Option'], [{ name: 'T', type: of }], {
        variant: {
          variants: [
            { name: 'None', fields: [], index: 0, docs: [] },
            { name: 'Some', fields: toFields([[null, of]]), index: 1, docs: [] },
          ],
        },
      }),
    result: (ok, err) =>
      add(
        ['Result'],
        [
          { name: 'T', type: ok },
          { name: 'E', type: err },
        ],
        {
          variant: {
            variants: [
              { name: 'Ok', fields: toFields([[null, ok]]), index: 0, docs: [] },
              { name: 'Err', fields: toFields([[null, err]]), index: 1, docs: [] },
            ],
          },
        },
      ),
    types: () => entries,
  };
}

function referencedIds(def: TypeDefJson, params: readonly ParamJson[]): number[] {
  const ids: number[] = [];
  for (const p of params) if (p.type !== null) ids.push(p.type);
  if ('composite' in def) for (const f of def.composite.fields) ids.push(f.type);
  else if ('variant' in def) for (const v of def.variant.variants) for (const f of v.fields) ids.push(f.type);
  else if ('sequence' in def) ids.push(def.sequence.type);
  else if ('array' in def) ids.push(def.array.type);
  else if ('tuple' in def) ids.push(...def.tuple);
  else if ('compact' in def) ids.push(def.compact.type);
  return ids;
}
