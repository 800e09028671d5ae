import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { QUICKNET, revealRoundLegacy, revealRoundStateful } from '../index.js';
import { thrown } from './helpers.js';

const NOW = 1_750_000_000;
const GENESIS = 1_692_803_367;

describe('revealRoundLegacy (README 2.5, bittensor-drand 1.x generate_commit)', () => {
  it('netuid 3, tempo 99, block 1000, reveal period 2: hand-worked', () => {
    // epoch = floor((1000 + 4) / 100) = 10; reveal epoch = 12; first = 12 * 100 - 4 = 1196; target = 1199
    // blocks = 199; time = 1_700_000_000 + 199 * 12 = 1_700_002_388; round = floor((1_700_002_388 - 1_692_803_367) / 3)
    //        = floor(7_199_021 / 3) = 2_399_673
    const p = revealRoundLegacy({
      block: 1000n,
      netuid: 3,
      tempo: 99,
      revealPeriod: 2,
      nowSeconds: 1_700_000_000,
      blockTimeSeconds: 12,
      beacon: QUICKNET,
    });
    expect(p.schedule).toBe('legacy');
    expect(p.commitEpoch).toBe(10n);
    expect(p.revealEpoch).toBe(12n);
    expect(p.revealBlock).toBe(1196n);
    expect(p.targetBlock).toBe(1199n);
    expect(p.blocksUntilTarget).toBe(199n);
    expect(p.targetTimeSeconds).toBe(1_700_002_388);
    expect(p.round).toBe(2_399_673n);
    expect(p.explanation.length).toBeGreaterThan(4);
  });

  it('a target time before the beacon genesis gives round 1 (the SDK minimum)', () => {
    // time = 0 + 199 * 12 = 2388 s; floor((2388 - 1_692_803_367) / 3) is negative, raised to 1
    const p = revealRoundLegacy({ block: 1000n, netuid: 3, tempo: 99, revealPeriod: 2, nowSeconds: 0, blockTimeSeconds: 12, beacon: QUICKNET });
    expect(p.round).toBe(1n);
  });

  it('reveal_round >= Drand.LastStoredRound: a stale prediction is TIMELOCK_REVEAL_ROUND_STALE', () => {
    const input = { block: 1000n, netuid: 3, tempo: 99, revealPeriod: 2, nowSeconds: 1_700_000_000, blockTimeSeconds: 12, beacon: QUICKNET };
    expect(revealRoundLegacy({ ...input, lastStoredRound: 2_399_673n }).round).toBe(2_399_673n);
    const error = thrown(() => revealRoundLegacy({ ...input, lastStoredRound: 2_399_674n }));
    expect(error.code).toBe('TIMELOCK_REVEAL_ROUND_STALE');
    expect(error.context.lastStoredRound).toBe(2_399_674n);
  });

  it('a netuid of 65536 is TIMELOCK_INVALID_INPUT naming netuid', () => {
    const error = thrown(() =>
      revealRoundLegacy({ block: 1, netuid: 65536, tempo: 1, revealPeriod: 1, nowSeconds: NOW, blockTimeSeconds: 12, beacon: QUICKNET }),
    );
    expect(error.code).toBe('TIMELOCK_INVALID_INPUT');
    expect(error.context.path).toBe('netuid');
  });

  it('a block time of 0 or NaN is TIMELOCK_INVALID_INPUT naming blockTimeSeconds', () => {
    for (const blockTimeSeconds of [0, Number.NaN]) {
      const error = thrown(() => revealRoundLegacy({ block: 1, netuid: 1, tempo: 1, revealPeriod: 1, nowSeconds: NOW, blockTimeSeconds, beacon: QUICKNET }));
      expect(error.context.path).toBe('blockTimeSeconds');
    }
  });
});

const base = {
  head: 1000n,
  lastEpochBlock: 900n,
  pendingEpochAt: 0n,
  subnetEpochIndex: 7n,
  tempo: 360,
  blocksSinceLastStep: 100n,
  revealPeriod: 1,
  nowSeconds: NOW,
  blockTimeSeconds: 12,
  beacon: QUICKNET,
};

