import { createHash, timingSafeEqual } from 'node:crypto';

import { bountyInputSchema, termResultSchema, workflowRunSchema } from '@subnet/bundle';
import type { EpochConfig } from '@subnet/bundle';
import { passRate } from '@subnet/aggregation';
import { checkWindowId, scoreWorkflow } from '@subnet/composite';
import { parseSssa } from '@subnet/consensus';
import { canonicalJson, describeValue, digest, formatPath, hotkeySchema, isSubnetError, redactUrl, unitIntervalSchema } from '@subnet/core';
import type { InputLimits } from '@subnet/core';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { z } from 'zod';

import { clientErrorLogger, installAccessLog, noteLimit, noteSigner } from './access-log.js';
import { epochSpellingProblem } from './epoch-param.js';
import { MAX_BODY_LIMIT_BYTES, MAX_SIGNER_RATE } from './config.js';
import type { ChainNeuron } from './chain-port.js';
import { applyConnectionLimit, DEFAULT_HTTP_LIMITS, httpServerOptions, refusalReporter } from './http-limits.js';
import type { HttpLimits } from './http-limits.js';
import type { ValidatorMetrics } from './metrics.js';
import { nearestKey } from '@subnet/cli-support';
import { admitPeerScores } from './peer-window.js';
import { limitSetting } from './limit-setting.js';
import { requestTracker } from './request-deadline.js';
import { NOT_UTF8_MESSAGE, parseJsonAfterByteCheck } from './raw-json-body.js';
import {
  checkBodyHotkey,
  checkPeerScoreCount,
  checkSssaAssignment,
  INGEST_ERROR_CODES,
  ingestErrorBody,
  shapeCheckHook,
  MAX_TASK_ID_LENGTH,
  sssaIngestSchema,
  storableTaskId,
  taskIngestSchema,
} from './ingest-checks.js';
import type { IngestError } from './ingest-checks.js';
import type { ReadinessReport } from './readiness.js';
import { servedBundleText } from './reveal-attest.js';
import { refusalAtSentPath, sssaSentPath, termSentPath, workflowSentPath } from './scoring-refusal.js';
import { createSignerRateLimiter } from './signer-rate-limit.js';
import { registerValidatorPages } from './pages/validator-pages.js';
import { verifySignedRequest } from './signed-request.js';
import type { EpochHead, RecordKind, Storage } from './storage.js';
import type { RegisteredTask, TaskRegistry } from './task-registry.js';
import type { WriteQueue } from './write-queue.js';
import { VALIDATOR_ERROR_CODES } from './errors.js';
import {
  BUNDLE_EMBARGOED,
  EMBARGO_STATUS,
  embargoAmong,
  embargoError,
  embargoesAmong,
  embargoFields,
  embargoOf,
  headsAndHolder,
  retryAfterSeconds,
} from './bundle-embargo.js';
import type { Embargo } from './bundle-embargo.js';

/** What the HTTP server reads from the running service. */
export interface ServerContext {
  readonly storage: Storage;
  readonly queue: WriteQueue;
  readonly metrics: ValidatorMetrics;
  readonly logger: Logger;
  readonly scoring: EpochConfig;
  readonly executorToken: string;
  readonly bodyLimit: number;
  readonly maxSkewMs: number;
  /** Refuse signed requests without `x-subnet-receiver` (`server.require_receiver`; default false). */
  readonly requireReceiver?: boolean;
  /** The epoch records are assigned to now (undefined before the first chain head). */
  currentEpoch(): number | undefined;
  /** Registered tasks and their groups (SPEC B). */
  readonly tasks: TaskRegistry;
  /** This validator's hotkey (a peer document signed with it is refused). */
  readonly hotkey: string;
  /** The neuron with this hotkey, refreshing the metagraph when it is not known. */
  neuron(hotkey: string): Promise<ChainNeuron | undefined>;
  /**
   * The neuron with this hotkey, refreshing the metagraph first when it shows none with a validator permit
   * (a permit granted since the last read); refreshed as often as `neuron`'s, under the same throttle.
   */
  permitHolder(hotkey: string): Promise<ChainNeuron | undefined>;
  /** How many neurons the metagraph has, refreshing it first when it has fewer than `atLeast`. */
  neuronCount(atLeast: number): Promise<number>;
  /** True when storage and chain are usable. */
  ready(): boolean;
  /** The detailed readiness checks behind `/readyz` (when absent, `ready()` alone decides). */
  readiness?(): Promise<ReadinessReport>;
  /**
   * What the first chain head tick after the start is doing while it has not finished (a restart's reconciliation of an
   * interrupted submission, its catch-up of ended epochs), for `/readyz`; undefined once it has (optional).
   */
  startingStep?(): string | undefined;
  /** Wall clock (ms) for signature freshness. */
  now(): number;
  /** Timeouts, connection limit and per-signer rates; default {@link DEFAULT_HTTP_LIMITS}. */
  readonly limits?: HttpLimits;
  /** Shape limits of every POST body (`server.input_limits`); default core's, depth 64. */
  readonly inputLimits?: InputLimits;
  /** Seconds until a block arrives (from the heads seen), for an embargo's `Retry-After`; undefined when unknown. */
  secondsUntilBlock?(block: bigint): number | undefined;
}

/** A JSON error reply: `{ error: { code, message, path?, value? } }`. */
interface ErrorBody {
  readonly code: string;
  readonly message: string;
  readonly path?: string;
}

/** The signer of a signed request, checked. */
interface Signer {
  readonly hotkey: string;
  readonly neuron: ChainNeuron;
}

/** A refusal decided before the handler: its status, error body and, when due, Retry-After. */
interface Refused {
  readonly status: number;
  readonly body: ErrorBody;
  readonly retryAfterSeconds?: number;
}

/** What a body parser ends with when the request is refused before its body is parsed (docs/spec.md G.18). */
class RefusedBeforeParsing extends Error {
  constructor(readonly refused: Refused) {
    super(refused.body.message);
  }
}

function refuse(reply: FastifyReply, refused: Refused): FastifyReply {
  if (refused.retryAfterSeconds !== undefined) reply.header('retry-after', String(refused.retryAfterSeconds));
  return fail(reply, refused.status, refused.body);
}

