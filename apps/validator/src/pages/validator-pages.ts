import type { MinerStory } from 'auditor-replay/pages';
import { escapeHtml, excludedRecords, explainMiner, formatPercent, htmlDocument, minerHotkeys, renderMinerPage, renderWeightChart } from 'auditor-replay/pages';
import { describeValue } from '@subnet/core';
import type { FastifyInstance, FastifyReply } from 'fastify';

import { embargoOf, headsAndHolder, heldEmbargoes } from '../bundle-embargo.js';
import type { Embargo } from '../bundle-embargo.js';
import { epochSpellingProblem } from '../epoch-param.js';
import type { EpochHead, EpochRow, Storage } from '../storage.js';

/** What the pages read: epoch rows only (status, submission, digest, the signed bundle). Never the configuration. */
export type PagesStorage = Pick<Storage, 'listEpochHeads' | 'unsettledBefore' | 'getEpoch'>;

/** Epochs the pages look back over (the newest rows). */
const EPOCHS_SHOWN = 100;

/** Strict: no script, no form, no external asset; inline styles only. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const HOTKEY = /^[1-9A-HJ-NP-Za-km-z]{46,48}$/;

/**
 * The epoch's published bundle (`signed.bundle`), or null while it is pending, while it is embargoed (its commit not
 * revealed yet, or an earlier epoch's, whose state it carries: bundle-embargo.ts, docs/spec.md G.23), or when there is none.
 */
function bundleOf(row: EpochRow, embargo: Embargo | undefined): unknown {
  if (row.bundle === null || row.bundle.startsWith('{"pending"') || embargo !== undefined) return null;
  try {
    const signed = JSON.parse(row.bundle) as { bundle?: unknown };
    return typeof signed.bundle === 'object' && signed.bundle !== null ? signed.bundle : null;
  } catch {
    return null;
  }
}

/**
 * The overview's bundle cell: a link, `embargoed until …` (commit-reveal v4, or v2: G.22), or `-`. `bundle` is the row's
 * {@link bundleOf}, already parsed by the caller (a second parse was the page's largest cost again).
 */
function bundleCell(row: EpochRow, bundle: unknown, embargo: Embargo | undefined): string {
  if (embargo !== undefined && row.bundle !== null && !row.bundle.startsWith('{"pending"')) {
    // It carries the scores of an earlier epoch whose commit is not revealed yet (docs/spec.md G.23).
    if (embargo.heldBy !== undefined) return `<span class="embargo">held until epoch ${embargo.heldBy}'s embargo lifts</span>`;
    // v2: this validator reveals its commit in a window that opens at the due block (docs/spec.md G.22).
    if (embargo.scheme === 'hash')
      return `<span class="embargo">embargoed until this validator reveals it${embargo.revealBlock === null ? '' : ` (from block ${embargo.revealBlock})`}</span>`;
    return `<span class="embargo">embargoed until the chain reveals it${embargo.revealBlock === null ? '' : ` (block ${embargo.revealBlock})`}</span>`;
  }
  return bundle === null ? '-' : `<a href="/v1/epochs/${row.epoch}/bundle">bundle</a>`;
}

/**
 * The loop time one page's own work took, in milliseconds: the sum of its slices ({@link slice}), not the wall time
 * of its build, which also holds the records and closes that ran between them.
 */
interface PageWork {
  spent: number;
}

/** Runs `work` on a fresh turn of the event loop, so whatever waits (a record, a close) runs first, and counts its time against the page. */
async function slice<T>(page: PageWork, work: () => T): Promise<T> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  const start = performance.now();
  try {
    return work();
  } finally {
    page.spent += performance.now() - start;
  }
}

/**
 * Visits the newest epochs, newest first, one row at a time (docs/spec.md G.14): each row is read, its signed bundle
 * parsed and handed to `visit` with the row in a slice of its own, and dropped before the next, so a page holds the
 * loop for one epoch's bundle at a time (not 100 of them, 80 MB of JSON, at once) and keeps what `visit` keeps.
 * `bundle` is the published bundle, or null ({@link bundleOf}); `embargo` what holds it back, if anything.
 */
async function eachEpoch(
  storage: PagesStorage,
  page: PageWork,
  visit: (row: EpochRow, bundle: unknown, embargo: Embargo | undefined) => void,
): Promise<readonly EpochHead[]> {
  const { heads, deciding } = await slice(page, () => headsAndHolder(storage, EPOCHS_SHOWN));
  // What holds each listed epoch back from before it, in one pass over the heads (embargoAmong per row walked the
  // earlier rows again for each: ~5,000 visits at 100 rows); the row read again below decides its own embargo.
  const held = await slice(page, () => heldEmbargoes(deciding));
  for (const head of heads) {
    // Timed as a slice: an SQLite read is synchronous inside the call (a PostgreSQL one only sends its query).
    const row = await slice(page, () => storage.getEpoch(head.epoch));
    if (row !== undefined) {
      await slice(page, () => {
        const embargo = embargoOf(row) ?? held.get(row.epoch);
        visit(row, bundleOf(row, embargo), embargo);
      });
    }
  }
  return heads;
}

