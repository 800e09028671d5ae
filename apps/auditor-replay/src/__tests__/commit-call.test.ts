import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildBundle, signBundle } from '@subnet/bundle';
import type { SignatureVerifier } from '@subnet/bundle';
import { canonicalJson } from '@subnet/core';

import { describeSubmission } from '../audit-report.js';
import type { ChainWeightsReader } from '../chain-weights.js';
import { isCommitCall, signatureVerifier, verifyBundles } from '../index.js';
import { epochInput, keys } from './fixtures.js';
import type { Keys } from './fixtures.js';

// A commit-reveal submission puts the weights in `Weights` only at the reveal: the chain check must not
// read the weights after the submission block (the previous ones) and call an honest validator a liar.
let k: Keys;
let verify: SignatureVerifier;
let dir: string;

beforeAll(async () => {
  k = await keys();
  verify = await signatureVerifier();
  dir = await mkdtemp(join(tmpdir(), 'auditor-commit-'));
  const submitted = (call: string) => ({ status: 'submitted' as const, block: '1200', extrinsic_hash: `0x${'ab'.repeat(32)}`, call, error: null });
  for (const [name, call] of [
    ['set.json', 'SubtensorModule.set_weights'],
    ['commit.json', 'SubtensorModule.commit_timelocked_weights'],
  ] as const) {
    const bundle = buildBundle({ ...epochInput(k, { miners: 4, epoch: 40 }), submission: submitted(call) });
    await writeFile(join(dir, name), canonicalJson(signBundle(bundle, k.validator)));
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the chain check of a committed submission', () => {
  it('knows the commit calls of every commit-reveal version and nothing else', () => {
    for (const call of [
      'SubtensorModule.commit_weights',
      'SubtensorModule.commit_timelocked_weights',
      'SubtensorModule.commit_timelocked_mechanism_weights',
      'SubtensorModule.batch_commit_weights',
      'SubtensorModule.commit_crv3_mechanism_weights',
    ])
      expect(isCommitCall(call)).toBe(true);
    for (const call of [
      'SubtensorModule.set_weights',
      'SubtensorModule.set_mechanism_weights',
      'SubtensorModule.batch_set_weights',
      'SubtensorModule.reveal_weights',
      null,
    ])
      expect(isCommitCall(call)).toBe(false);
  });

  it('reads the chain for a set_weights bundle and not for a committed one, whose check stays unknown and says why', async () => {
    const asked: string[] = [];
    const read: ChainWeightsReader = (netuid, hotkey, block) => {
      asked.push(`${netuid}:${hotkey}:${block}`);
      return Promise.resolve({ block, validatorUid: null, pairs: [] });
    };
    const report = await verifyBundles([dir], { verify, chain: { read, netuid: 1 } });
    const byName = new Map(report.bundles.map((a) => [a.source.split('/').pop(), a]));
    const commit = byName.get('commit.json');
    const set = byName.get('set.json');
    expect(asked).toHaveLength(1); // only the set_weights bundle was read
    expect(set?.checks.chain).toBe(false); // the fake chain has no such validator: a mismatch, as it should
    expect(commit?.checks.chain).toBeNull();
    expect(commit?.status).toBe('ok');
    expect(commit === undefined ? '' : describeSubmission(commit)).toMatch(
      /^committed in block 1200 \(SubtensorModule\.commit_timelocked_weights\): the weights reach the chain at the reveal/,
    );
  });
});
