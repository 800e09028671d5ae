import { ApiPromise, WsProvider } from '@polkadot/api';
import { redactUrl } from '@subnet/core';

import { chainError } from './chain-error.js';
import { resolveEndpoints } from './networks.js';
import { installConsoleRedaction } from './console-redaction.js';
import { createSocketCapture } from './socket-capture.js';
import { isTransportError, requestError } from './request-error.js';

export { isTransportError } from './request-error.js';
import type { NetworkInput } from './networks.js';

/**
 * The four zero-size transaction extensions Subtensor adds (README 2.8): each a `PhantomData` struct with
 * `Implicit = ()` (opentensor/subtensor 14bc6f9f9 `runtime/src/sudo_wrapper.rs:18`, `pallets/shield/src/extension.rs:17`,
 * `pallets/subtensor/src/extensions/subtensor.rs:65`, `pallets/drand/src/drand_priority.rs:21`). @polkadot/api does
 * not read extension types from metadata; declaring them makes signing explicit instead of "treated as no-effect".
 */
export const SUBTENSOR_SIGNED_EXTENSIONS = Object.freeze({
  SudoTransactionExtension: { extrinsic: {}, payload: {} },
  CheckShieldedTxValidity: { extrinsic: {}, payload: {} },
  SubtensorTransactionExtension: { extrinsic: {}, payload: {} },
  DrandPriority: { extrinsic: {}, payload: {} },
});

/** Structured log sink. Messages never carry secrets; endpoints are redacted. */
export interface ChainLogger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
}

/** Options of {@link connectChain}. */
export interface ConnectOptions {
  /** `finney`, `test`, `local`, a ws(s):// URL, or a list of them tried in order. */
  readonly network: NetworkInput;
  /** Per-request timeout (ms), default 30 000. */
  readonly requestTimeoutMs?: number;
  /** Time allowed for the first connection and metadata (ms), default 60 000. */
  readonly connectTimeoutMs?: number;
  /** Reconnect when no new head arrived for this long (ms), default 120 000; 0 turns the watchdog off. */
  readonly staleHeadMs?: number;
  /** First reconnect delay (ms), doubled per failed attempt up to `maxBackoffMs`; default 500. */
  readonly initialBackoffMs?: number;
  /** Longest reconnect delay (ms), default 30 000. */
  readonly maxBackoffMs?: number;
  readonly logger?: ChainLogger;
}

/** A live connection: one long-lived WebSocket with fallback endpoints, reconnect and a watchdog. */
export interface ChainConnection {
  /** The @polkadot/api instance (metadata-driven; do not disconnect it yourself). */
  readonly api: ApiPromise;
  /** The endpoints in fallback order (redacted). */
  readonly endpoints: readonly string[];
  /**
   * Runs one request with the per-request timeout; fails fast when closed. Transport failures
   * (socket dropped) are retried after the reconnect unless `idempotent` is false (submissions).
   */
  request<T>(label: string, run: (api: ApiPromise) => Promise<T>, timeoutMs?: number, idempotent?: boolean): Promise<T>;
  /** Milliseconds since the last new head (or since the last (re)connect). */
  headAgeMs(): number;
  /**
   * True when the watchdog is on and the best block number has not advanced for longer than `staleHeadMs`
   * on any endpoint (a re-sent old head after a reconnect does not count as progress).
   */
  headStale(): boolean;
  /** Number of reconnects so far. */
  reconnects(): number;
  /** True while the socket is open. */
  isConnected(): boolean;
  /** Closes the socket, stops the watchdog and every timer; pending requests fail with `CHAIN_CLIENT_CLOSED`. */
  close(): Promise<void>;
}

/**
 * Races a promise against a timeout.
 *
 * @param promise - the work
 * @param ms - the limit
 * @param label - what is waited for (in the error message)
 * @returns the promise's value
 * @throws SubnetError `CHAIN_REQUEST_TIMEOUT` when the limit passes first
 * @example await withTimeout(api.rpc.chain.getHeader(), 5000, 'chain_getHeader')
 */
export async function withTimeout<T>(promise: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(chainError('RequestTimeout', `${label} got no answer within ${ms} ms`, { source: 'client', stage: 'read', label, timeoutMs: ms }));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function socketErrorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') return error.message;
  return 'socket error';
}

