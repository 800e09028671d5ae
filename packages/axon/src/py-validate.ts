import { AXON_ERROR_CODES, axonError } from './errors.js';
import type { JsonNode } from './json-text.js';
import type { PyType, PyValue } from './py-value.js';
import { PY_NONE } from './py-value.js';

function bad(path: string, expected: string, node: JsonNode): never {
  throw axonError(AXON_ERROR_CODES.invalidValue, `expected ${expected}, got JSON ${node.kind}`, path, node.kind === 'number' ? node.text : node.kind);
}

function numberValue(text: string): number {
  if (text === 'NaN') return NaN;
  if (text === 'Infinity') return Infinity;
  if (text === '-Infinity') return -Infinity;
  return Number(text);
}

const INTEGER = /^-?[0-9]+$/;

/** `any` keeps the JSON kinds and cannot fail, so it needs no path (building one per element was most of its cost). */
function anyPy(node: JsonNode): PyValue {
  switch (node.kind) {
    case 'null':
      return PY_NONE;
    case 'bool':
      return { t: 'bool', v: node.value };
    case 'string':
      return { t: 'str', v: node.value };
    case 'number':
      return INTEGER.test(node.text) ? { t: 'int', v: BigInt(node.text) } : { t: 'float', v: numberValue(node.text) };
    case 'array':
      return { t: 'list', v: node.items.map(anyPy) };
    case 'object': {
      const out = new Map<string, PyValue>();
      for (const [k, n] of node.entries) out.set(k, anyPy(n));
      return { t: 'dict', v: out };
    }
  }
}

/**
 * Validates parsed JSON against a declared Python type as pydantic does in JSON mode for these types: `int`
 * takes integers (and integral floats), `float` any number (`1` becomes `1.0`), `any` keeps the JSON kinds,
 * typed containers coerce their elements, a model keeps its declared field order (missing optional fields
 * are `None`, unknown keys ignored).
 *
 * @param node - the parsed JSON
 * @param type - the declared type
 * @param path - where it is, for errors
 * @returns the Python value
 * @throws SubnetError `AXON_INVALID_VALUE` naming the path
 * @example validatePy(parseJsonText('[1, 2]'), { list: 'float' }, 'scores')
 */
export function validatePy(node: JsonNode, type: PyType, path: string): PyValue {
  if (typeof type === 'object' && 'optional' in type) return node.kind === 'null' ? PY_NONE : validatePy(node, type.optional, path);
  if (type === 'any') return anyPy(node);
  if (type === 'str') return node.kind === 'string' ? { t: 'str', v: node.value } : bad(path, 'a string', node);
  if (type === 'bool') return node.kind === 'bool' ? { t: 'bool', v: node.value } : bad(path, 'a boolean', node);
  if (type === 'float') return node.kind === 'number' ? { t: 'float', v: numberValue(node.text) } : bad(path, 'a number', node);
  if (type === 'int') {
    if (node.kind !== 'number') return bad(path, 'an integer', node);
    if (/^-?[0-9]+$/.test(node.text)) return { t: 'int', v: BigInt(node.text) };
    const x = numberValue(node.text);
    return Number.isSafeInteger(x) ? { t: 'int', v: BigInt(x) } : bad(path, 'an integer', node);
  }
  if ('list' in type)
    return node.kind === 'array' ? { t: 'list', v: node.items.map((n, i) => validatePy(n, type.list, `${path}[${i}]`)) } : bad(path, 'an array', node);
  if ('dict' in type)
    return node.kind === 'object'
      ? { t: 'dict', v: new Map([...node.entries].map(([k, n]) => [k, validatePy(n, type.dict, `${path}.${k}`)])) }
      : bad(path, 'an object', node);
  if (node.kind !== 'object') return bad(path, 'an object', node);
  const out = new Map<string, PyValue>();
  for (const [name, fieldType] of type.model) {
    const child = node.entries.get(name);
    if (child === undefined) {
      if (typeof fieldType === 'object' && 'optional' in fieldType) out.set(name, PY_NONE);
      else throw axonError(AXON_ERROR_CODES.invalidValue, 'a required field is missing', `${path}.${name}`);
    } else out.set(name, validatePy(child, fieldType, `${path}.${name}`));
  }
  return { t: 'dict', v: out };
}
