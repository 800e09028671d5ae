import { computeBodyHash } from './body-hash.js';
import { AXON_ERROR_CODES, axonError } from './errors.js';
import type { JsonNode } from './json-text.js';
import { parseJsonText } from './json-text.js';
import { fromPy, toPy } from './py-convert.js';
import { pyFloatRepr } from './py-repr.js';
import { validatePy } from './py-validate.js';
import type { PyValue } from './py-value.js';
import { PY_NONE } from './py-value.js';
import { pyJsonDumps } from './python-json.js';
import type { SynapseDefinition } from './synapse-definition.js';
import type { TerminalInfo } from './terminal-info.js';
import { EMPTY_TERMINAL, TERMINAL_FIELDS, TERMINAL_INFO_TYPE, terminalFromPy, terminalToPy } from './terminal-info.js';

/** A synapse instance: the base fields and the subclass's validated values. */
export interface Synapse {
  readonly name: string;
  /** Seconds (Python float), or `null`. */
  readonly timeout: number | null;
  readonly totalSize: bigint;
  readonly headerSize: bigint;
  readonly dendrite: TerminalInfo;
  readonly axon: TerminalInfo;
  /** Always `""` in a body the SDK writes (the field is frozen). */
  readonly computedBodyHash: string;
  /** Subclass fields, validated, in declaration order. */
  readonly values: ReadonlyMap<string, PyValue>;
}

/** Internal: `Synapse.timeout`'s default in the SDK (`bittensor/core/synapse.py:426-433`), in seconds. */
export const SYNAPSE_DEFAULT_TIMEOUT = 12;

/**
 * A new synapse of a definition from JS values (each converted to its declared Python type; missing fields
 * take their default; a missing required field is an error).
 *
 * @param definition - the synapse class
 * @param values - field values by name
 * @returns the synapse (no dendrite/axon information yet)
 * @throws SubnetError `AXON_INVALID_VALUE`
 * @example const s = createSynapse(Dummy, { dummy_input: 7 })
 */
export function createSynapse(definition: SynapseDefinition, values: Readonly<Record<string, unknown>> = {}): Synapse {
  const out = new Map<string, PyValue>();
  for (const [field, spec] of definition.fields) {
    if (Object.hasOwn(values, field)) out.set(field, toPy(values[field], spec.type, field));
    else if ('default' in spec) out.set(field, toPy(spec.default, spec.type, field));
    else throw axonError(AXON_ERROR_CODES.invalidValue, 'a required field is missing', field);
  }
  return Object.freeze({
    name: definition.name,
    timeout: SYNAPSE_DEFAULT_TIMEOUT,
    totalSize: 0n,
    headerSize: 0n,
    dendrite: EMPTY_TERMINAL,
    axon: EMPTY_TERMINAL,
    computedBodyHash: '',
    values: out,
  });
}

/**
 * The subclass field values of a synapse as plain JS (`fromPy`): what a forward function reads and a
 * validator scores.
 *
 * @param synapse - the synapse
 * @returns a null-prototype object of the values
 * @example synapseValues(response).dummy_output // 14
 */
export function synapseValues(synapse: Synapse): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of synapse.values) out[k] = fromPy(v);
  return out;
}

/** The synapse as the Python dict `model_dump()` gives, in field order. */
export function synapseToPy(synapse: Synapse): PyValue {
  const opt = <T>(v: T | null, f: (x: T) => PyValue): PyValue => (v === null ? PY_NONE : f(v));
  const entries: [string, PyValue][] = [
    ['name', { t: 'str', v: synapse.name }],
    ['timeout', opt(synapse.timeout, (v) => ({ t: 'float', v }))],
    ['total_size', { t: 'int', v: synapse.totalSize }],
    ['header_size', { t: 'int', v: synapse.headerSize }],
    ['dendrite', terminalToPy(synapse.dendrite)],
    ['axon', terminalToPy(synapse.axon)],
    ['computed_body_hash', { t: 'str', v: synapse.computedBodyHash }],
    ...synapse.values,
  ];
  return { t: 'dict', v: new Map(entries) };
}

/**
 * The JSON body of a synapse: `default` as the SDK dendrite sends it (`json.dumps(model_dump())`), `compact`
 * as the SDK axon answers.
 *
 * @param synapse - the synapse
 * @param style - `default` (request) or `compact` (response)
 * @returns the JSON text
 * @example synapseJson(s)
 */
export function synapseJson(synapse: Synapse, style: 'default' | 'compact' = 'default'): string {
  return pyJsonDumps(synapseToPy(synapse), style);
}

