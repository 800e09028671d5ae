import { describe, expect, it } from 'vitest';

import { runMinerCheck } from '../program.js';
import { example } from './cli-support.js';

/**
 * A file of another kind given to a flag (a peers file to --sssa, the plan to --task): the error leads with what the
 * file looks like and which command and flag take it, then the schema's words and the field path as before. It said
 * only `expected object, received array at sssa`.
 */
async function check(args: string[]): Promise<{ code: number; json: { error: { code: string; message: string; path: string | null } } }> {
  let out = '';
  const code = await runMinerCheck([...args, '--json'], { stdout: (t) => (out += t), stderr: () => undefined, stdin: () => '' });
  return { code, json: JSON.parse(out.trim()) as never };
}

describe('an input of another kind than its flag takes', () => {
  it('a peers file given to --sssa: "looks like a peers file ...: give it to miner-check sssa --peers", the path kept', async () => {
    const peers = example('sssa', 'peers.json');
    const { code, json } = await check(['sssa', '--sssa', peers]);
    expect(code).toBe(2);
    expect(json.error.path).toBe('sssa');
    expect(json.error.message).toMatch(
      new RegExp(
        `^\\[CONSENSUS_INVALID_SSSA\\] ${peers.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, given to --sssa, looks like a peers file \\(a list of SSSA documents or group members\\): ` +
          'give it to miner-check sssa --peers; invalid sssa: .* at sssa \\(got ',
      ),
    );
  });

  it('the task and the plan swapped: both named, in the order given, then the schema error', async () => {
    const task = example('workflow', 'task.json');
    const plan = example('workflow', 'plan.json');
    const { json } = await check(['workflow', '--task', plan, '--plan', task, '--run', example('workflow', 'run.json')]);
    expect(json.error.message).toBe(
      `[COMPOSITE_INVALID_TASK] ${plan}, given to --task, looks like a workflow plan (nodes, edges): give it to miner-check workflow --plan; ` +
        `${task}, given to --plan, looks like a benchmark task (task_id, constraints): give it to miner-check workflow --task; ` +
        'invalid task: Invalid input: expected string, received undefined at task.task_id (got undefined)',
    );
  });

  it('a candidates file among --peers names its place; term results given to --scores, scores to --results', async () => {
    const candidates = example('sssa', 'candidates.json');
    const peer = await check(['sssa', '--sssa', example('sssa', 'sssa.json'), '--peers', candidates]);
    expect(peer.json.error.message).toContain(`${candidates}, given to --peers[0], looks like a candidates file`);
    expect(peer.json.error.message).toContain('give it to miner-check sssa --candidates; invalid members[1].sssa');
    const scores = await check(['weights', '--scores', example('term', 'results.json')]);
    expect(scores.json.error.message).toContain('given to --scores, looks like term results');
    expect(scores.json.error.message).toContain('give it to miner-check term --results; invalid scores');
    const results = await check(['term', '--results', example('weights', 'scores.json'), '--total-tasks', '3']);
    expect(results.json.error.message).toContain('given to --results, looks like miner scores');
  });

  it('an error at a flag, not in a document, is not led by it (the --uid is what is wrong)', async () => {
    const { json } = await check(['sssa', '--sssa', example('sssa', 'peers.json'), '--uid', '70000']);
    expect(json.error.path).toBe('--uid');
    expect(json.error.message).not.toContain('looks like');
  });
});
