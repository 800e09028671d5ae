import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

import { MAX_HTTP_TIMEOUT_MS } from './config.js';
import type { HttpLimits } from './http-limits.js';
import { limitSetting } from './limit-setting.js';

/** The deadline a request missed, as its 408 answer and access log line name it (docs/spec.md G.26). */
export interface MissedDeadline {
  /** `headers`: the request's headers were not complete in time; `request`: its headers were, its body was not. */
  readonly deadline: 'headers' | 'request';
  /** The answer's message: the cause, then `; the limit is` and the setting ({@link limitSetting}). */
  readonly message: string;
  /** The setting alone, for the access log line's `limit`. */
  readonly setting: string;
}

/** What the server knows of each socket's latest request: its message and its response. */
export interface RequestTracker {
  /**
   * Follows a server's requests: each time Node emits one (its headers complete), remembers it by its socket.
   *
   * @param server - the Node HTTP server (fastify's `app.server`), before it listens
   */
  readonly follow: (server: Server) => void;
  /**
   * Names the deadline a socket's current request missed. Node (20 to 26) reports both deadlines as one
   * `ERR_HTTP_REQUEST_TIMEOUT` and measures them from the same instant (the start of the message): a message whose
   * headers were complete (Node emitted its `request`) can only have missed `server.request_timeout_ms`; one whose
   * headers were not missed `server.headers_timeout_ms`, which is never the longer (config.ts refuses it).
   *
   * @param socket - the socket Node's `clientError` names
   * @returns the deadline and its sentence
   */
  readonly missed: (socket: Socket) => MissedDeadline;
  /**
   * Whether a reply may still be written on the socket: not when a response of its has sent its headers and not
   * finished (a 408 written then would corrupt it; Node's own `socketOnError` holds back the same way).
   *
   * @param socket - the socket
   * @returns true when nothing of a response is on the wire unfinished
   */
  readonly mayAnswer: (socket: Socket) => boolean;
}

/**
 * A tracker of each socket's latest request, so a timeout refusal can tell which deadline ran out (docs/spec.md G.26).
 *
 * @param limits - the server's limits
 * @returns the tracker; call `follow` with the server once it exists
 * @example const requests = requestTracker(limits); Fastify({ clientErrorHandler: clientErrorLogger(logger, requests) }); requests.follow(app.server)
 */
export function requestTracker(limits: HttpLimits): RequestTracker {
  const latest = new WeakMap<Socket, IncomingMessage>();
  // Every response of a socket not finished yet: with pipelining, an earlier one may still be on the wire.
  const open = new WeakMap<Socket, Set<ServerResponse>>();
  return {
    follow: (server) => {
      server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        latest.set(req.socket, req);
        const responses = open.get(req.socket) ?? new Set<ServerResponse>();
        open.set(req.socket, responses);
        responses.add(res);
        const done = (): void => {
          responses.delete(res);
        };
        res.once('finish', done);
        res.once('close', done);
      });
    },
    missed: (socket) => {
      const current = latest.get(socket);
      return current !== undefined && !current.complete ? missedDeadline('request', limits) : missedDeadline('headers', limits);
    },
    mayAnswer: (socket) => ![...(open.get(socket) ?? [])].some((res) => res.headersSent && !res.writableFinished),
  };
}

/**
 * The sentence of a missed deadline.
 *
 * @param deadline - which one ran out
 * @param limits - the server's limits
 * @returns the deadline, its message and its setting
 * @example missedDeadline('headers', DEFAULT_HTTP_LIMITS).message // "the request's headers did not arrive within 10000 ms; the limit is server.headers_timeout_ms = 10000 (…)"
 */
export function missedDeadline(deadline: 'headers' | 'request', limits: HttpLimits): MissedDeadline {
  if (deadline === 'headers') {
    const setting = limitSetting('server.headers_timeout_ms', limits.headersTimeoutMs, MAX_HTTP_TIMEOUT_MS);
    return { deadline, setting, message: `the request's headers did not arrive within ${limits.headersTimeoutMs} ms; the limit is ${setting}` };
  }
  const setting = limitSetting('server.request_timeout_ms', limits.requestTimeoutMs, MAX_HTTP_TIMEOUT_MS);
  return {
    deadline,
    setting,
    message: `the request's body did not arrive within ${limits.requestTimeoutMs} ms of its start (its headers did); the limit is ${setting}`,
  };
}
