import { maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

import type { RequestTracker } from './request-deadline.js';

const signers = new WeakMap<FastifyRequest, string>();
const codes = new WeakMap<FastifyRequest, string>();
const limits = new WeakMap<FastifyRequest, string>();

/**
 * Notes the verified signer of a request for its access log line.
 *
 * @param request - the request
 * @param hotkey - the signer's hotkey (public)
 * @example noteSigner(request, check.hotkey)
 */
export function noteSigner(request: FastifyRequest, hotkey: string): void {
  signers.set(request, hotkey);
}

/**
 * Notes the setting a limit refusal names (`server.input_limits.max_list_length = 3 (...)`) for the request's access
 * log line, so the operator who reads the log sees what to raise without the answer's body.
 *
 * @param request - the refused request
 * @param setting - the setting and its value, as `limitSetting` writes them
 * @example noteLimit(request, limitSetting('server.body_limit_bytes', 65536))
 */
export function noteLimit(request: FastifyRequest, setting: string): void {
  limits.set(request, setting);
}

const ERROR_CODE = /^\{"error":\{"code":"([A-Z0-9_]{1,64})"/;

/**
 * Logs one line per request when its response is sent: method, path (no query string), status, the error
 * code of an error reply, the verified signer, the duration in ms, the peer address, and for a refusal by a configured
 * limit that limit's setting and value (`limit`, {@link noteLimit}; absent otherwise). Never headers nor
 * bodies (the bearer token, signatures and records stay out of the log).
 *
 * @param app - the fastify instance (before it listens)
 * @param logger - where lines go (`info`, message `request`)
 * @example installAccessLog(app, logger)
 */
export function installAccessLog(app: FastifyInstance, logger: Logger): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      const code = ERROR_CODE.exec(payload)?.[1];
      if (code !== undefined) codes.set(request, code);
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    logger.info(
      {
        method: request.method,
        path: request.url.split('?')[0] ?? '',
        status: reply.statusCode,
        code: codes.get(request) ?? null,
        signer: signers.get(request) ?? null,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        ip: request.ip,
        ...(limits.has(request) ? { limit: limits.get(request) } : {}),
      },
      'request',
    );
  });
}

/** The most bytes of extensions (`;name=value` after a chunk's size) Node's HTTP parser reads for one chunk of a body. */
const MAX_CHUNK_EXTENSIONS_BYTES = 16_384;

/** The answer to a client error Node reports: status, reason phrase, code, and the message (a 408's is replaced by the deadline's). */
interface ClientErrorAnswer {
  readonly status: number;
  readonly reason: string;
  readonly code: string;
  readonly message: string;
}

/** Anything else Node could not parse. */
const UNREADABLE: ClientErrorAnswer = { status: 400, reason: 'Bad Request', code: 'BAD_REQUEST', message: 'the request could not be read' };

/** The client errors answered with their own status and code, by Node's error code (Node's own answers use the same statuses). */
const CLIENT_ERRORS: ReadonlyMap<string | undefined, ClientErrorAnswer> = new Map(
  Object.entries({
    ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', code: 'REQUEST_TIMEOUT', message: 'the request did not arrive in time' },
    // Node's limit on the request line and headers together (`http.maxHeaderSize`, 16384 unless node runs with
    // --max-http-header-size): the cause and the number, as for a chunk's extensions.
    HPE_HEADER_OVERFLOW: {
      status: 431,
      reason: 'Request Header Fields Too Large',
      code: 'HEADERS_TOO_LARGE',
      message: `the request's line and headers are more than ${maxHeaderSize} bytes, the most Node reads for them`,
    },
    HPE_CHUNK_EXTENSIONS_OVERFLOW: {
      status: 413,
      reason: 'Payload Too Large',
      code: 'CHUNK_EXTENSIONS_TOO_LARGE',
      message: `a chunk of the request's body has more than ${MAX_CHUNK_EXTENSIONS_BYTES} bytes of extensions (";name=value" after its size), the most Node reads for one chunk`,
    },
  }),
);

/**
 * Fastify's `clientErrorHandler`: answers what Node refused before a request existed or while its body was still
 * arriving (408 when the headers or the whole request did not arrive in time, naming the deadline that ran out and
 * its setting, docs/spec.md G.26; 431 for oversized headers; 413 for a chunk's extensions past Node's limit, as Node
 * answers them itself; 400 otherwise), logs it as an access line with a code (and for a 408 the setting, as `limit`),
 * and always destroys the socket.
 *
 * @param logger - where the line goes
 * @param requests - the server's {@link RequestTracker}, which tells the deadline a 408 missed; without it a 408
 *   names none
 * @returns the handler
 * @example Fastify({ clientErrorHandler: clientErrorLogger(logger, requests) })
 */
export function clientErrorLogger(logger: Logger, requests?: RequestTracker): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) {
      socket.destroy();
      return;
    }
    const { status, code, reason, message: known } = CLIENT_ERRORS.get(error.code) ?? UNREADABLE;
    const missed = status === 408 ? requests?.missed(socket) : undefined;
    logger.info(
      {
        method: null,
        path: null,
        status,
        code,
        signer: null,
        ms: null,
        ip: socket.remoteAddress ?? null,
        ...(missed === undefined ? {} : { limit: missed.setting }),
      },
      'request',
    );
    const message = missed?.message ?? known;
    const body = JSON.stringify({ error: { code, message } });
    if (socket.writable && (requests?.mayAnswer(socket) ?? true)) {
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
