import { devHotkeyUri, startDevnet } from '@subnet/devnet';
import type { Devnet } from '@subnet/devnet';
import { afterAll, beforeAll, bench, describe } from 'vitest';

import { createChainClient } from '../chain-client.js';
import type { ChainClient } from '../chain-client.js';
import { loadSigner } from '../keys.js';

// setWeights round trips (read metagraph, preflight, sign, submit, include, confirm WeightsSet, read back Weights)
// against the devnet in manual block mode over a real WebSocket: one block per submission.
let devnet: Devnet;
let client: ChainClient;

beforeAll(async () => {
  devnet = await startDevnet({ blockTime: 0, neurons: 64, validators: 2, weightsSetRateLimit: 0n, keyType: 'ed25519' });
  const signer = await loadSigner({ kind: 'uri', uri: devHotkeyUri('devnet', 0), keyType: 'ed25519' });
  client = await createChainClient({ network: devnet.url, signer, staleHeadMs: 0, pollMs: 2, inclusionTimeoutMs: 10_000 });
  await devnet.produceBlock();
});
afterAll(async () => {
  await client.close();
  await devnet.stop();
});

async function roundTrip(weights: Record<string, number>): Promise<void> {
  const work = client.setWeights({ netuid: 1, weights });
  while (devnet.poolSize() === 0) await new Promise((r) => setTimeout(r, 1));
  await devnet.produceBlock();
  await work;
}

for (const n of [8, 64]) {
  const weights = Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), i + 1]));
  describe(`setWeights round trip, ${n} weights (manual blocks)`, () => {
    bench(
      'ed25519 signer',
      async () => {
        await roundTrip(weights);
      },
      { iterations: 20, time: 0, warmupIterations: 2 },
    );
  });
}
