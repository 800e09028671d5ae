import type { InputLimits } from '@subnet/core';
import { asciiLower, asciiTrim, asciiUpper } from '@subnet/core';

import { sha256Hex } from '#hash';

import type { DocumentSets } from './document-sets.js';
import { encode2, encode3 } from './document-sets.js';
import { tryNormaliseEvidenceRef } from './evidence-ref.js';
import { DEPENDENCY_KEYS, DOCUMENT_KEYS, FINDING_KEYS, isPlainObject, okJson, okString, POLICY_KEYS, RULE_KEYS, unknownKeys } from './fast-sssa.js';
import { cveField } from './finding-key.js';
import { compareKeys, keyPrefix } from './key-order.js';
import { isWellFormed } from './text-rules.js';

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
 * and item of the group once, so each distinct preimage is built and hashed once per group. A finding
 * that another member already reported, spelled the same but for its span id, is recognised by comparing
 * its raw fields with the remembered ones (native string comparisons) instead of normalising, folding and
 * trimming them again: a raw field equal to a remembered normal form is valid and is its own normal form.
 * Any other spelling takes the full checks.
 */

/** One distinct finding of the group: its key fields, preimage and key. */
interface KeyEntry {
  /** Its index in the table (and in `FreshGroup.keys` / `preimages`). */
  readonly id: number;
  readonly category: string;
  readonly severity: string;
  readonly evidence: string;
  readonly cves: string;
  readonly target: string;
  readonly preimage: string;
  readonly key: string;
  /** The key's first eight hex digits as a number ({@link keyPrefix}): sorting compares it first. */
  readonly order: number;
  /** `cves` is one CVE id (not empty, no `,`): a raw list of exactly that id has this field. */
  readonly oneCve: boolean;
  /** `evidence` normalises to itself (no `:`, no ASCII whitespace or control character at either end). */
  readonly selfNormal: boolean;
  /** The next entry of the same bucket (none in exact mode: each exact key, a whole preimage, is one finding's). */
  next: KeyEntry | undefined;
  /** The serial of the last document that reported it (a document counts a finding once). */
  seenBy: number;
}

/** One distinct capability, dependency, CVE or rule of the group: its parts and its encoded form. */
interface ItemEntry {
  /** Its index in the table (and in the table's `values`). */
  readonly id: number;
  readonly a: string;
  readonly b: string;
  readonly c: string;
  readonly value: string;
  next: ItemEntry | undefined;
  /** The serial of the last document that reported it. */
  seenBy: number;
}

/**
 * A table of a group's distinct items. Lookups go by a cheap number computed from a few characters
 * (a `Map` keyed by a fresh string would hash all of it, in the runtime, for every item of every
 * document) and then compare the parts; when a bucket chain grows long (crafted input), the table
 * switches to a `Map` keyed by the full text (an item's encoded form, a finding's whole preimage: one entry a
 * key), so the cost stays linear.
 */
interface Table<E> {
  readonly buckets: Map<number, E>;
  exact: Map<string, E> | undefined;
  readonly all: E[];
  /** The encoded form (for findings: the key) of each entry, by id. */
  readonly values: string[];
  /**
   * The id of the entry a document's next item of this kind is compared with first: the one added right
   * after the entry of its previous item (members mostly list what they share in the same order; the
   * first entry at the start of a document). A hit costs no bucket number and no lookup.
   */
  hint: number;
}

/** Internal: a document's items as ids of its group's tables, aligned with the lists of its {@link DocumentSets}. */
export interface FreshIds {
  readonly keys: readonly number[];
  readonly capabilities: readonly number[];
  readonly dependencies: readonly number[];
  readonly cves: readonly number[];
  readonly rules: readonly number[];
}

/**
 * Internal: the distinct findings and items of one group, shared by its members' documents. Items are
 * kept per kind, so a raw item equal to a remembered one is known to be valid by that kind's rules.
 */