function fail(reply: FastifyReply, status: number, error: ErrorBody): FastifyReply {
  return reply.code(status).send({ error });
}

/**
 * The 503 `NOT_READY` of an ingest that needs the metagraph before the first tick has read it (docs/spec.md G.43): the
 * hotkey may well be registered, so it is not refused as unregistered (a final 4xx), but asked for again.
 */
function notReadyForHotkey(what: string, hotkey: string): ErrorBody {
  return {
    code: 'NOT_READY',
    message: `the validator has not read the metagraph since it started, so whether ${what} (${hotkey}) is registered is not known yet; send the request again shortly`,
  };
}

/**
 * Why a body is not JSON, in words (it said only "the body is not valid JSON"): empty, not UTF-8, or the JSON parser's
 * own sentence with the token and position it stopped at (the sender's own bytes; never logged).
 */
function malformedJsonCause(error: { code?: string; message: string }): string {
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'it is empty (0 bytes)';
  if (error.message === NOT_UTF8_MESSAGE) return 'its bytes are not UTF-8 (RFC 8259: JSON is UTF-8)';
  return error instanceof SyntaxError && error.message !== '' ? error.message : 'the JSON parser refused it';
}

/** 415 naming the content-type sent (it said only "send application/json"). */
function mediaTypeError(type: string | undefined): ErrorBody {
  const wanted = 'the body must be JSON sent with content-type: application/json';
  return {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message:
      type === undefined || type === ''
        ? `${wanted}; the request has no content-type header at headers.content-type`
        : `${wanted} at headers.content-type (got ${describeValue(type)})`,
    path: 'headers.content-type',
  };
}

/** 401 saying whether the token is missing or another one (never quoting what was sent: it may be a real secret). */
function unauthorized(request: FastifyRequest): ErrorBody {
  return {
    code: 'UNAUTHORIZED',
    message:
      request.headers.authorization === undefined
        ? "no authorization header: send authorization: Bearer <the validator's server.executor_token> at headers.authorization"
        : "the bearer token is not this validator's server.executor_token (SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN) at headers.authorization",
    path: 'headers.authorization',
  };
}

/** The value a schema issue points at in the body (own keys only: a key spelled `__proto__` is data, never a lookup). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || typeof key === 'symbol' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/** At most this many unknown keys of one object are named in an answer (a body may carry thousands). */
const MAX_NAMED_UNKNOWN_KEYS = 3;

/**
 * The unknown keys next to a missing required key, in words, or undefined: the first issue is a required key missing
 * from an object, and the same object has unknown keys. `scroe` for `score` gives both a missing `score` and an
 * unknown `scroe`; zod lists the missing one first, so the answer named only that and never the key the sender
 * wrote. An unknown key one slip from a missing key of that object is offered as the key meant (docs/spec.md G.20).
 * Keys are data: compared as strings, looked up with `Object.hasOwn`, never through the object.
 */
function unknownBesideMissing(issues: readonly z.core.$ZodIssue[], first: z.core.$ZodIssue, input: unknown, label: string): string | undefined {
  const object = first.path.slice(0, -1);
  const inObject = (issue: z.core.$ZodIssue, depth: number): boolean =>
    issue.path.length === object.length + depth && object.every((k, i) => issue.path[i] === k);
  const holder = valueAt(input, object);
  if (typeof holder !== 'object' || holder === null || Array.isArray(holder)) return undefined;
  const missingKey = (issue: z.core.$ZodIssue): string[] => {
    const key = issue.path[object.length];
    return inObject(issue, 1) && typeof key === 'string' && !Object.hasOwn(holder, key) ? [key] : [];
  };
  if (missingKey(first).length === 0) return undefined;
  const unknown = [...new Set(issues.flatMap((issue) => (issue.code === 'unrecognized_keys' && inObject(issue, 0) ? issue.keys : [])))];
  if (unknown.length === 0) return undefined;
  const missing = [...new Set(issues.flatMap(missingKey))];
  const named = unknown.slice(0, MAX_NAMED_UNKNOWN_KEYS).map((key) => {
    const meant = nearestKey(key, missing);
    return `${JSON.stringify(key)}${meant === undefined ? '' : ` (did you mean ${JSON.stringify(meant)}?)`}`;
  });
  const more = unknown.length > MAX_NAMED_UNKNOWN_KEYS ? ` and ${unknown.length - MAX_NAMED_UNKNOWN_KEYS} more` : '';
  return `${formatPath(object, label)} has ${unknown.length === 1 ? 'an unknown key' : 'unknown keys'} ${named.join(', ')}${more}`;
}

/**
 * The first schema issue as an `INVALID_RECORD` answer naming the field and the value sent (`... at body.valid_issues
 * (got -3)`); a required key missing where the object has an unknown key names both, with the key
 * probably meant (`... at body.scores[0].score; body.scores[0] has an unknown key "scroe" (did you mean "score"?)`).
 */
function zodFailure(error: z.ZodError, label: string, input: unknown): ErrorBody {
  const issue = error.issues[0];
  const path = formatPath(issue?.path ?? [], label);
  const value = valueAt(input, issue?.path ?? []);
  const also = issue === undefined ? undefined : unknownBesideMissing(error.issues, issue, input, label);
  return {
    code: 'INVALID_RECORD',
    message: `${issue?.message ?? 'invalid'} at ${path}${value === undefined ? '' : ` (got ${describeValue(value)})`}${also === undefined ? '' : `; ${also}`}`,
    path,
  };
}

