import type { InputLimits } from '@subnet/core';
import { asciiTrim, asciiUpper } from '@subnet/core';

import { sha256Hex } from '#hash';

import type { DocumentSets } from './document-sets.js';
import { encode2, encode3 } from './document-sets.js';
import { tryNormaliseEvidenceRef } from './evidence-ref.js';
import { DEPENDENCY_KEYS, DOCUMENT_KEYS, FINDING_KEYS, isPlainObject, okJson, okString, okText, POLICY_KEYS, RULE_KEYS, unknownKeys } from './fast-sssa.js';
import { cveField } from './finding-key.js';
import { foldLower } from './text-rules.js';

/**
 * Internal: the hot path of a fresh (raw, never parsed) document, what a validator does for every SSSA
 * it receives: validate, key every finding and reduce the document to the {@link DocumentSets} that
 * scoring compares, in one pass and without building the parsed document. It accepts exactly the
 * documents `fastSssa` accepts (so exactly what the input limits and `sssaSchema` accept) and returns the
 * sets `computeDocumentSets` computes from the parsed document, bit for bit (`fresh-sets.test.ts` checks
 * both on random and mutated documents). On `undefined` the caller takes the general path, which names
 * the bad field.
 *
 * The members of a group report the same findings: a {@link FreshGroup} remembers each distinct finding
 * of the group once (keyed by its normalised evidence reference, then compared field by field), so each
 * distinct preimage is built and hashed once per group, and no global memo is filled and flushed by
 * findings that never come back.
 */

/** One distinct finding of the group: its key fields, preimage and key. */
interface KeyEntry {
  readonly category: string;
  readonly severity: string;
  readonly evidence: string;
  readonly cves: string;
  readonly target: string;
  readonly preimage: string;
  readonly key: string;
  /** The next entry of the same bucket (or, in exact mode, with the same evidence reference). */
  next: KeyEntry | undefined;
  /** The serial of the last document that reported it (a document counts a finding once). */
  seenBy: number;
}

/** One distinct capability, dependency, CVE or rule of the group: its parts and its encoded form. */
interface ItemEntry {
  readonly a: string;
  readonly b: string;
  readonly c: string;
  readonly value: string;
  next: ItemEntry | undefined;
}

/**
 * A table of a group's distinct items. Lookups go by a cheap number computed from a few characters
 * (a `Map` keyed by a fresh string would hash all of it, in the runtime, for every item of every
 * document) and then compare the parts; when a bucket chain grows long (crafted input), the table
 * switches to a `Map` keyed by the full text, so the cost stays linear.
 */
interface Table<E> {
  readonly buckets: Map<number, E>;
  exact: Map<string, E> | undefined;
  readonly all: E[];
}

/** Internal: the distinct findings and items of one group, shared by its members' documents. */
export interface FreshGroup {
  readonly findings: Table<KeyEntry>;
  readonly items: Table<ItemEntry>;
  serial: number;
}

const table = <E>(): Table<E> => ({ buckets: new Map(), exact: undefined, all: [] });

/** A group's empty tables (one per scored group). */
export function createFreshGroup(): FreshGroup {
  return { findings: table(), items: table(), serial: 0 };
}

/** Longest bucket chain walked before a table switches to exact keys. */
const MAX_CHAIN = 12;

/** A cheap, non-cryptographic bucket number of a string (length and a few characters). */
function bucketOf(text: string, seed: number): number {
  const n = text.length;
  if (n === 0) return seed;
  return (
    (Math.imul(n + seed, 0x9e3779b1) ^
      Math.imul(text.charCodeAt(n - 1), 0x85ebca6b) ^
      Math.imul(text.charCodeAt(n - 2) | 0, 0xc2b2ae35) ^
      Math.imul(text.charCodeAt(n >> 1), 0x27d4eb2f) ^
      text.charCodeAt(0)) &
    0x3fffffff
  );
}

/** Rebuilds a table keyed by the exact text (`keyOf`), chaining entries that share it. */
function toExact<E extends { next: E | undefined }>(t: Table<E>, keyOf: (e: E) => string): Map<string, E> {
  const exact = new Map<string, E>();
  for (const e of t.all) {
    const k = keyOf(e);
    e.next = exact.get(k);
    exact.set(k, e);
  }
  t.exact = exact;
  t.buckets.clear();
  return exact;
}