export interface FreshGroup {
  readonly findings: Table<KeyEntry>;
  /** The preimage of each finding, by id. */
  readonly preimages: string[];
  /** The {@link keyPrefix} of each finding's key, by id (scoring sorts the group's keys by it). */
  readonly orders: number[];
  readonly capabilities: Table<ItemEntry>;
  readonly dependencies: Table<ItemEntry>;
  readonly cves: Table<ItemEntry>;
  /** The id of each CVE's dependency in `dependencies`, by CVE id. */
  readonly cveDependency: number[];
  readonly rules: Table<ItemEntry>;
  /** The ids of every document whose sets this group returned, so scoring can count by id. */
  readonly documents: Map<DocumentSets, FreshIds>;
  serial: number;
}

const table = <E>(): Table<E> => ({ buckets: new Map(), exact: undefined, all: [], values: [], hint: 0 });

/** A group's empty tables (one per scored group). */
export function createFreshGroup(): FreshGroup {
  return {
    findings: table(),
    preimages: [],
    orders: [],
    capabilities: table(),
    dependencies: table(),
    cves: table(),
    cveDependency: [],
    rules: table(),
    documents: new Map(),
    serial: 0,
  };
}

/** Longest bucket chain walked before a table switches to exact keys. */
const MAX_CHAIN = 12;

/** The longest key the validator knows (`schema_version`, `target_pattern`): shorter string limits take the general key check. */
const LONGEST_KNOWN_KEY = 14;

/** How many characters at the end of a text {@link bucketAt} mixes, one by one. */
const MIXED_TAIL = 16;

/**
 * A cheap, non-cryptographic bucket number of `text.slice(start)`, without slicing: its length, first and
 * middle characters, and each of its last {@link MIXED_TAIL} characters. The tail is where the texts of one
 * group differ most: the references of findings in one file differ only in their line numbers. (Five
 * characters were read before; references whose line ranges ended in the same digit then shared a bucket,
 * and a group of 100 distinct findings walked 4 entries for each lookup.)
 */
function bucketAt(text: string, start: number, seed: number): number {
  const end = text.length;
  const n = end - start;
  if (n <= 0) return seed;
  let h = Math.imul(n + seed, 0x9e3779b1) ^ text.charCodeAt(start) ^ Math.imul(text.charCodeAt(start + (n >> 1)), 0x27d4eb2f);
  for (let i = n > MIXED_TAIL ? end - MIXED_TAIL : start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 15)) & 0x3fffffff;
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

/**
 * A finding's exact key: its whole preimage, which names one finding (only the target, its last field, may hold
 * `|`). Keyed by the reference alone, crafted findings at one reference that differ in another field chained up
 * behind one key, and each new one walked the chain and rebuilt the table: quadratic.
 */
const findingText = (e: KeyEntry): string => e.preimage;
const itemText = (e: ItemEntry): string => e.value;

const HASH = 0x23;
const DASH = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const L = 0x4c;
const COLON = 0x3a;

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** ASCII whitespace of SPEC 0 (U+0009 to U+000D and U+0020). */
const isSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/**
 * The normalised form of an evidence reference that is already normalised but for an optional span id:
 * `[span:]path#L<a>-L<b>` with no surrounding whitespace, canonical line numbers (no leading zero,
 * a <= b) and a path with no backslash, no leading `./`, no `//` and no `|`. Then the normal form is the
 * text after the span id, and no string is built. Anything else gives `undefined` (the full
 * normalisation decides).
 */
export function simpleEvidence(ref: string): string | undefined {
  const start = simpleEvidenceStart(ref);
  return start < 0 ? undefined : start === 0 ? ref : ref.slice(start);
}

