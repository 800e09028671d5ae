import { maxHeaderSize } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { Writable } from 'node:stream';

import pino from 'pino';
import { describe, expect, it } from 'vitest';

import { createSignerRateLimiter } from '../signer-rate-limit.js';
import { bountyBody, postExecutor, postSigned, sssaDoc, testConfig, TOKEN, useKeys, useService } from './helpers.js';

const lines: Record<string, unknown>[] = [];
const raw: string[] = [];

const HEADERS_TIMEOUT = 400;
const REQUEST_TIMEOUT = 800;
const KEEP_ALIVE = 300;

const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    raw.push(chunk.toString());
    for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const k = useKeys();
const validator = useService(k, {
  config: (dir) => {
    const base = testConfig(dir);
    return {
      ...base,
      server: {
        ...base.server,
        headers_timeout_ms: HEADERS_TIMEOUT,
        request_timeout_ms: REQUEST_TIMEOUT,
        keep_alive_timeout_ms: KEEP_ALIVE,
        max_connections: 400,
        signer_rate_per_minute: 1,
        signer_burst: 2,
      },
    };
  },
  logger: pino({ level: 'info' }, sink),
});

/** Opens a raw socket; resolves with it once connected. Collects what the server sends and when it closes. */
/** The request line and headers of an authorised JSON POST to /v1/bounty-records, ending with the body's framing. */
function bountyPost(framing: string): string {
  return `POST /v1/bounty-records HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer ${TOKEN}\r\n${framing}\r\n\r\n`;
}

/** Sends a bounty record's complete headers, then its body one character every 60 ms; resolves when the server closed. */
async function dripBounty(id: string): Promise<{ c: Awaited<ReturnType<typeof open>>; ms: number }> {
  const c = await open();
  const body = JSON.stringify(bountyBody(id, k.miners[0]!.address));
  c.socket.write(bountyPost(`Content-Length: ${body.length}`));
  const timer = drip(c.socket, body.split(''), 60);
  const ms = await c.closed;
  clearInterval(timer);
  return { c, ms };
}

function open(): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let data = '';
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(validator.url).port) });
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      data += d;
    });
    const closed = new Promise<number>((r) =>
      socket.on('close', () => {
        r(Date.now() - started);
      }),
    );
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      resolve({ socket, received: () => data, closed });
    });
    socket.once('error', reject);
  });
}

const drip = (socket: Socket, chunks: readonly string[], everyMs: number): NodeJS.Timeout => {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= chunks.length) {
      clearInterval(timer);
      return;
    }
    socket.write(chunks[i++] ?? '');
  }, everyMs);
  return timer;
};

