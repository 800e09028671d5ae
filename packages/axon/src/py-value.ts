/** A Python value as pydantic validated it: what `str()` and `json.dumps` see. */
export type PyValue =
  | { readonly t: 'none' }
  | { readonly t: 'bool'; readonly v: boolean }
  | { readonly t: 'int'; readonly v: bigint }
  | { readonly t: 'float'; readonly v: number }
  | { readonly t: 'str'; readonly v: string }
  | { readonly t: 'list'; readonly v: readonly PyValue[] }
  | { readonly t: 'dict'; readonly v: ReadonlyMap<string, PyValue> };

/** Python `None`. */
export const PY_NONE: PyValue = Object.freeze({ t: 'none' });

/** A declared Python field type (the subset synapses use on the wire). */
export type PyType =
  | 'str'
  | 'int'
  | 'float'
  | 'bool'
  | 'any'
  | { readonly list: PyType }
  | { readonly dict: PyType }
  | { readonly optional: PyType }
  | { readonly model: readonly (readonly [string, PyType])[] };
