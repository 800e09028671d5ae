/**
 * `auditor-replay/pages`: what the miner and validator pages share with the auditor, without the chain
 * client: the per-miner story read from a bundle's explanation (`explainMiner`), its text and HTML
 * renderings, the weight chart, and the reader of a validator's published bundles.
 */
export { excludedRecords, explainMiner, formatNumber, formatPercent, minerHotkeys } from '../miner-story.js';
export type { ChallengeStory, ExcludedRecord, MinerStory, StoryEvaluation } from '../miner-story.js';
export { formatMinerStory } from '../miner-story-text.js';
export { readPublishedBundles } from '../published-bundles.js';
export { DEFAULT_BUNDLE_LIMITS, MAX_BUNDLE_BYTES } from '../bundle-limits.js';
export { MAX_REQUEST_TIMEOUT_MS, MAX_TOTAL_TIMEOUT_MS } from '../validator-http.js';
export { createProgress } from '../progress.js';
export type { Progress, ProgressStream } from '../progress.js';
export type { PublishedBundle, ReadPublishedOptions } from '../published-bundles.js';
export { escapeHtml, htmlDocument, minerAnchor, PAGE_CSS, seriesColour } from './html.js';
export { renderMinerPage, renderMinerStory } from './miner-page.js';
export { renderWeightChart } from './weight-chart.js';
export type { WeightSeries } from './weight-chart.js';