/**
 * Connects to Subtensor: resolves network names, opens one WebSocket (rotating through the endpoints on
 * failure, reconnecting with exponential backoff), loads the runtime metadata (every call and storage
 * item is then taken from it), declares the four zero-size Subtensor signed extensions, and watches the
 * head: when no new block arrives for `staleHeadMs` it drops the socket and reconnects to the next endpoint.
 *
 * @param options - network and timing
 * @returns the connection
 * @throws SubnetError `CHAIN_INVALID_INPUT` (network), `CHAIN_CONNECTION_FAILED` (no endpoint ready in time)
 * @example
 * const conn = await connectChain({ network: ['ws://127.0.0.1:9944', 'finney'] });
 * await conn.close();
 */
export async function connectChain(options: ConnectOptions): Promise<ChainConnection> {
  const endpoints = resolveEndpoints(options.network);
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 60_000;
  const staleHeadMs = options.staleHeadMs ?? 120_000;
  const initialBackoffMs = options.initialBackoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const log = options.logger ?? {};
  const redacted = Object.freeze(endpoints.map(redactUrl));

  installConsoleRedaction();
  const provider = new WsProvider([...endpoints], false, {}, requestTimeoutMs);
  const sockets = createSocketCapture();
  const openSocket = (): Promise<void> =>
    sockets.capture(
      () => provider.connect(),
      () => provider.endpoint,
    );
  let switching = false;
  let holdUntil = 0;
  let closed = false;
  let attempt = 0;
  let reconnectCount = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let lastHeadAt = Date.now();
  let bestSeen = -1;
  let lastAdvanceAt = Date.now();
  let everConnected = false;
  let lastSocketError: unknown;

  const scheduleReconnect = (): void => {
    if (closed || reconnectTimer !== undefined) return;
    const delay = Math.min(maxBackoffMs, initialBackoffMs * 2 ** Math.min(attempt, 16));
    attempt += 1;
    // Name the endpoint and the node's reason: before the first connection nothing was lost, the node never answered.
    const context = {
      endpoint: redactUrl(provider.endpoint),
      ...(lastSocketError === undefined ? {} : { reason: redactUrl(socketErrorMessage(lastSocketError)) }),
      delayMs: delay,
      attempt,
    };
    log.warn?.(everConnected ? 'chain connection lost; reconnecting' : 'chain endpoint not reachable yet; retrying', context);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      if (closed) return;
      openSocket().catch(() => {
        scheduleReconnect();
      });
    }, delay);
  };
  const offDisconnected = provider.on('disconnected', () => {
    switching = false;
    scheduleReconnect();
  });
  const offConnected = provider.on('connected', () => {
    switching = false;
    if (everConnected) reconnectCount += 1;
    everConnected = true;
    lastSocketError = undefined;
    attempt = 0;
    lastHeadAt = Date.now();
    log.info?.('chain connected', { endpoint: redactUrl(provider.endpoint) });
  });
  const offError = provider.on('error', (error: unknown) => {
    lastSocketError = error;
  });

  const api = new ApiPromise({ provider, signedExtensions: { ...SUBTENSOR_SIGNED_EXTENSIONS }, noInitWarn: true, throwOnConnect: false });
  const teardown = async (): Promise<void> => {
    closed = true;
    clearTimeout(reconnectTimer);
    offDisconnected();
    offConnected();
    try {
      await api.disconnect();
    } catch {
      // already closed
    }
    offError();
    sockets.dispose();
  };
  openSocket().catch(() => {
    scheduleReconnect();
  });
  try {
    // not isReadyOrError: that rejects on the first endpoint's socket error, before the next endpoint is tried
    api.isReadyOrError.catch(() => undefined);
    await withTimeout(api.isReady, connectTimeoutMs, 'connect');
  } catch (timeout) {
    // never attach the raw socket error: its target holds the endpoint URL with any credentials in it
    const cause = lastSocketError === undefined ? timeout : new Error(redactUrl(socketErrorMessage(lastSocketError)));
    await teardown();
    throw chainError('ConnectionFailed', `no endpoint was ready within ${connectTimeoutMs} ms`, {
      source: 'client',
      stage: 'connect',
      path: 'network',
      value: redacted,
      cause,
    });
  }

  let unsubscribeHeads: (() => void) | undefined;
  try {
    unsubscribeHeads = await withTimeout(
      api.rpc.chain.subscribeNewHeads((header) => {
        lastHeadAt = Date.now();
        const n = header.number.toNumber();
        if (n > bestSeen) {
          bestSeen = n;
          lastAdvanceAt = lastHeadAt;
          holdUntil = 0;
        }
      }),
      requestTimeoutMs,
      'chain_subscribeNewHeads',
    );
  } catch {
    unsubscribeHeads = undefined;
  }
  let watchdog: NodeJS.Timeout | undefined;
  if (staleHeadMs > 0) {
    const probeMs = Math.min(requestTimeoutMs, staleHeadMs);
    const switchEndpoint = (frozen: boolean): void => {
      log.warn?.('no new head; switching endpoint', { staleMs: Date.now() - lastHeadAt, endpoint: redactUrl(provider.endpoint), frozen });
      lastHeadAt = Date.now();
      // a frozen node never answers the closing handshake (ws waits 30 s for it): terminate its socket; a live
      // one closes politely, delivering the answers already on their way
      const terminated = frozen && sockets.terminate();
      if (!terminated) void provider.disconnect().catch(() => undefined);
    };
    watchdog = setInterval(
      () => {
        if (closed || !provider.isConnected || Date.now() < holdUntil) return;
        if (switching && Date.now() - lastHeadAt > staleHeadMs + probeMs) {
          // a terminated socket that never reported its close: fall back to a normal close
          lastHeadAt = Date.now();
          void provider.disconnect().catch(() => undefined);
        } else if (!switching && Date.now() - lastHeadAt > staleHeadMs) {
          switching = true;
          lastHeadAt = Date.now();
          // frozen (no answer within min(requestTimeoutMs, staleHeadMs)) or only stalled (answers, no new block)?
          withTimeout(provider.send('chain_getHeader', []), probeMs, 'chain_getHeader probe').then(
            () => {
              if (closed) return;
              switchEndpoint(false);
              // the only endpoint answers but its chain does not move: one fresh socket may revive a dead head
              // subscription; reconnecting again and again would only starve the reads, so the watchdog then
              // waits for a new block (headStale() keeps refusing submissions meanwhile)
              if (endpoints.length === 1) holdUntil = Number.POSITIVE_INFINITY;
            },
            () => {
              if (!closed) switchEndpoint(true);
            },
          );
        }
      },
      Math.max(50, Math.min(1_000, Math.floor(staleHeadMs / 4))),
    );
    watchdog.unref();
  }

  const connection: ChainConnection = {
    api,
    endpoints: redacted,
    async request<T>(label: string, run: (a: ApiPromise) => Promise<T>, timeoutMs = requestTimeoutMs, idempotent = true): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (closed) throw chainError('ClientClosed', `cannot run ${label}: the connection is closed`, { source: 'client' });
        try {
          return await withTimeout(run(api), Math.max(1, deadline - Date.now()), label);
        } catch (error) {
          const transport = isTransportError(error);
          if (!transport || !idempotent || Date.now() >= deadline) {
            // typed, redacted, never the raw error: a socket message names the endpoint, credentials included
            throw requestError(error, { label, stage: idempotent ? 'read' : 'submit', timeoutMs, endpoints: redacted });
          }
          log.debug?.('request failed on a dropped socket; retrying after reconnect', {
            label,
            reason: redactUrl(error instanceof Error ? error.message : String(error)),
          });
          await new Promise((resolve) => setTimeout(resolve, Math.min(200, initialBackoffMs)));
        }
      }
    },
    headAgeMs: () => Date.now() - lastHeadAt,
    headStale: () => staleHeadMs > 0 && Date.now() - lastAdvanceAt > staleHeadMs,
    reconnects: () => reconnectCount,
    isConnected: () => provider.isConnected,
    async close(): Promise<void> {
      if (closed) return;
      clearInterval(watchdog);
      try {
        unsubscribeHeads?.();
      } catch {
        // socket already gone
      }
      await teardown();
    },
  };
  return connection;
}
