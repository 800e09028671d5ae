/// <reference lib="dom" />
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Browser, Page } from 'puppeteer-core';

/**
 * Browser-test support (not a test file): Debian's `chromium`, driven by puppeteer-core. The path comes
 * from SUBNET_TEST_CHROMIUM (set by `npm test` through tooling/scripts/ensure-chromium.mjs), else from
 * `chromium` on PATH. Without a browser the tests are skipped locally and fail in CI (`CI=true`).
 */
export function chromiumPath(): string | undefined {
  const given = process.env.SUBNET_TEST_CHROMIUM;
  if (given !== undefined && given !== '') return given;
  for (const name of ['chromium', 'chromium-browser']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim() !== '') return found.stdout.trim();
  }
  return undefined;
}

/** True when the browser tests must run (a browser was found), false when they are skipped; throws in CI without one. */
export function browserAvailable(): boolean {
  const path = chromiumPath();
  if (path !== undefined) return true;
  if (process.env.CI === 'true' || process.env.CI === '1') {
    throw new Error('CI needs Chromium for the browser tests (set SUBNET_TEST_CHROMIUM or install the chromium package)');
  }
  console.warn('browser tests skipped: no Chromium (install the chromium package or set SUBNET_TEST_CHROMIUM)');
  return false;
}

/** Launches the system Chromium headless (no sandbox: the tests run as root in containers). */
export async function launchBrowser(): Promise<Browser> {
  const { launch } = await import('puppeteer-core');
  return launch({
    executablePath: chromiumPath() as string,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'],
  });
}

/** A package's test output folder for screenshots (`<package>/.vitest/screenshots`, gitignored); default this package's. */
export function screenshotDir(packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..')): string {
  const dir = join(packageDir, '.vitest', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Every `<text>` of every SVG on the page that leaves its SVG's box (label, text and the two boxes), empty when none is clipped. */
export async function clippedSvgLabels(page: Page): Promise<{ text: string; box: number[]; svg: number[] }[]> {
  return page.evaluate(() => {
    const out: { text: string; box: number[]; svg: number[] }[] = [];
    for (const svg of Array.from(document.querySelectorAll('svg'))) {
      const s = svg.getBoundingClientRect();
      if (s.width === 0 && s.height === 0) continue; // not displayed (another miner's page)
      for (const t of Array.from(svg.querySelectorAll('text'))) {
        const b = t.getBoundingClientRect();
        if (b.left < s.left - 0.5 || b.right > s.right + 0.5 || b.top < s.top - 0.5 || b.bottom > s.bottom + 0.5) {
          out.push({ text: t.textContent, box: [b.left, b.top, b.right, b.bottom], svg: [s.left, s.top, s.right, s.bottom] });
        }
      }
    }
    return out;
  });
}
