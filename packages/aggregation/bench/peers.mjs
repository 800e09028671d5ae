// @ts-check
// Run by `pnpm bench` (through src/__benchmarks__/peers.bench.ts) with plain Node on the built packages,
// as a user runs them: `@subnet/aggregation` and `@subnet/core` resolve to their `dist` (vitest's module
// runner adds a cost to every call between source files and would measure itself). Run it alone with
// `pnpm --filter @subnet/aggregation build && node packages/aggregation/bench/peers.mjs`.
//
// Issue 18 items 1 and 2: our code next to Python replicas of what it replaces, on identical generated
// input, each pair checked to give the same output before anything is timed, rounds of both sides
// interleaved so the ratio is measured under the same load (tooling/bench-peer). Peers:
// bench/peers/sdk_weight_path.py (the SDK's numpy normalize_max_weight + convert_weights_and_uids_for_emit)
// and bench/peers/stake_weighted_aggregation.py.
import { fileURLToPath } from 'node:url';

import { aggregateEvaluations, computeEmitWeights, indexMetagraph } from '@subnet/aggregation';
import { comparePeer, printRatioTable } from '@subnet/bench-peer';
import { encodeSs58 } from '@subnet/core';

/** @param {string} name */
const peerScript = (name) => fileURLToPath(new URL(`./peers/${name}`, import.meta.url));

/** @param {number} n @param {number} salt @returns {string[]} */
function hotkeys(n, salt) {
  return Array.from({ length: n }, (_, i) => {
    const key = new Uint8Array(32);
    new DataView(key.buffer).setUint32(0, (i * 2654435761 + salt) >>> 0);
    key[31] = salt & 0xff;
    return encodeSs58(key);
  });
}

/** Deterministic pseudo-random numbers in [0, 1) (no Math.random). @param {number} seed */
function lcg(seed) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** @param {string} name @param {boolean} same @param {string} detail */
function check(name, same, detail) {
  if (!same) throw new Error(`${name}: our output and the peer's differ (${detail}); nothing was timed`);
}

/** @param {number} n */
function weightPathRow(n) {
  // The metagraph (hotkeys by uid) and one score per miner, in hotkey order as aggregation returns them.
  // The cap (8/n) holds for every miner, so the SDK runs its normalisation without the clipping epsilon and
  // both sides must give the same u16 vector exactly.
  const metagraph = hotkeys(n, 7);
  const next = lcg(n);
  const scores = metagraph.map((hotkey) => ({ hotkey, score: 0.5 + 0.5 * next() })).sort((a, b) => (a.hotkey < b.hotkey ? -1 : a.hotkey > b.hotkey ? 1 : 0));
  const cap = 8 / n;
  const index = indexMetagraph(metagraph.map((hotkey, uid) => ({ hotkey: /** @type {any} */ (hotkey), uid })));
  // The same shape the Python side holds: a list of hotkeys and an array of doubles.
  const parallel = { hotkeys: /** @type {any[]} */ (scores.map((s) => s.hotkey)), values: Float64Array.from(scores, (s) => s.score) };
  const ours = () => computeEmitWeights({ scores: parallel, metagraph: index, cap, u16Mode: 'max' });
  return comparePeer({
    name: `weight path n = ${n}`,
    unit: 'normalise, cap, map, u16 max',
    script: peerScript('sdk_weight_path.py'),
    input: { metagraph, hotkeys: scores.map((s) => s.hotkey), scores: scores.map((s) => s.score), limit: cap },
    needs: ['numpy'],
    ours,
    check: (output) => {
      const out = /** @type {{ uids: number[]; weights: number[] }} */ (output);
      // The SDK emits in input order; ours by uid.
      const pairs = out.uids.map((uid, i) => /** @type {const} */ ([uid, out.weights[i]])).sort((a, b) => a[0] - b[0]);
      const mine = ours();
      const same = pairs.length === mine.uids.length && pairs.every(([uid, w], i) => uid === mine.uids[i] && w === mine.weights[i]);
      check(`weight path n = ${n}`, same, `${pairs.length} vs ${mine.uids.length} entries`);
    },
  });
}

/** @param {number} miners @param {number} validators */
function aggregationRow(miners, validators) {
  const m = hotkeys(miners, 11).sort();
  const v = hotkeys(validators, 13).sort();
  const next = lcg(miners * 31 + validators);
  const stakes = v.map((validatorHotkey, i) => ({ validatorHotkey, stake: i % 9 === 0 ? 0 : 1000 + 37 * i }));
  const grid = m.map(() => {
    const base = next();
    return v.map(() => (next() < 0.1 ? null : next() < 0.05 ? next() : Math.min(1, base * (0.95 + 0.1 * next()))));
  });
  /** @type {any[]} */
  const evaluations = [];
  grid.forEach((row, i) => {
    row.forEach((score, j) => {
      if (score !== null) evaluations.push({ validatorHotkey: v[j], minerHotkey: m[i], epoch: 1, score });
    });
  });
  const options = /** @type {const} */ ({ minValidators: 3, minStakeFraction: 0.3, outlier: { method: 'modified_z', threshold: 3.5 } });
  const ours = () => aggregateEvaluations({ evaluations, stakes: /** @type {any} */ (stakes), options });
  return comparePeer({
    name: `aggregation ${miners} miners x ${validators} validators`,
    unit: 'zero stake, modified z, quorum, weighted mean',
    script: peerScript('stake_weighted_aggregation.py'),
    input: { miners: m, validators: v, stakes: stakes.map((s) => s.stake), scores: grid, min_validators: 3, min_stake_fraction: 0.3 },
    needs: ['numpy'],
    ours,
    check: (output) => {
      const theirs = new Map(/** @type {[string, number | null][]} */ (output).map(([h, s]) => [h, s]));
      const mine = new Map(ours().explanation.miners.map((x) => [/** @type {string} */ (x.hotkey), x.score]));
      // numpy sums pairwise, we sum left to right in validator hotkey order (SPEC 0): the same scores within
      // 1e-12, the same scored / unscored decision for every miner.
      let differences = 0;
      for (const [h, s] of mine) {
        const t = theirs.get(h);
        if ((s === null) !== (t === null || t === undefined) || (s !== null && Math.abs(s - /** @type {number} */ (t)) > 1e-12)) differences += 1;
      }
      check(`aggregation ${miners} x ${validators}`, differences === 0 && theirs.size === mine.size, `${differences} miners differ`);
    },
  });
}

printRatioTable(
  'Weight path: computeEmitWeights vs the SDK numpy normalize_max_weight + convert_weights_and_uids_for_emit (target >= 10x)',
  [256, 1024, 4096].map(weightPathRow),
);
printRatioTable('Stake-weighted aggregation with modified-z outliers: aggregateEvaluations vs numpy', [aggregationRow(256, 64), aggregationRow(1024, 16)]);