/** Where the normal form of `ref` starts when {@link simpleEvidence} applies, else -1. */
function simpleEvidenceStart(ref: string): number {
  const n = ref.length;
  if (n === 0 || ref.charCodeAt(0) <= 0x20 || ref.charCodeAt(n - 1) <= 0x20) return -1;
  let start = 0;
  const colon = ref.indexOf(':');
  if (colon >= 0) start = spanOfEvidence(ref, colon, false) ? colon + 1 : 0;
  let at = n;
  while (at > start && isDigit(ref.charCodeAt(at - 1))) at--;
  const bStart = at;
  if (bStart === n || at - 2 < start || ref.charCodeAt(at - 1) !== L || ref.charCodeAt(at - 2) !== DASH) return -1;
  at -= 2;
  const aEnd = at;
  while (at > start && isDigit(ref.charCodeAt(at - 1))) at--;
  const aStart = at;
  if (aStart === aEnd || at - 2 < start || ref.charCodeAt(at - 1) !== L || ref.charCodeAt(at - 2) !== HASH) return -1;
  const aLength = aEnd - aStart;
  const bLength = n - bStart;
  if ((aLength > 1 && ref.charCodeAt(aStart) === 0x30) || (bLength > 1 && ref.charCodeAt(bStart) === 0x30)) return -1;
  if (aLength > bLength) return -1;
  if (aLength === bLength) {
    for (let i = 0; i < aLength; i++) {
      const ca = ref.charCodeAt(aStart + i);
      const cb = ref.charCodeAt(bStart + i);
      if (ca !== cb) {
        if (ca > cb) return -1;
        break;
      }
    }
  }
  const pathEnd = at - 2;
  if (pathEnd === start) return -1;
  if (ref.charCodeAt(start) === DOT && ref.charCodeAt(start + 1) === SLASH) return -1;
  // The range after the path holds none of these characters: native scans to the end say the same.
  if (ref.includes('|', start) || ref.includes('\\', start) || ref.includes('//', start)) return -1;
  return start;
}

/**
 * The normal form of a well-formed evidence reference, or `undefined` when it has none or holds `|`.
 */
function evidenceOf(ref: string): string | undefined {
  const start = simpleEvidenceStart(ref);
  if (start >= 0) return start === 0 ? ref : ref.slice(start);
  const normalised = tryNormaliseEvidenceRef(ref);
  return normalised.ok && !normalised.value.includes('|') ? normalised.value : undefined;
}

/**
 * Whether `ref` normalises to `evidence`, a normal form whose entry says whether it normalises to itself,
 * knowing that `ref` ends with it right after its first `:` (or is it, when `colon` is -1). With a `:`,
 * the text before it is a span id when it holds no `/` and no `.`: it is dropped, and what is left is
 * already normal (normalising a normal form again changes nothing after the span step;
 * `fresh-sets.test.ts` checks it).
 */
function spanOfEvidence(ref: string, colon: number, selfNormal: boolean): boolean {
  if (colon < 0) return selfNormal;
  const slash = ref.indexOf('/');
  if (slash >= 0 && slash < colon) return false;
  const dot = ref.indexOf('.');
  return dot < 0 || dot > colon;
}

/** `text` ASCII-trimmed when it is a well-formed string within limits and not blank once trimmed, else `undefined`. */
function trimmedText(text: unknown, max: number): string | undefined {
  if (typeof text !== 'string' || text.length > max || !isWellFormed(text)) return undefined;
  const n = text.length;
  if (n > 0 && !isSpace(text.charCodeAt(0)) && !isSpace(text.charCodeAt(n - 1))) return text;
  const trimmed = asciiTrim(text);
  return trimmed === '' ? undefined : trimmed;
}

/** ASCII lowercase of trimmed text: itself unless it holds `A`-`Z` (no regular expression on the common path). */
function lowered(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return asciiLower(text);
  }
  return text;
}

/** ASCII uppercase of trimmed text: itself unless it holds `a`-`z`. */
function uppered(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) return asciiUpper(text);
  }
  return text;
}

/** Trimmed and lowercased non-blank text (a capability, package, resource or action), or `undefined`. */
function lowerText(text: unknown, max: number): string | undefined {
  const trimmed = trimmedText(text, max);
  return trimmed === undefined ? undefined : lowered(trimmed);
}

/** A finding's category key (trimmed, lowercased, no `|`), or `undefined`. */
function categoryKeyOf(category: string, max: number): string | undefined {
  const trimmed = trimmedText(category, max);
  return trimmed === undefined || trimmed.includes('|') ? undefined : lowered(trimmed);
}