describe('HTTP hardening: timeouts', () => {
  it('a slowloris client dripping its headers gets 408 REQUEST_TIMEOUT and is closed after the headers timeout', async () => {
    const c = await open();
    c.socket.write('POST /v1/bounty-records HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const timer = drip(
      c.socket,
      Array.from({ length: 100 }, (_, i) => `X-Slow-${i}: a\r\n`),
      50,
    );
    const ms = await c.closed;
    clearInterval(timer);
    expect(ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT - 50);
    expect(ms).toBeLessThan(HEADERS_TIMEOUT + 4000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(c.received()).toContain('REQUEST_TIMEOUT');
  });

  // docs/spec.md G.26: the 408 and its access log line name the deadline that ran out, as G.24's refusals do.
  const HEADERS_SETTING = `server.headers_timeout_ms = ${HEADERS_TIMEOUT} (environment variable SUBNET_VALIDATOR_SERVER__HEADERS_TIMEOUT_MS, at most 600000)`;
  const REQUEST_SETTING = `server.request_timeout_ms = ${REQUEST_TIMEOUT} (environment variable SUBNET_VALIDATOR_SERVER__REQUEST_TIMEOUT_MS, at most 600000)`;
  const answer = (received: string): { code: string; message: string } => {
    const body = received.slice(received.indexOf('\r\n\r\n') + 4);
    return (JSON.parse(body) as { error: { code: string; message: string } }).error;
  };
  const clientErrorLines = (from: number): Record<string, unknown>[] => lines.slice(from).filter((l) => l.msg === 'request' && l.method === null);

  it('G.26: headers dripped past server.headers_timeout_ms get a 408 naming that setting, on the answer and the access log line', async () => {
    const before = lines.length;
    const c = await open();
    c.socket.write('POST /v1/bounty-records HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const timer = drip(
      c.socket,
      Array.from({ length: 100 }, (_, i) => `X-Slow-${i}: a\r\n`),
      50,
    );
    await c.closed;
    clearInterval(timer);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer(c.received())).toEqual({
      code: 'REQUEST_TIMEOUT',
      message: `the request's headers did not arrive within ${HEADERS_TIMEOUT} ms; the limit is ${HEADERS_SETTING}`,
    });
    expect(clientErrorLines(before).map((l) => [l.status, l.code, l.limit])).toEqual([[408, 'REQUEST_TIMEOUT', HEADERS_SETTING]]);
  });

  it('G.26: a socket that sends nothing is answered with the headers deadline too', async () => {
    const before = lines.length;
    const c = await open();
    await c.closed;
    expect(answer(c.received()).message).toBe(`the request's headers did not arrive within ${HEADERS_TIMEOUT} ms; the limit is ${HEADERS_SETTING}`);
    expect(clientErrorLines(before).map((l) => l.limit)).toEqual([HEADERS_SETTING]);
  });

  it('G.26: a body dripped past server.request_timeout_ms after complete headers gets a 408 naming that setting', async () => {
    const before = lines.length;
    const { c, ms } = await dripBounty('slow-g26');
    // Past the headers deadline, so the headers' own deadline did not end it.
    expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT - 50);
    expect(answer(c.received())).toEqual({
      code: 'REQUEST_TIMEOUT',
      message: `the request's body did not arrive within ${REQUEST_TIMEOUT} ms of its start (its headers did); the limit is ${REQUEST_SETTING}`,
    });
    expect(clientErrorLines(before).map((l) => [l.status, l.code, l.limit])).toEqual([[408, 'REQUEST_TIMEOUT', REQUEST_SETTING]]);
  });

  it('G.26: a body that stalls after complete headers gets the 408 naming server.request_timeout_ms, not a silent close', async () => {
    const before = lines.length;
    const c = await open();
    c.socket.write(bountyPost('Content-Length: 100'));
    const ms = await c.closed;
    expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT - 50);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer(c.received()).message).toBe(
      `the request's body did not arrive within ${REQUEST_TIMEOUT} ms of its start (its headers did); the limit is ${REQUEST_SETTING}`,
    );
    expect(clientErrorLines(before).map((l) => l.limit)).toEqual([REQUEST_SETTING]);
  });

  it('G.26: the second request of a keep-alive connection dripping its headers names the headers deadline, not the first request', async () => {
    const before = lines.length;
    const c = await open();
    // The second request starts as soon as the first answer is in: the idle connection is closed after the 300 ms
    // keep-alive timeout, which a fixed wait (a loaded machine stretches it) could pass.
    let timer: NodeJS.Timeout | undefined;
    const answered = (): boolean => {
      const text = c.received();
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)\r\n/i.exec(text)?.[1];
      return end >= 0 && length !== undefined && Buffer.byteLength(text.slice(end + 4)) >= Number(length);
    };
    c.socket.on('data', () => {
      if (timer !== undefined || !answered()) return;
      c.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      timer = drip(
        c.socket,
        Array.from({ length: 100 }, (_, i) => `X-Slow-${i}: a\r\n`),
        50,
      );
    });
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await c.closed;
    clearInterval(timer);
    const answers = c.received().split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 408']);
    expect(answer(answers[1] ?? '').message).toBe(`the request's headers did not arrive within ${HEADERS_TIMEOUT} ms; the limit is ${HEADERS_SETTING}`);
    expect(clientErrorLines(before).map((l) => l.limit)).toEqual([HEADERS_SETTING]);
  });

  it('G.26: other client errors keep their answer, name no setting, and are closed', async () => {
    const before = lines.length;
    const malformed = await open();
    malformed.socket.write('NOT A REQUEST\r\n\r\n');
    await malformed.closed;
    expect(malformed.received()).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer(malformed.received())).toEqual({ code: 'BAD_REQUEST', message: 'the request could not be read' });
    const overflow = await open();
    overflow.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    await overflow.closed;
    expect(overflow.received()).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    // The cause and the number, not "could not be read" (Node's limit: 16384 bytes unless node runs with --max-http-header-size).
    expect(answer(overflow.received())).toEqual({
      code: 'HEADERS_TOO_LARGE',
      message: `the request's line and headers are more than ${maxHeaderSize} bytes, the most Node reads for them`,
    });
    expect(maxHeaderSize).toBe(16_384);
    const logged = clientErrorLines(before);
    expect(logged.map((l) => [l.status, l.code])).toEqual([
      [400, 'BAD_REQUEST'],
      [431, 'HEADERS_TOO_LARGE'],
    ]);
    for (const l of logged) expect(l).not.toHaveProperty('limit');
  });

  it("a chunk with more than Node's 16384 bytes of extensions is 413 CHUNK_EXTENSIONS_TOO_LARGE naming the cause, as Node answers it, not 400", async () => {
    const before = lines.length;
    const c = await open();
    // Headers complete (the route's handler is reading the body), then one chunk whose extensions are 16385 bytes.
    c.socket.write(bountyPost('Transfer-Encoding: chunked'));
    c.socket.write(`1;${'a'.repeat(16_385)}\r\n{\r\n0\r\n\r\n`);
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(answer(c.received())).toEqual({
      code: 'CHUNK_EXTENSIONS_TOO_LARGE',
      message: `a chunk of the request's body has more than 16384 bytes of extensions (";name=value" after its size), the most Node reads for one chunk`,
    });
    const logged = clientErrorLines(before);
    expect(logged.map((l) => [l.status, l.code])).toEqual([[413, 'CHUNK_EXTENSIONS_TOO_LARGE']]);
    expect(logged[0]).not.toHaveProperty('limit');
    // 16384 bytes of extensions are read: the same request is parsed and answered by the route (the body is not JSON).
    const within = await open();
    within.socket.write(`${bountyPost('Transfer-Encoding: chunked\r\nConnection: close')}1;${'a'.repeat(16_384)}\r\n{\r\n0\r\n\r\n`);
    await within.closed;
    expect(within.received()).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer(within.received()).code).toBe('MALFORMED_JSON');
  });

  it('a slowly sent body gets 408 and is closed after the request timeout', async () => {
    const { c, ms } = await dripBounty('slow-1');
    expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT - 50);
    expect(ms).toBeLessThan(REQUEST_TIMEOUT + 4000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(await validator.service.storage.findRecord('bounty', 'slow-1')).toBeUndefined();
  });

  it('300 idle sockets that never send a request are all closed by the server', async () => {
    const sockets = await Promise.all(Array.from({ length: 300 }, () => open()));
    const closedAfter = await Promise.all(sockets.map((s) => s.closed));
    expect(closedAfter.length).toBe(300);
    expect(Math.max(...closedAfter)).toBeLessThan(HEADERS_TIMEOUT + 4000);
  });

  it('an idle keep-alive socket is closed after the keep-alive timeout', async () => {
    const c = await open();
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    const ms = await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(c.received()).toMatch(/keep-alive/i);
    expect(ms).toBeGreaterThanOrEqual(KEEP_ALIVE - 50);
    expect(ms).toBeLessThan(KEEP_ALIVE + 4000);
  });
});

