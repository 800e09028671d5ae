import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { sampleTreeRss } from '../../../bench-peer/index.js';

/**
 * The benchmarks' memory figures (`@subnet/bench-peer` `sampleTreeRss`) bound the peak of a process tree
 * from both sides. A process that fills 160 MiB and frees it between two samples is the case a sampled sum
 * of resident sets reads too low: the lower bound must still be at least the process's own peak, which the
 * kernel keeps (VmHWM), and the upper bound is the peaks summed.
 */
const spike = `
let b = Buffer.alloc(160 * 1024 * 1024, 1);
if (b[5] !== 1) process.exit(3);
b = undefined;
globalThis.gc();
process.stdout.write('freed\\n');
setTimeout(() => {}, 60_000);
`;

describe.skipIf(!existsSync('/proc/self/status'))('sampleTreeRss (benchmark memory figures)', () => {
  it("bounds a tree's peak: at least its largest process's own peak even when no sample caught it, at most the peaks summed", async () => {
    const child = spawn(process.execPath, ['--expose-gc', '-e', spike], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      // One sample now (before the spike) and one at stop() (after it): none in between.
      const memory = sampleTreeRss(child.pid, 600_000);
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('freed')) resolve();
        });
        child.on('exit', (code) => {
          reject(new Error(`the child exited with ${String(code)}`));
        });
      });
      const figures = memory.stop();
      expect(figures.processPeakKb).toBeGreaterThan(160 * 1024);
      expect(figures.treePeakKb).toBeGreaterThanOrEqual(figures.processPeakKb ?? Infinity);
      expect(figures.treeUpperKb).toBeGreaterThanOrEqual(figures.treePeakKb ?? Infinity);
    } finally {
      child.kill();
    }
  });
});
