import { startDevnet } from '@subnet/devnet';
import { describe, expect, it } from 'vitest';

import { devnetChainPort } from './commit-reveal-devnet.js';
import { useCleanups } from './helpers.js';

const cleanups = useCleanups();

describe.each(['stateful', 'legacy'] as const)('the timelocked reveal schedule read from the chain (real devnet, %s runtime)', (runtime) => {
  it.each([true, false])(
    'commit-reveal %s: the tempo, RevealPeriodEpochs and the era plus 16 when timelocked, else null',
    async (commitReveal) => {
      const devnet = await startDevnet({ runtime, neurons: 4, validators: 1, tempo: 10, blockTime: 200, commitReveal });
      cleanups.push(() => devnet.stop());
      const chain = await devnetChainPort(devnet, cleanups, { eraPeriod: 32 });
      const schedule = await chain.timelockSchedule?.();
      if (commitReveal) expect(schedule).toEqual({ tempo: 10, revealPeriodEpochs: 1n, landingBlocks: 48n });
      else expect(schedule).toBeNull();
    },
    60_000,
  );
});
