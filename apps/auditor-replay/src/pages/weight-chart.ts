import { formatPercent } from '../miner-story.js';
import { escapeHtml, minerAnchor, seriesColour } from './html.js';

/** One line of the chart: a miner (or a uid without a known hotkey) and its weight share per epoch. */
export interface WeightSeries {
  readonly uid: number | null;
  readonly hotkey: string | null;
  /** epoch -> u16 weight / 65535 (an epoch without a value counts 0). */
  readonly values: ReadonlyMap<number, number>;
}

/** Geometry of the chart, wide margins so that no label leaves the SVG. */
const WIDTH = 900;
const HEIGHT = 360;
const LEFT = 64;
const RIGHT = 56;
const TOP = 16;
const BOTTOM = 44;

/** At most this many epoch labels on the x axis (the first and last are always labelled). */
const MAX_X_LABELS = 10;

function label(s: WeightSeries): string {
  return `${s.uid === null ? 'uid ?' : `uid ${s.uid}`}${s.hotkey === null ? '' : ` ${s.hotkey}`}`;
}

/** The epochs that get a label: all when few, else evenly spaced ones including the first and the last. */
function labelledEpochs(epochs: readonly number[]): readonly number[] {
  if (epochs.length <= MAX_X_LABELS) return epochs;
  const out = new Set<number>();
  for (let i = 0; i < MAX_X_LABELS; i++) out.add(epochs[Math.round((i * (epochs.length - 1)) / (MAX_X_LABELS - 1))] as number);
  return [...out];
}

/**
 * An inline SVG line chart of weight shares over the epochs (one polyline per series, x = epoch, y = share
 * of 65535) with every axis label inside the SVG box, and a legend table that shows each hotkey in full
 * (the line's tooltip shows it too) with its latest share and a link to the miner's page.
 *
 * @param series - the lines
 * @param epochs - the epochs, ascending
 * @param options - `links: false` to leave out the links to miner pages; `title` for the SVG's accessible name
 * @returns SVG and legend markup, or a note when there is nothing to chart
 * @example renderWeightChart([{ uid: 3, hotkey: '5F…', values: new Map([[1, 0.5]]) }], [1])
 */
export function renderWeightChart(
  series: readonly WeightSeries[],
  epochs: readonly number[],
  options: { readonly links?: boolean; readonly title?: string } = {},
): string {
  if (series.length === 0 || epochs.length === 0) return '<p>No weights to chart.</p>';
  const first = epochs[0] as number;
  const last = epochs[epochs.length - 1] as number;
  let max = 0;
  for (const s of series) for (const v of s.values.values()) max = Math.max(max, v);
  const yMax = max > 0 ? max : 1;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const x = (e: number) => LEFT + (last === first ? plotWidth / 2 : ((e - first) / (last - first)) * plotWidth);
  const y = (v: number) => HEIGHT - BOTTOM - (v / yMax) * (HEIGHT - BOTTOM - TOP);
  const lines = series.map((s, i) => {
    const pts = epochs.map((e) => `${x(e).toFixed(1)},${y(s.values.get(e) ?? 0).toFixed(1)}`).join(' ');
    const dots =
      epochs.length <= 60
        ? epochs.map((e) => `<circle cx="${x(e).toFixed(1)}" cy="${y(s.values.get(e) ?? 0).toFixed(1)}" r="2.5" fill="${seriesColour(i)}"/>`).join('')
        : '';
    return `<g class="series"><title>${escapeHtml(label(s))}</title><polyline fill="none" stroke="${seriesColour(i)}" stroke-width="1.8" points="${pts}"/>${dots}</g>`;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const yy = y(f * yMax).toFixed(1);
    return `<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${yy}" y2="${yy}" stroke="#e4e4e4"/><text class="y-label" x="${LEFT - 8}" y="${(Number(yy) + 4).toFixed(1)}" text-anchor="end">${(f * yMax * 100).toFixed(1)}%</text>`;
  });
  const xLabels = labelledEpochs(epochs).map(
    (e) =>
      `<line x1="${x(e).toFixed(1)}" x2="${x(e).toFixed(1)}" y1="${HEIGHT - BOTTOM}" y2="${HEIGHT - BOTTOM + 5}" stroke="#999"/><text class="x-label" x="${x(e).toFixed(1)}" y="${HEIGHT - BOTTOM + 19}" text-anchor="middle">epoch ${e}</text>`,
  );
  const axisTitle = `<text class="axis-title" x="${(LEFT + plotWidth / 2).toFixed(1)}" y="${HEIGHT - 6}" text-anchor="middle">epoch (x) / share of the u16 vector (y)</text>`;
  const links = options.links !== false;
  const rows = series.map((s, i) => {
    const latest = s.values.get(last) ?? 0;
    const name = s.hotkey === null ? '-' : links ? `<a href="#${minerAnchor(s.hotkey)}">${escapeHtml(s.hotkey)}</a>` : escapeHtml(s.hotkey);
    return `<tr><td><span class="swatch" style="background:${seriesColour(i)}"></span></td><td class="num">${s.uid ?? '?'}</td><td class="hk">${name}</td><td class="num">${formatPercent(latest)}</td></tr>`;
  });
  return `<svg class="weight-chart" xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(options.title ?? 'weight per miner over the epochs')}">
${ticks.join('\n')}
<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${HEIGHT - BOTTOM}" y2="${HEIGHT - BOTTOM}" stroke="#999"/>
${lines.join('\n')}
${xLabels.join('\n')}
${axisTitle}
</svg>
<table class="legend"><thead><tr><th></th><th>uid</th><th>hotkey</th><th>share at epoch ${last}</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}
