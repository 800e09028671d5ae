import { startDevnet } from '@subnet/devnet';
import { describe, expect, it } from 'vitest';

import { connectChain } from '../index.js';

describe('a connection that never comes back', () => {
  it('fails reads with the typed CHAIN_CONNECTION_LOST, never the raw socket error', async () => {
    const devnet = await startDevnet({ blockTime: 0, keyType: 'ed25519' });
    const connection = await connectChain({
      network: devnet.url,
      requestTimeoutMs: 1_500,
      initialBackoffMs: 50,
      maxBackoffMs: 200,
      staleHeadMs: 0,
    });
    try {
      await devnet.stop();
      const error: unknown = await connection
        .request('chain_getHeader', (api) => api.rpc.chain.getHeader())
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toMatchObject({ code: 'CHAIN_CONNECTION_LOST', context: { label: 'chain_getHeader', timeoutMs: 1_500 } });
      expect((error as Error).message).not.toContain(devnet.url);
    } finally {
      await connection.close();
    }
  });
});
