import { asciiTrim, asciiUpper, checkInputShape, compareCodePoints, isSubnetError, parseInput, SubnetError } from '@subnet/core';
import { sha256Hex } from '#hash';

import { CONSENSUS_ERROR_CODES } from './errors.js';
import { tryNormaliseEvidenceRef } from './evidence-ref.js';
import { createMemo } from './memo.js';
import type { SssaFinding } from './sssa-schema.js';
import { sssaFindingSchema } from './sssa-schema.js';
import { foldLower } from './text-rules.js';

const keyMemo = createMemo<string>(4096);

/**
 * The key preimage of an already-validated finding (its normalised evidence reference when the
 * validator already computed it). Internal: callers outside go through
 * {@link findingKeyPreimage}, which validates first.
 */
export function preimageOfParsed(finding: SssaFinding, normalisedRef?: string): string {
  let evidence = normalisedRef;
  if (evidence === undefined) {
    const outcome = tryNormaliseEvidenceRef(finding.evidence_ref);
    // The schema rejected every reference that does not normalise; this guard keeps the types honest.
    evidence = outcome.ok ? outcome.value : '';
  }
  return `${foldLower(finding.category)}|${foldLower(finding.severity)}|${evidence}|${cveField(finding.cve_ids)}|${asciiTrim(finding.target_pattern)}`;
}

/**
 * Internal: the CVE field of a key preimage: ids trimmed, uppercased, de-duplicated, sorted by code point
 * and joined by `,` (empty when none).
 */
export function cveField(ids: readonly string[]): string {
  // Zero or one id (the common cases) need no set, sort or join: the same text either way.
  return ids.length === 0
    ? ''
    : ids.length === 1
      ? asciiUpper(asciiTrim(ids[0] ?? ''))
      : [...new Set(ids.map((id) => asciiUpper(asciiTrim(id))))].sort(compareCodePoints).join(',');
}

/** sha256 hex of a preimage, memoised (a group's members report the same findings many times). */
export function keyOfPreimage(preimage: string): string {
  return keyMemo.get(preimage, sha256Hex);
}

/**
 * The text whose sha256 is a finding's canonical key (SPEC section B):
 * `category|severity|normalised(evidence_ref)|sorted_cve_ids|target_pattern`, where category and
 * severity are trimmed and lowercased (ASCII only, SPEC 0), the evidence reference is normalised by
 * {@link normaliseEvidenceRef}, the CVE ids are trimmed, uppercased, de-duplicated, sorted by code point
 * and joined by `,` (empty when none), and the target pattern is trimmed. `id` and `description` play no
 * part.
 *
 * @param finding - a finding as it appears in an SSSA (snake_case)
 * @returns the preimage text
 * @throws SubnetError `CONSENSUS_INVALID_FINDING` naming the bad field (`finding.evidence_ref`), also for
 *   a lone surrogate, a non-JSON value or input deeper or larger than the default input limits
 * @example
 * findingKeyPreimage({ id: 'x', category: ' Tool_Poison ', severity: 'HIGH', description: '',
 *   evidence_ref: 's1:tools/getfile.py:12-18', cve_ids: [], target_pattern: 'getfile' })
 * // 'tool_poison|high|tools/getfile.py#L12-L18||getfile'
 */
export function findingKeyPreimage(finding: unknown): string {
  try {
    checkInputShape(finding, {}, 'finding');
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidFinding, `invalid finding: its shape breaks an input limit (${error.code})`, {
      context: { path: error.context.path ?? 'finding', value: error.context.value, reason: error.code },
      cause: error,
    });
  }
  return preimageOfParsed(parseInput(sssaFindingSchema, finding, CONSENSUS_ERROR_CODES.invalidFinding, 'finding'));
}

/**
 * A finding's canonical key: lowercase hex sha256 of the UTF-8 bytes of {@link findingKeyPreimage}. The
 * same finding reported with other ids, descriptions, span-id prefixes, path spellings, CVE order or CVE
 * case gets the same key; another line range, CVE set, category, severity or target gets another key.
 *
 * @param finding - a finding as it appears in an SSSA (snake_case)
 * @returns 64 lowercase hex characters
 * @throws SubnetError `CONSENSUS_INVALID_FINDING` naming the bad field (`finding.severity`)
 * @example
 * canonicalFindingKey({ id: 'f1', category: 'tool_poison', severity: 'high', description: 'poisoned tool',
 *   evidence_ref: 'tools/getfile.py#L12-L18', cve_ids: [], target_pattern: 'getfile' }) // 'e51566bbeccd430e931e2e5ff6882f25c92d8456e35813ca9250e48083182408'
 */
export function canonicalFindingKey(finding: unknown): string {
  return keyOfPreimage(findingKeyPreimage(finding));
}
