/**
 * A stake change is a staking extrinsic on chain (`add_stake` / `remove_stake`, `macros/dispatches.rs:698, 740` at
 * 14bc6f9f9), applied after the block's `on_initialize`, whose `block_step` reveals the timelocked commits first
 * (`coinbase/block_step.rs:18-21`, `macros/hooks.rs:17-20`); a validator permit is written by the epoch
 * (`epoch/run_epoch.rs:140`, from
 * `subnets/mechanism.rs:394`), which runs in `run_coinbase` after that reveal step. Either way the reveal step of
 * the block holding the change still sees the old stake and permit, and the next block's sees the new ones. Read
 * back over a real WebSocket with an unmodified ApiPromise, on both runtimes.
 */
import { u8aToHex } from '@polkadot/util';
import { encryptWeightsCommit } from '@subnet/timelock';
import { describe, expect, it } from 'vitest';

import type { Harness } from './harness.js';
import { harness, include } from './harness.js';

const TEMPO = 10;
const UID = 1;

type Codec = { toJSON(): unknown };

describe.each(['stateful', 'legacy'] as const)(
  'setStake and setValidatorPermit apply with the next block’s extrinsics, after its on_initialize (%s runtime)',
  { timeout: 60_000 },
  (runtime) => {
    /** A devnet where uid 1 (a validator, not the owner) committed timelocked weights `{2: 1}` to a round published soon. */
    async function committed(): Promise<Harness> {
      const h = await harness({ runtime, neurons: 4, validators: 2, tempo: TEMPO, commitReveal: true, weightsSetRateLimit: 0n, beacon: { period: 12 } });
      await h.devnet.produceBlock();
      const round = h.devnet.beacon!.roundAtBlock(h.devnet.bestNumber() + 1) + 1n;
      const hotkey = h.devnet.accounts[UID]!.hotkey;
      const { commit } = encryptWeightsCommit({
        hotkeyPublicKey: hotkey.publicKey,
        uids: [2],
        values: [1],
        versionKey: 0n,
        round,
        beacon: { publicKey: h.devnet.beacon!.publicKey },
      });
      const done = await include(h, h.api.tx.subtensorModule!.commitTimelockedMechanismWeights!(1, 0, u8aToHex(commit), round, 4), hotkey);
      expect(done.failed).toBeNull();
      return h;
    }
    const query = async (h: Harness, n: number, item: string, ...args: unknown[]): Promise<unknown> => {
      const at = await h.api.at(await h.api.rpc.chain.getBlockHash(n));
      return ((await at.query['subtensorModule']![item]!(...args)) as Codec).toJSON();
    };
    const weightsAt = (h: Harness, n: number) => query(h, n, 'weights', 1, UID);
    const stakeAt = async (h: Harness, n: number) => BigInt(String(await query(h, n, 'totalHotkeyAlpha', h.devnet.accounts[UID]!.hotkey.address, 1)));
    const permitAt = async (h: Harness, n: number) => ((await query(h, n, 'validatorPermit', 1)) as boolean[])[UID];
    const dropAt = (h: Harness, n: number) => h.devnet.timelockDrops().find((d) => d.block === BigInt(n));

    /** The block that reveals the commit when nothing changes (the devnet is deterministic: the same in every run). */
    async function revealBlock(): Promise<number> {
      const h = await committed();
      try {
        for (let i = 0; i < 3 * TEMPO; i += 1) {
          const b = (await h.devnet.produceBlock())!;
          const weights = await weightsAt(h, b.number);
          if (Array.isArray(weights) && weights.length > 0) return b.number;
        }
        throw new Error('never revealed');
      } finally {
        await h.close();
      }
    }

    /** Runs to block `reveal`, queueing `change` just before block `changeIn` is produced. */
    async function withChange(reveal: number, changeIn: number, change: (h: Harness) => void): Promise<Harness> {
      const h = await committed();
      await h.devnet.produceBlocks(changeIn - 1 - h.devnet.bestNumber());
      change(h);
      await h.devnet.produceBlocks(reveal - h.devnet.bestNumber());
      return h;
    }

    it('a stake removed in the reveal block: that block’s reveal step still counts the old stake (revealed there), the block holds the new stake', async () => {
      const reveal = await revealBlock();
      const h = await withChange(reveal, reveal, (x) => {
        x.devnet.setStake(UID, 0n);
      });
      try {
        expect([await stakeAt(h, reveal - 1), await stakeAt(h, reveal)]).toEqual([10_000_000_000_000n, 0n]);
        expect(await weightsAt(h, reveal)).toEqual([[2, 65535]]);
        expect(dropAt(h, reveal)).toBeUndefined();
      } finally {
        await h.close();
      }
      // a block earlier, the reveal step sees it: the reveal fails its stake check (dropped silently, as on chain)
      const early = await withChange(reveal, reveal - 1, (x) => {
        x.devnet.setStake(UID, 0n);
      });
      try {
        expect(await stakeAt(early, reveal - 1)).toBe(0n);
        expect(await weightsAt(early, reveal)).toEqual([]);
        expect(dropAt(early, reveal)).toMatchObject({ reason: 'weights_check', detail: 'NotEnoughStakeToSetWeights' });
      } finally {
        await early.close();
      }
    });

    it('a permit taken in the reveal block: that block’s reveal step still sees the old permit (revealed there), the block holds the new one', async () => {
      const reveal = await revealBlock();
      const h = await withChange(reveal, reveal, (x) => {
        x.devnet.setValidatorPermit(UID, false);
      });
      try {
        expect([await permitAt(h, reveal - 1), await permitAt(h, reveal)]).toEqual([true, false]);
        expect(await weightsAt(h, reveal)).toEqual([[2, 65535]]);
      } finally {
        await h.close();
      }
      const early = await withChange(reveal, reveal - 1, (x) => {
        x.devnet.setValidatorPermit(UID, false);
      });
      try {
        expect(await permitAt(early, reveal - 1)).toBe(false);
        expect(await weightsAt(early, reveal)).toEqual([]);
        expect(dropAt(early, reveal)).toMatchObject({ reason: 'weights_check', detail: 'NeuronNoValidatorPermit' });
      } finally {
        await early.close();
      }
    });
  },
);
