import { join } from 'node:path';

import * as pages from 'auditor-replay/pages';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The auditor's fixtures: a realistic signed bundle of `miners` miners (term and bounty challenges, three validators).
import { keys as auditorKeys, signedBundle } from '../../../auditor-replay/src/__tests__/fixtures.js';
import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import { fakeChain, keys, silent, tempDir, testConfig } from './helpers.js';

// Counted, not replaced: every call runs the real function.
vi.mock('auditor-replay/pages', { spy: true });

/**
 * Anyone may ask for the pages, and they share the event loop with ingest and the epoch's close (docs/spec.md G.14).
 * With 100 published epochs of 256 miners, `GET /pages` told every miner's whole story for every epoch to draw the
 * chart (25,856 stories, three seconds of the loop here), and a client asking for pages back to back could hold the
 * loop for as long as it liked. The chart now reads each epoch's weights off its bundle once, and pages spend a budget
 * of loop time: beyond it a page is 503 with Retry-After, so a flood of page requests takes at most half the loop.
 */

const EPOCHS = 100;
const MINERS = 256;
let service: ValidatorService | undefined;
let cleanup: () => void;
let url: string;
let hotkeys: readonly string[];

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  const signed = signedBundle(await auditorKeys(), { miners: MINERS, epoch: 1 });
  hotkeys = pages.minerHotkeys(signed.bundle);
  const storage = openSqliteStorage(join(t.dir, 'validator.sqlite'));
  await storage.claimEpochLength(10);
  // One bundle published under 100 epochs (the pages do not verify signatures: each row is read as published).
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    await storage.claimEpoch(epoch, {
      status: 'dry_run',
      submission: JSON.stringify(signed.bundle.submission),
      bundle: JSON.stringify({ ...signed, bundle: { ...signed.bundle, epoch } }),
      digest: signed.digest,
      u16: JSON.stringify(signed.bundle.result.u16),
    });
  }
  await storage.close();
  const chain = fakeChain(await keys());
  chain.headBlock = BigInt((EPOCHS + 2) * 10);
  service = await startValidator({ config: testConfig(t.dir), chain, logger: silent, autoTick: false });
  url = service.url;
}, 120_000);
afterAll(async () => {
  try {
    await service?.stop();
  } finally {
    cleanup();
  }
});

describe('the epoch list and the latest weights read no bundle (docs/spec.md G.14)', () => {
  it('GET /v1/epochs and GET /v1/weights/latest answer from the epoch heads: no signed bundle is read from storage', async () => {
    const storage = service!.storage;
    let bundleBytes = 0;
    const rowsOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
    const count = (value: unknown): void => {
      for (const row of rowsOf(value)) {
        const bundle = (row as { bundle?: unknown }).bundle;
        if (typeof bundle === 'string') bundleBytes += bundle.length;
      }
    };
    // Counted, not replaced: each call runs the real SQLite read and its rows are measured on the way out.
    const reads = (['listEpochs', 'getEpoch'] as const).map((name) => {
      const real = storage[name].bind(storage) as (n: number) => Promise<unknown>;
      return vi.spyOn(storage, name).mockImplementation((async (n: number) => {
        const value = await real(n);
        count(value);
        return value;
      }) as never);
    });
    try {
      const list = await fetch(`${url}/v1/epochs`);
      expect(list.status).toBe(200);
      const epochs = ((await list.json()) as { epochs: { epoch: number; bundle: string | null }[] }).epochs;
      expect([epochs.length, epochs[0]]).toEqual([EPOCHS, expect.objectContaining({ epoch: EPOCHS, bundle: `/v1/epochs/${EPOCHS}/bundle` })]);
      const latest = await fetch(`${url}/v1/weights/latest`);
      expect(latest.status).toBe(200);
      expect(((await latest.json()) as { epoch: number }).epoch).toBe(EPOCHS);
      expect(bundleBytes).toBe(0);
    } finally {
      for (const spy of reads) spy.mockRestore();
    }
  }, 60_000);
});

