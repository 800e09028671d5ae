/**
 * Item 2 of issue 15: the reveal round, the v2 reveal window and the commit tuple are right on both runtimes
 * for mechanisms 0 and >= 1, checked against a block-by-block oracle of the chain's own rules
 * (`subtensor-oracle.ts`) on thousands of heads around epoch boundaries.
 */
import { QUICKNET } from '@subnet/timelock';
import { describe, expect, it } from 'vitest';

import { legacyEpochFirstBlock, legacyEpochIndex, v2CommitEpoch } from '../epoch-schedule.js';
import type { EpochState, MetagraphSnapshot } from '../metagraph-snapshot.js';
import { epochAtBlock, revealWindow } from '../reveal-window.js';
import type { TimelockContext } from '../timelock-context.js';
import { predictRevealRound } from '../timelock-round.js';
import type { OracleState, OracleSubnet } from './subtensor-oracle.js';
import { simulate, timelockReveal, v2Reveal } from './subtensor-oracle.js';

const BLOCK_TIME = 12;
const GENESIS = 1_700_000_000;
const context: TimelockContext = {
  beacon: { publicKey: QUICKNET.publicKey, genesisTime: GENESIS - 7, period: 3 },
  beaconSource: 'option',
  lastStoredRound: 0n,
  nowSeconds: 0,
  clock: 'chain',
  blockTimeSeconds: BLOCK_TIME,
};

function epochState(runtime: OracleSubnet['runtime'], st: OracleState): EpochState {
  return runtime === 'legacy'
    ? { subnetEpochIndex: null, lastEpochBlock: null, pendingEpochAt: null, blocksSinceLastStep: st.blocksSinceLastStep }
    : { subnetEpochIndex: st.subnetEpochIndex, lastEpochBlock: st.lastEpochBlock, pendingEpochAt: 0n, blocksSinceLastStep: st.blocksSinceLastStep };
}

function snapshotAt(s: OracleSubnet, st: OracleState, mecid: number): MetagraphSnapshot {
  return {
    netuid: s.netuid,
    mecid,
    netuidIndex: mecid * 4096 + s.netuid,
    block: st.block,
    blockHash: '0x00',
    n: 0,
    hotkeys: [],
    coldkeys: [],
    stakes: [],
    stakeWeights: [],
    stakeSource: 'storage',
    validatorPermit: [],
    lastUpdate: [],
    blockAtRegistration: [],
    axons: [],
    incentive: null,
    dividends: null,
    trust: null,
    consensus: null,
    ownerHotkey: null,
    hyperparameters: {
      tempo: s.tempo,
      weightsRateLimit: 0n,
      weightsVersionKey: 0n,
      minAllowedWeights: 1,
      stakeThreshold: 0n,
      commitRevealEnabled: true,
      commitRevealVersion: 4,
      revealPeriodEpochs: s.revealPeriod,
      mechanismCount: 3,
    },
    epoch: epochState(s.runtime, st),
    runtimeVersion: { specName: 'node-subtensor', specVersion: s.runtime === 'legacy' ? 393 : 425 },
  };
}

/** Heads within `radius` blocks of each of the first `epochs` epoch boundaries of the subnet. */
function headsAroundBoundaries(states: readonly OracleState[], s: OracleSubnet, radius: number, epochs: number): bigint[] {
  const boundaries: bigint[] = [];
  for (let i = 1; i < states.length && boundaries.length < epochs; i += 1) {
    const fired = s.runtime === 'stateful' ? states[i]!.subnetEpochIndex !== states[i - 1]!.subnetEpochIndex : states[i]!.blocksSinceLastStep === 0n;
    if (fired) boundaries.push(BigInt(i));
  }
  const heads = new Set<bigint>();
  for (const b of boundaries) for (let d = -radius; d <= radius; d += 1) if (b + BigInt(d) >= 1n) heads.add(b + BigInt(d));
  return [...heads].sort((a, b) => (a < b ? -1 : 1));
}

const SUBNETS: OracleSubnet[] = [];
for (const runtime of ['legacy', 'stateful'] as const) {
  for (const [netuid, tempo] of [
    [1, 10],
    [7, 99],
    [64, 360],
    [4095, 12],
  ] as const) {
    for (const revealPeriod of [1n, 2n]) SUBNETS.push({ runtime, netuid, tempo, revealPeriod });
  }
}

