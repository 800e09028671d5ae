import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from './harness.js';
import { harness } from './harness.js';

/**
 * An admin change of a hyperparameter is an extrinsic: on Subtensor main `block_step` (reveal step, then the epoch
 * step) runs in `on_initialize` (`macros/hooks.rs:17-20`, `coinbase/block_step.rs:7-36` at 14bc6f9f9), before any
 * extrinsic of the block, so the block that includes the change still steps with the old value, and the next block
 * steps with the new one. Read back over a real WebSocket with an unmodified ApiPromise.
 */
describe.each(['stateful', 'legacy'] as const)(
  'setHyperparameter applies as an admin extrinsic of the next block, after its on_initialize (%s runtime)',
  (runtime) => {
    let h: Harness;
    beforeAll(async () => {
      h = await harness({ runtime, neurons: 2, validators: 1, tempo: 10 });
    });
    afterAll(async () => {
      await h.close();
    });

    const at = async (n: number) => h.api.at(await h.api.rpc.chain.getBlockHash(n));
    const read = async (n: number, item: string): Promise<number> =>
      Number(((await (await at(n)).query.subtensorModule![item]!(1)) as { toJSON(): unknown }).toJSON());

    // The block that would run the epoch with tempo 3 but not with tempo 10: stateful, epochs at 10 and then
    // `block - LastEpochBlock >= tempo`; legacy, where `blocks_until_next_epoch = tempo - (block + netuid + 1) % (tempo +
    // 1)` is 0 (blocks 8, 19 with tempo 10; 13, 17, 21 with tempo 3).
    const CASE = { stateful: { block: 15, lastStep: 10 }, legacy: { block: 17, lastStep: 8 } }[runtime];

    it('a tempo lowered after the head is stored by the next block, whose epoch step still uses the old tempo', async () => {
      await h.devnet.produceBlocks(CASE.block - 1 - h.devnet.bestNumber());
      expect(await read(CASE.block - 1, 'lastMechansimStepBlock')).toBe(CASE.lastStep);
      h.devnet.setHyperparameter('tempo', 3);
      await h.devnet.produceBlocks(2);
      // The block that includes the change holds it: Tempo is 3 in its state.
      expect([await read(CASE.block - 1, 'tempo'), await read(CASE.block, 'tempo')]).toEqual([10, 3]);
      // Its on_initialize ran with tempo 10: no epoch there (with 3 it would have run).
      expect(await read(CASE.block, 'lastMechansimStepBlock')).toBe(CASE.lastStep);
      if (runtime === 'stateful') {
        // Main restarts the cycle at the change (`apply_tempo_with_cycle_reset`, `utils/misc.rs:121-125`):
        // LastEpochBlock = 15, so the next epoch is at 15 + 3 = 18, not at 16 (16 - 10 >= 3 with the old anchor).
        await h.devnet.produceBlocks(CASE.block + 3 - h.devnet.bestNumber());
        const anchors = await Promise.all([CASE.block - 1, CASE.block, CASE.block + 1, CASE.block + 2, CASE.block + 3].map((n) => read(n, 'lastEpochBlock')));
        expect(anchors).toEqual([10, 15, 15, 15, 18]);
        const indexes = await Promise.all([CASE.block, CASE.block + 2, CASE.block + 3].map((n) => read(n, 'subnetEpochIndex')));
        expect(indexes).toEqual([1, 1, 2]);
      }
    });
  },
);
