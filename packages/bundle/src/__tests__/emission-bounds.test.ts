import { beforeAll, describe, expect, it } from 'vitest';

import { computeEpoch, parseEpochConfig } from '../index.js';
import { keys, sssa, thrownCode } from './helpers.js';

// docs/spec.md G.6 "Emission factors are at most 1e6": a configuration the parser accepts must not let the
// number of records decide whether an emission total overflows (an own score of NaN stops the epoch).

let miners: string[];
let V: string;
beforeAll(async () => {
  const k = await keys();
  miners = k.miners.map((m) => m.address);
  V = k.validator.address;
});

const BLOCK = `0x${'cd'.repeat(32)}`;

function epoch(emission: Record<string, unknown>, tasks: number) {
  return computeEpoch({
    config: {
      pipeline: { min_validators: 1, min_stake_fraction: 0 },
      challenges: [{ id: 'sssa', kind: 'sssa', alpha: 1, weight_cap: 1, assignment: { primaries: 2, auditors: 0 }, emission }],
    },
    epoch: 1,
    validatorHotkey: V,
    inputs: {
      tasks: Array.from({ length: tasks }, (_, t) => ({ task_id: `t${t}`, task_type: 'mcp_server', block_hash: BLOCK, seq: t })),
      candidates: miners.slice(0, 2).map((hotkey, i) => ({ hotkey, uid: i + 1 })),
      // Two members per task: n < 3, so the neutral consensus factor 1 applies and each emission is the product of the factors.
      sssa_submissions: Array.from({ length: tasks }, (_, t) =>
        miners
          .slice(0, 2)
          .map((hotkey, i) => ({ record_id: `s${t}-${i}`, seq: 100 + 2 * t + i, task_id: `t${t}`, miner_uid: i + 1, miner_hotkey: hotkey, sssa: sssa() })),
      ).flat(),
    },
    stakes: [{ validator_hotkey: V, stake: 1 }],
    metagraph: [{ hotkey: V, uid: 0 }, ...miners.slice(0, 2).map((hotkey, i) => ({ hotkey, uid: i + 1 }))],
  });
}

describe('SSSA emission factors (docs/spec.md G.6)', () => {
  it('emission factors are at most 1e6: a larger one is BUNDLE_INVALID_CONFIG naming it, whatever the records', () => {
    const config = (emission: unknown) => ({ challenges: [{ id: 'sssa', kind: 'sssa', alpha: 1, emission }] });
    expect(thrownCode(() => parseEpochConfig(config({ composite_q: 1e6 })))).toBeUndefined();
    expect(thrownCode(() => parseEpochConfig(config({ composite_q: 1e308 })))).toEqual({
      code: 'BUNDLE_INVALID_CONFIG',
      path: 'config.challenges[0].emission.composite_q',
    });
    expect(thrownCode(() => parseEpochConfig(config({ role: { primary: 1, auditor: 2e6 } })))).toEqual({
      code: 'BUNDLE_INVALID_CONFIG',
      path: 'config.challenges[0].emission.role.auditor',
    });
    expect(thrownCode(() => parseEpochConfig(config({ base_weights: { mcp_server: 1e7 } })))).toEqual({
      code: 'BUNDLE_INVALID_CONFIG',
      path: 'config.challenges[0].emission.base_weights.mcp_server',
    });
    expect(thrownCode(() => parseEpochConfig(config({ tier_multipliers: {}, default_tier_multiplier: 1e300 })))).toEqual({
      code: 'BUNDLE_INVALID_CONFIG',
      path: 'config.challenges[0].emission.default_tier_multiplier',
    });
    // The configuration that passed before and then stopped the epoch once two tasks were registered.
    expect(thrownCode(() => epoch({ composite_q: 1e308 }, 2))?.code).toBe('BUNDLE_INVALID_CONFIG');
  });

  it('emission factors are at most 1e6: at the bound, every own score is finite and in [0, 1] however many tasks there are', () => {
    const top = 1e6;
    const out = epoch(
      { composite_q: top, default_base_weight: top, default_tier_multiplier: top, early_bonus: top, bootstrap: top, role: { primary: top, auditor: top } },
      40,
    );
    const own = out.challenges[0]!.own_scores;
    expect(own.map((s) => s.score)).toEqual([1, 1]);
    expect(out.excluded).toEqual([]);
  });
});
