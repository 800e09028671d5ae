import { formatTable } from './audit-report.js';
import type { MinerStory } from './miner-story.js';
import { formatNumber } from './miner-story.js';

/**
 * A miner's story as terminal text: the sentences, then the numbers (each challenge's stages, the
 * evaluations used and excluded with their M values). The same story the HTML pages show.
 *
 * @param story - from `explainMiner`
 * @returns the text (no trailing newline)
 * @example console.log(formatMinerStory(explainMiner(bundle, hotkey)))
 */
export function formatMinerStory(story: MinerStory): string {
  const lines: string[] = [...story.sentences, ''];
  lines.push(
    formatTable(
      ['challenge', 'kind', 'alpha', 'own score', 'score', 'normalised', 'capped', 'decayed', 'allocated'],
      story.challenges.map((c) => [
        c.id,
        c.kind,
        formatNumber(c.alpha),
        formatNumber(c.own_score),
        formatNumber(c.score),
        formatNumber(c.normalisation.normalised),
        formatNumber(c.cap.value),
        formatNumber(c.decay.value),
        formatNumber(c.allocated),
      ]),
    ),
  );
  lines.push(
    `total allocated ${formatNumber(story.allocated)}, uid ${story.uid ?? 'none (not in the metagraph)'} weight ${formatNumber(story.mapped)}, u16 ${story.u16}`,
  );
  for (const c of story.challenges) {
    if (c.consensus === null || c.consensus.used.length + c.consensus.excluded.length === 0) continue;
    lines.push('');
    lines.push(`challenge ${c.id}: evaluations`);
    lines.push(
      formatTable(
        ['use', 'validator', 'score', 'stake', 'M'],
        [
          ...c.consensus.used.map((e) => ['used', e.validator_hotkey, formatNumber(e.score), formatNumber(e.stake), '-']),
          ...c.consensus.excluded.map((e) => ['excluded', e.validator_hotkey, formatNumber(e.score), formatNumber(e.stake), formatNumber(e.m)]),
        ],
      ),
    );
  }
  return lines.join('\n');
}
