import type { Server } from 'node:http';

/** Timeouts and limits of the HTTP server (config `server.*`). */
export interface HttpLimits {
  /** Whole request (headers and body) must arrive within this (ms); a slowly sent body gets 408 and is closed. */
  readonly requestTimeoutMs: number;
  /** Headers must arrive within this (ms) from the connection (or the previous request); else 408 and closed. */
  readonly headersTimeoutMs: number;
  /** An idle keep-alive socket is closed after this (ms). */
  readonly keepAliveTimeoutMs: number;
  /** Open connections at most; further connections are closed at once by Node. */
  readonly maxConnections: number;
  /** Signed requests per minute per signer hotkey on the miner and peer endpoints (token bucket refill). */
  readonly signerRatePerMinute: number;
  /** Signed requests a signer may send at once (token bucket size). */
  readonly signerBurst: number;
}

/** The defaults (also the configuration defaults). */
export const DEFAULT_HTTP_LIMITS: HttpLimits = Object.freeze({
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1024,
  signerRatePerMinute: 120,
  signerBurst: 30,
});

/**
 * The fastify/Node server options that enforce the timeouts. Node checks the header and request deadlines
 * every `connectionsCheckingInterval`, which is set to a quarter of the shorter one (at most 1 s) so that
 * a deadline is enforced within 25 % of its value; the socket inactivity timeout (`connectionTimeout`)
 * closes a socket that sends nothing at all for the request timeout.
 *
 * @param limits - the limits
 * @returns options to spread into `Fastify({...})`
 * @example Fastify({ ...httpServerOptions(DEFAULT_HTTP_LIMITS) })
 */
export function httpServerOptions(limits: HttpLimits): {
  http: { headersTimeout: number; requestTimeout: number; keepAliveTimeout: number; connectionsCheckingInterval: number };
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionTimeout: number;
} {
  const check = Math.max(10, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));
  return {
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: check,
    },
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.requestTimeoutMs,
  };
}

/**
 * Applies what cannot be passed at creation: the connection limit.
 *
 * @param server - the Node HTTP server
 * @param limits - the limits
 * @example applyConnectionLimit(app.server, limits)
 */
export function applyConnectionLimit(server: Server, limits: HttpLimits): void {
  server.maxConnections = limits.maxConnections;
}