/**
 * Reads a synapse body as the Python side does (`cls(**json.loads(body))`): lossless JSON, each field
 * validated against its declared type; absent fields take their defaults.
 *
 * @param definition - the synapse class
 * @param text - the JSON body
 * @returns the synapse
 * @throws SubnetError `AXON_INVALID_JSON`, `AXON_INVALID_VALUE`
 * @example parseSynapseJson(Dummy, body)
 */
export function parseSynapseJson(definition: SynapseDefinition, text: string): Synapse {
  return synapseFromJson(definition, parseJsonText(text));
}

/** Internal: {@link parseSynapseJson} of already parsed JSON. */
export function synapseFromJson(definition: SynapseDefinition, root: JsonNode): Synapse {
  if (root.kind !== 'object') throw axonError(AXON_ERROR_CODES.invalidValue, 'a synapse body is a JSON object', 'body');
  const get = (name: string) => root.entries.get(name);
  const num = (name: string, type: 'float' | 'int'): PyValue => {
    const node = get(name);
    return node === undefined ? PY_NONE : validatePy(node, { optional: type }, name);
  };
  const timeout = num('timeout', 'float');
  const totalSize = num('total_size', 'int');
  const headerSize = num('header_size', 'int');
  const terminal = (name: string): TerminalInfo => {
    const node = get(name);
    return node === undefined || node.kind === 'null' ? EMPTY_TERMINAL : terminalFromPy(validatePy(node, TERMINAL_INFO_TYPE, name));
  };
  const hashNode = get('computed_body_hash');
  const values = new Map<string, PyValue>();
  for (const [field, spec] of definition.fields) {
    const node = get(field);
    if (node !== undefined) values.set(field, validatePy(node, spec.type, field));
    else if ('default' in spec) values.set(field, toPy(spec.default, spec.type, field));
    else throw axonError(AXON_ERROR_CODES.invalidValue, 'a required field is missing', field);
  }
  return Object.freeze({
    name: definition.name,
    timeout: timeout.t === 'float' ? timeout.v : null,
    totalSize: totalSize.t === 'int' ? totalSize.v : 0n,
    headerSize: headerSize.t === 'int' ? headerSize.v : 0n,
    dendrite: terminal('dendrite'),
    axon: terminal('axon'),
    computedBodyHash: hashNode?.kind === 'string' ? hashNode.value : '',
    values,
  });
}

/**
 * The body hash of a synapse under its definition's `required_hash_fields`.
 *
 * @param definition - the synapse class
 * @param synapse - the synapse
 * @returns 64 lowercase hex
 * @example synapseBodyHash(Dummy, s) // EMPTY_BODY_HASH
 */
export function synapseBodyHash(definition: SynapseDefinition, synapse: Synapse): string {
  return computeBodyHash(definition.requiredHashFields.map((f) => synapse.values.get(f) ?? PY_NONE));
}

const EMPTY_JSON: Record<PyValue['t'], string | undefined> = { none: undefined, bool: 'false', int: '0', float: '0.0', str: '""', list: '[]', dict: '{}' };

/**
 * The headers of a synapse as `Synapse.to_headers()` writes them (`bittensor/core/synapse.py:590-669`):
 * `name`, `timeout`, the non-`None` `bt_header_axon_*` and `bt_header_dendrite_*` values, a
 * `bt_header_input_obj_<field>` placeholder (base64 JSON of an empty value of the runtime type) per
 * required non-`None` field, `header_size`, `total_size`, `computed_body_hash`.
 *
 * @param definition - the synapse class
 * @param synapse - the synapse
 * @param bodyHash - the computed body hash
 * @returns lowercase header names and values
 * @example synapseHeaders(Dummy, s, EMPTY_BODY_HASH)
 */
export function synapseHeaders(definition: SynapseDefinition, synapse: Synapse, bodyHash: string): Record<string, string> {
  const headers: Record<string, string> = { name: synapse.name };
  if (synapse.timeout !== null) headers.timeout = pyFloatRepr(synapse.timeout);
  for (const [side, info] of [
    ['axon', synapse.axon],
    ['dendrite', synapse.dendrite],
  ] as const) {
    for (const [wire, key, type] of TERMINAL_FIELDS) {
      const v = info[key];
      if (v !== null) headers[`bt_header_${side}_${wire}`] = type === 'float' ? pyFloatRepr(v as number) : String(v);
    }
  }
  for (const [field, spec] of definition.fields) {
    const value = synapse.values.get(field);
    const empty = value === undefined ? undefined : EMPTY_JSON[value.t];
    if (!('default' in spec) && empty !== undefined) headers[`bt_header_input_obj_${field}`] = Buffer.from(empty).toString('base64');
  }
  headers.header_size = String(synapse.headerSize);
  headers.total_size = String(synapse.totalSize);
  headers.computed_body_hash = bodyHash;
  return headers;
}
