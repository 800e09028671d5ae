import { cpus } from 'node:os';

import { bench, describe } from 'vitest';

import {
  beaconKeyFromSeed,
  decryptWithSignature,
  encodeWeightsPayload,
  encryptWeightsCommit,
  QUICKNET,
  revealRoundStateful,
  revealWeightsCommit,
  signRound,
  verifyPulse,
} from '../index.js';

// Throughput on this machine; reported, not gated.
console.log(`machine: ${cpus()[0]?.model ?? 'unknown'} x${cpus().length}, node ${process.version}`);

const dev = beaconKeyFromSeed('bench');
const beacon = { publicKey: dev.publicKey };
const hotkey = new Uint8Array(32).fill(7);
const ROUND = 1_000_000n;
const pulse = signRound(dev.secretKey, ROUND);

function weights(n: number) {
  return {
    hotkeyPublicKey: hotkey,
    uids: Array.from({ length: n }, (_, i) => i),
    values: Array.from({ length: n }, (_, i) => (i * 257) % 65536),
    versionKey: 4n,
    round: ROUND,
    beacon,
  };
}

const commits = new Map([10, 256, 1177].map((n) => [n, encryptWeightsCommit(weights(n)).commit]));

describe('256-uid weights commit (payload 1069 B, commit 1313 B)', () => {
  bench('encryptWeightsCommit (dev beacon)', () => {
    encryptWeightsCommit(weights(256));
  });
  bench('encryptWeightsCommit (quicknet)', () => {
    encryptWeightsCommit({ ...weights(256), beacon: QUICKNET });
  });
  bench('decryptWithSignature', () => {
    decryptWithSignature(commits.get(256)!, pulse.signature);
  });
  bench('revealWeightsCommit (decrypt + payload + hotkey check)', () => {
    revealWeightsCommit({ commit: commits.get(256)!, signature: pulse.signature, signer: hotkey });
  });
});

describe('scaling with uid count (decrypt)', () => {
  for (const n of [10, 256, 1177]) {
    bench(`decryptWithSignature n=${n}`, () => {
      decryptWithSignature(commits.get(n)!, pulse.signature);
    });
  }
});

describe('beacon and cheap helpers', () => {
  bench('signRound', () => {
    signRound(dev.secretKey, ROUND);
  });
  bench('verifyPulse', () => {
    verifyPulse(pulse, beacon);
  });
  bench('encodeWeightsPayload n=256', () => {
    encodeWeightsPayload({ hotkey, uids: weights(256).uids, values: weights(256).values, versionKey: 4n });
  });
  bench('revealRoundStateful', () => {
    revealRoundStateful({
      head: 6_000_000n,
      lastEpochBlock: 5_999_900n,
      pendingEpochAt: 0n,
      subnetEpochIndex: 100n,
      tempo: 360,
      blocksSinceLastStep: 100n,
      revealPeriod: 1,
      nowSeconds: 1_750_000_000,
      blockTimeSeconds: 12,
      beacon: QUICKNET,
    });
  });
});