const findingText = (e: KeyEntry): string => e.evidence;
const itemText = (e: ItemEntry): string => e.value;

const HASH = 0x23;
const DASH = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const BACKSLASH = 0x5c;
const PIPE = 0x7c;
const L = 0x4c;

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * The normalised form of an evidence reference that is already normalised but for an optional span id:
 * `[span:]path#L<a>-L<b>` with no surrounding whitespace, canonical line numbers (no leading zero,
 * a <= b) and a path with no backslash, no leading `./`, no `//` and no `|`. Then the normal form is the
 * text after the span id, and no string is built. Anything else gives `undefined` (the full
 * normalisation decides).
 */
export function simpleEvidence(ref: string): string | undefined {
  const n = ref.length;
  if (n === 0 || ref.charCodeAt(0) <= 0x20 || ref.charCodeAt(n - 1) <= 0x20) return undefined;
  let start = 0;
  const colon = ref.indexOf(':');
  if (colon >= 0) {
    start = colon + 1;
    for (let i = 0; i < colon; i++) {
      const c = ref.charCodeAt(i);
      if (c === SLASH || c === DOT) {
        start = 0;
        break;
      }
    }
  }
  let at = n;
  while (at > start && isDigit(ref.charCodeAt(at - 1))) at--;
  const bStart = at;
  if (bStart === n || at - 2 < start || ref.charCodeAt(at - 1) !== L || ref.charCodeAt(at - 2) !== DASH) return undefined;
  at -= 2;
  const aEnd = at;
  while (at > start && isDigit(ref.charCodeAt(at - 1))) at--;
  const aStart = at;
  if (aStart === aEnd || at - 2 < start || ref.charCodeAt(at - 1) !== L || ref.charCodeAt(at - 2) !== HASH) return undefined;
  const aLength = aEnd - aStart;
  const bLength = n - bStart;
  if ((aLength > 1 && ref.charCodeAt(aStart) === 0x30) || (bLength > 1 && ref.charCodeAt(bStart) === 0x30)) return undefined;
  if (aLength > bLength) return undefined;
  if (aLength === bLength) {
    for (let i = 0; i < aLength; i++) {
      const ca = ref.charCodeAt(aStart + i);
      const cb = ref.charCodeAt(bStart + i);
      if (ca !== cb) {
        if (ca > cb) return undefined;
        break;
      }
    }
  }
  const pathEnd = at - 2;
  if (pathEnd === start) return undefined;
  if (ref.charCodeAt(start) === DOT && ref.charCodeAt(start + 1) === SLASH) return undefined;
  let previous = 0;
  for (let i = start; i < pathEnd; i++) {
    const c = ref.charCodeAt(i);
    if (c === BACKSLASH || c === PIPE || (c === SLASH && previous === SLASH)) return undefined;
    previous = c;
  }
  return start === 0 ? ref : ref.slice(start);
}

/** A list of well-formed, non-blank strings without `|` or `,` (a finding's `cve_ids`), or `false`. */
function okCveIds(value: unknown, limits: InputLimits): value is string[] {
  if (!Array.isArray(value) || 4 > limits.maxDepth || value.length > limits.maxListLength) return false;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (!okText(item, limits) || item.includes('|') || item.includes(',')) return false;
  }
  return true;
}

