import type { InputLimits } from '@subnet/core';
import { asciiTrim } from '@subnet/core';

import { tryNormaliseEvidenceRef } from './evidence-ref.js';
import type { Sssa, SssaDependency, SssaFinding, SssaPolicyRule } from './sssa-schema.js';
import { severitySet } from './sssa-schema.js';
import { foldLower, isWellFormed } from './text-rules.js';

/**
 * Internal: the hand-written SSSA validator of the hot path. It accepts exactly the documents that pass
 * both `checkInputShape(input, limits)` and `sssaSchema` (`fast-validator.test.ts` checks it on random
 * valid and mutated documents) and returns a new document built the way the schema builds it, with an
 * unknown key spelled `__proto__` kept as an own data property. It never says why a document is
 * invalid: on `undefined` the caller runs the shape check and the schema, which name the field.
 *
 * Levels count containers as `checkInputShape` does: the document is level 1, `findings` 2, a finding 3,
 * its `cve_ids` 4.
 */

type Json = Record<string, unknown>;

/** Internal: a plain (or null-prototype) object that is not an array. */
export function isPlainObject(value: unknown): value is Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Internal: a well-formed string within the string limit. */
export function okString(value: unknown, limits: InputLimits): value is string {
  return typeof value === 'string' && value.length <= limits.maxStringLength && isWellFormed(value);
}

/** A well-formed string within limits that is not blank once ASCII-trimmed. */
export function okText(value: unknown, limits: InputLimits): value is string {
  return okString(value, limits) && asciiTrim(value) !== '';
}

/** An object key within limits (the shape check applies the string rules to keys too). */
function okKey(key: string, limits: InputLimits): boolean {
  return key.length <= limits.maxStringLength && isWellFormed(key);
}

/** Whether `value` is JSON within the limits, its containers sitting at `level`. */
export function okJson(value: unknown, level: number, limits: InputLimits): boolean {
  switch (typeof value) {
    case 'string':
      return value.length <= limits.maxStringLength && isWellFormed(value);
    case 'number':
      return Number.isFinite(value);
    case 'boolean':
      return true;
    case 'object': {
      if (value === null) return true;
      if (level > limits.maxDepth) return false;
      if (Array.isArray(value)) {
        if (value.length > limits.maxListLength) return false;
        for (let i = 0; i < value.length; i++) if (!okJson(value[i], level + 1, limits)) return false;
        return true;
      }
      if (!isPlainObject(value)) return false;
      const keys = Object.keys(value);
      if (keys.length > limits.maxObjectKeys) return false;
      for (const key of keys) if (!okKey(key, limits) || !okJson(value[key], level + 1, limits)) return false;
      return true;
    }
    default:
      return false;
  }
}

/** Copies unknown fields onto `out`, `__proto__` included, as own data properties. */
function copyExtra(out: Json, from: Json, extra: readonly string[] | undefined): void {
  if (extra === undefined) return;
  for (const key of extra) {
    if (key === '__proto__') Object.defineProperty(out, key, { value: from[key], enumerable: true, writable: true, configurable: true });
    else out[key] = from[key];
  }
}

/** The keys of a known object that the validator does not know, after checking them; `false` if one is bad. */
export function unknownKeys(value: Json, known: ReadonlySet<string>, level: number, limits: InputLimits): string[] | undefined | false {
  const keys = Object.keys(value);
  if (keys.length > limits.maxObjectKeys) return false;
  let extra: string[] | undefined;
  for (const key of keys) {
    if (known.has(key)) {
      if (key.length > limits.maxStringLength) return false;
      continue;
    }
    if (!okKey(key, limits) || !okJson(value[key], level + 1, limits)) return false;
    (extra ??= []).push(key);
  }
  return extra;
}

/** A list of well-formed, non-blank strings without any of `separators`, as a list at `level`. */
function textList(value: unknown, level: number, limits: InputLimits, separators: string): string[] | undefined {
  if (!Array.isArray(value) || level > limits.maxDepth || value.length > limits.maxListLength) return undefined;
  const out: string[] = new Array<string>(value.length);
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (!okText(item, limits)) return undefined;
    for (let c = 0; c < separators.length; c++) if (item.includes(separators.charAt(c))) return undefined;
    out[i] = item;
  }
  return out;
}

export const FINDING_KEYS: ReadonlySet<string> = new Set(['id', 'category', 'severity', 'description', 'evidence_ref', 'cve_ids', 'target_pattern']);
export const DEPENDENCY_KEYS: ReadonlySet<string> = new Set(['package', 'version', 'cves']);
export const RULE_KEYS: ReadonlySet<string> = new Set(['resource', 'action', 'pattern']);
export const POLICY_KEYS: ReadonlySet<string> = new Set(['rules']);
export const DOCUMENT_KEYS: ReadonlySet<string> = new Set([
  'schema_version',
  'skill',
  'signature',
  'verdict',
  'risk_score',
  'findings',
  'capabilities',
  'dependencies',
  'policy',
]);

