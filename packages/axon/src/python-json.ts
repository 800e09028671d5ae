import { pyFloatRepr } from './py-repr.js';
import type { PyValue } from './py-value.js';

function jsonString(s: string, asciiOnly: boolean): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i] ?? '';
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20 || (asciiOnly && c > 0x7e)) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/**
 * Writes a value as Python's `json.dumps` does: default (`", "`, `": "`, non-ASCII as `\uXXXX`, what the SDK
 * dendrite sends) or compact (`","`, `":"`, UTF-8 kept, what FastAPI answers). Floats in repr form
 * (`1.0`, `1e-05`), integers of any size exactly; `NaN`/`Infinity` as bare tokens.
 *
 * @param value - the value
 * @param style - `default` or `compact`
 * @returns the JSON text
 * @example pyJsonDumps({ t: 'float', v: 12 }) // '12.0'
 */
export function pyJsonDumps(value: PyValue, style: 'default' | 'compact' = 'default'): string {
  const [item, kv, ascii] = style === 'default' ? [', ', ': ', true] : [',', ':', false];
  const write = (v: PyValue): string => {
    switch (v.t) {
      case 'none':
        return 'null';
      case 'bool':
        return v.v ? 'true' : 'false';
      case 'int':
        return v.v.toString();
      case 'float':
        return Number.isNaN(v.v) ? 'NaN' : v.v === Infinity ? 'Infinity' : v.v === -Infinity ? '-Infinity' : pyFloatRepr(v.v);
      case 'str':
        return jsonString(v.v, ascii);
      case 'list':
        return `[${v.v.map(write).join(item)}]`;
      case 'dict':
        return `{${[...v.v].map(([k, x]) => `${jsonString(k, ascii)}${kv}${write(x)}`).join(item)}}`;
    }
  };
  return write(value);
}

/**
 * Internal: whether a value holds a NaN or infinite float, which Starlette's `JSONResponse`
 * (`json.dumps(..., allow_nan=False)`) refuses to render ("Out of range float values are not JSON compliant").
 */
export function hasNonFiniteFloat(value: PyValue): boolean {
  switch (value.t) {
    case 'float':
      return !Number.isFinite(value.v);
    case 'list':
      return value.v.some(hasNonFiniteFloat);
    case 'dict':
      for (const x of value.v.values()) if (hasNonFiniteFloat(x)) return true;
      return false;
    default:
      return false;
  }
}
