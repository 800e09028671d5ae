import type { ChallengeStory, MinerStory } from '../miner-story.js';
import { formatNumber, formatPercent } from '../miner-story.js';
import { escapeHtml, minerAnchor } from './html.js';
import { renderWeightChart } from './weight-chart.js';

const n = (v: number | null | undefined) => `<td class="num">${escapeHtml(formatNumber(v))}</td>`;

function stagesTable(story: MinerStory): string {
  const rows = story.challenges.map(
    (c: ChallengeStory) =>
      `<tr><td>${escapeHtml(c.id)}</td><td>${escapeHtml(c.kind)}</td>${n(c.alpha)}${n(c.own_score)}${n(c.score)}${n(c.normalisation.normalised)}${n(c.cap.value)}${n(c.decay.value)}${n(c.allocated)}</tr>`,
  );
  return `<table class="stages"><thead><tr><th>challenge</th><th>kind</th><th>alpha</th><th>own score</th><th>score (aggregated / W)</th><th>normalised</th><th>capped</th><th>decayed</th><th>allocated</th></tr></thead><tbody>
${rows.join('\n')}
<tr><td colspan="8">total allocated (sum of the contributions)</td>${n(story.allocated)}</tr>
<tr><td colspan="8">uid ${story.uid ?? 'none (not in the metagraph)'} weight after the mapping</td>${n(story.mapped)}</tr>
<tr><td colspan="8">u16 (${escapeHtml(story.u16_mode ?? '?')} mode), ${escapeHtml(formatPercent(story.share))} of the vector</td><td class="num u16">${story.u16}</td></tr>
</tbody></table>`;
}

function evaluationsTable(c: ChallengeStory): string {
  if (c.consensus === null) return '';
  const rows = [
    ...c.consensus.used.map(
      (e) => `<tr><td>used</td><td class="hk">${escapeHtml(e.validator_hotkey)}</td>${n(e.score)}${n(e.stake)}<td class="num">-</td></tr>`,
    ),
    ...c.consensus.excluded.map(
      (e) => `<tr class="excluded"><td>excluded (outlier)</td><td class="hk">${escapeHtml(e.validator_hotkey)}</td>${n(e.score)}${n(e.stake)}${n(e.m)}</tr>`,
    ),
  ];
  return `<table class="evaluations"><caption>Challenge ${escapeHtml(c.id)}: evaluations (${escapeHtml(c.consensus.outlier_method ?? '?')}, threshold ${escapeHtml(formatNumber(c.consensus.outlier_threshold))})</caption><thead><tr><th>use</th><th>validator</th><th>score</th><th>stake</th><th>M</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

/**
 * One epoch's story of a miner as HTML: the sentences (words) and the numbers (a table of each
 * challenge's stages, the evaluations used and excluded with their M values, the excluded records).
 *
 * @param story - from `explainMiner`
 * @returns HTML markup
 * @example renderMinerStory(explainMiner(bundle, hotkey))
 */
export function renderMinerStory(story: MinerStory): string {
  const excluded =
    story.excluded.length === 0
      ? ''
      : `<table class="excluded-records"><caption>Records of this miner the validator excluded</caption><thead><tr><th>record</th><th>code</th><th>reason</th></tr></thead><tbody>
${story.excluded.map((e) => `<tr><td>${escapeHtml(e.record)}</td><td>${escapeHtml(e.code)}</td><td>${escapeHtml(e.reason)}</td></tr>`).join('\n')}
</tbody></table>`;
  return `<div class="story" data-epoch="${story.epoch}">
${story.sentences.map((s) => `<p>${escapeHtml(s)}</p>`).join('\n')}
${stagesTable(story)}
${story.challenges.map(evaluationsTable).join('\n')}
${excluded}
</div>`;
}

/**
 * A miner's page: its weight over the epochs (chart and table) and, per epoch, its story; the chosen
 * epoch's story is open, the others fold out. `id` is the miner's anchor, so one file holds every
 * miner's page and `#miner-<hotkey>` shows one.
 *
 * @param hotkey - the miner
 * @param stories - its stories, one per epoch (any order)
 * @param options - `chosenEpoch` (default the latest); `standalone` for a page of its own (always shown,
 *   not only as the `:target` of a report); `back` the link back (default `#top`, the report)
 * @returns HTML markup of a `<section class="miner-page">`
 * @example renderMinerPage(hotkey, bundles.map((b) => explainMiner(b, hotkey)))
 */
export function renderMinerPage(
  hotkey: string,
  stories: readonly MinerStory[],
  options: { readonly chosenEpoch?: number; readonly standalone?: boolean; readonly back?: { readonly href: string; readonly text: string } } = {},
): string {
  const chosenEpoch = options.chosenEpoch;
  const back = options.back ?? { href: '#top', text: 'back to the report' };
  const sorted = [...stories].sort((a, b) => a.epoch - b.epoch);
  const epochs = sorted.map((s) => s.epoch);
  const chosen = chosenEpoch ?? epochs[epochs.length - 1];
  const uid = sorted.at(-1)?.uid ?? null;
  const chart = renderWeightChart([{ uid, hotkey, values: new Map(sorted.map((s) => [s.epoch, s.u16 / 65535])) }], epochs, {
    links: false,
    title: `weight of ${hotkey} over the epochs`,
  });
  const table = `<table class="history"><thead><tr><th>epoch</th><th>uid</th><th>u16</th><th>share of the vector</th><th>allocated</th></tr></thead><tbody>
${sorted.map((s) => `<tr><td class="num">${s.epoch}</td><td class="num">${s.uid ?? '-'}</td><td class="num">${s.u16}</td><td class="num">${escapeHtml(formatPercent(s.share))}</td>${n(s.allocated)}</tr>`).join('\n')}
</tbody></table>`;
  const details = [...sorted]
    .reverse()
    .map(
      (s) =>
        `<details class="epoch-story" data-epoch="${s.epoch}"${s.epoch === chosen ? ' open' : ''}><summary>Epoch ${s.epoch}: u16 ${s.u16} (${escapeHtml(formatPercent(s.share))})</summary>\n${renderMinerStory(s)}\n</details>`,
    );
  return `<section class="miner-page${options.standalone === true ? ' standalone' : ''}" id="${minerAnchor(hotkey)}">
<h2>Miner <span class="hk">${escapeHtml(hotkey)}</span></h2>
<p><a href="${escapeHtml(back.href)}">${escapeHtml(back.text)}</a></p>
<h3>Weight over the epochs</h3>
${chart}
${table}
<h3>Why: the story of each epoch</h3>
${details.join('\n')}
</section>`;
}
