import { cpus } from 'node:os';

import { bench, describe } from 'vitest';

import { weightCommitHash } from '../commit-hash.js';
import type { MetagraphSnapshot } from '../metagraph-snapshot.js';
import { preflight } from '../preflight.js';
import { convertToU16 } from '../u16-conversion.js';

// Machine: printed once so the table can be read against it.
console.info(`machine: ${cpus()[0]?.model ?? 'unknown'} x${cpus().length}, node ${process.version}`);

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

function snapshotOf(n: number): MetagraphSnapshot {
  const hotkeys = Array.from({ length: n }, (_, i) => (i === 0 ? ALICE : `hk${i}`));
  return {
    netuid: 1,
    mecid: 0,
    netuidIndex: 1,
    block: 10_000n,
    blockHash: '0x',
    n,
    hotkeys,
    coldkeys: hotkeys,
    stakes: hotkeys.map(() => 10n ** 13n),
    stakeWeights: [],
    axons: [],
    incentive: null,
    dividends: null,
    trust: null,
    consensus: null,
    stakeSource: 'storage',
    validatorPermit: hotkeys.map(() => true),
    lastUpdate: hotkeys.map(() => 0n),
    blockAtRegistration: hotkeys.map(() => 0n),
    ownerHotkey: null,
    hyperparameters: {
      tempo: 360,
      weightsRateLimit: 100n,
      weightsVersionKey: 0n,
      minAllowedWeights: 1,
      stakeThreshold: 1n,
      commitRevealEnabled: false,
      commitRevealVersion: 2,
      revealPeriodEpochs: 1n,
      mechanismCount: 1,
    },
    epoch: { subnetEpochIndex: 0n, lastEpochBlock: 0n, pendingEpochAt: 0n, blocksSinceLastStep: 0n },
    runtimeVersion: { specName: 'node-subtensor', specVersion: 425 },
  };
}

for (const n of [10, 100, 1_000, 4_096]) {
  const entries = Array.from({ length: n }, (_, i): [number, number] => [i, ((i * 7919) % 1000) / 1000 + 0.001]);
  const converted = convertToU16(entries, 'sum');
  const snapshot = snapshotOf(n);
  const salt = [1, 2, 3, 4, 5, 6, 7, 8];
  describe(`n = ${n}`, () => {
    bench('u16 conversion (sum, largest remainder)', () => {
      convertToU16(entries, 'sum');
    });
    bench('u16 conversion (max, SDK)', () => {
      convertToU16(entries, 'max');
    });
    bench('preflight', () => {
      preflight({ snapshot, hotkey: ALICE, uids: converted.uids, values: converted.values, versionKey: 0n, kind: 'set' });
    });
    bench('commit hash (blake2b-256)', () => {
      weightCommitHash({ hotkey: ALICE, netuidIndex: 1, uids: converted.uids, values: converted.values, salt, versionKey: 10_002_000n });
    });
  });
}
