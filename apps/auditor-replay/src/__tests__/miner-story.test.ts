import { beforeAll, describe, expect, it } from 'vitest';

import { explainMiner, formatMinerStory, renderMinerStory } from '../index.js';
import type { Keys } from './fixtures.js';
import { keys, minerHotkey, signedBundle } from './fixtures.js';

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
  });
});