/**
 * Each listed miner's u16 weight in a bundle, as `explainMiner(bundle, hotkey).u16` gives it: the first entry of
 * `result.aggregation.miners` naming the hotkey (as `hotkey` or `miner_hotkey`), its `u16` (0 when not a finite
 * number); only hotkeys `minerHotkeys` lists. One pass over the entries.
 */
function minerWeights(bundle: unknown): ReadonlyMap<string, number> {
  const listed = new Set(minerHotkeys(bundle));
  const out = new Map<string, number>();
  const miners = field(field(field(bundle, 'result'), 'aggregation'), 'miners');
  if (!Array.isArray(miners)) return out;
  for (const entry of miners) {
    const u16 = field(entry, 'u16');
    const weight = typeof u16 === 'number' && Number.isFinite(u16) ? u16 : 0;
    for (const key of [field(entry, 'hotkey'), field(entry, 'miner_hotkey')]) {
      if (typeof key === 'string' && listed.has(key) && !out.has(key)) out.set(key, weight);
    }
  }
  return out;
}

/** An object's own field (a key spelled `__proto__` is data, never a prototype lookup), else undefined. */
function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function send(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', CSP)
    .header('cache-control', 'no-store')
    .send(htmlDocument(title, body));
}

function nav(): string {
  return '<nav><a href="/pages">epochs and weights</a><a href="/pages/excluded">excluded records</a></nav>';
}

function submissionCell(text: string | null): string {
  if (text === null) return '<td>-</td><td>-</td><td>-</td>';
  try {
    const s = JSON.parse(text) as { status?: unknown; block?: unknown; extrinsic_hash?: unknown; error?: { code?: unknown } | null };
    const status = typeof s.status === 'string' ? s.status : '?';
    const detail = typeof s.error?.code === 'string' ? ` (${s.error.code})` : '';
    return `<td>${escapeHtml(status + detail)}</td><td class="num">${escapeHtml(typeof s.block === 'string' ? s.block : '-')}</td><td class="hk">${escapeHtml(typeof s.extrinsic_hash === 'string' ? s.extrinsic_hash : '-')}</td>`;
  } catch {
    return '<td>?</td><td>-</td><td>-</td>';
  }
}

/**
 * The overview page: every epoch with its status, digest and submission; the latest weights (chart and
 * table, each hotkey in full, linking to its miner page).
 */
async function overviewPage(storage: PagesStorage, page: PageWork, reply: FastifyReply): Promise<FastifyReply> {
  const cells = new Map<number, string>();
  // Newest first: the latest published bundle's stories, and each published epoch's weights for the chart, read off
  // its bundle in one pass (one story per miner and epoch was seconds of the loop per request, docs/spec.md G.14).
  let latest: { readonly row: EpochRow; readonly stories: readonly MinerStory[] } | undefined;
  const weightsByEpoch: { readonly epoch: number; readonly weights: ReadonlyMap<string, number> }[] = [];
  const heads = await eachEpoch(storage, page, (row, bundle, embargo) => {
    cells.set(row.epoch, bundleCell(row, bundle, embargo));
    if (bundle === null) return;
    latest ??= { row, stories: minerHotkeys(bundle).map((h) => explainMiner(bundle, h)) };
    weightsByEpoch.push({ epoch: row.epoch, weights: minerWeights(bundle) });
  });
  return slice(page, () => {
    const epochs = heads.map(
      (r) =>
        `<tr><td class="num">${r.epoch}</td><td class="status">${escapeHtml(r.status)}${r.revealStatus === null ? '' : ` <span class="reveal">(reveal: ${escapeHtml(r.revealStatus)})</span>`}</td>${submissionCell(r.submission)}<td class="hk">${escapeHtml(r.digest ?? '-')}</td><td>${cells.get(r.epoch) ?? '-'}</td></tr>`,
    );
    let weights = '<p>No published bundle yet.</p>';
    if (latest !== undefined) {
      const { row, stories } = latest;
      const history = [...weightsByEpoch].reverse();
      const series = stories.map((s) => ({
        uid: s.uid,
        hotkey: s.hotkey,
        values: new Map(
          history.flatMap(({ epoch, weights }) => {
            const u16 = weights.get(s.hotkey);
            return u16 === undefined ? [] : [[epoch, u16 / 65535] as const];
          }),
        ),
      }));
      const table = stories
        .map(
          (s: MinerStory) =>
            `<tr><td class="num">${s.uid ?? '-'}</td><td class="hk"><a href="/pages/miners/${encodeURIComponent(s.hotkey)}">${escapeHtml(s.hotkey)}</a></td><td class="num u16">${s.u16}</td><td class="num">${escapeHtml(formatPercent(s.share))}</td></tr>`,
        )
        .join('\n');
      weights = `<p>Epoch ${row.epoch} (${escapeHtml(row.status)}).</p>
${renderWeightChart(
  series,
  history.map((p) => p.epoch),
  { links: false },
)}
<table class="latest-weights"><thead><tr><th>uid</th><th>miner (its story)</th><th>u16</th><th>share</th></tr></thead><tbody>
${table}
</tbody></table>`;
    }
    return send(
      reply,
      200,
      'validator: epochs and weights',
      `<h1>Validator: epochs and weights</h1>${nav()}
<h2>Latest weights</h2>
${weights}
<h2>Epochs (${heads.length})</h2>
<table class="epochs"><thead><tr><th>epoch</th><th>status</th><th>submission</th><th>block</th><th>extrinsic</th><th>digest</th><th>signed bundle</th></tr></thead><tbody>
${epochs.join('\n')}
</tbody></table>`,
    );
  });
}

