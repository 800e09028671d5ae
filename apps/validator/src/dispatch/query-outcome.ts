import type { QueryOutcome } from '@subnet/bundle';
import { workflowPlanSchema } from '@subnet/composite';
import { parseSssa } from '@subnet/consensus';
import { checkInputShape, findStringifiedNumber, formatPath, isSubnetError, stringifiedNumberMessage } from '@subnet/core';

import { findBigint } from './find-bigint.js';

/** The longest reason kept in a query record (the axon's own message is cut to it). */
export const MAX_REASON_LENGTH = 512;

/** A reason safe to store: well-formed text, at most {@link MAX_REASON_LENGTH} characters. */
export function reasonText(text: string): string {
  const cut = text.length <= MAX_REASON_LENGTH ? text : `${text.slice(0, MAX_REASON_LENGTH - 1)}…`;
  return cut.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/**
 * The outcome of a dendrite call that did not return a usable 200 (docs/spec.md G.6 "Queries"), from the
 * status code the dendrite read back (`@subnet/axon`'s table, the SDK's codes) and its message: 408
 * `timeout`; 503 `unreachable`; 401/403 `refused`; the dendrite's 400 payload error `too_large`; the
 * dendrite's 422 parse failure `garbage`; any other status `axon_error`.
 *
 * @param statusCode - `synapse.dendrite.statusCode`
 * @param message - `synapse.dendrite.statusMessage`
 * @returns the outcome and its reason
 * @example failedCall(408, 'Request timeout after 2.0 seconds') // { outcome: 'timeout', reason: '408 Request timeout after 2.0 seconds' }
 */
export function failedCall(statusCode: number | null, message: string | null): { outcome: QueryOutcome; reason: string } {
  const text = message ?? '';
  const reason = reasonText(`${statusCode ?? 'no status'} ${text}`.trim());
  if (statusCode === 408) return { outcome: 'timeout', reason };
  if (statusCode === 503) return { outcome: 'unreachable', reason };
  if (statusCode === 401 || statusCode === 403) return { outcome: 'refused', reason };
  if (statusCode === 400 && text.startsWith('Payload error')) return { outcome: 'too_large', reason };
  if (statusCode === 422 && text.startsWith('Failed to parse response')) return { outcome: 'garbage', reason };
  return { outcome: 'axon_error', reason };
}

/**
 * Checks a miner's answer for a challenge before it is stored: within `@subnet/core`'s input limits (depth
 * 64, JSON values only, well-formed text), no number canonical JSON would store as a string (an integer
 * beyond 2^53, which the dendrite gives as a bigint, or a double beyond it: `UNSAFE_NUMBER`, as at HTTP ingest), then the challenge's own schema: an SSSA document (`parseSssa`,
 * SPEC B) or a workflow plan (`workflowPlanSchema`, SPEC A, DAG checks included).
 *
 * @param kind - the challenge kind
 * @param answer - the answer field's value (JS, from the synapse)
 * @param field - the answer field's name, for messages
 * @returns undefined when usable, else the reason
 * @example answerProblem('sssa', synapseValues(s).sssa, 'sssa')
 */
export function answerProblem(kind: 'sssa' | 'workflow', answer: unknown, field: string): string | undefined {
  if (answer === null || answer === undefined) return `the answer field ${field} is empty`;
  // The dendrite reads an integer beyond 2^53 as a bigint: the miner wrote a number canonical JSON cannot keep.
  const big = findBigint(answer, field);
  if (big !== undefined) return reasonText(`UNSAFE_NUMBER: ${stringifiedNumberMessage(big.path, big.value)}`);
  try {
    checkInputShape(answer, { maxDepth: 64 }, field);
    // Stored as canonical JSON, such a number would come back a string (as at HTTP ingest: UNSAFE_NUMBER).
    const unsafe = findStringifiedNumber(answer, field);
    if (unsafe !== undefined) return reasonText(`UNSAFE_NUMBER: ${unsafe.message}`);
    if (kind === 'sssa') parseSssa(answer);
    else {
      const parsed = workflowPlanSchema.safeParse(answer);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return reasonText(`invalid workflow plan: ${issue?.message ?? 'invalid'} at ${formatPath(issue?.path ?? [], field)}`);
      }
    }
    return undefined;
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    return reasonText(`${error.code}: ${error.message}`);
  }
}