describe('HTTP hardening: per-signer rate limit', () => {
  it('a signer beyond its burst gets 429 RATE_LIMITED with Retry-After; another signer is not affected', async () => {
    const miner = k.miners[0]!;
    const before = lines.length;
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 3; i++) {
      const res = await postSigned(validator.url, '/v1/sssa', miner, { task_id: `rl-${i}`, sssa: sssaDoc() });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    // No task is registered: a request the limiter lets through reaches the task check (404 UNKNOWN_TASK).
    expect(statuses).toEqual([404, 404, 429]);
    expect(limited?.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    const error = ((await limited?.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('RATE_LIMITED');
    // The answer and its access log line name the settings an operator raises, with their values (docs/spec.md G.24).
    const setting =
      'server.signer_rate_per_minute = 1 (environment variable SUBNET_VALIDATOR_SERVER__SIGNER_RATE_PER_MINUTE, at most 1000000) with a burst of ' +
      'server.signer_burst = 2 (environment variable SUBNET_VALIDATOR_SERVER__SIGNER_BURST, at most 1000000)';
    expect(error.message).toMatch(/^too many requests from this signer; retry after [1-9][0-9]* s; the limit is /);
    expect(error.message.endsWith(`the limit is ${setting}`)).toBe(true);
    const access = lines.slice(before).filter((l) => l.msg === 'request');
    expect(access.map((l) => [l.status, l.limit])).toEqual([
      [404, undefined],
      [404, undefined],
      [429, setting],
    ]);
    const other = await postSigned(validator.url, '/v1/sssa', k.miners[1]!, { task_id: 'rl-other', sssa: sssaDoc() });
    expect(other.status).toBe(404);
  });

  it('the bucket refills at the configured rate and forgets full buckets', () => {
    let t = 0;
    const limiter = createSignerRateLimiter({ perMinute: 60, burst: 1, now: () => t });
    expect(limiter.take('a').ok).toBe(true);
    const refused = limiter.take('a');
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 1 });
    t += 1000;
    expect(limiter.take('a').ok).toBe(true);
    t += 120_000;
    limiter.take('b');
    expect(limiter.size()).toBe(1);
  });
});

describe('HTTP hardening: access log', () => {
  it('logs every request with status, code, signer and duration, and never the bearer token', async () => {
    const before = lines.length;
    await postExecutor(validator.url, '/v1/bounty-records', bountyBody('log-1', k.miners[1]!.address));
    await postExecutor(validator.url, '/v1/bounty-records', bountyBody('log-2', k.miners[1]!.address), 'wrong-token-0123456789');
    await postSigned(validator.url, '/v1/sssa', k.miners[2]!, { task_id: 'log-3', sssa: sssaDoc() });
    await fetch(`${validator.url}/v1/epochs?x=1`);
    const access = lines.slice(before).filter((l) => l.msg === 'request');
    expect(access.map((l) => [l.method, l.path, l.status, l.code])).toEqual([
      ['POST', '/v1/bounty-records', 201, null],
      ['POST', '/v1/bounty-records', 401, 'UNAUTHORIZED'],
      ['POST', '/v1/sssa', 404, 'UNKNOWN_TASK'],
      ['GET', '/v1/epochs', 200, null],
    ]);
    expect(access[2]?.signer).toBe(k.miners[2]!.address);
    for (const l of access) expect(typeof l.ms).toBe('number');
    expect(raw.join('')).not.toContain(TOKEN);
    expect(raw.join('')).not.toContain('wrong-token');
  });
});