/** A finding's severity key, or `undefined` when it is not one of the four once trimmed and lowercased. */
function severityKeyOf(severity: string, max: number): string | undefined {
  switch (severity) {
    case 'high':
      return severity.length <= max ? 'high' : undefined;
    case 'medium':
      return severity.length <= max ? 'medium' : undefined;
    case 'low':
      return severity.length <= max ? 'low' : undefined;
    case 'critical':
      return severity.length <= max ? 'critical' : undefined;
  }
  const key = lowerText(severity, max);
  return key === 'high' || key === 'medium' || key === 'low' || key === 'critical' ? key : undefined;
}

/** The CVE field of a finding's `cve_ids` (a list within limits), or `undefined` when an id is invalid. */
function cveKeyOf(ids: readonly unknown[], max: number, like: KeyEntry | undefined): string | undefined {
  if (ids.length === 0) return '';
  if (ids.length === 1) {
    const only = ids[0];
    if (like !== undefined && like.oneCve && only === like.cves) return like.cves;
    const trimmed = trimmedText(only, max);
    return trimmed === undefined || trimmed.includes('|') || trimmed.includes(',') ? undefined : uppered(trimmed);
  }
  for (let i = 0; i < ids.length; i++) {
    const trimmed = trimmedText(ids[i], max);
    if (trimmed === undefined || trimmed.includes('|') || trimmed.includes(',')) return undefined;
  }
  return cveField(ids as string[]);
}

/**
 * Whether every key `for…in` visits (own or inherited enumerable, so never fewer than `Object.keys`) is a
 * key of a finding, and at most `maxKeys` of them: then the general key check has nothing to add. Any other
 * answer sends the object to that check. The next four do the same for the other objects of a document.
 */
function onlyFindingKeys(value: object, maxKeys: number): boolean {
  let count = 0;
  for (const key in value) {
    switch (key) {
      case 'id':
      case 'category':
      case 'severity':
      case 'description':
      case 'evidence_ref':
      case 'cve_ids':
      case 'target_pattern':
        count++;
        break;
      default:
        return false;
    }
  }
  return count <= maxKeys;
}

function onlyDocumentKeys(value: object, maxKeys: number): boolean {
  let count = 0;
  for (const key in value) {
    switch (key) {
      case 'schema_version':
      case 'skill':
      case 'signature':
      case 'verdict':
      case 'risk_score':
      case 'findings':
      case 'capabilities':
      case 'dependencies':
      case 'policy':
        count++;
        break;
      default:
        return false;
    }
  }
  return count <= maxKeys;
}

function onlyDependencyKeys(value: object, maxKeys: number): boolean {
  let count = 0;
  for (const key in value) {
    if (key !== 'package' && key !== 'version' && key !== 'cves') return false;
    count++;
  }
  return count <= maxKeys;
}

function onlyRuleKeys(value: object, maxKeys: number): boolean {
  let count = 0;
  for (const key in value) {
    if (key !== 'resource' && key !== 'action' && key !== 'pattern') return false;
    count++;
  }
  return count <= maxKeys;
}

function onlyPolicyKeys(value: object, maxKeys: number): boolean {
  let count = 0;
  for (const key in value) {
    if (key !== 'rules') return false;
    count++;
  }
  return count <= maxKeys;
}

/**
 * The keys of an object are acceptable: only known keys within the limits (checked without building the
 * key list), or else the general check of every unknown key and its value.
 */
function keysOk(
  value: Record<string, unknown>,
  only: (value: object, maxKeys: number) => boolean,
  known: ReadonlySet<string>,
  level: number,
  limits: InputLimits,
): boolean {
  return (limits.maxStringLength >= LONGEST_KNOWN_KEY && only(value, limits.maxObjectKeys)) || unknownKeys(value, known, level, limits) !== false;
}

/**
 * The first entry of the evidence's chain whose evidence `ref` normalises to, found without normalising
 * `ref`; `hint` (an entry or `undefined`) is compared first.
 */
