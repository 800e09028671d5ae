import { formatPath, SubnetError } from '@subnet/core';

import { CONSENSUS_ERROR_CODES } from './errors.js';

/**
 * A configuration table of emission factors by key (base weight by task type, tier multiplier by
 * hotkey): a `Map`, or a plain or null-prototype object whose own keys are the entries.
 */
export type FactorTable = ReadonlyMap<string, number> | Readonly<Record<string, number>>;

function isFactor(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/**
 * Reads one factor of a configuration table, with every key as data (SPEC 0): only an own entry counts,
 * so a task type spelled `constructor`, `__proto__` or `toString` finds its own entry or the fallback,
 * never something inherited from `Object.prototype`. Use it for `base_weight[task_type]` and
 * `tier_multiplier[hotkey]` before calling {@link emission}.
 *
 * @param table - a `Map` or a plain / null-prototype object of finite factors >= 0
 * @param key - the entry to read (a task type, a hotkey)
 * @param fallback - the factor when the table has no own entry for `key` (finite, >= 0)
 * @param label - the table's name in error paths (default `table`)
 * @returns the table's own entry for `key`, else `fallback`
 * @throws SubnetError `CONSENSUS_INVALID_ARGUMENT` for a table that is neither a Map nor a plain object,
 *   a key that is not a string or a bad fallback; `CONSENSUS_INVALID_FACTOR` naming the entry
 *   (`base_weights["mcp_server"]`) when the entry read is not a finite number >= 0
 * @example
 * lookupFactor({ mcp_server: 1.5 }, 'mcp_server', 1) // 1.5
 * lookupFactor({ mcp_server: 1.5 }, 'constructor', 1) // 1 (the fallback: no own entry)
 */
export function lookupFactor(table: FactorTable, key: string, fallback: number, label = 'table'): number {
  if (typeof label !== 'string') {
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidArgument, 'a table label is a string', { context: { path: 'label', value: label } });
  }
  if (typeof key !== 'string') {
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidArgument, 'a table key is a string', { context: { path: 'key', value: key } });
  }
  if (!isFactor(fallback)) {
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidArgument, 'a fallback factor is a finite number >= 0', {
      context: { path: 'fallback', value: fallback },
    });
  }
  let found: boolean;
  let value: unknown;
  if (table instanceof Map) {
    found = table.has(key);
    value = table.get(key);
  } else {
    const given: unknown = table;
    const proto: unknown = typeof given === 'object' && given !== null && !Array.isArray(given) ? Object.getPrototypeOf(given) : undefined;
    if (proto !== Object.prototype && proto !== null) {
      throw new SubnetError(CONSENSUS_ERROR_CODES.invalidArgument, 'a factor table is a Map or a plain object', { context: { path: label, value: table } });
    }
    found = Object.hasOwn(table, key);
    value = found ? Object.getOwnPropertyDescriptor(table, key)?.value : undefined;
  }
  if (!found) return fallback;
  if (!isFactor(value)) {
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidFactor, 'a table factor is a finite number >= 0', {
      context: { path: formatPath([key], label), value },
    });
  }
  return value;
}
