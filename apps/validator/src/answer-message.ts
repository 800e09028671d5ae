import type { SubnetError } from '@subnet/core';

/**
 * A coded error's message as an HTTP answer says it: without the leading `[CODE] ` that `SubnetError` writes, since the
 * answer carries the code in its own `code` field, as a schema refusal's answer does (docs/spec.md G.46 (c)). The
 * error itself is not changed: its other readers (logs, the close's exclusion reasons in the audit bundle) keep it whole.
 *
 * @param error - a package's coded error
 * @returns its message without `[CODE] `
 * @example answerMessage(new SubnetError('COMPOSITE_INVALID_DAG', 'the DAG has a cycle')) // 'the DAG has a cycle'
 */
export function answerMessage(error: SubnetError): string {
  const lead = `[${error.code}] `;
  return error.message.startsWith(lead) ? error.message.slice(lead.length) : error.message;
}