function sameEvidence(findings: Table<KeyEntry>, ref: string, hint: KeyEntry | undefined): KeyEntry | undefined {
  // One scan to the first ':' also tells whether the text before it can be a span id (no '/', no '.'),
  // as `spanOfEvidence` decides with two more scans.
  let colon = -1;
  let spanId = true;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c === COLON) {
      colon = i;
      break;
    }
    if (c === SLASH || c === DOT) spanId = false;
  }
  const start = colon + 1;
  const n = ref.length - start;
  if (n === 0) return undefined;
  // The same test as in the chain below, for the expected entry: a hit costs no bucket number and no lookup.
  if (hint !== undefined && hint.evidence.length === n && ref.endsWith(hint.evidence)) return (colon < 0 ? hint.selfNormal : spanId) ? hint : undefined;
  for (let entry = findings.buckets.get(bucketAt(ref, start, 0)); entry !== undefined; entry = entry.next) {
    const evidence = entry.evidence;
    if (evidence.length === n && ref.endsWith(evidence)) return (colon < 0 ? entry.selfNormal : spanId) ? entry : undefined;
  }
  return undefined;
}

/** Adds a new distinct finding to the group (building and hashing its preimage once; `known`: the preimage, when built). */
function addFinding(
  group: FreshGroup,
  first: KeyEntry | undefined,
  bucket: number,
  evidence: string,
  category: string,
  severity: string,
  cves: string,
  target: string,
  known?: string,
): KeyEntry {
  const findings = group.findings;
  // A template literal, not `[...].join('|')`: join flattens at once but costs more than the cons chain
  // it saves (profiled: a fifth of the time of adding a finding).
  const preimage = known ?? `${category}|${severity}|${evidence}|${cves}|${target}`;
  const last = evidence.length - 1;
  const key = sha256Hex(preimage);
  const entry: KeyEntry = {
    id: findings.all.length,
    category,
    severity,
    evidence,
    cves,
    target,
    preimage,
    key,
    order: keyPrefix(key),
    oneCve: cves !== '' && !cves.includes(','),
    selfNormal: evidence.charCodeAt(0) > 0x20 && evidence.charCodeAt(last) > 0x20 && !evidence.includes(':'),
    next: first,
    seenBy: 0,
  };
  findings.all.push(entry);
  findings.values.push(entry.key);
  group.preimages.push(preimage);
  group.orders.push(entry.order);
  if (findings.exact === undefined) findings.buckets.set(bucket, entry);
  else findings.exact.set(preimage, entry);
  return entry;
}

/**
 * The group's entry for one finding (added, and hashed, when new), or `undefined` if the finding is invalid.
 * `shared`: an earlier document of the group added findings, so this one may be spelled as one of theirs.
 */
