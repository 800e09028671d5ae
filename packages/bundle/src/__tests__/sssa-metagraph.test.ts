import { beforeAll, describe, expect, it } from 'vitest';

import { computeEpoch } from '../index.js';
import { keys, sssa } from './helpers.js';

// docs/spec.md G.6 "SSSA own scores are scaled over the metagraph's hotkeys": the SSSA challenge's own score
// is a miner's emission total over the largest total, and a hotkey the epoch's metagraph does not list takes
// no share of its challenge (G.4). Such a hotkey must not set the scale of the others' scores either.

let A: string;
let B: string;
let C: string;
let D: string;
let V: string;
beforeAll(async () => {
  const k = await keys();
  [A, B, C, D] = k.miners.map((m) => m.address) as [string, string, string, string];
  V = k.validator.address;
});

const BLOCK = `0x${'cd'.repeat(32)}`;

/** Four primaries send the same SSSA (consensus 1 each), so each emission is the miner's tier multiplier (B 0.5, D `tierOfD`, else 1); D left the metagraph. */
function epochWithDeregisteredD(tierOfD: number) {
  return computeEpoch({
    config: {
      pipeline: { min_validators: 1, min_stake_fraction: 0 },
      challenges: [
        {
          id: 'sssa',
          kind: 'sssa',
          alpha: 1,
          weight_cap: 1,
          decay: false,
          normalisation: { strategy: 'softmax', temperature: 1 },
          assignment: { primaries: 4, auditors: 0 },
          emission: { tier_multipliers: { [B]: 0.5, [D]: tierOfD } },
        },
      ],
    },
    epoch: 5,
    validatorHotkey: V,
    inputs: {
      tasks: [{ task_id: 't1', task_type: 'mcp_server', block_hash: BLOCK, seq: 0 }],
      // The candidates were taken from the metagraph when the epoch began; D deregistered since.
      candidates: [
        { hotkey: A, uid: 1 },
        { hotkey: B, uid: 2 },
        { hotkey: C, uid: 3 },
        { hotkey: D, uid: 4 },
      ],
      sssa_submissions: [A, B, C, D].map((h, i) => ({ record_id: `s${i}`, seq: 1 + i, task_id: 't1', miner_uid: 1 + i, miner_hotkey: h, sssa: sssa() })),
    },
    stakes: [{ validator_hotkey: V, stake: 1 }],
    metagraph: [
      { hotkey: V, uid: 0 },
      { hotkey: A, uid: 1 },
      { hotkey: B, uid: 2 },
      { hotkey: C, uid: 3 },
    ],
  });
}

describe('SSSA own scores and the metagraph (docs/spec.md G.6)', () => {
  it('sssa own scores are scaled over the metagraph hotkeys: a hotkey missing from the metagraph sets no scale and gets no own score', () => {
    const out = epochWithDeregisteredD(3);
    const challenge = out.challenges[0]!;
    // Emission totals: A 1, B 0.5, C 1, D 3. D's 3 is not the scale: the registered miners' largest total (1) is.
    expect(Object.fromEntries(challenge.own_scores.map((s) => [s.miner_hotkey, s.score]))).toEqual({ [A]: 1, [B]: 0.5, [C]: 1 });
    const details = challenge.details as { emission_totals: { miner_hotkey: string; emission: number }[]; max_emission: number };
    // D's emission stays in the explanation (the one hotkey with an emission total and no own score).
    expect(details.emission_totals.find((t) => t.miner_hotkey === D)?.emission).toBe(3);
    expect(details.max_emission).toBe(1);
  });

  it("sssa own scores are scaled over the metagraph hotkeys: a deregistered miner's emission never moves the registered miners' weights", () => {
    // Softmax is not scale-invariant: a scale set by D's emission would change A's, B's and C's weights.
    const high = epochWithDeregisteredD(3);
    const low = epochWithDeregisteredD(0.5);
    expect(high.u16).toEqual(low.u16);
    expect(high.challenges[0]!.own_scores).toEqual(low.challenges[0]!.own_scores);
    // And B, with half of A's emission, is not lifted towards A (softmax of 1 and 0.5, not of 1/3 and 1/6).
    const weight = (uid: number) => high.u16.weights[high.u16.uids.indexOf(uid)] ?? 0;
    expect(weight(2) / weight(1)).toBeCloseTo(Math.exp(0.5 - 1), 3);
  });
});
