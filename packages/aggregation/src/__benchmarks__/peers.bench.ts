import { fileURLToPath } from 'node:url';

import { runPeerScript } from '@subnet/bench-peer';
import { bench, describe } from 'vitest';

// Issue 18 items 1 and 2: the weight path and stake-weighted aggregation next to Python replicas
// (bench/peers/*.py), timed by bench/peers.mjs. That script runs in plain Node on the built packages
// (`pnpm bench` builds this one first; turbo builds its dependencies), because vitest's module runner slows
// every call between source files and would measure itself. Both sides must give the same output before
// anything is timed.
const script = fileURLToPath(new URL('../../bench/peers.mjs', import.meta.url));
const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const coreDist = fileURLToPath(new URL('../../../core/dist/index.js', import.meta.url));

describe('peers (Python replicas, same input, same output, ratios from the same run)', () => {
  runPeerScript(script, [dist, coreDist], '@subnet/core and @subnet/aggregation');
  // vitest bench needs a task; the comparison above is the measurement.
  bench('ratio tables printed above', () => {}, { iterations: 1, time: 0 });
});