function findingEntry(value: unknown, limits: InputLimits, group: FreshGroup, shared: boolean): KeyEntry | undefined {
  if (!isPlainObject(value) || !keysOk(value, onlyFindingKeys, FINDING_KEYS, 3, limits)) return undefined;
  const { id, category, severity, description, evidence_ref: ref, cve_ids: ids, target_pattern: target } = value;
  const max = limits.maxStringLength;
  if (!okString(id, limits) || !okString(description, limits) || !okString(ref, limits)) return undefined;
  if (typeof category !== 'string' || typeof severity !== 'string' || typeof target !== 'string') return undefined;
  if (!Array.isArray(ids) || ids.length > limits.maxListLength) return undefined;
  const findings = group.findings;
  // A finding another member reported: its evidence and, mostly, every other key field are spelled alike. The
  // group's first document has no other member's findings to look among (its own repeats are found below).
  const like = shared && findings.exact === undefined ? sameEvidence(findings, ref, findings.all[findings.hint]) : undefined;
  const evidence = like !== undefined ? like.evidence : evidenceOf(ref);
  if (evidence === undefined) return undefined;
  const categoryKey = like !== undefined && category === like.category && category.length <= max ? like.category : categoryKeyOf(category, max);
  if (categoryKey === undefined) return undefined;
  const severityKey = like !== undefined && severity === like.severity && severity.length <= max ? like.severity : severityKeyOf(severity, max);
  if (severityKey === undefined) return undefined;
  const targetKey = like !== undefined && target === like.target && target.length <= max ? like.target : trimmedText(target, max);
  if (targetKey === undefined) return undefined;
  const cves = cveKeyOf(ids, max, like);
  if (cves === undefined) return undefined;

  if (like !== undefined && like.category === categoryKey && like.severity === severityKey && like.cves === cves && like.target === targetKey) return like;
  if (findings.exact !== undefined) {
    // Crafted input only: the whole preimage is the key, and names at most one entry.
    const preimage = `${categoryKey}|${severityKey}|${evidence}|${cves}|${targetKey}`;
    return findings.exact.get(preimage) ?? addFinding(group, undefined, 0, evidence, categoryKey, severityKey, cves, targetKey, preimage);
  }
  const bucket = bucketAt(evidence, 0, 0);
  const first = findings.buckets.get(bucket);
  let steps = 0;
  for (let entry = first; entry !== undefined; entry = entry.next) {
    if (entry.evidence === evidence && entry.category === categoryKey && entry.severity === severityKey && entry.cves === cves && entry.target === targetKey) {
      return entry;
    }
    steps++;
  }
  if (steps > MAX_CHAIN) {
    toExact(findings, findingText);
    return addFinding(group, undefined, bucket, evidence, categoryKey, severityKey, cves, targetKey);
  }
  return addFinding(group, first, bucket, evidence, categoryKey, severityKey, cves, targetKey);
}

/** The encoded form of an item: a capability is its text, a dependency two parts, a CVE or rule three. */
function encodeItem(a: string, b: string, c: string): string {
  return c !== '' ? encode3(a, b, c) : b !== '' ? encode2(a, b) : a;
}

/** The item of `items` whose parts are `a`, `b`, `c` exactly (the raw text of a document), or `undefined`. */
function sameItem(items: Table<ItemEntry>, a: string, b: string, c: string): ItemEntry | undefined {
  if (items.exact !== undefined) return undefined;
  const hint = items.all[items.hint];
  if (hint !== undefined && hint.a === a && hint.b === b && hint.c === c) {
    items.hint = hint.id + 1;
    return hint;
  }
  for (let entry = items.buckets.get(bucketAt(a, 0, 1) ^ bucketAt(b, 0, 2) ^ bucketAt(c, 0, 3)); entry !== undefined; entry = entry.next) {
    if (entry.a === a && entry.b === b && entry.c === c) {
      items.hint = entry.id + 1;
      return entry;
    }
  }
  return undefined;
}

/**
 * The group's one copy of an item of up to three non-blank parts, already in normal form (a capability
 * `a`; a dependency `a, b`; a CVE or rule `a, b, c`), encoded when first seen. Equal items of different
 * documents get the very same string, so scoring's tally finds them by a hash computed once. The parts
 * decide the encoding, so two items with the same parts always have the same encoded form.
 */
function internItem(items: Table<ItemEntry>, a: string, b = '', c = ''): ItemEntry {
  const exact = items.exact;
  let value: string | undefined;
  let first: ItemEntry | undefined;
  let bucket = 0;
  if (exact === undefined) {
    bucket = bucketAt(a, 0, 1) ^ bucketAt(b, 0, 2) ^ bucketAt(c, 0, 3);
    first = items.buckets.get(bucket);
  } else {
    value = encodeItem(a, b, c);
    first = exact.get(value);
  }
  let steps = 0;
  for (let entry = first; entry !== undefined; entry = entry.next) {
    if (entry.a === a && entry.b === b && entry.c === c) {
      items.hint = entry.id + 1;
      return entry;
    }
    steps++;
  }
  value ??= encodeItem(a, b, c);
  if (steps > MAX_CHAIN) first = toExact(items, itemText).get(value);
  const entry: ItemEntry = { id: items.all.length, a, b, c, value, next: first, seenBy: 0 };
  items.all.push(entry);
  items.values.push(value);
  if (items.exact === undefined) items.buckets.set(bucket, entry);
  else items.exact.set(value, entry);
  items.hint = entry.id + 1;
  return entry;
}

