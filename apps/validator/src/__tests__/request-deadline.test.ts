import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { Writable } from 'node:stream';

import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';

import { clientErrorLogger } from '../access-log.js';
import { DEFAULT_HTTP_LIMITS } from '../http-limits.js';
import { requestTracker } from '../request-deadline.js';

const limits = { ...DEFAULT_HTTP_LIMITS, headersTimeoutMs: 200, requestTimeoutMs: 400 };
let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((r) => {
    if (server === undefined) r();
    else
      server.close(() => {
        r();
      });
  });
  server = undefined;
});

/** A plain Node server wired as buildServer wires fastify's: the tracker follows it, the client error handler uses it. */
async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ port: number; logged: Record<string, unknown>[] }> {
  const logged: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') logged.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const s = createServer({ headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: 50 }, handler);
  server = s;
  const requests = requestTracker(limits);
  requests.follow(s);
  s.on('clientError', clientErrorLogger(pino({ level: 'info' }, sink), requests));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const address = s.address();
  return { port: typeof address === 'object' && address !== null ? address.port : 0, logged };
}

/** A raw connection to 127.0.0.1:`port`: what it received so far, and when it closed (ms after it opened). */
function rawSocket(port: number): { socket: Socket; received: () => string; closed: Promise<number> } {
  const socket = connect({ host: '127.0.0.1', port });
  let data = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    data += d;
  });
  socket.on('error', () => undefined);
  const started = Date.now();
  const closed = new Promise<number>((r) => {
    socket.on('close', () => {
      r(Date.now() - started);
    });
  });
  return { socket, received: () => data, closed };
}

describe('G.26: a 408 is not written into a response already under way', () => {
  it('a handler that started its answer before the body arrived keeps its bytes; the socket is destroyed at the request deadline', async () => {
    const { port, logged } = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('streaming-');
    });
    const { socket, received, closed } = rawSocket(port);
    socket.write('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n');
    const timer = setInterval(() => {
      if (socket.destroyed) clearInterval(timer);
      else socket.write('a');
    }, 50);
    const ms = await closed;
    clearInterval(timer);
    expect(ms).toBeGreaterThanOrEqual(limits.requestTimeoutMs - 50);
    expect(received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received()).toContain('streaming-');
    expect(received()).not.toContain('408');
    // The line is still written, and names the request deadline: the headers had arrived.
    expect(logged.map((l) => [l.status, l.code, l.limit])).toEqual([
      [408, 'REQUEST_TIMEOUT', 'server.request_timeout_ms = 400 (environment variable SUBNET_VALIDATOR_SERVER__REQUEST_TIMEOUT_MS, at most 600000)'],
    ]);
  });

  it('nor into an earlier response of a pipelined connection that is still under way, when the next request stalls', async () => {
    const { port, logged } = await listen((req, res) => {
      if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('streaming-');
      } else req.resume();
    });
    const { socket, received, closed } = rawSocket(port);
    socket.write('GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nPOST /next HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n');
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received()).not.toContain('408');
    expect(logged.map((l) => [l.status, l.limit])).toEqual([
      [408, 'server.request_timeout_ms = 400 (environment variable SUBNET_VALIDATOR_SERVER__REQUEST_TIMEOUT_MS, at most 600000)'],
    ]);
  });
});
