import { beforeAll, describe, expect, it } from 'vitest';

import { buildBundle } from '@subnet/bundle';

import { explainMiner, formatMinerStory, formatNumber, renderMinerStory } from '../index.js';
import type { Keys } from './fixtures.js';
import { dryRun, epochInput, keys, minerHotkey, plainSssa, signedBundle } from './fixtures.js';

describe('the miner story of a hotkey the epoch metagraph does not list (SPEC C.9)', () => {
  let k: Keys;
  beforeAll(async () => {
    k = await keys();
  });

  it('says the hotkey takes no share: scored by the validators, left out of normalisation, u16 weight 0', () => {
    const miners = [0, 1, 2, 3].map((i) => minerHotkey(i));
    // Miner 3 is scored (own results, peers' scores, a bounty record) but missing from the metagraph.
    const metagraph = [
      { hotkey: k.validator.address, uid: 0 },
      ...k.peers.map((p, i) => ({ hotkey: p.address, uid: i + 1 })),
      ...miners.slice(0, 3).map((hotkey, i) => ({ hotkey, uid: i + 3 })),
    ];
    const signed = signedBundle(k, { miners: 4, epoch: 5, minerHotkeys: miners, metagraph });
    const story = explainMiner(signed.bundle, miners[3]!);
    expect(story.uid).toBeNull();
    expect(story.u16).toBe(0);
    expect(story.sentences[0]).toContain("(not in the epoch's metagraph, so it takes no share of any challenge) gets u16 weight 0");
    const term = story.sentences.find((s) => s.startsWith('Challenge term'))!;
    expect(term).toContain('stake-weighted score');
    expect(term).toContain("left out of normalisation, as a hotkey the epoch's metagraph does not list (SPEC C.9)");
    expect(story.challenges.map((c) => c.normalisation.normalised)).toEqual(story.challenges.map(() => 0));
    expect(formatMinerStory(story)).toContain('uid none (not in the metagraph) weight 0');
    expect(renderMinerStory(story)).toContain('uid none (not in the metagraph) weight after the mapping');
    // A registered miner's story still shows its normalisation.
    expect(explainMiner(signed.bundle, miners[0]!).sentences.find((s) => s.startsWith('Challenge term'))).toMatch(/normalised \(linear\) to /);
    // ... as a share with its fraction: the miner's numerator over the challenge's denominator, as the bundle gives them.
    const explained = (
      signed.bundle as {
        result: { aggregation: { challenges: { id: string; normalisation: { denominator: number; miners: { hotkey: string; numerator: number }[] } }[] } };
      }
    ).result.aggregation.challenges.find((c) => c.id === 'term')!.normalisation;
    const numerator = explained.miners.find((m) => m.hotkey === miners[0])!.numerator;
    expect(numerator).toBeGreaterThan(0);
    expect(explainMiner(signed.bundle, miners[0]!).sentences.find((s) => s.startsWith('Challenge term'))).toContain(
      ` = ${formatNumber(numerator)} / ${formatNumber(explained.denominator)}; `,
    );
  });

  it('an SSSA member that left the metagraph: its emission is shown, it has no own score and sets no scale (docs/spec.md G.6)', () => {
    const miners = [0, 1, 2, 3].map((i) => minerHotkey(i));
    const bundle = buildBundle({
      netuid: 1,
      config: {
        pipeline: { min_validators: 1, min_stake_fraction: 0 },
        challenges: [
          { id: 'sssa', kind: 'sssa', alpha: 1, weight_cap: 1, assignment: { primaries: 4, auditors: 0 }, emission: { tier_multipliers: { [miners[3]!]: 3 } } },
        ],
      },
      epoch: 5,
      validatorHotkey: k.validator.address,
      inputs: {
        tasks: [{ task_id: 't1', task_type: 'mcp_server', block_hash: `0x${'cd'.repeat(32)}`, seq: 0 }],
        candidates: miners.map((hotkey, i) => ({ hotkey, uid: i + 1 })),
        sssa_submissions: miners.map((hotkey, i) => ({
          record_id: `s${i}`,
          seq: i + 1,
          task_id: 't1',
          miner_uid: i + 1,
          miner_hotkey: hotkey,
          sssa: plainSssa,
        })),
        // A peer still scored miner 3, so the aggregation explains it.
        peer_scores: [{ record_id: 'peer-1', seq: 9, validator_hotkey: k.peers[0]!.address, challenge_id: 'sssa', miner_hotkey: miners[3]!, score: 1 }],
      },
      stakes: [
        { validator_hotkey: k.validator.address, stake: '1000' },
        { validator_hotkey: k.peers[0]!.address, stake: '1000' },
      ],
      // Miner 3 sent the largest emission and deregistered before the close.
      metagraph: [{ hotkey: k.validator.address, uid: 0 }, ...miners.slice(0, 3).map((hotkey, i) => ({ hotkey, uid: i + 1 }))],
      submission: dryRun,
    });
    const gone = explainMiner(bundle, miners[3]!);
    const sentence = gone.sentences.find((s) => s.startsWith('Challenge sssa'))!;
    expect(sentence).toContain("the miner's SSSA emission is 3 over 1 consensus group(s) (t1 3), but it has no own score");
    expect(gone.challenges[0]!.own_score).toBeNull();
    expect(explainMiner(bundle, miners[0]!).sentences.find((s) => s.startsWith('Challenge sssa'))).toContain("the validator's own SSSA score is 1: emission 1");
  });

  it('the burn uid of an epoch that burned nothing receives nothing (weight 0), not an unknown "-"', () => {
    const miners = [0, 1, 2].map((i) => minerHotkey(i));
    const input = epochInput(k, { miners: 3, epoch: 5, minerHotkeys: miners });
    // One challenge holding all the weight, no cap that binds and no decay: nothing goes to the burn uid.
    const bundle = buildBundle({
      ...input,
      config: { ...input.config, challenges: [{ id: 'term', kind: 'term_pass_rate' as const, alpha: 1, total_tasks: 8, weight_cap: 1 }] },
      inputs: { ...input.inputs, decay_states: [] },
      submission: dryRun,
    });
    const story = explainMiner(JSON.parse(JSON.stringify(bundle)), miners[0]!);
    expect(story.burn).toEqual({ uid: 0, weight: 0 });
    const allocation = story.sentences.find((s) => s.startsWith('Allocation'));
    expect(allocation).toMatch(/ The burn uid 0 receives nothing: no weight is burned this epoch\.$/);
    // An epoch that burns names the share.
    const burning = explainMiner(signedBundle(k, { miners: 3, epoch: 5, minerHotkeys: miners }).bundle, miners[0]!);
    expect(burning.burn).toEqual({ uid: 0, weight: 0.25 });
    expect(burning.sentences.find((s) => s.startsWith('Allocation'))).toMatch(/ The burn uid 0 receives 0\.25\.$/);
  });
});
