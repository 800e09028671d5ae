import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Timeouts and limits of the HTTP server (config `server.*`). */
export interface HttpLimits {
  /** Whole request (headers and body) must arrive within this (ms); a slow or stalled body gets 408 and is closed. */
  readonly requestTimeoutMs: number;
  /** Headers must arrive within this (ms) from the connection (or the previous request); else 408 and closed. */
  readonly headersTimeoutMs: number;
  /** An idle keep-alive socket is closed after this (ms). */
  readonly keepAliveTimeoutMs: number;
  /** Open connections at most; further connections are closed at once by Node. */
  readonly maxConnections: number;
  /**
   * Open connections from one source at most (an IPv4 address, an IPv6 /64: {@link connectionSource}); its further
   * connections are closed at once, so one source cannot take every connection (docs/spec.md G.16).
   */
  readonly maxConnectionsPerSource: number;
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
  maxConnectionsPerSource: 128,
  signerRatePerMinute: 120,
  signerBurst: 30,
});

/**
 * The fastify/Node server options that enforce the timeouts. Node checks the header and request deadlines
 * every `connectionsCheckingInterval`, which is set to a quarter of the shorter one (at most 1 s) so that
 * a deadline is enforced within 25 % of its value. The socket inactivity timeout (`connectionTimeout`) closes a socket
 * on which nothing moved for the request deadline, one check and 1 s more: long enough that a request which stalls
 * (headers sent, then no byte of its body) is caught by the request deadline first and answered 408 naming it
 * (docs/spec.md G.26), where the inactivity timeout would close it without a word; it still closes a socket stuck
 * after its request (a client that reads no answer).
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
    connectionTimeout: limits.requestTimeoutMs + check + 1000,
  };
}

/**
 * Applies what cannot be passed at creation: the connection limit, and the limit per source (docs/spec.md G.16): a
 * connection from a source that already holds `maxConnectionsPerSource` open ones is closed at once, before a byte of
 * it is read, and counts for nothing.
 *
 * @param server - the Node HTTP server
 * @param limits - the limits
 * @param onRefused - called with the source of each connection closed for the limit per source
 * @example applyConnectionLimit(app.server, limits)
 */
export function applyConnectionLimit(server: Server, limits: HttpLimits, onRefused?: (source: string) => void): void {
  server.maxConnections = limits.maxConnections;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const source = connectionSource(socket.remoteAddress);
    const held = open.get(source) ?? 0;
    if (held >= limits.maxConnectionsPerSource) {
      socket.destroy();
      onRefused?.(source);
      return;
    }
    open.set(source, held + 1);
    socket.once('close', () => {
      const left = (open.get(source) ?? 1) - 1;
      if (left > 0) open.set(source, left);
      else open.delete(source);
    });
  });
}

/**
 * The source a connection is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 address as its IPv4), an
 * IPv6 address by its first 64 bits (`2001:db8:1:2::/64`: one host is commonly given a whole /64, so a per-address
 * count would not hold it), `unknown` when the socket has no address (already closed).
 *
 * @param address - `socket.remoteAddress`
 * @returns the source key
 * @example connectionSource('2001:db8:1:2:aaaa::1') // '2001:db8:1:2::/64'
 */
export function connectionSource(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped !== null) return mapped[1] ?? address;
  if (!address.includes(':')) return address;
  const bare = address.split('%')[0] ?? address;
  const [head = '', tail] = bare.split('::');
  const groups = (part: string | undefined): string[] => (part === undefined || part === '' ? [] : part.split(':'));
  const before = groups(head);
  const after = groups(tail);
  // An IPv4 tail (::1.2.3.4) is two groups; it only ever sits in the last 32 bits.
  const width = (list: readonly string[]): number => list.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const zeros = tail === undefined ? [] : Array.from({ length: Math.max(0, 8 - width(before) - width(after)) }, () => '0');
  const first = [...before, ...zeros, ...after].slice(0, 4).map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16).toString(16) : g.toLowerCase()));
  return `${first.join(':')}::/64`;
}

/**
 * What the server does with a connection refused for its source (docs/spec.md G.16): counts it, and warns at most
 * once a minute per source (at most 1,000 sources remembered), naming the source and the limit, so an operator
 * behind a reverse proxy, whose every connection comes from the proxy's address, sees why clients are cut off.
 *
 * @param limit - `server.max_connections_per_source`
 * @param count - counts one refusal
 * @param warn - writes one warning
 * @param now - the clock (ms)
 * @returns the `onRefused` callback of {@link applyConnectionLimit}
 * @example applyConnectionLimit(server, limits, refusalReporter(limits.maxConnectionsPerSource, () => metric.inc(), (f, m) => logger.warn(f, m)))
 */
export function refusalReporter(
  limit: number,
  count: () => void,
  warn: (fields: { source: string; limit: number }, message: string) => void,
  now: () => number = Date.now,
): (source: string) => void {
  const warned = new Map<string, number>();
  return (source) => {
    count();
    const t = now();
    const last = warned.get(source);
    if (last !== undefined && t - last < 60_000) return;
    if (last === undefined && warned.size >= 1000) {
      for (const [key, at] of warned) if (t - at >= 60_000) warned.delete(key);
      if (warned.size >= 1000) return;
    }
    warned.set(source, t);
    warn(
      { source, limit },
      `closed a connection from ${source}: it already holds ${limit} open connections (server.max_connections_per_source); behind a reverse proxy every client shares its address, so raise the limit to server.max_connections there`,
    );
  };
}