describe.each(SUBNETS)('epoch formulas against the chain ($runtime, netuid $netuid, tempo $tempo, reveal period $revealPeriod)', (s) => {
  const horizon = BigInt((s.tempo + 1) * (Number(s.revealPeriod) + 6) + 8);
  const states = simulate(s, horizon + BigInt((s.tempo + 1) * 4));
  const heads = headsAroundBoundaries(states, s, 4, 3);

  it("timelocked commit: predicted commit epoch and reveal block are the chain's for mechanisms 0, 1 and 2; the round is never public before the reveal block", () => {
    let checked = 0;
    for (const head of heads) {
      const oracle = timelockReveal(s, states, head + 1n);
      for (const mecid of [0, 1, 2]) {
        const now = GENESIS + Number(head) * BLOCK_TIME;
        const p = predictRevealRound(snapshotAt(s, states[Number(head)]!, mecid), { ...context, nowSeconds: now });
        expect([head, mecid, p.schedule, p.commitEpoch, p.revealBlock]).toEqual([head, mecid, s.runtime, oracle.key, oracle.revealBlock]);
        // drand emits round r at genesis + (r - 1) * period: never before the reveal block's expected time
        const emitted = context.beacon.genesisTime + (Number(p.round) - 1) * context.beacon.period;
        expect(emitted).toBeGreaterThanOrEqual(GENESIS + Number(oracle.revealBlock) * BLOCK_TIME);
        // and stored within a block of the target (reveal block + 3), so the chain reveals it in that epoch
        expect(emitted).toBeLessThanOrEqual(GENESIS + Number(oracle.revealBlock! + 4n) * BLOCK_TIME);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('commit-reveal v2: the window computed from the WeightCommits tuple is exactly the blocks the chain accepts the reveal in', () => {
    for (const head of heads) {
      const commitBlock = head + 1n;
      const oracle = v2Reveal(s, states, commitBlock);
      const at = snapshotAt(s, states[Number(commitBlock)]!, 1);
      const input = { netuid: s.netuid, tempo: s.tempo, head: commitBlock, epoch: at.epoch };
      const commitEpoch = v2CommitEpoch(at, oracle.field1);
      const w = revealWindow(input, commitEpoch, s.revealPeriod, Number(horizon));
      expect([head, w?.firstBlock, w?.lastBlock]).toEqual([head, oracle.blocks[0], oracle.blocks[oracle.blocks.length - 1]]);
      expect(w!.lastBlock - w!.firstBlock + 1n).toBe(BigInt(oracle.blocks.length));
      // revealPending's check (the epoch of head + 1 against commit epoch + period) agrees block by block
      for (const b of [w!.firstBlock - 1n, w!.firstBlock, w!.lastBlock, w!.lastBlock + 1n]) {
        if (b <= commitBlock) continue;
        const prev = snapshotAt(s, states[Number(b - 1n)]!, 0);
        const inWindow = epochAtBlock({ netuid: s.netuid, tempo: s.tempo, head: b - 1n, epoch: prev.epoch }, b) === commitEpoch + s.revealPeriod;
        expect([head, b, inWindow]).toEqual([head, b, oracle.blocks.includes(b)]);
      }
    }
  });
});

describe('the legacy round uses the plain netuid for every mechanism (issue 15)', () => {
  it('mechanism 1 of netuid 1 at tempo 360 gets the same reveal block as mechanism 0 (mecid*4096+netuid would shift it)', () => {
    const s: OracleSubnet = { runtime: 'legacy', netuid: 1, tempo: 360, revealPeriod: 1n };
    const states = simulate(s, 2_000n);
    const a = predictRevealRound(snapshotAt(s, states[1000]!, 0), { ...context, nowSeconds: GENESIS });
    const b = predictRevealRound(snapshotAt(s, states[1000]!, 1), { ...context, nowSeconds: GENESIS });
    expect(b.revealBlock).toBe(a.revealBlock);
    expect(b.round).toBe(a.round);
    expect(a.revealBlock).toBe(timelockReveal(s, states, 1001n).revealBlock);
  });
});

describe('legacyEpochFirstBlock (spec 393)', () => {
  it('is the least block of the epoch: legacyEpochIndex gives the epoch there and the one before a block earlier', () => {
    for (const netuid of [0, 1, 7, 64, 4095])
      for (const tempo of [1, 10, 99, 360, 7200])
        for (let epoch = 0n; epoch < 40n; epoch += 1n) {
          const first = legacyEpochFirstBlock(netuid, tempo, epoch);
          if (first === 0n) {
            // the chain starts inside this epoch or a later one
            expect(legacyEpochIndex(netuid, tempo, 0n)).toBeGreaterThanOrEqual(epoch);
            continue;
          }
          expect(legacyEpochIndex(netuid, tempo, first), `netuid ${netuid} tempo ${tempo} epoch ${epoch}`).toBe(epoch);
          expect(legacyEpochIndex(netuid, tempo, first - 1n)).toBe(epoch - 1n);
        }
  });
});
