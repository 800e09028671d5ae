import { awaitTimelockedReveal } from './await-timelocked-reveal.js';
import { chainError } from './chain-error.js';
import { clientContext, clientSettings } from './client-context.js';
import type { ChainClient, ChainClientOptions } from './client-types.js';
import { connectChain } from './connection.js';
import { readMetagraph } from './metagraph.js';
import { rateLimitStatus } from './rate-limit-status.js';
import { revealPending } from './reveal-pending.js';
import { setWeights } from './set-weights.js';

export type {
  ChainClient,
  ChainClientOptions,
  RateLimitStatus,
  RevealOutcome,
  SetWeightsArgs,
  SignedWeightsCall,
  TimelockSubmissionInfo,
  WeightsSubmission,
} from './client-types.js';

/**
 * Creates the chain client: one connection, one signer, serialised submissions. It only wires: each method's
 * work is a named function in its own file (`set-weights.ts` and its three paths, `reveal-pending.ts`,
 * `await-timelocked-reveal.ts`, `rate-limit-status.ts`). See the README for the full example.
 *
 * @param options - connection (or network), signer and policies
 * @returns the client
 * @throws SubnetError `CHAIN_CONNECTION_FAILED`, `CHAIN_INVALID_INPUT`
 * @example
 * const client = await createChainClient({ network: 'finney', signer, commitStore: fileCommitStore('commits.json') });
 * await client.setWeights({ netuid: 1, weights: { '5F...': 0.7, '5G...': 0.3 } });
 */
export async function createChainClient(options: ChainClientOptions): Promise<ChainClient> {
  const settings = clientSettings(options);
  const owned = options.connection === undefined;
  const connection =
    options.connection ??
    (await connectChain({
      ...options,
      network:
        options.network ??
        (() => {
          throw chainError('InvalidInput', 'give either a connection or a network', { source: 'client', path: 'network', value: undefined });
        })(),
    }));
  const ctx = clientContext(connection, settings);
  return {
    connection,
    signer: ctx.signer,
    metagraph: (args) => readMetagraph(connection, args),
    setWeights: (args) => setWeights(ctx, args),
    revealPending: (args) => revealPending(ctx, args),
    confirmTimelockedReveal: (record, args) => awaitTimelockedReveal(ctx, record, args),
    nextAllowedBlock: (args) => rateLimitStatus(ctx, args),
    close: async () => {
      if (owned) await connection.close();
    },
  };
}
