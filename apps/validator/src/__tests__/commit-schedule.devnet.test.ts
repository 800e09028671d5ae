import { startDevnet } from '@subnet/devnet';
import { describe, expect, it } from 'vitest';

import { devnetChainPort } from './commit-reveal-devnet.js';
import { useCleanups } from './helpers.js';

const cleanups = useCleanups();

describe.each(['stateful', 'legacy'] as const)('the commit-reveal schedule read from the chain (real devnet, %s runtime)', (runtime) => {
  it.each([
    { commitReveal: true, version: undefined, scheme: 'timelock' },
    { commitReveal: true, version: 2, scheme: 'hash' },
    { commitReveal: false, version: undefined, scheme: null },
  ] as const)(
    'commit-reveal $commitReveal, version $version: the scheme ($scheme), the tempo, RevealPeriodEpochs and the era plus 16; null without commit-reveal',
    async ({ commitReveal, version, scheme }) => {
      const devnet = await startDevnet({
        runtime,
        neurons: 4,
        validators: 1,
        tempo: 10,
        blockTime: 200,
        commitReveal,
        ...(version === undefined ? {} : { commitRevealVersion: version }),
      });
      cleanups.push(() => devnet.stop());
      const chain = await devnetChainPort(devnet, cleanups, { eraPeriod: 32 });
      const schedule = await chain.commitSchedule?.();
      if (scheme === null) expect(schedule).toBeNull();
      else expect(schedule).toEqual({ scheme, tempo: 10, revealPeriodEpochs: 1n, landingBlocks: 48n });
    },
    60_000,
  );
});