/** One miner's page: its weight over the published epochs and the story of the chosen epoch (`?epoch=N`, default the newest). */
async function minerPage(storage: PagesStorage, page: PageWork, hotkey: string, epoch: number | undefined, reply: FastifyReply): Promise<FastifyReply> {
  const stories: MinerStory[] = [];
  await eachEpoch(storage, page, (_row, bundle) => {
    if (bundle !== null && minerHotkeys(bundle).includes(hotkey)) stories.push(explainMiner(bundle, hotkey));
  });
  return slice(page, () => {
    if (stories.length === 0 || (epoch !== undefined && !stories.some((s) => s.epoch === epoch))) {
      return send(
        reply,
        404,
        'miner not found',
        `<h1>No such miner</h1>${nav()}<p>No published bundle${epoch === undefined ? '' : ` of epoch ${epoch}`} scores <span class="hk">${escapeHtml(hotkey)}</span>.</p>`,
      );
    }
    const html = renderMinerPage(hotkey, stories, {
      ...(epoch === undefined ? {} : { chosenEpoch: epoch }),
      standalone: true,
      back: { href: '/pages', text: 'back to the epochs' },
    });
    return send(reply, 200, `miner ${hotkey}`, `${nav()}${html}`);
  });
}

/** Every excluded record of the published epochs, with its code and reason. */
async function excludedPage(storage: PagesStorage, page: PageWork, reply: FastifyReply): Promise<FastifyReply> {
  const rows: string[] = [];
  let published = 0;
  await eachEpoch(storage, page, (row, bundle) => {
    if (bundle === null) return;
    published++;
    for (const e of excludedRecords(bundle)) {
      rows.push(
        `<tr><td class="num">${row.epoch}</td><td>${escapeHtml(e.record)}</td><td class="hk">${e.miner_hotkey === null ? '-' : `<a href="/pages/miners/${encodeURIComponent(e.miner_hotkey)}">${escapeHtml(e.miner_hotkey)}</a>`}</td><td>${escapeHtml(e.code)}</td><td>${escapeHtml(e.reason)}</td></tr>`,
      );
    }
  });
  return slice(page, () =>
    send(
      reply,
      200,
      'validator: excluded records',
      `<h1>Excluded records</h1>${nav()}
<p>${rows.length} record(s) excluded with a coded reason over the last ${published} published epoch(s).</p>
${rows.length === 0 ? '<p>None.</p>' : `<table class="excluded-records"><thead><tr><th>epoch</th><th>record</th><th>miner</th><th>code</th><th>reason</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`}`,
    ),
  );
}

/**
 * Serves the validator's read-only pages on its HTTP port, from its published bundles (the same
 * `explainMiner` story the auditor's report and `miner-check explain` tell): `GET /pages` (epochs with
 * status, submission and digest; the latest weights), `GET /pages/miners/:hotkey[?epoch=N]` (a miner's
 * weight over the epochs and its story), `GET /pages/excluded` (the excluded records with code and
 * reason). GET only, no form and no script (a strict Content-Security-Policy), and nothing but epoch rows
 * is read: no configuration, key or token can reach a page.
 *
 * @param app - the validator's Fastify instance
 * @param storage - its storage (only `listEpochs` and `getEpoch` are used)
 * @example registerValidatorPages(app, ctx.storage)
 */