// The miner hotkey's spelling (SS58, prefix 42) is checked after the schema by `checkBodyHotkey`, whose message
// names the prefix found and the address to send; then the metagraph says whether it is registered.
const minerHotkey = { miner_hotkey: z.string().min(1).max(64) };
const ingestWorkflow = workflowRunSchema.omit({ seq: true, miner_uid: true }).extend(minerHotkey);
const ingestTerm = termResultSchema.omit({ seq: true }).extend(minerHotkey);
const ingestBounty = bountyInputSchema.omit({ seq: true }).extend(minerHotkey);
const ingestPeer = z
  .strictObject({
    epoch: z.number().int().min(0),
    challenge_id: z.string().min(1).max(64),
    scores: z
      .array(z.strictObject({ miner_hotkey: hotkeySchema, score: unitIntervalSchema }))
      .min(1)
      .max(65536),
  })
  .superRefine((doc, ctx) => {
    const seen = new Set<string>();
    doc.scores.forEach((s, i) => {
      if (seen.has(s.miner_hotkey)) ctx.addIssue({ code: 'custom', path: ['scores', i, 'miner_hotkey'], message: 'a miner is scored twice' });
      seen.add(s.miner_hotkey);
    });
  });

/**
 * Builds the HTTP API (fastify): executor ingest with a bearer token, signed miner SSSAs, signed peer
 * scores, epochs, bundles, weights, metrics and health. Every error is JSON with a code.
 *
 * @param ctx - the running service's parts
 * @returns the fastify instance (not listening yet)
 * @example const app = buildServer(ctx); await app.listen({ host: '127.0.0.1', port: 8091 })
 */
