import { fileURLToPath } from 'node:url';

import { runPeerScript } from '@subnet/bench-peer';
import { bench, describe } from 'vitest';

import { compositeScore, parseWorkflowPlan, parseWorkflowTask } from '../index.js';

// Issue 18 items 1, 4 and 5: C-SWON's composite scoring and rolling window, replicated in Python from the
// seed text (bench/peers/*.py), timed next to ours on identical generated inputs by bench/peers.mjs. That
// script runs in plain Node on the built packages (`pnpm bench` builds this one first; turbo builds its
// dependencies), because vitest's module runner slows every call between source files and would measure
// itself. Both sides must give the same output before anything is timed.
const script = fileURLToPath(new URL('../../bench/peers.mjs', import.meta.url));
const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const coreDist = fileURLToPath(new URL('../../../core/dist/index.js', import.meta.url));
runPeerScript(script, [dist, coreDist], '@subnet/core and @subnet/composite');

describe('compositeScore of one raw 10-node record (source, through vitest)', () => {
  const nodes = Array.from({ length: 10 }, (_, i) => ({ id: `node-${i}` }));
  const input = {
    task: parseWorkflowTask({ task_id: 't', constraints: { max_budget_tao: 1, max_latency_seconds: 60 } }),
    plan: parseWorkflowPlan({ nodes }),
    record: {
      output_quality_score: 0.9,
      actual_tao: 0.2,
      actual_seconds: 30,
      attempts: nodes.map((n) => ({ node_id: n.id, attempt: 1, status: 'success', seconds: 2 })),
    },
  };
  bench('compositeScore', () => {
    compositeScore(input);
  });
});
