import { startDevnet } from '@subnet/devnet';
import type { Devnet } from '@subnet/devnet';

/**
 * A devnet for the commit-reveal v4 tests (not a test file): 6 neurons, 2 validators, tempo 10, no rate
 * limit, 200 ms blocks, commit-reveal on with its own drand beacon (one pulse per 12 s block timestamp), so
 * the chain reveals a commit about one tempo (10 blocks) after it.
 */
export function startTimelockDevnet(runtime: 'stateful' | 'legacy'): Promise<Devnet> {
  return startDevnet({
    runtime,
    neurons: 6,
    validators: 2,
    tempo: 10,
    weightsSetRateLimit: 0n,
    blockTime: 200,
    commitReveal: true,
    beacon: { period: 12 },
  });
}