export function buildServer(ctx: ServerContext): FastifyInstance {
  const limits = ctx.limits ?? DEFAULT_HTTP_LIMITS;
  // Each socket's latest request, so a 408 can name the deadline it missed (docs/spec.md G.26).
  const requests = requestTracker(limits);
  const app = Fastify({
    bodyLimit: ctx.bodyLimit,
    logger: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Every task id `POST /v1/tasks` takes can be read back with `GET /v1/tasks/{id}` (docs/spec.md G.41). Under
    // `routerOptions`: fastify 5 warns on the operator's stderr (FSTDEP022) when it is a top-level option.
    routerOptions: { maxParamLength: MAX_TASK_ID_LENGTH },
    ...httpServerOptions(limits),
    clientErrorHandler: clientErrorLogger(ctx.logger, requests),
    // A URL fastify cannot route (bad percent-encoding, an over-long parameter) gets the API's error shape too.
    frameworkErrors: (error, _request, reply) => {
      void fail(reply, error.statusCode ?? 400, { code: 'BAD_REQUEST', message: error.message });
    },
  });
  requests.follow(app.server);
  applyConnectionLimit(
    app.server,
    limits,
    refusalReporter(
      limits.maxConnectionsPerSource,
      () => {
        ctx.metrics.connectionsRefused.inc();
      },
      (fields, message) => {
        ctx.logger.warn(fields, message);
      },
    ),
  );
  installAccessLog(app, ctx.logger);
  const rateLimiter = createSignerRateLimiter({ perMinute: limits.signerRatePerMinute, burst: limits.signerBurst });
  // Signed bodies are authenticated on their raw bytes before they are parsed (docs/spec.md G.18): signature,
  // registration, nonce and rate. Parsing a valid 1 MiB JSON body costs tens of milliseconds of the event loop,
  // which anyone could otherwise spend with unsigned or unregistered requests.
  const signers = new WeakMap<FastifyRequest, Signer>();
  const signedRoutes = new Map<string, RecordKind>([
    ['/v1/sssa', 'sssa'],
    ['/v1/peer-scores', 'peer_score'],
  ]);
  parseJsonAfterByteCheck(app, async (request, bytes) => {
    const kind = signedRoutes.get(request.routeOptions.url ?? '');
    if (kind === undefined) return undefined;
    if (kind === 'sssa' && configured('sssa') === undefined)
      return new RefusedBeforeParsing({ status: 404, body: { code: 'CHALLENGE_NOT_CONFIGURED', message: 'no sssa challenge runs on this validator' } });
    const checked = await signedCheck(request, bytes, kind);
    if ('status' in checked) return new RefusedBeforeParsing(checked);
    signers.set(request, checked);
    return undefined;
  });

  // A refused write's cause (a full disk, a read-only file, PostgreSQL down) is logged at most once a minute: the access
  // log line of each 503 names only the code, and the epoch loop's warning comes at the next write it does.
  let storageWarnedAtMs: number | undefined;
  app.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, request, reply) => {
    if (error instanceof RefusedBeforeParsing) return refuse(reply, error.refused);
    const status = error.statusCode ?? 500;
    const kind = kindOf(request.url);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      ctx.metrics.recordsRejected.inc({ kind, reason: 'body_too_large' });
      const setting = limitSetting('server.body_limit_bytes', ctx.bodyLimit, MAX_BODY_LIMIT_BYTES);
      noteLimit(request, setting);
      return fail(reply, 413, { code: 'BODY_TOO_LARGE', message: `the body exceeds ${ctx.bodyLimit} bytes; the limit is ${setting}` });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      ctx.metrics.recordsRejected.inc({ kind, reason: 'unsupported_media_type' });
      return fail(reply, 415, mediaTypeError(request.headers['content-type']));
    }
    if (status === 400 && (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')) {
      ctx.metrics.recordsRejected.inc({ kind, reason: 'malformed_json' });
      return fail(reply, 400, { code: 'MALFORMED_JSON', message: `the body is not valid JSON: ${malformedJsonCause(error)}` });
    }
    if (isSubnetError(error, VALIDATOR_ERROR_CODES.epochClosed)) {
      // HA: the leader closed the epoch this instance still thinks current; the next send lands in the next one.
      ctx.metrics.recordsRejected.inc({ kind, reason: 'epoch_closed' });
      reply.header('retry-after', '1');
      return fail(reply, 503, { code: 'EPOCH_CLOSED', message: error.message });
    }
    if (isSubnetError(error, VALIDATOR_ERROR_CODES.storage)) {
      // Storage unreachable (PostgreSQL down, disk full): the client should retry, not drop the record.
      ctx.metrics.recordsRejected.inc({ kind, reason: 'storage_unavailable' });
      const nowMs = Date.now();
      if (storageWarnedAtMs === undefined || nowMs - storageWarnedAtMs >= 60_000) {
        storageWarnedAtMs = nowMs;
        ctx.logger.warn(
          { code: 'STORAGE_UNAVAILABLE', error: redactUrl(error.message) },
          `a record was not stored: ${redactUrl(error.message)}; ingest answers 503 STORAGE_UNAVAILABLE until storage takes writes again (said at most once a minute)`,
        );
      }
      reply.header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS));
      return fail(reply, 503, { code: 'STORAGE_UNAVAILABLE', message: 'storage is unreachable; retry later' });
    }
    if (status >= 500) ctx.logger.error({ err: { message: error.message, code: error.code }, url: request.url }, 'request failed');
    return fail(reply, status, { code: status >= 500 ? 'INTERNAL' : (error.code ?? 'BAD_REQUEST'), message: status >= 500 ? 'internal error' : error.message });
  });
  app.addHook('onRequest', async (request, reply) => {
    // A POST to no endpoint is answered 404 by the not-found handler: its path is what is wrong, not its content-type.
    if (request.method !== 'POST' || request.is404) return;
    const type = request.headers['content-type'] ?? '';
    if (!/^application\/json(;|$)/i.test(type)) {
      ctx.metrics.recordsRejected.inc({ kind: kindOf(request.url), reason: 'unsupported_media_type' });
      await fail(reply, 415, mediaTypeError(type));
    }
  });
  // The method and path (no query string: it may hold a token) say which endpoint the client asked for.
  app.setNotFoundHandler((request, reply) =>
    fail(reply, 404, { code: 'NOT_FOUND', message: `no such endpoint: ${request.method} ${request.url.split('?')[0] ?? ''} (README: HTTP API)` }),
  );
  app.addHook('preValidation', shapeCheckHook(ctx.metrics, kindOf, ctx.inputLimits));

  const token = Buffer.from(`Bearer ${ctx.executorToken}`);
  const authorised = (request: FastifyRequest): boolean => {
    const header = request.headers.authorization;
    if (typeof header !== 'string') return false;
    const given = Buffer.from(header);
    return given.length === token.length && timingSafeEqual(given, token);
  };
  const configured = (kind: EpochConfig['challenges'][number]['kind']) => ctx.scoring.challenges.find((c) => c.kind === kind);
  // The executor's endpoints check the bearer token on the headers, as the route's own onRequest hook: before the
  // body is read and parsed (docs/spec.md G.18).
  const requireToken = (kind: RecordKind) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (authorised(request)) return;
    ctx.metrics.recordsRejected.inc({ kind, reason: 'unauthorized' });
    await fail(reply, 401, unauthorized(request));
  };

  async function store(
    reply: FastifyReply,
    kind: RecordKind,
    recordId: string,
    body: Record<string, unknown>,
    /** The refusal of other content under the same record id; default `RECORD_CONFLICT` naming the record id. */
    conflict?: ErrorBody,
    /** The epoch whose close takes the record (peer scores: peer-window.ts); default the current one. */
    closeEpoch?: number,
  ): Promise<FastifyReply> {
    const epoch = closeEpoch ?? ctx.currentEpoch();
    if (epoch === undefined) return fail(reply, 503, { code: 'NOT_READY', message: 'the chain head is not known yet' });
    const text = canonicalJson(body);
    const outcome = await ctx.queue.submit({ kind, recordId, epoch, body: text, digest: createHash('sha256').update(text).digest('hex') });
    if (outcome.status === 'conflict') {
      ctx.metrics.recordsRejected.inc({ kind, reason: 'conflict' });
      return fail(reply, 409, conflict ?? { code: 'RECORD_CONFLICT', message: `record ${recordId} was already accepted with different content` });
    }
    ctx.metrics.recordsAccepted.inc({ kind, outcome: outcome.status });
    const stored = outcome.status === 'duplicate' ? await ctx.storage.findRecord(kind, recordId) : undefined;
    return reply
      .code(outcome.status === 'inserted' ? 201 : 200)
      .send({ status: outcome.status === 'inserted' ? 'accepted' : 'duplicate', record_id: recordId, epoch: stored?.epoch ?? epoch, seq: outcome.seq });
  }

  function executorRoute<S extends z.ZodType>(
    path: string,
    kind: RecordKind,
    challenge: EpochConfig['challenges'][number]['kind'],
    schema: S,
    check: (body: z.output<S>) => void,
    sentAt: (path: string) => string | undefined,
    enrich: (body: z.output<S>, neuron: ChainNeuron) => Record<string, unknown>,
  ): void {
    app.post(path, { onRequest: requireToken(kind) }, async (request, reply) => {
      if (configured(challenge) === undefined) {
        ctx.metrics.recordsRejected.inc({ kind, reason: 'challenge_not_configured' });
        return fail(reply, 404, { code: 'CHALLENGE_NOT_CONFIGURED', message: `no ${challenge} challenge runs on this validator` });
      }
      const parsed = schema.safeParse(request.body);
      if (!parsed.success) {
        ctx.metrics.recordsRejected.inc({ kind, reason: 'invalid_record' });
        return fail(reply, 400, zodFailure(parsed.error, 'body', request.body));
      }
      const body = parsed.data as z.output<S> & { record_id: string; miner_hotkey: string };
      const misspelt = checkBodyHotkey(body.miner_hotkey, 'body.miner_hotkey');
      if (misspelt !== undefined) return refuseHotkey(reply, kind, misspelt);
      try {
        check(body);
      } catch (error) {
        if (!isSubnetError(error)) throw error;
        ctx.metrics.recordsRejected.inc({ kind, reason: 'invalid_record' });
        // The scoring package names the field from its own arguments; the answer names it as sent (docs/spec.md G.42 (b)).
        return fail(reply, 400, refusalAtSentPath(error, sentAt));
      }
      // Before the first tick has read the metagraph (a restart) no miner is known yet: a registered miner's record is not
      // refused as unregistered, a final 422 its executor would drop, but asked for again (docs/spec.md G.43).
      if (ctx.currentEpoch() === undefined) {
        reply.header('retry-after', '1');
        return fail(reply, 503, notReadyForHotkey('the miner hotkey at body.miner_hotkey', body.miner_hotkey));
      }
      const neuron = await ctx.neuron(body.miner_hotkey);
      if (neuron === undefined) {
        ctx.metrics.recordsRejected.inc({ kind, reason: 'miner_not_registered' });
        return fail(reply, 422, {
          code: 'MINER_NOT_REGISTERED',
          message: `the miner hotkey is not registered on the subnet at body.miner_hotkey (got ${describeValue(body.miner_hotkey)})`,
          path: 'body.miner_hotkey',
        });
      }
      return store(reply, kind, body.record_id, enrich(body, neuron));
    });
  }

  executorRoute(
    '/v1/workflow-runs',
    'workflow_run',
    'workflow',
    ingestWorkflow,
    (b) => {
      scoreWorkflow({ task: b.task, plan: b.plan, record: b.record });
      // At the close the task id becomes a window entry id (docs/spec.md G.2, G.6): one the window refuses is
      // refused here by the window's own rule and code, rather than accepted and then excluded.
      checkWindowId((b.task as { task_id: string }).task_id, 'body.task.task_id');
    },
    workflowSentPath,
    (b, n) => ({ ...b, miner_uid: n.uid }),
  );
  executorRoute(
    '/v1/term-results',
    'term_result',
    'term_pass_rate',
    ingestTerm,
    (b) => {
      const term = configured('term_pass_rate');
      const total = term?.kind === 'term_pass_rate' ? term.total_tasks : 1;
      passRate(
        b.results.map((t) => ({ taskId: t.task_id, testsPassed: t.tests_passed, testsTotal: t.tests_total, timedOut: t.timed_out })),
        total,
      );
    },
    termSentPath,
    (b) => ({ ...b }),
  );
  executorRoute(
    '/v1/bounty-records',
    'bounty',
    'bounty',
    ingestBounty,
    () => undefined,
    () => undefined,
    (b) => ({ ...b }),
  );

  /** A body hotkey refused by `checkBodyHotkey`, counted as `wrong_ss58_prefix` or `invalid_record`. */
  function refuseHotkey(reply: FastifyReply, kind: RecordKind, refused: IngestError): FastifyReply {
    ctx.metrics.recordsRejected.inc({ kind, reason: refused.code === INGEST_ERROR_CODES.wrongSs58Prefix ? 'wrong_ss58_prefix' : 'invalid_record' });
    return fail(reply, refused.status, ingestErrorBody(refused));
  }

  /**
   * Who signed a request, or why it is refused: signature, registration, nonce and rate, each refusal counted. Run on
   * the raw bytes before the body is parsed (docs/spec.md G.18), so a stranger's body is never parsed.
   */
  async function signedCheck(request: FastifyRequest, bytes: Uint8Array, kind: RecordKind): Promise<Signer | Refused> {
    const check = verifySignedRequest({
      headers: request.headers,
      method: request.method,
      path: request.url.split('?')[0] ?? request.url,
      body: bytes,
      nowMs: ctx.now(),
      maxSkewMs: ctx.maxSkewMs,
      receiver: ctx.hotkey,
      requireReceiver: ctx.requireReceiver === true,
    });
    if (!check.ok) {
      ctx.metrics.recordsRejected.inc({ kind, reason: check.reason });
      const [status, code] = (
        {
          missing_signature: [401, 'UNSIGNED'],
          malformed_signature: [401, 'MALFORMED_SIGNATURE'],
          wrong_ss58_prefix: [400, 'WRONG_SS58_PREFIX'],
          wrong_receiver: [421, 'WRONG_RECEIVER'],
          stale_timestamp: [401, 'STALE_TIMESTAMP'],
          bad_signature: [401, 'BAD_SIGNATURE'],
        } as const
      )[check.reason];
      return { status, body: { code, message: check.message, path: `headers.${check.header}` } };
    }
    // From here the hotkey is its one spelling (SS58, prefix 42): one key, one nonce space, one rate bucket.
    noteSigner(request, check.hotkey);
    // How many valid signatures bind their receiver: an operator sees when `server.require_receiver` can be turned on.
    ctx.metrics.signedRequests.inc({ kind, binding: check.bound ? 'receiver' : 'none' });
    // Registration first: an unregistered signer is refused before it gets a rate bucket or costs a storage read,
    // so a flood of fresh keys cannot grow the limiter's map (docs/spec.md G.6).
    // Before the first metagraph read (a restart) a registered signer is not refused as unregistered (final to a miner).
    if (ctx.currentEpoch() === undefined) return { status: 503, body: notReadyForHotkey('the signing hotkey', check.hotkey), retryAfterSeconds: 1 };
    const neuron = await ctx.neuron(check.hotkey);
    if (neuron === undefined) {
      ctx.metrics.recordsRejected.inc({ kind, reason: 'not_registered' });
      return {
        status: 403,
        body: { code: 'NOT_REGISTERED', message: `the signing hotkey ${check.hotkey} is not registered on the subnet`, path: 'headers.x-subnet-hotkey' },
      };
    }
    // A replay of a used nonce (anyone who saw the request can send it again) is refused before the
    // signer's bucket is touched, so replays cannot spend an honest signer's budget; so is a request signed
    // before the nonce horizon, whose nonce may have been pruned (docs/spec.md G.6).
    const seen = await ctx.storage.checkNonce(check.hotkey, check.nonce, check.timestamp);
    if (seen.state === 'pruned') return beforeHorizon(kind, check.timestamp, seen.horizonMs);
    if (seen.state === 'replayed') return nonceReplayed(kind);
    const rate = rateLimiter.take(check.hotkey);
    ctx.metrics.signerRateBuckets.set(rateLimiter.size());
    if (!rate.ok) {
      ctx.metrics.recordsRejected.inc({ kind, reason: 'rate_limited' });
      const setting = `${limitSetting('server.signer_rate_per_minute', limits.signerRatePerMinute, MAX_SIGNER_RATE)} with a burst of ${limitSetting('server.signer_burst', limits.signerBurst, MAX_SIGNER_RATE)}`;
      noteLimit(request, setting);
      return {
        status: 429,
        body: { code: 'RATE_LIMITED', message: `too many requests from this signer; retry after ${rate.retryAfterSeconds} s; the limit is ${setting}` },
        retryAfterSeconds: rate.retryAfterSeconds,
      };
    }
    const use = await ctx.storage.useNonce(check.hotkey, check.nonce, check.timestamp);
    if (use.state === 'pruned') return beforeHorizon(kind, check.timestamp, use.horizonMs);
    if (use.state === 'replayed') return nonceReplayed(kind);
    return { hotkey: check.hotkey, neuron };
  }
  /**
   * A request signed before the nonce horizon: the nonces of requests that old are pruned, so a replay cannot be
   * told from a first use. Within the skew only when the skew was raised since, or another instance's clock is
   * ahead (docs/spec.md G.6).
   */
  function beforeHorizon(kind: RecordKind, timestamp: number, horizonMs: number): Refused {
    ctx.metrics.recordsRejected.inc({ kind, reason: 'stale_timestamp' });
    return {
      status: 401,
      body: {
        code: 'STALE_TIMESTAMP',
        message:
          `signed request refused: x-subnet-timestamp ${timestamp} is before ${horizonMs}, the oldest timestamp whose nonces this validator still keeps, ` +
          'so a replay of it could not be told from a first use; sign it again with the current time and a fresh nonce',
        path: 'headers.x-subnet-timestamp',
      },
    };
  }
  function nonceReplayed(kind: RecordKind): Refused {
    ctx.metrics.recordsRejected.inc({ kind, reason: 'nonce_replayed' });
    return {
      status: 409,
      body: {
        code: 'NONCE_REPLAYED',
        message: 'this nonce was already used by this signer; sign every request, a retry included, with a fresh nonce and timestamp',
        path: 'headers.x-subnet-nonce',
      },
    };
  }
  /**
   * The signer of a signed route's request. Its body's parser checked it (every POST reaching a handler is
   * `application/json`, so parsed, and a refused one ends in the error handler), so it is always there.
   */
  function signer(request: FastifyRequest): Signer {
    const checked = signers.get(request);
    if (checked === undefined) throw new Error(`${request.url} reached its handler without the signed-request check of its body`);
    return checked;
  }

  app.post('/v1/tasks', { onRequest: requireToken('task') }, async (request, reply) => {
    if (configured('sssa') === undefined) return fail(reply, 404, { code: 'CHALLENGE_NOT_CONFIGURED', message: 'no sssa challenge runs on this validator' });
    const parsed = taskIngestSchema.safeParse(request.body);
    if (!parsed.success) {
      ctx.metrics.recordsRejected.inc({ kind: 'task', reason: 'invalid_record' });
      return fail(reply, 400, zodFailure(parsed.error, 'body', request.body));
    }
    const epoch = ctx.currentEpoch();
    if (epoch === undefined) return fail(reply, 503, { code: 'NOT_READY', message: 'the chain head is not known yet' });
    const outcome = await ctx.tasks.register(epoch, parsed.data.task_id, parsed.data.task_type);
    if (outcome.status === 'not_ready')
      return fail(reply, 503, { code: INGEST_ERROR_CODES.tasksNotReady, message: `the candidate snapshot of epoch ${epoch} is being taken; retry shortly` });
    if (outcome.status === 'conflict') {
      ctx.metrics.recordsRejected.inc({ kind: 'task', reason: 'conflict' });
      return fail(reply, 409, { code: INGEST_ERROR_CODES.taskAlreadyRegistered, message: 'a task with this id was already registered', path: 'body.task_id' });
    }
    ctx.metrics.recordsAccepted.inc({ kind: 'task', outcome: outcome.status === 'registered' ? 'inserted' : 'duplicate' });
    return reply.code(outcome.status === 'registered' ? 201 : 200).send({ status: outcome.status, ...taskAnswer(outcome.task) });
  });

  app.get('/v1/tasks/:id', async (request, reply) => {
    const id = (request.params as { id: string }).id;
    // No task has an id holding U+0000 (ingest refuses it; PostgreSQL could not even be asked for it).
    const task = storableTaskId(id) ? await ctx.tasks.lookup(id) : undefined;
    if (task === undefined)
      return fail(reply, 404, {
        code: INGEST_ERROR_CODES.unknownTask,
        message: `no task with this id was registered with this validator at params.id (got ${describeValue(id)})`,
        path: 'params.id',
      });
    return taskAnswer(task);
  });

  // Signature, registration, nonce and rate (and, for SSSAs, the challenge configured) were checked with the body.
  app.post('/v1/sssa', async (request, reply) => {
    const who = signer(request);
    const parsed = sssaIngestSchema.safeParse(request.body);
    if (!parsed.success) {
      ctx.metrics.recordsRejected.inc({ kind: 'sssa', reason: 'invalid_record' });
      return fail(reply, 400, zodFailure(parsed.error, 'body', request.body));
    }
    const assigned = checkSssaAssignment(await ctx.tasks.lookup(parsed.data.task_id), ctx.currentEpoch(), who.hotkey, parsed.data.task_id);
    if ('status' in assigned) {
      ctx.metrics.recordsRejected.inc({ kind: 'sssa', reason: assigned.code.toLowerCase() });
      if (assigned.status === 503) reply.header('retry-after', '1');
      return fail(reply, assigned.status, ingestErrorBody(assigned));
    }
    try {
      parseSssa(parsed.data.sssa);
    } catch (error) {
      if (!isSubnetError(error)) throw error;
      ctx.metrics.recordsRejected.inc({ kind: 'sssa', reason: 'invalid_record' });
      // Named as sent (body.sssa.…), the message without its `[CODE] `, as every ingest refusal (docs/spec.md G.42 (b), G.46 (c)).
      return fail(reply, 400, refusalAtSentPath(error, sssaSentPath));
    }
    const recordId = `sssa-${digest({ task_id: parsed.data.task_id, hotkey: who.hotkey }).slice(0, 40)}`;
    return store(
      reply,
      'sssa',
      recordId,
      { record_id: recordId, ...parsed.data, miner_uid: who.neuron.uid, miner_hotkey: who.hotkey },
      {
        code: INGEST_ERROR_CODES.duplicateSssa,
        message: `this miner already sent a different SSSA for task ${JSON.stringify(parsed.data.task_id)}; one SSSA per miner per task is taken`,
        path: 'body.task_id',
      },
    );
  });

  app.post('/v1/peer-scores', async (request, reply) => {
    const who = signer(request);
    if (who.hotkey === ctx.hotkey) {
      ctx.metrics.recordsRejected.inc({ kind: 'peer_score', reason: 'self_signed' });
      return fail(reply, 403, {
        code: INGEST_ERROR_CODES.selfSignedPeerScores,
        message: "a peer-score document signed with this validator's own hotkey is not a peer's",
      });
    }
    // A permit granted since the metagraph was last read is seen after one (throttled) re-read, as an
    // unknown signer's registration is: the peer's publisher retries this refusal (docs/spec.md G.4).
    if (!who.neuron.validatorPermit && (await ctx.permitHolder(who.hotkey))?.validatorPermit !== true) {
      ctx.metrics.recordsRejected.inc({ kind: 'peer_score', reason: 'not_a_validator' });
      return fail(reply, 403, {
        code: 'NOT_A_VALIDATOR',
        message: `the signing hotkey ${who.hotkey} has no validator permit`,
        path: 'headers.x-subnet-hotkey',
      });
    }
    const parsed = ingestPeer.safeParse(request.body);
    if (!parsed.success) {
      ctx.metrics.recordsRejected.inc({ kind: 'peer_score', reason: 'invalid_record' });
      return fail(reply, 400, zodFailure(parsed.error, 'body', request.body));
    }
    const challenge = ctx.scoring.challenges.find((c) => c.id === parsed.data.challenge_id);
    if (challenge === undefined || challenge.kind === 'bounty') {
      ctx.metrics.recordsRejected.inc({ kind: 'peer_score', reason: 'challenge_not_configured' });
      // The id sent, quoted: a peer's publisher or its operator sees which of its challenges this validator does not run.
      const sent = describeValue(parsed.data.challenge_id);
      return fail(reply, 404, {
        code: 'CHALLENGE_NOT_CONFIGURED',
        message:
          challenge === undefined
            ? `no evaluation challenge with this id runs on this validator at body.challenge_id (got ${sent})`
            : `the challenge with this id is a bounty challenge, which takes no peer scores (its records come from the executor) at body.challenge_id (got ${sent})`,
        path: 'body.challenge_id',
      });
    }
    // Every score is carried into the bundle: a document scores at most every neuron once (docs/spec.md G.4).
    const oversized = await checkPeerScoreCount(parsed.data.scores.length, (n) => ctx.neuronCount(n));
    if (oversized !== undefined) {
      ctx.metrics.recordsRejected.inc({ kind: 'peer_score', reason: 'exceeds_metagraph' });
      return fail(reply, oversized.status, ingestErrorBody(oversized));
    }
    // Every scored hotkey in its one spelling, as the header: another spelling of a registered miner would be
    // accepted here and excluded at the close as unregistered (docs/spec.md G.6 "A hotkey in an ingest body has the
    // same one spelling").
    for (const [i, s] of parsed.data.scores.entries()) {
      const misspelt = checkBodyHotkey(s.miner_hotkey, `body.scores[${i}].miner_hotkey`);
      if (misspelt !== undefined) return refuseHotkey(reply, 'peer_score', misspelt);
    }
    // Scores of the epoch the peer just closed (or of the current one) count in the close after their
    // epoch (docs/spec.md G.4); decided again in the turn that queues the write, so a close that starts
    // meanwhile drains it first.
    const recordId = `peer-${digest({ v: who.hotkey, e: parsed.data.epoch, c: parsed.data.challenge_id }).slice(0, 40)}`;
    const admitted = await admitPeerScores(ctx, parsed.data.epoch, (closeEpoch) =>
      store(
        reply,
        'peer_score',
        recordId,
        { validator_hotkey: who.hotkey, ...parsed.data },
        {
          code: 'RECORD_CONFLICT',
          message: `this validator already sent different scores of epoch ${parsed.data.epoch} for challenge ${JSON.stringify(parsed.data.challenge_id)}; one document per validator, epoch and challenge is taken (SPEC C.2)`,
          path: 'body',
        },
        closeEpoch,
      ),
    );
    if (admitted.ok) return admitted.written;
    ctx.metrics.recordsRejected.inc({ kind: 'peer_score', reason: `epoch_${admitted.reason}` });
    return fail(reply, admitted.reason === 'not_ready' ? 503 : 409, {
      code: admitted.reason === 'not_ready' ? 'NOT_READY' : 'WRONG_EPOCH',
      message: admitted.message,
      path: 'body.epoch',
    });
  });

  // Heads only, never the bundles: anyone may ask, and 100 bundles are tens of megabytes read on the event loop (docs/spec.md G.14).
  app.get('/v1/epochs', async () => {
    const { heads, deciding } = await headsAndHolder(ctx.storage, 100);
    const embargoes = embargoesAmong(deciding);
    return { epochs: heads.map((row) => epochSummary(row, embargoes.get(row.epoch))) };
  });
  // Commit-reveal: an epoch's weights and per-miner scores wait for the reveal, and so does every later epoch's bundle,
  // which carries them on (bundle-embargo.ts, docs/spec.md G.23).
  const retryAfter = (embargo: Embargo): number => retryAfterSeconds(embargo, (block) => ctx.secondsUntilBlock?.(block));
  app.get('/v1/epochs/:n/bundle', async (request, reply) => {
    const n = (request.params as { n: string }).n;
    // One spelling per epoch (docs/spec.md G.42 (a)): `01` is refused as `abc` is, not served as epoch 1.
    const problem = epochSpellingProblem(n);
    if (problem !== undefined)
      return fail(reply, 400, {
        code: 'INVALID_EPOCH',
        message: `${problem} at params.n (got ${describeValue(n)})`,
        path: 'params.n',
      });
    const row = await ctx.storage.getEpoch(Number(n));
    if (row?.bundle === null || row?.bundle === undefined || row.bundle.startsWith('{"pending"'))
      return fail(reply, 404, { code: 'BUNDLE_NOT_FOUND', message: `no bundle for epoch ${n}` });
    // An epoch without an embargo of its own is held while an earlier one is embargoed (G.23), however old.
    const embargo =
      embargoOf(row) ??
      embargoAmong(
        row,
        [await ctx.storage.unsettledBefore(row.epoch)].filter((r) => r !== undefined),
      );
    if (embargo !== undefined) {
      const seconds = retryAfter(embargo);
      return reply.code(EMBARGO_STATUS).header('retry-after', String(seconds)).send(embargoError(embargo, seconds));
    }
    // Commit-reveal v4: the text signed at close, with the reveal attestation once the outcome is recorded (reveal-attest.ts).
    return reply
      .code(200)
      .header('content-type', 'application/json; charset=utf-8')
      .send(servedBundleText({ ...row, bundle: row.bundle }));
  });
  app.get('/v1/weights/latest', async (_request, reply) => {
    // An epoch still `submitting` (its block not final yet, or its outcome unknown) is not served: on a timelocked subnet
    // its embargo is only known once a final block holds its commit (docs/spec.md G.8), and its weights are not yet set.
    const { heads, deciding } = await headsAndHolder(ctx.storage, 100);
    const computed = heads.filter((r) => r.u16 !== null && r.status !== 'submitting');
    // The newest weights that are public: newer epochs whose commit is not revealed yet, and those after them (which
    // carry their scores, G.23), are listed, not shown.
    const embargoes = embargoesAmong(deciding);
    const embargoed = computed.flatMap((r) => {
      const embargo = embargoes.get(r.epoch);
      return embargo === undefined ? [] : [{ epoch: r.epoch, ...embargoFields(embargo) }];
    });
    const row = computed.find((r) => embargoes.get(r.epoch) === undefined);
    if (row === undefined) {
      const newest = computed[0] === undefined ? undefined : embargoes.get(computed[0].epoch);
      if (newest !== undefined) {
        const seconds = retryAfter(newest);
        return reply.code(EMBARGO_STATUS).header('retry-after', String(seconds)).send(embargoError(newest, seconds));
      }
      return fail(reply, 404, { code: 'NO_WEIGHTS', message: 'no epoch has been computed and recorded yet' });
    }
    const newer = embargoed.filter((e) => e.epoch > row.epoch);
    return { epoch: row.epoch, status: row.status, ...(JSON.parse(row.u16 ?? '{}') as object), ...(newer.length === 0 ? {} : { embargoed: newer }) };
  });
  app.get('/metrics', async (_request, reply) => reply.header('content-type', ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics()));
  app.get('/healthz', () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (ctx.readiness === undefined) {
      return ctx.ready()
        ? reply.send({ status: 'ready', epoch: ctx.currentEpoch() })
        : fail(reply, 503, { code: 'NOT_READY', message: 'storage or chain not ready' });
    }
    const report = await ctx.readiness();
    if (report.ready && ctx.ready()) return reply.send({ status: 'ready', epoch: ctx.currentEpoch(), checks: report.checks });
    const failing = Object.entries(report.checks)
      .filter(([, c]) => !c.ok)
      .map(([name, c]) => `${name}: ${c.detail}`);
    const step = ctx.startingStep?.();
    const message =
      failing.length > 0
        ? `not ready: ${failing.join('; ')}`
        : `not ready: the first chain head tick has not finished${step === undefined ? '' : ` (now: ${step})`}`;
    return reply.code(503).send({ error: { code: 'NOT_READY', message }, status: 'not_ready', checks: report.checks });
  });
  registerValidatorPages(app, ctx.storage);
  return app;
}

