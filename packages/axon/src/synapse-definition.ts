import { AXON_ERROR_CODES, axonError } from './errors.js';
import type { PyType } from './py-value.js';
import { TERMINAL_INFO_TYPE } from './terminal-info.js';

/** One declared field of a synapse subclass. */
export interface SynapseFieldSpec {
  readonly type: PyType;
  /** The Python default; a field without one is required (and gets a `bt_header_input_obj_*` header). */
  readonly default?: unknown;
}

/** A synapse class as the miner's Python declares it. */
export interface SynapseDefinition {
  /** The class name: the URL path and the `name` field. */
  readonly name: string;
  /** Subclass fields in declaration order. */
  readonly fields: readonly (readonly [string, SynapseFieldSpec])[];
  /** `required_hash_fields`, in the tuple's order. */
  readonly requiredHashFields: readonly string[];
}

/** The base `bt.Synapse` fields in declaration order (`bittensor/core/synapse.py`). */
export const BASE_SYNAPSE_FIELDS: readonly (readonly [string, PyType])[] = Object.freeze([
  ['name', { optional: 'str' }],
  ['timeout', { optional: 'float' }],
  ['total_size', { optional: 'int' }],
  ['header_size', { optional: 'int' }],
  ['dendrite', { optional: TERMINAL_INFO_TYPE }],
  ['axon', { optional: TERMINAL_INFO_TYPE }],
  ['computed_body_hash', { optional: 'str' }],
]);

/**
 * Declares a synapse class exactly as the subnet's Python declares it: the class name, each field's type and
 * default in declaration order, and `required_hash_fields`. Both sides must agree on it for body hashes to match.
 *
 * @param definition - name, fields, hash fields
 * @returns the frozen definition
 * @throws SubnetError `AXON_INVALID_DEFINITION` for a bad class name, a base field name, or an unknown hash field
 * @example
 * const Dummy = defineSynapse({ name: 'Dummy', fields: [['dummy_input', { type: 'int' }], ['dummy_output', { type: { optional: 'int' }, default: null }]], requiredHashFields: [] });
 */
export function defineSynapse(definition: SynapseDefinition): SynapseDefinition {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(definition.name))
    throw axonError(AXON_ERROR_CODES.invalidDefinition, 'a synapse name is a Python class name', 'name', definition.name);
  const names = new Set<string>();
  for (const [field] of definition.fields) {
    if (BASE_SYNAPSE_FIELDS.some(([base]) => base === field) || names.has(field) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) {
      throw axonError(AXON_ERROR_CODES.invalidDefinition, 'a field name is a new Python identifier (not a base Synapse field)', 'fields', field);
    }
    names.add(field);
  }
  for (const field of definition.requiredHashFields) {
    if (!names.has(field)) throw axonError(AXON_ERROR_CODES.invalidDefinition, 'a hashed field must be declared', 'requiredHashFields', field);
  }
  return Object.freeze({
    name: definition.name,
    fields: Object.freeze([...definition.fields]),
    requiredHashFields: Object.freeze([...definition.requiredHashFields]),
  });
}
