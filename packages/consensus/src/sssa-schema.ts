import { parseInput } from '@subnet/core';
import { z } from 'zod';

import { CONSENSUS_ERROR_CODES } from './errors.js';
import { tryNormaliseEvidenceRef } from './evidence-ref.js';
import { isTrusted, markTrusted } from './trusted.js';

/**
 * The three verdicts an SSSA can give.
 *
 * @example VERDICTS.includes(sssa.verdict) // true for every parsed SSSA
 */
export const VERDICTS = Object.freeze(['ALLOW', 'BLOCK', 'REVIEW'] as const);
/** An SSSA verdict. */
export type Verdict = (typeof VERDICTS)[number];

/**
 * The four finding severities (compared trimmed and lowercased).
 *
 * @example SEVERITIES.includes(' High '.trim().toLowerCase() as Severity) // true
 */
export const SEVERITIES = Object.freeze(['low', 'medium', 'high', 'critical'] as const);
/** A finding severity, normalised. */
export type Severity = (typeof SEVERITIES)[number];

const severitySet: ReadonlySet<string> = new Set(SEVERITIES);

/** A string that is not empty once trimmed. */
const text = (what: string) => z.string().refine((s) => s.trim() !== '', `${what} must not be empty or blank`);

/** A string that is not empty once trimmed and holds none of the given separator characters. */
const token = (what: string, separators: readonly string[]) =>
  z.string().superRefine((s, ctx) => {
    if (s.trim() === '') ctx.addIssue({ code: 'custom', message: `${what} must not be empty or blank` });
    else {
      const bad = separators.find((c) => s.includes(c));
      if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `${what} must not contain '${bad}' (it separates key fields)` });
    }
  });

/**
 * One finding of an SSSA (SPEC section B). `category`, `severity`, `evidence_ref`, `cve_ids` and
 * `target_pattern` make its canonical key; `id` and `description` are kept but never compared. Unknown
 * fields are kept.
 *
 * Beyond the types, a finding is rejected when: `category`, `target_pattern` or a CVE id is blank;
 * `severity` is not low/medium/high/critical once trimmed and lowercased; `evidence_ref` has a line range
 * with a > b or an empty path; `category`, `evidence_ref` or a CVE id contains `|`, or a CVE id contains
 * `,` (they would make two different findings share one key preimage).
 *
 * @example
 * sssaFindingSchema.parse({ id: 'f1', category: 'tool_poison', severity: 'high', description: '...',
 *   evidence_ref: 'span-3:tools/getfile.py#L12-L18', cve_ids: [], target_pattern: 'tools/getfile.py' });
 */
export const sssaFindingSchema = z.looseObject({
  id: z.string(),
  category: token('category', ['|']),
  severity: z
    .string()
    .refine((s) => severitySet.has(s.trim().toLowerCase()), 'severity must be low, medium, high or critical'),
  description: z.string(),
  evidence_ref: z.string().superRefine((ref, ctx) => {
    const outcome = tryNormaliseEvidenceRef(ref);
    if (!outcome.ok) ctx.addIssue({ code: 'custom', message: `invalid evidence reference: ${outcome.message}` });
    else if (outcome.value.includes('|')) {
      ctx.addIssue({ code: 'custom', message: "evidence_ref must not contain '|' (it separates key fields)" });
    }
  }),
  cve_ids: z.array(token('a CVE id', ['|', ','])),
  target_pattern: text('target_pattern'),
});
/** A parsed SSSA finding. */
export type SssaFinding = z.output<typeof sssaFindingSchema>;

/** One dependency of the SBOM: package, version and its CVE annotations. */
const dependencySchema = z.looseObject({
  package: text('package'),
  version: text('version'),
  cves: z.array(text('a CVE id')),
});

/** One enforcement policy rule. */
const policyRuleSchema = z.looseObject({
  resource: text('resource'),
  action: text('action'),
  pattern: text('pattern'),
});