describe('the pages cannot hold the event loop (docs/spec.md G.14)', () => {
  it("GET /pages tells one story per miner of the latest epoch; the chart's weights of the other epochs are read off their bundles", async () => {
    vi.mocked(pages.explainMiner).mockClear();
    const res = await fetch(`${url}/pages`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(vi.mocked(pages.explainMiner).mock.calls.length).toBe(MINERS);
    // The chart still has every epoch of every miner: the latest weights table and a series per miner.
    expect(hotkeys.every((h) => html.includes(h))).toBe(true);
    expect(html).toContain(`Epoch ${EPOCHS} (dry_run)`);
  }, 60_000);

  /**
   * Asks for `path` until it is served, waiting out the budget the test before spent: each 503 costs no build, and
   * its Retry-After says when to ask again (a fixed pause was too short when a loaded machine made the pages slow).
   */
  async function servedOnceRefilled(path: string): Promise<Response> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const res = await fetch(`${url}${path}`);
      if (res.status !== 503) return res;
      await res.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after')) * 1000));
    }
    throw new Error(`${path} stayed 503 through 20 waits of its Retry-After`);
  }

  it('a page is built one epoch at a time: a request that arrives while it is being built is answered between two bundles', async () => {
    const storage = service!.storage;
    let bundlesRead = 0;
    let bundlesReadWhenAnswered = -1;
    let health: Promise<void> | undefined;
    const rowsOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
    // Counted, not replaced: each call runs the real SQLite read and the signed bundles it hands to the page are
    // counted. The page's first read sends the other request.
    const spies = (['listEpochs', 'listEpochHeads', 'getEpoch'] as const).map((name) => {
      const real = storage[name].bind(storage) as (n: number) => Promise<unknown>;
      return vi.spyOn(storage, name).mockImplementation((async (n: number) => {
        health ??= fetch(`${url}/healthz`).then(async (res) => {
          expect(res.status).toBe(200);
          await res.arrayBuffer();
          bundlesReadWhenAnswered = bundlesRead;
        });
        const value = await real(n);
        bundlesRead += rowsOf(value).filter((row) => typeof (row as { bundle?: unknown }).bundle === 'string').length;
        return value;
      }) as never);
    });
    try {
      const res = await servedOnceRefilled('/pages/excluded');
      expect(res.status).toBe(200);
      await res.text();
      await health;
      expect(bundlesRead).toBe(EPOCHS);
      // With every bundle read and parsed at once, the other request waited for all of them.
      expect(bundlesReadWhenAnswered).toBeGreaterThanOrEqual(0);
      expect(bundlesReadWhenAnswered).toBeLessThan(EPOCHS);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  }, 60_000);

  it("a page decides the listed epochs' embargoes in one pass: each head's reveal status is read once, not once per later epoch", async () => {
    const storage = service!.storage;
    let revealStatusReads = 0;
    const real = storage.listEpochHeads.bind(storage);
    // Counted, not replaced: the real heads, each behind a proxy that counts reads of its reveal status.
    const spy = vi.spyOn(storage, 'listEpochHeads').mockImplementation(async (limit) =>
      (await real(limit)).map(
        (head) =>
          new Proxy(head, {
            get: (target, key, receiver) => {
              if (key === 'revealStatus') revealStatusReads += 1;
              return Reflect.get(target, key, receiver) as unknown;
            },
          }),
      ),
    );
    try {
      // The excluded records page renders no reveal status: every read counted is an embargo decision.
      const res = await servedOnceRefilled('/pages/excluded');
      expect(res.status).toBe(200);
      await res.text();
      expect(spy).toHaveBeenCalledTimes(1);
      // embargoAmong per row walked the earlier heads for each row: 4,950 reads at 100 epochs.
      expect(revealStatusReads).toBe(EPOCHS);
    } finally {
      spy.mockRestore();
    }
  }, 60_000);

  it('a page asked for while another is being built is 503 with Retry-After and a short page, and is served after it', async () => {
    // The budget's arithmetic is checked on a clock in pages-budget.test.ts; here, over HTTP, the refusal it leads to.
    const storage = service!.storage;
    let second: Promise<{ status: number; retryAfter: string | null; type: string | null; body: string }> | undefined;
    const real = storage.getEpoch.bind(storage);
    const spy = vi.spyOn(storage, 'getEpoch');
    spy.mockImplementation(async (n: number) => {
      second ??= fetch(`${url}/pages/miners/${hotkeys[1]}`).then(async (res) => ({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        type: res.headers.get('content-type'),
        body: await res.text(),
      }));
      return real(n);
    });
    try {
      const first = await servedOnceRefilled(`/pages/miners/${hotkeys[0]}`);
      expect(first.status).toBe(200);
      await first.arrayBuffer();
      const busy = await second;
      expect(busy).toMatchObject({ status: 503, retryAfter: '1', type: 'text/html; charset=utf-8' });
      expect(busy?.body).toContain("Pages take at most half of this validator's time; ask again in 1 s.");
    } finally {
      spy.mockRestore();
    }
    const after = await servedOnceRefilled(`/pages/miners/${hotkeys[1]}`);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain(hotkeys[1]);
  }, 60_000);
});
