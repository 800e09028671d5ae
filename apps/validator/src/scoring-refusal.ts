import { describeValue } from '@subnet/core';
import type { SubnetError } from '@subnet/core';

import { answerMessage } from './answer-message.js';

/** An ingest answer's error: code, message and, when it is about a field, the field's path. */
export interface RefusalBody {
  readonly code: string;
  readonly message: string;
  readonly path?: string;
}

/**
 * A scoring package's refusal of an ingest body, restated at the path the sender sent (docs/spec.md G.42 (b)).
 * `@subnet/composite` and `@subnet/aggregation` name a field from their own arguments (`plan.error_handling.b.retry_count`,
 * `results[1].taskId`), while a schema refusal at ingest names it from the body (`body.…`). The answer's `path` and the
 * `at …` of its message are the sender's; code, words and value are the package's, the message without the `[CODE] ` the
 * package's starts with (the answer's `code` holds it, G.46 (c)). The package's error itself is not changed: its other callers, and the close's exclusion reasons in the audit bundle, keep its own path.
 *
 * @param error - what the package threw
 * @param sentAt - the sender's path of one of the package's paths, or undefined for a path that is not the body's
 * @returns the answer's error
 * @example refusalAtSentPath(e, workflowSentPath) // { code: 'COMPOSITE_INVALID_PLAN', path: 'body.plan.error_handling.b.retry_count', … }
 */
export function refusalAtSentPath(error: SubnetError, sentAt: (path: string) => string | undefined): RefusalBody {
  // One form for every answer: the code in `code`, the message without `[CODE] ` (docs/spec.md G.46 (c)).
  const said = answerMessage(error);
  const path = error.context.path;
  if (typeof path !== 'string') return { code: error.code, message: said };
  const sent = sentAt(path);
  if (sent === undefined) return { code: error.code, message: said, path };
  // The message ends ` at <path>` and, with a value, ` (got <value>)`, as every coded error's does (@subnet/core).
  const got = 'value' in error.context ? ` (got ${describeValue(error.context.value)})` : '';
  const tail = ` at ${path}${got}`;
  const at = said.endsWith(tail) ? said.length - tail.length : said.lastIndexOf(` at ${path}`);
  const message = at < 0 ? `${said} (at ${sent})` : `${said.slice(0, at)} at ${sent}${said.slice(at + ` at ${path}`.length)}`;
  return { code: error.code, message, path: sent };
}

/** `@subnet/composite`'s paths of a workflow run (`task…`, `plan…`, `record…`: `scoreWorkflow`'s arguments) as sent. */
export function workflowSentPath(path: string): string | undefined {
  return /^(?:task|plan|record)(?:$|[.[])/.test(path) ? `body.${path}` : undefined;
}

/** `@subnet/consensus`'s paths of a signed SSSA (`parseSssa`'s label `sssa`: `sssa.findings[0].severity`) as sent. */
export function sssaSentPath(path: string): string | undefined {
  return /^sssa(?:$|[.[])/.test(path) ? `body.${path}` : undefined;
}

/** The wire names of the fields `@subnet/aggregation`'s `passRate` reads from each term result. */
const TERM_RESULT_FIELDS: Readonly<Record<string, string>> = {
  taskId: 'task_id',
  testsPassed: 'tests_passed',
  testsTotal: 'tests_total',
  timedOut: 'timed_out',
};

/** `passRate`'s paths of a term result record (`results[1].taskId`, `results.length`) as sent (`body.results[1].task_id`). */
export function termSentPath(path: string): string | undefined {
  const m = /^results(\[[0-9]+\])?(?:\.([A-Za-z]+))?$/.exec(path);
  if (m === null) return undefined;
  const [, index = '', field] = m;
  if (field === undefined) return `body.results${index}`;
  const wire = index === '' ? (field === 'length' ? field : undefined) : Object.hasOwn(TERM_RESULT_FIELDS, field) ? TERM_RESULT_FIELDS[field] : undefined;
  return wire === undefined ? undefined : `body.results${index}.${wire}`;
}