/**
 * The Signed Skill Safety Attestation (SSSA) as it travels on the wire (snake_case JSON), SPEC section B.
 *
 * Scored fields: `verdict` (ALLOW | BLOCK | REVIEW, exact), `risk_score` (finite, in [0, 1]), `findings`
 * (see {@link sssaFindingSchema}), `capabilities` (non-blank strings), `dependencies[{package, version,
 * cves[]}]` and `policy.rules[{resource, action, pattern}]` (non-blank strings). All are required: nothing
 * missing is defaulted. Kept but never scored: `schema_version` (non-blank string), `skill` (any object of
 * skill metadata), `signature` (a string or an object), each optional, and every unknown field at any level.
 *
 * @example
 * const sssa = sssaSchema.parse({ verdict: 'ALLOW', risk_score: 0.1, findings: [], capabilities: ['fs.read'],
 *   dependencies: [], policy: { rules: [] } });
 */
export const sssaSchema = z.looseObject({
  schema_version: text('schema_version').optional(),
  skill: z.looseObject({}).optional(),
  signature: z.union([z.string(), z.looseObject({})]).optional(),
  verdict: z.enum(VERDICTS),
  risk_score: z.number().min(0).max(1),
  findings: z.array(sssaFindingSchema),
  capabilities: z.array(text('a capability')),
  dependencies: z.array(dependencySchema),
  policy: z.looseObject({ rules: z.array(policyRuleSchema) }),
});
/** A parsed SSSA document. */
export type Sssa = z.output<typeof sssaSchema>;
/** One SBOM entry of a parsed SSSA. */
export type SssaDependency = Sssa['dependencies'][number];
/** One policy rule of a parsed SSSA. */
export type SssaPolicyRule = Sssa['policy']['rules'][number];

/** Freezes every object and array the schema built (the values of unknown fields are the caller's: left alone). */
function freezeParsed(sssa: Sssa): void {
  for (const finding of sssa.findings) {
    Object.freeze(finding.cve_ids);
    Object.freeze(finding);
  }
  Object.freeze(sssa.findings);
  Object.freeze(sssa.capabilities);
  for (const dependency of sssa.dependencies) {
    Object.freeze(dependency.cves);
    Object.freeze(dependency);
  }
  Object.freeze(sssa.dependencies);
  for (const rule of sssa.policy.rules) Object.freeze(rule);
  Object.freeze(sssa.policy.rules);
  Object.freeze(sssa.policy);
  if (sssa.skill !== undefined) Object.freeze(sssa.skill);
  if (typeof sssa.signature === 'object') Object.freeze(sssa.signature);
  Object.freeze(sssa);
}

/**
 * Validates an SSSA document at the boundary and returns it frozen. Parse once, then score: a document
 * returned by this function is recognised by `computeConsensus` (and by this function), which then
 * skip validating it again and reuse its finding keys and sets, computed on first use. Only the very
 * object returned counts: a copy (spread, `structuredClone`, JSON round trip) is validated again.
 *
 * The document and every object and array the schema describes (findings, CVE lists, capabilities,
 * dependencies, policy and rules, `skill`, an object `signature`) are new objects, frozen; the values of
 * unknown fields are kept as given (not copied, not frozen: they are never scored).
 *
 * @param input - untrusted JSON value, or a document this function returned
 * @param label - the name of the document in error paths (default `sssa`)
 * @returns the parsed, frozen document (unknown fields kept)
 * @throws SubnetError `CONSENSUS_INVALID_SSSA` naming the first bad field (`sssa.findings[0].severity`)
 * @example
 * const sssa = parseSssa(JSON.parse(text)); // validate once
 * computeConsensus({ taskId, members: [{ uid, hotkey, role: 'primary', sssa }, ...] }); // not validated again
 */
export function parseSssa(input: unknown, label = 'sssa'): Sssa {
  if (isTrusted(input)) return input as Sssa;
  const sssa = parseInput(sssaSchema, input, CONSENSUS_ERROR_CODES.invalidSssa, label);
  freezeParsed(sssa);
  markTrusted(sssa);
  return sssa;
}
