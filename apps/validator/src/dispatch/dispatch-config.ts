import type { PyType } from '@subnet/axon';
import { redactUrl } from '@subnet/core';
import { z } from 'zod';

/** A Python field type as the miner's synapse class declares it (`str`, `{ optional: any }`, `{ list: float }`, ...). */
export const pyTypeSchema: z.ZodType<PyType> = z.lazy(() =>
  z.union([
    z.enum(['str', 'int', 'float', 'bool', 'any']),
    z.strictObject({ list: pyTypeSchema }),
    z.strictObject({ dict: pyTypeSchema }),
    z.strictObject({ optional: pyTypeSchema }),
    z.strictObject({ model: z.array(z.tuple([z.string().min(1), pyTypeSchema])) }),
  ]),
);

const identifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a Python identifier');

/**
 * The synapse class sent for a challenge, declared exactly as the subnet's Python declares it (the body hash
 * depends on it): class name, fields in declaration order (a field without `default` is required), the
 * `required_hash_fields`, and which field carries the miner's answer (it must have a default).
 */
export const dispatchSynapseSchema = z
  .strictObject({
    name: identifier,
    fields: z
      .array(z.strictObject({ name: identifier, type: pyTypeSchema, default: z.unknown().optional() }))
      .min(1)
      .max(256),
    required_hash_fields: z.array(identifier).max(256).default([]),
    /** The field the miner fills: an SSSA document (`sssa` challenge) or a workflow plan (`workflow`). */
    answer_field: identifier,
  })
  .superRefine((s, ctx) => {
    const names = s.fields.map((f) => f.name);
    const answer = s.fields.find((f) => f.name === s.answer_field);
    if (answer === undefined) ctx.addIssue({ code: 'custom', path: ['answer_field'], message: `answer_field ${s.answer_field} is not a declared field` });
    else if (!Object.hasOwn(answer, 'default'))
      ctx.addIssue({ code: 'custom', path: ['answer_field'], message: 'the answer field needs a default (usually null)' });
    s.required_hash_fields.forEach((f, i) => {
      if (!names.includes(f)) ctx.addIssue({ code: 'custom', path: ['required_hash_fields', i], message: `${f} is not a declared field` });
    });
  });

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');
const httpUrl = z.string().regex(/^https?:\/\/[^\s]+$/, 'an http:// or https:// URL');

/**
 * Where a challenge's tasks come from: a folder of JSON files (each a task or `{ "tasks": [...] }`), or an HTTP
 * endpoint of the subnet's own answering `GET <url>?challenge_id=&epoch=&limit=` with `{ "tasks": [...] }`.
 */
export const taskSourceSchema = z.union([
  z.strictObject({ folder: z.string().min(1) }),
  z.strictObject({
    url: httpUrl,
    /** Name of the environment variable holding a bearer token sent as `Authorization: Bearer <token>`. */
    token_env: envName.optional(),
    timeout_ms: z.number().int().min(100).max(600_000).default(10_000),
  }),
]);

/** One challenge the validator dispatches itself. */
export const dispatchChallengeSchema = z.strictObject({
  /** The id of a configured scoring challenge of kind `sssa` or `workflow`. */
  challenge_id: z.string().min(1).max(64),
  synapse: dispatchSynapseSchema,
  /** How often a round runs: each round takes up to `tasks_per_round` new tasks from the source. */
  interval_ms: z.number().int().min(50).max(86_400_000).default(12_000),
  tasks_per_round: z.number().int().min(1).max(10_000).default(1),
  /** The dendrite's total time limit per query (the SDK's `timeout`, default 12 s). */
  timeout_seconds: z.number().min(0.1).max(600).default(12),
  /**
   * Miners queried per task. `sssa`: the verification group (primaries + auditors of
   * `scoring.challenges[].assignment`); when given it must equal that sum. `workflow`: drawn at random
   * (seeded by the task's block hash) from the epoch's candidates; default 3.
   */
  group_size: z.number().int().min(1).max(4096).optional(),
  task_source: taskSourceSchema,
});

/** `dispatch`: the validator queries miners' axons itself (off unless this section is present). */
export const dispatchConfigSchema = z.strictObject({
  /** Queries in flight at once, across every challenge. */
  concurrency: z.number().int().min(1).max(4096).default(16),
  /**
   * Largest answer read from an axon; a larger one is the query outcome `too_large`. At most 8 MiB: an answer
   * is read whole and converted synchronously, and one packed with small values (`[{"a":0},...]`) costs about
   * 0.33 s and 100 MB per MiB (8 MiB: 2.6 s, 0.8 GB; 64 MiB would pass Node's 4 GiB heap and end the process).
   */
  max_response_bytes: z
    .number()
    .int()
    .min(1024)
    .max(8 * 1024 * 1024)
    .default(1024 * 1024),
  /**
   * Query axons whose on-chain address is loopback, private, link-local, multicast or otherwise not public
   * unicast. Off by default: a miner chooses its address, and the chain refuses only 127.0.0.1 and ::1, so
   * such an axon would send the validator's signed requests into its own host or network. Turn it on for a
   * local devnet or a private cluster.
   */
  allow_private_axons: z.boolean().default(false),
  /** Where workflow plans go (required when a `workflow` challenge is dispatched). */
  executor_webhook: z
    .strictObject({
      url: httpUrl,
      /** Name of the environment variable holding a bearer token sent as `Authorization: Bearer <token>`. */
      token_env: envName.optional(),
      timeout_ms: z.number().int().min(100).max(600_000).default(10_000),
      /** Delivery attempts per plan in one pass; undelivered plans are retried on the next rounds. */
      attempts: z.number().int().min(1).max(20).default(3),
    })
    .optional(),
  challenges: z.array(dispatchChallengeSchema).min(1).max(64),
});
/** The parsed `dispatch` section. */
export type DispatchConfig = z.output<typeof dispatchConfigSchema>;
/** One dispatched challenge. */
export type DispatchChallengeConfig = z.output<typeof dispatchChallengeSchema>;

/**
 * The `dispatch` section safe to log: the URLs' credentials hidden (`redactUrl`); tokens are never in the
 * configuration, only the names of the variables holding them.
 *
 * @param dispatch - the section
 * @returns the redacted copy
 * @example redactDispatch(config.dispatch)
 */
export function redactDispatch(dispatch: DispatchConfig): unknown {
  return {
    ...dispatch,
    executor_webhook: dispatch.executor_webhook === undefined ? undefined : { ...dispatch.executor_webhook, url: redactUrl(dispatch.executor_webhook.url) },
    challenges: dispatch.challenges.map((c) => ({
      ...c,
      task_source: 'url' in c.task_source ? { ...c.task_source, url: redactUrl(c.task_source.url) } : c.task_source,
    })),
  };
}
