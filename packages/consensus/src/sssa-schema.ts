import { z } from 'zod';

import { tryNormaliseEvidenceRef } from './evidence-ref.js';
import { foldLower, isBlank, isWellFormed } from './text-rules.js';

/**
 * The three verdicts an SSSA can give.
 *
 * @example VERDICTS.includes(sssa.verdict) // true for every parsed SSSA
 */
export const VERDICTS = Object.freeze(['ALLOW', 'BLOCK', 'REVIEW'] as const);
/** An SSSA verdict. */
export type Verdict = (typeof VERDICTS)[number];

/**
 * The four finding severities (compared ASCII-trimmed and ASCII-lowercased, SPEC 0).
 *
 * @example SEVERITIES.includes('high') // true; ' High ' is accepted by the schema and keyed as 'high'
 */
export const SEVERITIES = Object.freeze(['low', 'medium', 'high', 'critical'] as const);
/** A finding severity, normalised. */
export type Severity = (typeof SEVERITIES)[number];

/** Internal: the severities as a set (the fast validator shares it). */
export const severitySet: ReadonlySet<string> = new Set(SEVERITIES);

/** Any well-formed string (SPEC 0: a lone surrogate is invalid input). */
const anyText = () => z.string().refine(isWellFormed, 'text must not hold a lone UTF-16 surrogate');

/** A well-formed string that is not empty once ASCII-trimmed. */
const text = (what: string) => anyText().refine((s) => !isBlank(s), `${what} must not be empty or blank`);

/** A well-formed string that is not empty once ASCII-trimmed and holds none of the given separator characters. */
const token = (what: string, separators: readonly string[]) =>
  anyText().superRefine((s, ctx) => {
    if (isBlank(s)) ctx.addIssue({ code: 'custom', message: `${what} must not be empty or blank` });
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
  id: anyText(),
  category: token('category', ['|']),
  severity: anyText().refine((s) => severitySet.has(foldLower(s)), 'severity must be low, medium, high or critical'),
  description: anyText(),
  evidence_ref: anyText().superRefine((ref, ctx) => {
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
 * Text is checked with SPEC 0's rules (ASCII trimming and folding, no lone surrogate in a scored field).
 *
 * This schema describes the fields and names the path of an error. The boundary is `parseSssa`: it also
 * enforces the input limits (depth <= 64, sizes), rejects a lone surrogate anywhere, and keeps an unknown
 * key spelled `__proto__` as data (zod drops it), with a hand-written validator that accepts exactly what
 * this schema and the limits accept (a property test checks it).
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
