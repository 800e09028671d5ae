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

/**
 * Fastify's `clientErrorHandler`: answers what Node refused before a request existed or while its body was still
 * arriving (408 when the headers or the whole request did not arrive in time, naming the deadline that ran out and
 * its setting, docs/spec.md G.26; 431 for oversized headers; 400 otherwise), logs it as an access line with a code
 * (and for a 408 the setting, as `limit`), and always destroys the socket.
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
    const [status, code] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT']
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'HEADERS_TOO_LARGE']
          : [400, 'BAD_REQUEST'];
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
    const message = missed?.message ?? (status === 408 ? 'the request did not arrive in time' : 'the request could not be read');
    const body = JSON.stringify({ error: { code, message } });
    if (socket.writable && (requests?.mayAnswer(socket) ?? true)) {
      socket.write(
        `HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