/** Seconds a client is told to wait (`Retry-After`) when storage is unreachable. */
const STORAGE_RETRY_AFTER_SECONDS = 5;

/** An epoch in `GET /v1/epochs`; `embargo` is what holds its bundle back (its own, or an earlier epoch's: `held_by`, G.23). */
function epochSummary(row: EpochHead, embargo: Embargo | undefined): Record<string, unknown> {
  return {
    epoch: row.epoch,
    status: row.status,
    digest: row.digest,
    submission: row.submission === null ? null : (JSON.parse(row.submission) as unknown),
    bundle: row.digest === null ? null : `/v1/epochs/${row.epoch}/bundle`,
    reveal: revealSummary(row),
    embargo: embargo === undefined ? null : { code: BUNDLE_EMBARGOED, ...embargoFields(embargo) },
  };
}

/**
 * The epoch's commit-reveal v4 reveal as confirmed after the fact (null when the submission was no timelocked
 * commit): status and details, without the stored commit record or a v2 commit's salt (G.22). Not part of the signed
 * bundle (docs/spec.md G.6).
 */
function revealSummary(row: EpochHead): Record<string, unknown> | null {
  if (row.revealStatus === null) return null;
  let details: Record<string, unknown> = {};
  try {
    details = JSON.parse(row.reveal ?? '{}') as Record<string, unknown>;
  } catch {
    details = {};
  }
  // Never served: a timelocked commit's record, and a v2 commit's salt (it would let anyone check guessed weights).
  const { record: _record, commit: _commit, ...shown } = details;
  return { status: row.revealStatus, ...shown };
}

/**
 * A task's answer: id, type, epoch, block hash, seed and the group with each member's uid, hotkey and role. Not the
 * members' reputations: the table the draw read is the last close's SSSA outcome, which its bundle carries under that
 * epoch's embargo (docs/spec.md G.23); anyone may ask `GET /v1/tasks/{id}`.
 */
function taskAnswer(task: RegisteredTask): Record<string, unknown> {
  const a = task.assignment;
  return {
    task_id: a.taskId,
    task_type: a.taskType,
    epoch: task.epoch,
    block_hash: a.blockHash,
    seed: a.seed,
    group: a.members.map((m) => ({ uid: m.uid, hotkey: m.hotkey, role: m.role })),
    shortfall: a.shortfall,
  };
}

function kindOf(url: string): RecordKind | 'other' {
  if (url.startsWith('/v1/tasks')) return 'task';
  if (url.startsWith('/v1/workflow-runs')) return 'workflow_run';
  if (url.startsWith('/v1/term-results')) return 'term_result';
  if (url.startsWith('/v1/bounty-records')) return 'bounty';
  if (url.startsWith('/v1/sssa')) return 'sssa';
  if (url.startsWith('/v1/peer-scores')) return 'peer_score';
  return 'other';
}
