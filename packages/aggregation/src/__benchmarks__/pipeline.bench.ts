import os from 'node:os';

import { encodeSs58 } from '@subnet/core';
import type { Hotkey } from '@subnet/core';
import { bench, describe } from 'vitest';

import type { Evaluation } from '../aggregate.js';
import type { EpochInput } from '../index.js';
import { computeEpochWeights, DEFAULT_PIPELINE_CONFIG, toU16 } from '../index.js';

console.log(
  `machine: ${os.cpus()[0]?.model ?? 'unknown cpu'} x${os.cpus().length}, node ${process.version}, load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

function hotkeys(n: number, offset: number): Hotkey[] {
  return Array.from({ length: n }, (_, i) => {
    const key = new Uint8Array(32);
    new DataView(key.buffer).setUint32(0, offset + i + 1);
    return encodeSs58(key) as Hotkey;
  });
}

/** Deterministic pseudo-random scores (no Math.random). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function makeInput(miners: number, validators: number, challenges: number): EpochInput {
  const m = hotkeys(miners, 1_000_000);
  const v = hotkeys(validators, 0);
  const next = lcg(miners * 31 + validators);
  return {
    config: DEFAULT_PIPELINE_CONFIG,
    epoch: 12,
    challenges: Array.from({ length: challenges }, (_, c) => {
      const evaluations: Evaluation[] = [];
      const base = m.map(() => next());
      for (let i = 0; i < miners; i += 1) {
        for (const validatorHotkey of v)
          evaluations.push({ validatorHotkey, minerHotkey: m[i]!, epoch: 12, score: Math.min(1, base[i]! * (0.95 + 0.1 * next())) });
      }
      return {
        id: `c${c}`,
        kind: 'evaluations' as const,
        alpha: 1 / challenges,
        decay: true,
        evaluations,
        decayState: { topScore: 0.99, topEpoch: 0, topHotkey: m[0]! },
      };
    }),
    stakes: v.map((validatorHotkey, i) => ({ validatorHotkey, stake: 1000 + i * 37 })),
    // At most 65,536 registered (u16 uids); beyond that the extra miners are unknown to the metagraph.
    metagraph: m.slice(0, Math.min(miners, 65536)).map((hotkey, uid) => ({ hotkey, uid })),
  };
}

describe('computeEpochWeights, target < 5 ms for 256 x 64 x 2', () => {
  const input = makeInput(256, 64, 2);
  // Long enough for many samples on a shared machine: read `min` (best run) next to the mean.
  bench(
    '256 miners x 64 validators x 2 challenges',
    () => {
      computeEpochWeights(input);
    },
    { time: 3000, warmupTime: 500 },
  );
});

/*
 * Scaling of the whole pipeline. Uids are u16, so a metagraph holds at most 65,536 neurons: the 100,000-miner
 * case evaluates 100,000 miners of which the first 65,536 (uids 0..65535) are registered; the other 34,464
 * run through every stage up to the uid mapping, where SPEC C.9 drops them (their weight is renormalised
 * over the rest). Every case is one full computeEpochWeights call.
 */
describe('computeEpochWeights scaling (miners x 8 validators x 1 challenge)', () => {
  for (const n of [10, 100, 1_000, 10_000, 65_536, 100_000]) {
    const input = makeInput(n, 8, 1);
    bench(
      `${n} miners`,
      () => {
        computeEpochWeights(input);
      },
      { iterations: 3, time: n > 10_000 ? 500 : 200 },
    );
  }
});

describe('toU16 sum mode scaling (exact largest remainder)', () => {
  for (const n of [256, 10_000, 100_000]) {
    const next = lcg(n);
    const vector = Array.from({ length: n }, (_, uid) => ({ uid: uid % 65536, weight: next() })).slice(0, Math.min(n, 65536));
    bench(
      `${n} entries`,
      () => {
        toU16(vector, { mode: 'sum' });
      },
      { iterations: 3, time: 300 },
    );
  }
});