/** The group's entry for one finding (added, and hashed, when new), or `undefined` if the finding is invalid. */
function findingEntry(value: unknown, limits: InputLimits, group: FreshGroup): KeyEntry | undefined {
  if (!isPlainObject(value)) return undefined;
  if (!(unknownKeys(value, FINDING_KEYS, 3, limits) !== false)) return undefined;
  const { id, category, severity, description, evidence_ref: ref, cve_ids: ids, target_pattern: target } = value;
  if (!okString(id, limits) || !okString(description, limits) || !okText(target, limits)) return undefined;
  if (!okText(category, limits) || category.includes('|')) return undefined;
  if (!okString(severity, limits)) return undefined;
  const severityKey = foldLower(severity);
  if (severityKey !== 'high' && severityKey !== 'medium' && severityKey !== 'low' && severityKey !== 'critical') return undefined;
  if (!okString(ref, limits)) return undefined;
  let evidence = simpleEvidence(ref);
  if (evidence === undefined) {
    const normalised = tryNormaliseEvidenceRef(ref);
    if (!normalised.ok || normalised.value.includes('|')) return undefined;
    evidence = normalised.value;
  }
  if (!okCveIds(ids, limits)) return undefined;
  const categoryKey = foldLower(category);
  const cves = cveField(ids);
  const targetKey = asciiTrim(target);
  const findings = group.findings;
  const bucket = findings.exact === undefined ? bucketOf(evidence, cves.length) : 0;
  let first = findings.exact === undefined ? findings.buckets.get(bucket) : findings.exact.get(evidence);
  let steps = 0;
  for (let entry = first; entry !== undefined; entry = entry.next) {
    if (entry.evidence === evidence && entry.category === categoryKey && entry.severity === severityKey && entry.cves === cves && entry.target === targetKey) {
      return entry;
    }
    steps++;
  }
  if (steps > MAX_CHAIN) first = toExact(findings, findingText).get(evidence);
  const preimage = `${categoryKey}|${severityKey}|${evidence}|${cves}|${targetKey}`;
  const entry: KeyEntry = {
    category: categoryKey,
    severity: severityKey,
    evidence,
    cves,
    target: targetKey,
    preimage,
    key: sha256Hex(preimage),
    next: first,
    seenBy: 0,
  };
  findings.all.push(entry);
  if (findings.exact === undefined) findings.buckets.set(bucket, entry);
  else findings.exact.set(evidence, entry);
  return entry;
}

/** The encoded form of an item: a capability is its text, a dependency two parts, a CVE or rule three. */
function encodeItem(a: string, b: string, c: string): string {
  return c !== '' ? encode3(a, b, c) : b !== '' ? encode2(a, b) : a;
}

/**
 * The group's one copy of an item of up to three non-blank parts (a capability `a`; a dependency `a, b`;
 * a CVE or rule `a, b, c`), encoded when first seen. Equal items of different documents get the very same
 * string, so scoring's tally finds them by a hash computed once. The parts decide the encoding, so two
 * items with the same parts always have the same encoded form.
 */
function internItem(group: FreshGroup, a: string, b = '', c = ''): string {
  const items = group.items;
  const exact = items.exact;
  let value: string | undefined;
  let first: ItemEntry | undefined;
  let bucket = 0;
  if (exact === undefined) {
    bucket = bucketOf(a, 1) ^ bucketOf(b, 2) ^ bucketOf(c, 3);
    first = items.buckets.get(bucket);
  } else {
    value = encodeItem(a, b, c);
    first = exact.get(value);
  }
  let steps = 0;
  for (let entry = first; entry !== undefined; entry = entry.next) {
    if (entry.a === a && entry.b === b && entry.c === c) return entry.value;
    steps++;
  }
  value ??= encodeItem(a, b, c);
  if (steps > MAX_CHAIN) first = toExact(items, itemText).get(value);
  const entry: ItemEntry = { a, b, c, value, next: first };
  items.all.push(entry);
  if (items.exact === undefined) items.buckets.set(bucket, entry);
  else items.exact.set(value, entry);
  return value;
}

/**
 * Appends `item` unless `list` has it: a scan for the short lists of a document, a set beyond (returned,
 * to pass back on the next call). Items are the group's interned strings, so a scan mostly compares
 * pointers.
 */
function addDistinct(list: string[], seen: Set<string> | undefined, item: string): Set<string> | undefined {
  if (seen === undefined) {
    if (list.length < 16) {
      if (!list.includes(item)) list.push(item);
      return undefined;
    }
    seen = new Set(list);
  }
  if (!seen.has(item)) {
    seen.add(item);
    list.push(item);
  }
  return seen;
}

const byKey = (a: KeyEntry, b: KeyEntry): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * The sets of a raw document, or `undefined` when it is invalid (or the limits are too small for the
 * hot path): then the caller validates it the general way, which names the field.
 *
 * @param input - untrusted value
 * @param limits - complete input limits
 * @param group - the finding table of the group being scored
 */