export function registerValidatorPages(app: FastifyInstance, storage: PagesStorage): void {
  const paced = pagePacer(pageBudget());
  app.get('/pages', async (_request, reply) => paced(reply, (page) => overviewPage(storage, page, reply)));
  app.get('/pages/excluded', async (_request, reply) => paced(reply, (page) => excludedPage(storage, page, reply)));
  app.get('/pages/miners/:hotkey', async (request, reply) => {
    const hotkey = (request.params as { hotkey: string }).hotkey;
    const query = request.query as { epoch?: unknown };
    if (!HOTKEY.test(hotkey)) return send(reply, 400, 'bad hotkey', `<h1>Not a hotkey</h1>${nav()}<p>The path must name an SS58 hotkey.</p>`);
    // One spelling per epoch, as GET /v1/epochs/{n}/bundle takes (docs/spec.md G.42 (a)).
    const problem = query.epoch === undefined ? undefined : epochSpellingProblem(query.epoch);
    if (problem !== undefined) {
      return send(reply, 400, 'bad epoch', `<h1>Not an epoch</h1>${nav()}<p>${escapeHtml(`${problem} at ?epoch= (got ${describeValue(query.epoch)})`)}.</p>`);
    }
    return paced(reply, (page) => minerPage(storage, page, hotkey, query.epoch === undefined ? undefined : Number(query.epoch), reply));
  });
}

/** The share of the event loop's time the pages may take over a sustained run of requests (docs/spec.md G.14). */
export const PAGES_LOOP_SHARE = 0.5;
/** The milliseconds of building the pages may spend at once, from a full budget (a few pages of a large subnet back to back). */
export const PAGES_BURST_MS = 2000;

/** What {@link pageBudget} says to a page asked for: build it now, or answer 503 with `Retry-After` in whole seconds. */
export type PageAdmission = { readonly build: true } | { readonly build: false; readonly retryAfterSeconds: number };

/** The loop-time budget of the pages: {@link pagePacer}'s arithmetic, apart from HTTP so it can be checked on a clock. */
export interface PageBudget {
  /** Asks to build a page now; when it may, the page counts as being built until {@link PageBudget.finish}. */
  start(): PageAdmission;
  /** The page asked for with a successful {@link PageBudget.start} is built, having spent `spentMs` of loop time. */
  finish(spentMs: number): void;
}

/**
 * The budget of loop time building pages may spend (docs/spec.md G.14): it holds at most {@link PAGES_BURST_MS} ms,
 * refills at {@link PAGES_LOOP_SHARE} ms per ms of the clock, and one page is built at a time. A page asked for while
 * another is being built waits 1 s; one asked for while the budget is spent waits until it is back above zero (whole
 * seconds, at least 1).
 *
 * @param clock - milliseconds (default `performance.now`)
 * @returns the budget
 * @example const budget = pageBudget(); const a = budget.start(); if (a.build) budget.finish(120);
 */
export function pageBudget(clock: () => number = () => performance.now()): PageBudget {
  let building = false;
  let budget = PAGES_BURST_MS;
  let at = clock();
  const refill = (): void => {
    const now = clock();
    budget = Math.min(PAGES_BURST_MS, budget + (now - at) * PAGES_LOOP_SHARE);
    at = now;
  };
  return {
    start() {
      refill();
      if (building) return { build: false, retryAfterSeconds: 1 };
      if (budget <= 0) return { build: false, retryAfterSeconds: Math.max(1, Math.ceil(-budget / PAGES_LOOP_SHARE / 1000)) };
      building = true;
      return { build: true };
    },
    finish(spentMs) {
      building = false;
      refill();
      budget -= spentMs;
    },
  };
}

/**
 * Pages share the event loop with ingest and the epoch's close, and anyone may ask for them: building one reads and
 * parses up to 100 published bundles (hundreds of milliseconds with a few hundred miners). So a page is built in
 * slices, one epoch's bundle at a time with the loop turned between them ({@link eachEpoch}), and building pages
 * spends a budget of loop time ({@link pageBudget}): each page's slices are taken from it (not the time others ran
 * between them). A page asked for while the budget is spent, or while another is being built, is 503 with
 * `Retry-After` and a short page saying so, which costs no storage read. A page or two now and then is served as before.
 */
function pagePacer(budget: PageBudget): (reply: FastifyReply, build: (page: PageWork) => Promise<FastifyReply>) => Promise<FastifyReply> {
  return async (reply, build) => {
    const admitted = budget.start();
    if (!admitted.build) {
      const seconds = admitted.retryAfterSeconds;
      reply.header('retry-after', String(seconds));
      return send(reply, 503, 'busy', `<h1>Busy</h1>${nav()}<p>Pages take at most half of this validator's time; ask again in ${seconds} s.</p>`);
    }
    const page: PageWork = { spent: 0 };
    try {
      return await build(page);
    } finally {
      budget.finish(page.spent);
    }
  };
}
