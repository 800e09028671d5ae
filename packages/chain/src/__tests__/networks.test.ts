import { createServer } from 'node:net';
import { inspect } from 'node:util';

import { describe, expect, it } from 'vitest';

import { connectChain, withTimeout } from '../connection.js';
import { redactUrl } from '../index.js';
import { NETWORKS, resolveEndpoints } from '../networks.js';

describe('networks and endpoints', () => {
  it('names the public endpoints of the Python SDK settings', () => {
    expect(NETWORKS).toEqual({
      finney: ['wss://entrypoint-finney.opentensor.ai:443'],
      test: ['wss://test.finney.opentensor.ai:443'],
      local: ['ws://127.0.0.1:9944'],
    });
  });
  it('resolveEndpoints expands names, keeps URLs in order and removes duplicates', () => {
    expect(resolveEndpoints('finney')).toEqual(['wss://entrypoint-finney.opentensor.ai:443']);
    expect(resolveEndpoints(['ws://10.0.0.5:9944', 'finney', 'test', 'ws://10.0.0.5:9944', 'local'])).toEqual([
      'ws://10.0.0.5:9944',
      'wss://entrypoint-finney.opentensor.ai:443',
      'wss://test.finney.opentensor.ai:443',
      'ws://127.0.0.1:9944',
    ]);
  });
  it('resolveEndpoints rejects unknown names, non-WebSocket URLs and empty lists, naming the path and a redacted value', () => {
    expect(() => resolveEndpoints('mainnet')).toThrow(
      expect.objectContaining({ code: 'CHAIN_INVALID_INPUT', context: expect.objectContaining({ path: 'network', value: 'mainnet' }) }) as Error,
    );
    expect(() => resolveEndpoints(['finney', 'https://user:pw@node.example/rpc?key=abc'])).toThrow(
      expect.objectContaining({
        code: 'CHAIN_INVALID_INPUT',
        context: expect.objectContaining({ path: 'network[1]', value: 'https://***@node.example/rpc?key=***' }),
      }) as Error,
    );
    expect(() => resolveEndpoints([])).toThrow(expect.objectContaining({ code: 'CHAIN_INVALID_INPUT' }) as Error);
  });
  it("redactUrl is core's one redaction: hides userinfo and credential-looking parameters, keeps host, port, path", () => {
    expect(redactUrl('wss://user:secret@node.example/ws?key=abc')).toBe('wss://***@node.example/ws?key=***');
    expect(redactUrl('wss://node.example:9443/ws?network=finney')).toBe('wss://node.example:9443/ws?network=finney');
    expect(redactUrl('ws://127.0.0.1:9944/')).toBe('ws://127.0.0.1:9944/');
    expect(redactUrl('wss://:token@node.example')).toBe('wss://***@node.example');
    expect(redactUrl('not a url //me:pw@x?q=1')).toBe('not a url //***@x?q=1');
  });
});

describe('connectChain (no chain needed)', () => {
  it('rejects a bad network before opening anything', async () => {
    await expect(connectChain({ network: 'ftp://x' })).rejects.toMatchObject({ code: 'CHAIN_INVALID_INPUT', context: { path: 'network' } });
  });
  it('fails with CHAIN_CONNECTION_FAILED when no endpoint answers, without printing credentials', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
    const port = typeof address === 'object' && address !== null ? address.port : 1;
    const error: unknown = await connectChain({
      network: `ws://admin:hunter2@127.0.0.1:${port}/?token=s3cret`,
      connectTimeoutMs: 400,
      initialBackoffMs: 20,
      maxBackoffMs: 40,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'CHAIN_CONNECTION_FAILED',
      context: { stage: 'connect', retryable: true, value: [`ws://***@127.0.0.1:${port}/?token=***`] },
    });
    const text = `${String(error)} ${JSON.stringify((error as { context: unknown }).context)} ${inspect(error, { depth: 12 })}`;
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('s3cret');
  });
  it('withTimeout turns a slow promise into CHAIN_REQUEST_TIMEOUT naming the request', async () => {
    await expect(withTimeout(new Promise(() => undefined), 20, 'state_getStorage')).rejects.toMatchObject({
      code: 'CHAIN_REQUEST_TIMEOUT',
      context: { label: 'state_getStorage', timeoutMs: 20 },
    });
    expect(await withTimeout(Promise.resolve(7), 20, 'x')).toBe(7);
  });
});