/**
 * Appends an item to a document's lists unless the document already reported it (each list holds
 * distinct items, in first-seen order).
 */
function addItem(entry: ItemEntry, serial: number, list: string[], ids: number[]): void {
  if (entry.seenBy === serial) return;
  entry.seenBy = serial;
  list.push(entry.value);
  ids.push(entry.id);
}

const keyOf = (e: KeyEntry): string => e.key;
const preimageOf = (e: KeyEntry): string => e.preimage;
const idOf = (e: KeyEntry): number => e.id;

const byKey = (a: KeyEntry, b: KeyEntry): number => compareKeys(a.order, a.key, b.order, b.key);

/** Sorts entries by key (code units, as `Array.prototype.sort` orders strings): insertion sort for a document's few findings. */
function sortByKey(entries: KeyEntry[]): void {
  if (entries.length > 48) {
    entries.sort(byKey);
    return;
  }
  for (let i = 1; i < entries.length; i++) {
    const entry = entries[i] as KeyEntry;
    let j = i - 1;
    while (j >= 0 && byKey(entries[j] as KeyEntry, entry) > 0) {
      entries[j + 1] = entries[j] as KeyEntry;
      j--;
    }
    entries[j + 1] = entry;
  }
}

/** The group's entry for a raw capability, or `undefined` when invalid. */
function capabilityItem(group: FreshGroup, raw: unknown, max: number): ItemEntry | undefined {
  if (typeof raw !== 'string' || raw.length > max) return undefined;
  const known = sameItem(group.capabilities, raw, '', '');
  if (known !== undefined) return known;
  const key = lowerText(raw, max);
  return key === undefined ? undefined : internItem(group.capabilities, key);
}

/** The group's entry for a raw policy rule (an object within limits), or `undefined` when invalid. */
function ruleItem(group: FreshGroup, rule: Record<string, unknown>, max: number): ItemEntry | undefined {
  const { resource, action, pattern } = rule;
  if (typeof resource !== 'string' || typeof action !== 'string' || typeof pattern !== 'string') return undefined;
  if (resource.length > max || action.length > max || pattern.length > max) return undefined;
  const known = sameItem(group.rules, resource, action, pattern);
  if (known !== undefined) return known;
  const resourceKey = lowerText(resource, max);
  const actionKey = lowerText(action, max);
  const patternKey = trimmedText(pattern, max);
  if (resourceKey === undefined || actionKey === undefined || patternKey === undefined) return undefined;
  return internItem(group.rules, resourceKey, actionKey, patternKey);
}

/**
 * The sets of a raw document, or `undefined` when it is invalid (or the limits are too small for the
 * hot path): then the caller validates it the general way, which names the field.
 *
 * @param input - untrusted value
 * @param limits - complete input limits
 * @param group - the finding table of the group being scored
 */