function finding(value: unknown, limits: InputLimits, refs: string[] | undefined): SssaFinding | undefined {
  if (!isPlainObject(value) || 3 > limits.maxDepth) return undefined;
  const extra = unknownKeys(value, FINDING_KEYS, 3, limits);
  if (extra === false) return undefined;
  const { id, category, severity, description, evidence_ref: ref, target_pattern: target } = value;
  if (!okString(id, limits) || !okString(description, limits) || !okText(target, limits)) return undefined;
  if (!okText(category, limits) || category.includes('|')) return undefined;
  if (!okString(severity, limits) || !severitySet.has(foldLower(severity))) return undefined;
  if (!okString(ref, limits)) return undefined;
  const normalised = tryNormaliseEvidenceRef(ref);
  if (!normalised.ok || normalised.value.includes('|')) return undefined;
  refs?.push(normalised.value);
  const cveIds = textList(value.cve_ids, 4, limits, '|,');
  if (cveIds === undefined) return undefined;
  const out: Json = { id, category, severity, description, evidence_ref: ref, cve_ids: cveIds, target_pattern: target };
  copyExtra(out, value, extra);
  return out as SssaFinding;
}

function dependency(value: unknown, limits: InputLimits): SssaDependency | undefined {
  if (!isPlainObject(value) || 3 > limits.maxDepth) return undefined;
  const extra = unknownKeys(value, DEPENDENCY_KEYS, 3, limits);
  if (extra === false) return undefined;
  const { package: name, version } = value;
  if (!okText(name, limits) || !okText(version, limits)) return undefined;
  const cves = textList(value.cves, 4, limits, '');
  if (cves === undefined) return undefined;
  const out: Json = { package: name, version, cves };
  copyExtra(out, value, extra);
  return out as SssaDependency;
}

function rule(value: unknown, limits: InputLimits): SssaPolicyRule | undefined {
  if (!isPlainObject(value) || 4 > limits.maxDepth) return undefined;
  const extra = unknownKeys(value, RULE_KEYS, 4, limits);
  if (extra === false) return undefined;
  const { resource, action, pattern } = value;
  if (!okText(resource, limits) || !okText(action, limits) || !okText(pattern, limits)) return undefined;
  const out: Json = { resource, action, pattern };
  copyExtra(out, value, extra);
  return out as SssaPolicyRule;
}

/** Maps a list at `level` with `item`, or `undefined` if it is not a list within limits or an item fails. */
function list<T>(value: unknown, level: number, limits: InputLimits, item: (v: unknown, limits: InputLimits) => T | undefined): T[] | undefined {
  if (!Array.isArray(value) || level > limits.maxDepth || value.length > limits.maxListLength) return undefined;
  const out = new Array<T>(value.length);
  for (let i = 0; i < value.length; i++) {
    const parsed = item(value[i], limits);
    if (parsed === undefined) return undefined;
    out[i] = parsed;
  }
  return out;
}

/**
 * The document as `sssaSchema` would return it (unknown fields kept, `__proto__` as data), when `input`
 * passes both the input limits and the schema; otherwise `undefined`.
 *
 * @param input - untrusted value
 * @param limits - complete input limits
 * @param refs - when given, receives the normalised evidence reference of each finding, in order
 */
export function fastSssa(input: unknown, limits: InputLimits, refs?: string[]): Sssa | undefined {
  if (!isPlainObject(input) || 1 > limits.maxDepth) return undefined;
  const extra = unknownKeys(input, DOCUMENT_KEYS, 1, limits);
  if (extra === false) return undefined;
  const { verdict, risk_score: risk, schema_version: version, skill, signature, policy } = input;
  if (verdict !== 'ALLOW' && verdict !== 'BLOCK' && verdict !== 'REVIEW') return undefined;
  if (typeof risk !== 'number' || !(risk >= 0 && risk <= 1)) return undefined;
  const out: Json = { verdict, risk_score: risk };
  if (Object.hasOwn(input, 'schema_version')) {
    if (!okText(version, limits)) return undefined;
    out.schema_version = version;
  }
  if (Object.hasOwn(input, 'skill')) {
    if (!isPlainObject(skill) || !okJson(skill, 2, limits)) return undefined;
    out.skill = copyObject(skill);
  }
  if (Object.hasOwn(input, 'signature')) {
    if (typeof signature === 'string') {
      if (!okString(signature, limits)) return undefined;
      out.signature = signature;
    } else if (isPlainObject(signature) && okJson(signature, 2, limits)) out.signature = copyObject(signature);
    else return undefined;
  }
  const findings = list(input.findings, 2, limits, (item, l) => finding(item, l, refs));
  if (findings === undefined) return undefined;
  const capabilities = textList(input.capabilities, 2, limits, '');
  if (capabilities === undefined) return undefined;
  const dependencies = list(input.dependencies, 2, limits, dependency);
  if (dependencies === undefined) return undefined;
  if (!isPlainObject(policy) || 2 > limits.maxDepth) return undefined;
  const policyExtra = unknownKeys(policy, POLICY_KEYS, 2, limits);
  if (policyExtra === false) return undefined;
  const rules = list(policy.rules, 3, limits, rule);
  if (rules === undefined) return undefined;
  const policyOut: Json = { rules };
  copyExtra(policyOut, policy, policyExtra);
  out.findings = findings;
  out.capabilities = capabilities;
  out.dependencies = dependencies;
  out.policy = policyOut;
  copyExtra(out, input, extra);
  return out as Sssa;
}

/** A shallow copy of a plain object (as zod's loose object gives), `__proto__` kept as data. */
function copyObject(value: Json): Json {
  const out: Json = {};
  copyExtra(out, value, Object.keys(value));
  return out;
}
