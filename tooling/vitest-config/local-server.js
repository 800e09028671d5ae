// @ts-check
import { createServer } from 'node:http';

/**
 * A port on 127.0.0.1 where nothing listens, for tests of a refused connection. It is below the range the system
 * hands out for port 0 and for outgoing connections (32768-60999 on Linux), so no other test file can start
 * listening there meanwhile, as one can on the port of a server that was just closed (vitest runs files in
 * parallel); and it is not one of the Fetch standard's "bad ports", which fetch refuses before it connects.
 */
export const REFUSED_PORT = 4;

/**
 * A real HTTP server on 127.0.0.1 (a free port) for a test file: its base URL and a close that ends every
 * connection first (a test server that streams or never answers would otherwise hold `close` open).
 *
 * @param {import('node:http').RequestListener} handler - answers each request
 * @returns {Promise<{ server: import('node:http').Server, url: string, close: () => Promise<void> }>} the server, `http://127.0.0.1:PORT` and its close
 */
export async function listenLocal(handler) {
  const server = createServer(handler);
  await new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => {
      server.close(() => resolve(undefined));
    });
  };
  return { server, url: `http://127.0.0.1:${address.port}`, close };
}

/**
 * Writes `chunk` to a response every `everyMs` until the client goes away: a body that never ends, as a
 * hostile peer or validator could serve one (fast and large by default; one byte a second is a slowloris).
 *
 * @param {import('node:http').ServerResponse} response - an answer whose head is written
 * @param {string} [chunk] - what is written each time (default 64 KiB of `x`)
 * @param {number} [everyMs] - the interval (default 10 ms)
 */
export function writeEndlessly(response, chunk = 'x'.repeat(65_536), everyMs = 10) {
  const timer = setInterval(() => {
    if (response.destroyed) clearInterval(timer);
    else response.write(chunk);
  }, everyMs);
  response.on('close', () => {
    clearInterval(timer);
  });
}