describe('revealRoundStateful (README 2.5, stateful SubnetEpochIndex schedule)', () => {
  it('plain tempo: no epoch at head+1, reveal epoch opens at LastEpochBlock + tempo', () => {
    // 1001 - 900 = 101 < 360: commit epoch 7, reveal epoch 8, fires at 900 + 360 = 1260
    // target 1263, 263 blocks after head; time = NOW + 263 * 12 = 1_750_003_156
    // round = floor((1_750_003_156 - 1_692_803_367) / 3) = floor(57_199_789 / 3) = 19_066_596
    const p = revealRoundStateful(base);
    expect(p.commitEpoch).toBe(7n);
    expect(p.revealEpoch).toBe(8n);
    expect(p.epochBlocks).toEqual([1260n]);
    expect(p.revealBlock).toBe(1260n);
    expect(p.targetBlock).toBe(1263n);
    expect(p.blocksUntilTarget).toBe(263n);
    expect(p.targetTimeSeconds).toBe(NOW + 263 * 12);
    expect(p.round).toBe(19_066_596n);
  });

  it('owner-triggered PendingEpochAt fires first, then tempo counts from it', () => {
    // pending 1100 > 1001: commit epoch 7; reveal period 2 -> epoch 9
    // fires at 1100 (pending) -> 8, then 1100 + 360 = 1460 -> 9; target 1463, 463 blocks
    // round = floor((NOW + 463 * 12 - GENESIS) / 3) = floor(57_202_189 / 3) = 19_067_396
    const p = revealRoundStateful({ ...base, pendingEpochAt: 1100n, revealPeriod: 2 });
    expect(p.commitEpoch).toBe(7n);
    expect(p.epochBlocks).toEqual([1100n, 1460n]);
    expect(p.revealBlock).toBe(1460n);
    expect(p.round).toBe(19_067_396n);
  });

  it('an epoch firing in the commit block itself raises the commit epoch (look-ahead)', () => {
    // head 1259: at 1260, 1260 - 900 = 360 >= 360 fires -> commit epoch 8, reveal epoch 9
    // fires at 1260 and 1620; target 1623, 364 blocks after head
    // round = floor((NOW + 364 * 12 - GENESIS) / 3) = floor(57_201_001 / 3) = 19_067_000
    const p = revealRoundStateful({ ...base, head: 1259n, blocksSinceLastStep: 359n });
    expect(p.commitEpoch).toBe(8n);
    expect(p.revealEpoch).toBe(9n);
    expect(p.epochBlocks).toEqual([1260n, 1620n]);
    expect(p.revealBlock).toBe(1620n);
    expect(p.blocksUntilTarget).toBe(364n);
    expect(p.round).toBe(19_067_000n);
  });

  it('BlocksSinceLastStep safety net: 400 > 360 fires at head+1 only when the runtime’s threshold is tempo', () => {
    // overdueAfterBlocks 360: 400 > 360 fires at 1001 -> commit epoch 8, reveal epoch 9 at 1001 + 360 = 1361
    const strictNet = revealRoundStateful({ ...base, blocksSinceLastStep: 400n, overdueAfterBlocks: 360n });
    expect(strictNet.commitEpoch).toBe(8n);
    expect(strictNet.revealBlock).toBe(1361n);
    // default 50400: no fire at 1001; reveal epoch 8 opens at 900 + 360 = 1260
    const defaultNet = revealRoundStateful({ ...base, blocksSinceLastStep: 400n });
    expect(defaultNet.commitEpoch).toBe(7n);
    expect(defaultNet.revealBlock).toBe(1260n);
  });

  it('BlocksSinceLastStep is raised before the safety net is asked (drain_pending, run_coinbase.rs:363): 50400 at head fires in the commit block', () => {
    // head 1000, state after it: BlocksSinceLastStep 50400. Block 1001: drain_pending raises it to 50401 > 50400 and
    // the epoch fires there (1001 - 900 = 101 < 360 would not), so the commit is keyed 7 + 1 = 8; reveal epoch 9
    // fires at 1001 + 360 = 1361 (tempo counts from the new LastEpochBlock 1001)
    const p = revealRoundStateful({ ...base, blocksSinceLastStep: 50_400n });
    expect(p.commitEpoch).toBe(8n);
    expect(p.revealEpoch).toBe(9n);
    expect(p.revealBlock).toBe(1361n);
  });

  it('an epoch fired by the safety net alone opens one block later for the reveal step, and tempo counts from the block it fired in', () => {
    // head 1000 with BlocksSinceLastStep 50395: raised to 50396 in 1001 ... 50401 in 1006, where drain_pending fires
    // (LastEpochBlock = 1006). The reveal step of 1006 ran before, on 50400 (not > 50400), so epoch 8 opens for it in
    // 1007. Reveal period 2: epoch 9 fires at 1006 + 360 = 1366 by tempo, which the reveal step of 1366 already sees.
    // round = floor((NOW + (1366 + 3 - 1000) * 12 - GENESIS) / 3) = floor(57_201_061 / 3) = 19_067_020
    const p = revealRoundStateful({ ...base, blocksSinceLastStep: 50_395n, revealPeriod: 2 });
    expect(p.commitEpoch).toBe(7n);
    expect(p.epochBlocks).toEqual([1006n, 1366n]);
    expect(p.revealBlock).toBe(1366n);
    expect(p.round).toBe(19_067_020n);
    // reveal period 1: epoch 8 is the safety net's, first seen by the reveal step of 1007
    expect(revealRoundStateful({ ...base, blocksSinceLastStep: 50_395n }).revealBlock).toBe(1007n);
  });

  it('tempo 0 never reveals: TIMELOCK_NO_REVEAL_EPOCH', () => {
    const error = thrown(() => revealRoundStateful({ ...base, tempo: 0 }));
    expect(error.code).toBe('TIMELOCK_NO_REVEAL_EPOCH');
    expect(error.context.path).toBe('tempo');
  });

  it('reveal_round >= Drand.LastStoredRound is enforced when given', () => {
    expect(thrown(() => revealRoundStateful({ ...base, lastStoredRound: 19_066_597n })).code).toBe('TIMELOCK_REVEAL_ROUND_STALE');
  });

  it('a negative head is TIMELOCK_INVALID_INPUT naming head', () => {
    expect(thrown(() => revealRoundStateful({ ...base, head: -1 })).context.path).toBe('head');
  });

  it('agrees with a block-by-block simulation of run_coinbase (fast-check reference)', () => {
    interface S {
      last: bigint;
      pending: bigint;
      index: bigint;
      since: bigint;
    }
    // Block b of Subtensor main, written from the source: on_initialize runs the reveal step first
    // (reveal_commits.rs:43, current_epoch_with_lookahead on the state after b - 1), then run_coinbase, whose
    // drain_pending raises BlocksSinceLastStep BEFORE asking should_run_epoch (run_coinbase.rs:363) and on firing
    // sets LastEpochBlock = b, PendingEpochAt = 0, SubnetEpochIndex += 1, BlocksSinceLastStep = 0 (:385, :426-428);
    // an extrinsic in b then sees the look-ahead epoch of the state after b (weights.rs:345, :1275).
    const reference = (head: bigint, s0: S, tempo: bigint, period: bigint, overdue: bigint) => {
      const s = { ...s0 };
      const shouldRun = (b: bigint) => (s.pending > 0n && b >= s.pending) || s.since > overdue || (b > s.last ? b - s.last : 0n) >= tempo;
      const coinbase = (b: bigint) => {
        s.since += 1n;
        if (shouldRun(b)) Object.assign(s, { last: b, pending: 0n, index: s.index + 1n, since: 0n });
      };
      const commitBlock = head + 1n;
      coinbase(commitBlock);
      const commitEpoch = s.index + (shouldRun(commitBlock) ? 1n : 0n);
      for (let b = commitBlock + 1n; ; b++) {
        const revealStepEpoch = s.index + (shouldRun(b) ? 1n : 0n);
        if (revealStepEpoch >= period && revealStepEpoch - period === commitEpoch) return { commitEpoch, revealBlock: b };
        coinbase(b);
      }
    };
    fc.assert(
      fc.property(
        fc.record({
          last: fc.integer({ min: 0, max: 200 }),
          ahead: fc.integer({ min: 0, max: 80 }),
          pending: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 400 })),
          index: fc.integer({ min: 0, max: 50 }),
          since: fc.integer({ min: 0, max: 90 }),
          tempo: fc.integer({ min: 1, max: 40 }),
          period: fc.integer({ min: 1, max: 4 }),
          overdue: fc.integer({ min: 0, max: 60 }),
        }),
        (r) => {
          const head = BigInt(r.last + r.ahead);
          const expected = reference(
            head,
            { last: BigInt(r.last), pending: BigInt(r.pending), index: BigInt(r.index), since: BigInt(r.since) },
            BigInt(r.tempo),
            BigInt(r.period),
            BigInt(r.overdue),
          );
          const p = revealRoundStateful({
            ...base,
            head,
            lastEpochBlock: r.last,
            pendingEpochAt: r.pending,
            subnetEpochIndex: r.index,
            tempo: r.tempo,
            blocksSinceLastStep: r.since,
            revealPeriod: r.period,
            overdueAfterBlocks: r.overdue,
          });
          expect(p.commitEpoch).toBe(expected.commitEpoch);
          expect(p.revealBlock).toBe(expected.revealBlock);
          expect(p.round).toBe(BigInt(Math.floor((NOW + Number(expected.revealBlock + 3n - head) * 12 - GENESIS) / 3)));
        },
      ),
      { numRuns: 300, seed: 5 },
    );
  });
});
