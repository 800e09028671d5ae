import { asciiTrim, asciiUpper } from '@subnet/core';
import type { InputLimits } from '@subnet/core';

import { sha256Hex } from '#hash';

import { keyOfPreimage, preimageOfParsed } from './finding-key.js';
import type { Sssa, Verdict } from './sssa-schema.js';
import { foldLower } from './text-rules.js';
import { cacheTrustedPayload, isTrustedWithin, trustedPayload } from './trusted.js';

/**
 * Internal: what consensus compares of one validated SSSA, each list holding distinct items. Computed
 * once per document: cached for documents returned by `parseSssa`, recomputed for raw input.
 */
export interface DocumentSets {
  readonly verdict: Verdict;
  readonly risk: number;
  /** Distinct canonical finding keys, sorted (`Array.prototype.sort`, code units = code points for hex); frozen. */
  readonly keys: readonly string[];
  /** The preimage of each key, aligned with `keys`. */
  readonly preimages: readonly string[];
  /** Distinct capabilities, trimmed and lowercased. */
  readonly capabilities: readonly string[];
  /** Distinct encoded (package, version) keys. */
  readonly dependencies: readonly string[];
  /** Distinct encoded (package, version, cve) keys. */
  readonly cves: readonly string[];
  /** Distinct encoded (resource, action, pattern) keys. */
  readonly rules: readonly string[];
}

/**
 * Tuples are encoded by length-prefixing every element (`3:abc5:1.0.0`): unambiguous whatever characters
 * the strings hold, and cheaper than JSON. Only group-set members are ever decoded.
 */
export function encode2(a: string, b: string): string {
  return `${a.length}:${a}${b.length}:${b}`;
}
/** The three-element form of {@link encode2}. */
export function encode3(a: string, b: string, c: string): string {
  return `${a.length}:${a}${b.length}:${b}${c.length}:${c}`;
}
/** The elements of an {@link encode2} / encode3 tuple. */
export function decode(encoded: string): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < encoded.length) {
    const colon = encoded.indexOf(':', at);
    const length = Number(encoded.slice(at, colon));
    out.push(encoded.slice(colon + 1, colon + 1 + length));
    at = colon + 1 + length;
  }
  return out;
}

/** Appends `item` to `list` unless `seen` has it (keeps first-seen order). */
function addDistinct(seen: Set<string>, list: string[], item: string): void {
  if (seen.has(item)) return;
  seen.add(item);
  list.push(item);
}

/**
 * Computes the sets of a validated document (`refs`: its findings' normalised evidence references, when
 * known). `keys`, when given, is the caller's cache of preimage -> key for one group: members of a group
 * report the same findings, so each distinct preimage of a fresh group is hashed once, without a global
 * memo that fresh documents would only fill and flush. Without it the bounded global memo is used.
 */
export function computeDocumentSets(sssa: Sssa, refs?: readonly string[], keys?: Map<string, string>): DocumentSets {
  const seen = new Set<string>();
  const byKey = new Map<string, string>();
  for (let i = 0; i < sssa.findings.length; i++) {
    const finding = sssa.findings[i];
    if (finding === undefined) continue;
    const preimage = preimageOfParsed(finding, refs?.[i]);
    let key: string | undefined;
    if (keys === undefined) key = keyOfPreimage(preimage);
    else {
      key = keys.get(preimage);
      if (key === undefined) {
        key = sha256Hex(preimage);
        keys.set(preimage, key);
      }
    }
    if (!byKey.has(key)) byKey.set(key, preimage);
  }
  const sorted = [...byKey.keys()].sort();
  const preimages = sorted.map((key) => byKey.get(key) ?? '');
  const capabilities: string[] = [];
  for (const capability of sssa.capabilities) addDistinct(seen, capabilities, foldLower(capability));
  seen.clear();
  const dependencies: string[] = [];
  const cves: string[] = [];
  const seenCves = new Set<string>();
  for (const dependency of sssa.dependencies) {
    const name = foldLower(dependency.package);
    const version = asciiTrim(dependency.version);
    addDistinct(seen, dependencies, encode2(name, version));
    for (const cve of dependency.cves) {
      addDistinct(seenCves, cves, encode3(name, version, asciiUpper(asciiTrim(cve))));
    }
  }
  seen.clear();
  const rules: string[] = [];
  for (const rule of sssa.policy.rules) {
    addDistinct(seen, rules, encode3(foldLower(rule.resource), foldLower(rule.action), asciiTrim(rule.pattern)));
  }
  return Object.freeze({
    verdict: sssa.verdict,
    risk: sssa.risk_score,
    keys: Object.freeze(sorted),
    preimages: Object.freeze(preimages),
    capabilities: Object.freeze(capabilities),
    dependencies: Object.freeze(dependencies),
    cves: Object.freeze(cves),
    rules: Object.freeze(rules),
  });
}

/**
 * The sets of a document returned by `parseSssa` under limits no larger than `limits` (computed on first use, then
 * cached), or `undefined` when `value` is not such a document and must be validated against `limits` (a raw document, a
 * copy, or a document parsed under a larger limit: docs/spec.md G.46 (e)).
 */
export function trustedDocumentSets(value: unknown, limits: InputLimits): DocumentSets | undefined {
  if (!isTrustedWithin(value, limits)) return undefined;
  const cached = trustedPayload(value) as DocumentSets | null;
  if (cached !== null) return cached;
  const sets = computeDocumentSets(value as Sssa);
  cacheTrustedPayload(value, sets);
  return sets;
}