export function freshDocumentSets(input: unknown, limits: InputLimits, group: FreshGroup): DocumentSets | undefined {
  if (4 > limits.maxDepth || !isPlainObject(input)) return undefined;
  if (!(unknownKeys(input, DOCUMENT_KEYS, 1, limits) !== false)) return undefined;
  const { verdict, risk_score: risk, findings, capabilities, dependencies, policy } = input;
  if (verdict !== 'ALLOW' && verdict !== 'BLOCK' && verdict !== 'REVIEW') return undefined;
  if (typeof risk !== 'number' || !(risk >= 0 && risk <= 1)) return undefined;
  if (Object.hasOwn(input, 'schema_version') && !okText(input.schema_version, limits)) return undefined;
  if (Object.hasOwn(input, 'skill')) {
    const skill = input.skill;
    if (!isPlainObject(skill) || !okJson(skill, 2, limits)) return undefined;
  }
  if (Object.hasOwn(input, 'signature')) {
    const signature = input.signature;
    if (typeof signature === 'string') {
      if (!okString(signature, limits)) return undefined;
    } else if (!isPlainObject(signature) || !okJson(signature, 2, limits)) return undefined;
  }

  if (!Array.isArray(findings) || findings.length > limits.maxListLength) return undefined;
  const serial = ++group.serial;
  const entries: KeyEntry[] = [];
  for (let i = 0; i < findings.length; i++) {
    const entry = findingEntry(findings[i], limits, group);
    if (entry === undefined) return undefined;
    if (entry.seenBy === serial) continue;
    entry.seenBy = serial;
    entries.push(entry);
  }

  if (!Array.isArray(capabilities) || capabilities.length > limits.maxListLength) return undefined;
  const capabilityList: string[] = [];
  let seenCapabilities: Set<string> | undefined;
  for (let i = 0; i < capabilities.length; i++) {
    const capability: unknown = capabilities[i];
    if (!okText(capability, limits)) return undefined;
    seenCapabilities = addDistinct(capabilityList, seenCapabilities, internItem(group, foldLower(capability)));
  }

  if (!Array.isArray(dependencies) || dependencies.length > limits.maxListLength) return undefined;
  const dependencyList: string[] = [];
  const cveList: string[] = [];
  let seenDependencies: Set<string> | undefined;
  let seenCves: Set<string> | undefined;
  for (let i = 0; i < dependencies.length; i++) {
    const dependency: unknown = dependencies[i];
    if (!isPlainObject(dependency) || unknownKeys(dependency, DEPENDENCY_KEYS, 3, limits) === false) return undefined;
    const { package: name, version, cves } = dependency;
    if (!okText(name, limits) || !okText(version, limits)) return undefined;
    if (!Array.isArray(cves) || cves.length > limits.maxListLength) return undefined;
    for (let c = 0; c < cves.length; c++) if (!okText(cves[c], limits)) return undefined;
    const nameKey = foldLower(name);
    const versionKey = asciiTrim(version);
    seenDependencies = addDistinct(dependencyList, seenDependencies, internItem(group, nameKey, versionKey));
    for (let c = 0; c < cves.length; c++) {
      seenCves = addDistinct(cveList, seenCves, internItem(group, nameKey, versionKey, asciiUpper(asciiTrim(cves[c] as string))));
    }
  }

  if (!isPlainObject(policy) || unknownKeys(policy, POLICY_KEYS, 2, limits) === false) return undefined;
  const rules = policy.rules;
  if (!Array.isArray(rules) || rules.length > limits.maxListLength) return undefined;
  const ruleList: string[] = [];
  let seenRules: Set<string> | undefined;
  for (let i = 0; i < rules.length; i++) {
    const rule: unknown = rules[i];
    if (!isPlainObject(rule) || unknownKeys(rule, RULE_KEYS, 4, limits) === false) return undefined;
    const { resource, action, pattern } = rule;
    if (!okText(resource, limits) || !okText(action, limits) || !okText(pattern, limits)) return undefined;
    seenRules = addDistinct(ruleList, seenRules, internItem(group, foldLower(resource), foldLower(action), asciiTrim(pattern)));
  }

  entries.sort(byKey);
  const keys = new Array<string>(entries.length);
  const preimages = new Array<string>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as KeyEntry;
    keys[i] = entry.key;
    preimages[i] = entry.preimage;
  }
  return Object.freeze({
    verdict: verdict,
    risk,
    keys: Object.freeze(keys),
    preimages: Object.freeze(preimages),
    capabilities: Object.freeze(capabilityList),
    dependencies: Object.freeze(dependencyList),
    cves: Object.freeze(cveList),
    rules: Object.freeze(ruleList),
  });
}