export function freshDocumentSets(input: unknown, limits: InputLimits, group: FreshGroup): DocumentSets | undefined {
  if (4 > limits.maxDepth || !isPlainObject(input) || !keysOk(input, onlyDocumentKeys, DOCUMENT_KEYS, 1, limits)) return undefined;
  const { verdict, risk_score: risk, findings, capabilities, dependencies, policy } = input;
  if (verdict !== 'ALLOW' && verdict !== 'BLOCK' && verdict !== 'REVIEW') return undefined;
  if (typeof risk !== 'number' || !(risk >= 0 && risk <= 1)) return undefined;
  const max = limits.maxStringLength;
  if (Object.hasOwn(input, 'schema_version') && trimmedText(input.schema_version, max) === undefined) return undefined;
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
  // Sized once (a document of 20 findings grown by push was copied from 16 slots to 40); cut to the
  // findings it holds once they are read.
  const entries: KeyEntry[] = new Array<KeyEntry>(findings.length);
  let count = 0;
  group.findings.hint = 0;
  group.capabilities.hint = 0;
  group.dependencies.hint = 0;
  group.cves.hint = 0;
  group.rules.hint = 0;
  const shared = group.findings.all.length > 0;
  for (let i = 0; i < findings.length; i++) {
    const entry = findingEntry(findings[i], limits, group, shared);
    if (entry === undefined) return undefined;
    group.findings.hint = entry.id + 1;
    if (entry.seenBy === serial) continue;
    entry.seenBy = serial;
    entries[count++] = entry;
  }
  entries.length = count;

  if (!Array.isArray(capabilities) || capabilities.length > limits.maxListLength) return undefined;
  const capabilityList: string[] = [];
  const capabilityIds: number[] = [];
  for (let i = 0; i < capabilities.length; i++) {
    const capability = capabilityItem(group, capabilities[i], max);
    if (capability === undefined) return undefined;
    addItem(capability, serial, capabilityList, capabilityIds);
  }

  if (!Array.isArray(dependencies) || dependencies.length > limits.maxListLength) return undefined;
  const dependencyList: string[] = [];
  const dependencyIds: number[] = [];
  const cveList: string[] = [];
  const cveIds: number[] = [];
  for (let i = 0; i < dependencies.length; i++) {
    const dependency: unknown = dependencies[i];
    if (!isPlainObject(dependency) || !keysOk(dependency, onlyDependencyKeys, DEPENDENCY_KEYS, 3, limits)) return undefined;
    const { package: name, version, cves } = dependency;
    if (typeof name !== 'string' || typeof version !== 'string' || name.length > max || version.length > max) return undefined;
    if (!Array.isArray(cves) || cves.length > limits.maxListLength) return undefined;
    let entry = sameItem(group.dependencies, name, version, '');
    if (entry === undefined) {
      const nameKey = lowerText(name, max);
      const versionKey = trimmedText(version, max);
      if (nameKey === undefined || versionKey === undefined) return undefined;
      entry = internItem(group.dependencies, nameKey, versionKey);
    }
    addItem(entry, serial, dependencyList, dependencyIds);
    for (let c = 0; c < cves.length; c++) {
      const raw: unknown = cves[c];
      if (typeof raw !== 'string' || raw.length > max) return undefined;
      let cve = sameItem(group.cves, entry.a, entry.b, raw);
      if (cve === undefined) {
        const id = trimmedText(raw, max);
        if (id === undefined) return undefined;
        const size = group.cves.all.length;
        cve = internItem(group.cves, entry.a, entry.b, uppered(id));
        if (cve.id === size) group.cveDependency.push(entry.id);
      }
      addItem(cve, serial, cveList, cveIds);
    }
  }

  if (!isPlainObject(policy) || !keysOk(policy, onlyPolicyKeys, POLICY_KEYS, 2, limits)) return undefined;
  const rules = policy.rules;
  if (!Array.isArray(rules) || rules.length > limits.maxListLength) return undefined;
  const ruleList: string[] = [];
  const ruleIds: number[] = [];
  for (let i = 0; i < rules.length; i++) {
    const rule: unknown = rules[i];
    if (!isPlainObject(rule) || !keysOk(rule, onlyRuleKeys, RULE_KEYS, 4, limits)) return undefined;
    const item = ruleItem(group, rule, max);
    if (item === undefined) return undefined;
    addItem(item, serial, ruleList, ruleIds);
  }

  sortByKey(entries);
  // Each list allocated at its size (grown by push, a list of 20 was copied once from 16 slots to 40).
  const keys = entries.map(keyOf);
  const preimages = entries.map(preimageOf);
  const keyIds = entries.map(idOf);
  // Only `keys` leaves the package (as a member's `keys`): it is frozen. The sets themselves and their other
  // lists never leave scoring, so they are not frozen (each freeze gives the array a new hidden class).
  const sets: DocumentSets = {
    verdict: verdict,
    risk,
    keys: Object.freeze(keys),
    preimages,
    capabilities: capabilityList,
    dependencies: dependencyList,
    cves: cveList,
    rules: ruleList,
  };
  group.documents.set(sets, { keys: keyIds, capabilities: capabilityIds, dependencies: dependencyIds, cves: cveIds, rules: ruleIds });
  return sets;
}
