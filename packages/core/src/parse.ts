import type { z } from 'zod';

import { invalidArgument, requireString } from './arguments.js';
import { SubnetError } from './errors.js';

/** One problem found while validating input. */
export interface InputIssue {
  /** Dotted path from the input's root (`plan.nodes[1].id`); empty for the root itself. */
  readonly path: string;
  /** What is wrong there. */
  readonly message: string;
  /** The value found at that path (undefined when missing). */
  readonly value: unknown;
}

/** Context of an error raised by {@link parseInput}. */
export interface InputErrorContext {
  readonly path: string;
  readonly value: unknown;
  /** Every issue zod found, first one first (the message names the first). */
  readonly issues: readonly InputIssue[];
  readonly [key: string]: unknown;
}

/**
 * Formats a path of keys and indexes the way every error message writes it: `a.b[2].c`, with `label`
 * as the root name when given.
 *
 * @param segments - object keys and array indexes from the root
 * @param label - the name of the root (`plan`, `task`), prepended when given
 * @returns the dotted path
 * @throws SubnetError `CORE_INVALID_ARGUMENT` when `segments` is not an array or `label` not a string
 * @example formatPath(['edges', 2, 'to'], 'plan') // 'plan.edges[2].to'
 */
export function formatPath(segments: readonly PropertyKey[], label = ''): string {
  if (!Array.isArray(segments)) invalidArgument('segments', 'must be an array of keys and indexes', segments);
  requireString(label, 'label');
  let path = label;
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(String(segment))}]`;
  }
  return path;
}

function valueAt(input: unknown, segments: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/**
 * Parses input at a boundary with a zod schema and turns any failure into a {@link SubnetError} whose
 * message names the first offending field path and value (all issues are in `context.issues`).
 *
 * @param schema - the zod schema
 * @param input - untrusted input
 * @param code - the error code to raise (e.g. `COMPOSITE_INVALID_INPUT`)
 * @param label - the name of the input's root in paths (e.g. `plan`)
 * @returns the parsed value
 * @throws SubnetError with `code`, naming the path and value; `CORE_INVALID_ARGUMENT` when `schema` is not
 *   a zod schema or `code`/`label` not strings
 * @example parseInput(uidSchema, 70000, 'CORE_INVALID_INPUT', 'uid') // throws: ... at uid (got 70000)
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, code: string, label = ''): z.output<S> {
  if (typeof (schema as { safeParse?: unknown } | null)?.safeParse !== 'function') invalidArgument('schema', 'must be a zod schema', schema);
  requireString(code, 'code');
  requireString(label, 'label');
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues: InputIssue[] = result.error.issues.map((issue) => ({
    path: formatPath(issue.path, label),
    message: issue.message,
    value: valueAt(input, issue.path),
  }));
  const first = issues[0] ?? { path: label, message: 'invalid input', value: input };
  throw new SubnetError<InputErrorContext>(code, `invalid ${label === '' ? 'input' : label}: ${first.message}`, {
    context: { path: first.path, value: first.value, issues },
    cause: result.error,
  });
}
