import { QUICKNET } from '@subnet/timelock';
import { describe, expect, it } from 'vitest';

import type { MetagraphSnapshot } from '../metagraph-snapshot.js';
import { prepareTimelockedCommit } from '../timelock-commit.js';
import type { TimelockContext } from '../timelock-context.js';
import { predictRevealRound } from '../timelock-round.js';

function snapshot(epoch: MetagraphSnapshot['epoch'], n = 8): MetagraphSnapshot {
  return {
    netuid: 1,
    mecid: 0,
    netuidIndex: 1,
    block: 5n,
    blockHash: '0x00',
    n,
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
      tempo: 10,
      weightsRateLimit: 0n,
      weightsVersionKey: 0n,
      minAllowedWeights: 1,
      stakeThreshold: 0n,
      commitRevealEnabled: true,
      commitRevealVersion: 4,
      revealPeriodEpochs: 1n,
      mechanismCount: 1,
    },
    epoch,
    runtimeVersion: { specName: 'node-subtensor', specVersion: 425 },
  };
}

const context: TimelockContext = {
  beacon: { publicKey: QUICKNET.publicKey, genesisTime: 904, period: 12 },
  beaconSource: 'option',
  lastStoredRound: 0n,
  nowSeconds: 1000,
  clock: 'chain',
  blockTimeSeconds: 12,
};

const STATEFUL = { subnetEpochIndex: 0n, lastEpochBlock: 0n, pendingEpochAt: 0n, blocksSinceLastStep: 5n };
const LEGACY = { subnetEpochIndex: null, lastEpochBlock: null, pendingEpochAt: null, blocksSinceLastStep: 5n };

describe('reveal-round prediction from state read at one block (chain README 2.5)', () => {
  it('uses the stateful schedule when the runtime has LastEpochBlock / PendingEpochAt / SubnetEpochIndex', () => {
    // commit in block 6 (epoch 0); the epoch fires at block 10 (10 - 0 >= tempo) -> reveal epoch 1 opens there;
    // target = 13, 8 blocks after head 5; round = floor((1000 + 8*12 - 904) / 12) = 16
    const p = predictRevealRound(snapshot(STATEFUL), context);
    expect([p.schedule, p.commitEpoch, p.revealEpoch, p.revealBlock, p.targetBlock, p.round]).toEqual(['stateful', 0n, 1n, 10n, 13n, 16n]);
  });

  it('falls back to the legacy formula (block + netuid + 1) / (tempo + 1) otherwise', () => {
    // epoch = (5 + 2) / 11 = 0; reveal block = 1 * 11 - 2 = 9; target 12, 7 blocks ahead; round = floor((1000 + 84 - 904) / 12) = 15
    const p = predictRevealRound(snapshot(LEGACY), context);
    expect([p.schedule, p.commitEpoch, p.revealBlock, p.targetBlock, p.round]).toEqual(['legacy', 0n, 9n, 12n, 15n]);
  });

  it('reveal_round >= Drand.LastStoredRound is checked before signing: CHAIN_INVALID_REVEAL_ROUND at stage preflight', () => {
    expect(() => predictRevealRound(snapshot(STATEFUL), { ...context, lastStoredRound: 17n })).toThrow(
      expect.objectContaining({ code: 'CHAIN_INVALID_REVEAL_ROUND', context: expect.objectContaining({ stage: 'preflight', lastStoredRound: 17n }) }),
    );
    expect(predictRevealRound(snapshot(STATEFUL), { ...context, lastStoredRound: 16n }).round).toBe(16n);
  });

  it('tempo 0 means no reveal epoch: CHAIN_TIMELOCK_NO_REVEAL_EPOCH', () => {
    const s = snapshot(STATEFUL);
    expect(() => predictRevealRound({ ...s, hyperparameters: { ...s.hyperparameters, tempo: 0 } }, context)).toThrow(
      expect.objectContaining({ code: 'CHAIN_TIMELOCK_NO_REVEAL_EPOCH' }),
    );
  });
});

describe('the 5000-byte commit limit is checked before signing', () => {
  const hotkeyPublicKey = `0x${'11'.repeat(32)}`;
  it('1177 uids fit (4n + 289 = 4997 bytes); 1178 are CHAIN_TIMELOCK_COMMIT_TOO_LARGE', () => {
    const uids = (n: number) => Array.from({ length: n }, (_v, i) => i);
    const ok = prepareTimelockedCommit({ snapshot: snapshot(STATEFUL, 2000), context, hotkeyPublicKey, uids: uids(1177), values: uids(1177), versionKey: 0n });
    expect(ok.commit.size).toBe(4997);
    expect(() =>
      prepareTimelockedCommit({ snapshot: snapshot(STATEFUL, 2000), context, hotkeyPublicKey, uids: uids(1178), values: uids(1178), versionKey: 0n }),
    ).toThrow(
      expect.objectContaining({ code: 'CHAIN_TIMELOCK_COMMIT_TOO_LARGE', context: expect.objectContaining({ stage: 'preflight', size: 5001, limit: 5000 }) }),
    );
  });
});
