import { encodeSs58 } from '@subnet/core';

import type { ConsensusMemberInput } from '../index.js';

/** A valid SS58 hotkey for test member `i` (32 bytes of `i`). */
export function hotkey(i: number): string {
  return encodeSs58(new Uint8Array(32).fill(i));
}

/** A finding with the given scored fields (id and description are filler). */
export function finding(
  category: string,
  evidenceRef: string,
  overrides: Partial<{ severity: string; cve_ids: string[]; target_pattern: string; id: string; description: string }> = {},
) {
  return {
    id: overrides.id ?? `id-${category}-${evidenceRef}`,
    category,
    severity: overrides.severity ?? 'high',
    description: overrides.description ?? `a ${category} finding`,
    evidence_ref: evidenceRef,
    cve_ids: overrides.cve_ids ?? [],
    target_pattern: overrides.target_pattern ?? 'target',
  };
}

/** A minimal valid SSSA; every scored field can be overridden. */
export function sssa(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    verdict: 'ALLOW',
    risk_score: 0.5,
    findings: [],
    capabilities: [],
    dependencies: [],
    policy: { rules: [] },
    ...overrides,
  };
}

/** Group members 1..k with the given SSSAs (uid i+1, hotkey(i+1), first three primaries). */
export function members(docs: readonly Record<string, unknown>[]): ConsensusMemberInput[] {
  return docs.map((doc, i) => ({ uid: i + 1, hotkey: hotkey(i + 1), role: i < 3 ? 'primary' : 'auditor', sssa: doc }));
}
