import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { documentKind, wrongKindSentence } from '../document-kind.js';

/** The apps' own example inputs and a corpus bundle: the files a user has at hand. */
const read = (path: string): unknown => JSON.parse(readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8'));

describe('documentKind: which input file a document looks like, by its top-level keys', () => {
  it.each([
    ['apps/auditor-replay/test-corpus/honest/epoch-1.json', 'signed-bundle'],
    ['apps/miner-check/examples/workflow/task.json', 'workflow-task'],
    ['apps/miner-check/examples/workflow/plan.json', 'workflow-plan'],
    ['apps/miner-check/examples/workflow/run.json', 'execution-record'],
    ['apps/miner-check/examples/sssa/sssa.json', 'sssa-member'],
    ['apps/miner-check/examples/sssa/peers.json', 'sssa-group'],
    ['apps/miner-check/examples/sssa/candidates.json', 'candidates'],
    ['apps/miner-check/examples/term/results.json', 'term-results'],
    ['apps/miner-check/examples/weights/scores.json', 'miner-scores'],
  ])('%s is %s', (path, id) => {
    expect(documentKind(read(path))?.id).toBe(id);
  });

  it('a bare SSSA document, and a list of them, are an SSSA document and a peers file', () => {
    const bare = (read('apps/miner-check/examples/sssa/sssa.json') as { sssa: unknown }).sssa;
    expect(documentKind(bare)?.id).toBe('sssa');
    expect(documentKind([bare, bare])?.id).toBe('sssa-group');
  });

  it('looks like nothing: an empty list, a scalar, other keys, a list of mixed kinds', () => {
    const scores = read('apps/miner-check/examples/weights/scores.json') as unknown[];
    const results = read('apps/miner-check/examples/term/results.json') as unknown[];
    for (const value of [[], 7, null, 'x', { a: 1 }, [1, 2], [scores[0], results[0]]]) expect(documentKind(value)).toBeUndefined();
  });

  it('wrongKindSentence names the kind and where it goes, only when the flag does not take that kind', () => {
    const peers = read('apps/miner-check/examples/sssa/peers.json');
    expect(wrongKindSentence(peers, ['sssa', 'sssa-member'])).toBe(
      'looks like a peers file (a list of SSSA documents or group members): give it to miner-check sssa --peers',
    );
    expect(wrongKindSentence(peers, ['sssa', 'sssa-member', 'sssa-group'])).toBeUndefined();
    expect(wrongKindSentence({ a: 1 }, ['sssa'])).toBeUndefined();
    expect(wrongKindSentence(read('apps/miner-check/examples/workflow/run.json'), ['signed-bundle'])).toBe(
      'looks like a workflow execution record (output_quality_score, actual_tao, actual_seconds): give it to miner-check workflow --run',
    );
  });
});
