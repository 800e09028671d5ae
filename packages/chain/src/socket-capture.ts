import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/** The part of a TCP/TLS socket the watchdog needs. */
interface Destroyable {
  destroy(): void;
}

/** Captures the socket a WebSocket opens during one synchronous call, so it can be terminated later. */
export interface SocketCapture {
  /**
   * Runs `open` (which creates the WebSocket, as `WsProvider.connect` does), then remembers the socket of the
   * next HTTP upgrade request to the host `hostOf()` names (the endpoint `open` selected).
   */
  capture<T>(open: () => T, hostOf: () => string): T;
  /**
   * Destroys the remembered socket at once (no closing handshake: a frozen node never answers one, and the
   * `ws` close timeout is 30 s); returns false when no socket was captured (the caller then closes normally).
   */
  terminate(): boolean;
  /** Stops listening. */
  dispose(): void;
}

/**
 * Remembers the socket behind the current WebSocket through Node's `http.client.request.start` diagnostics
 * channel (the `ws` client opens an HTTP upgrade request, TCP or TLS, to the endpoint's host), so a frozen
 * endpoint can be dropped without waiting for a close frame that never comes.
 *
 * @returns the capture
 * @example const sockets = createSocketCapture(); sockets.capture(() => provider.connect(), () => provider.endpoint); sockets.terminate();
 */
export function createSocketCapture(): SocketCapture {
  let expected: string | undefined;
  let socket: Destroyable | undefined;
  const onRequest = (message: unknown): void => {
    if (expected === undefined) return;
    const request = (
      message as { request?: { socket?: Destroyable | null; getHeader?(name: string): unknown; once?(event: 'socket', cb: (s: Destroyable) => void): void } }
    ).request;
    const host = request?.getHeader?.('host');
    if (typeof host !== 'string' || host.toLowerCase() !== expected) return;
    expected = undefined;
    if (request?.socket) socket = request.socket;
    else
      request?.once?.('socket', (s) => {
        socket = s;
      });
  };
  subscribe('http.client.request.start', onRequest);
  return {
    capture<T>(open: () => T, hostOf: () => string): T {
      socket = undefined;
      const result = open();
      try {
        expected = new URL(hostOf()).host.toLowerCase();
      } catch {
        expected = undefined;
      }
      return result;
    },
    terminate(): boolean {
      const s = socket;
      socket = undefined;
      if (s === undefined) return false;
      s.destroy();
      return true;
    },
    dispose(): void {
      unsubscribe('http.client.request.start', onRequest);
      socket = undefined;
      expected = undefined;
    },
  };
}
