import { beforeAll, describe, expect, it } from 'vitest';

import { canonicalJson } from '@subnet/core';

import { buildBundle, bundleSchema, QUERY_OUTCOMES, recomputeBundle, signBundle, verifyBundle } from '../index.js';
import type { BuildBundleInput } from '../index.js';
import { dryRun, expectCode, keys, verifier } from './helpers.js';

let k: Awaited<ReturnType<typeof keys>>;
let base: BuildBundleInput;
const blockHash = `0x${'ab'.repeat(32)}`;
const query = (seq: number, miner: string, outcome: string, extra: Record<string, unknown> = {}) => ({
  challenge_id: 'sssa',
  task_id: 'task-1',
  block_hash: blockHash,
  miner_hotkey: miner,
  miner_uid: seq,
  role: 'auditor',
  synapse: 'SecurityAudit',
  status_code: outcome === 'no_axon' ? null : outcome === 'timeout' ? 408 : 200,
  outcome,
  reason: outcome === 'answered' ? null : `the axon ${outcome}`,
  record_id: outcome === 'answered' ? `sssa-${seq}` : null,
  elapsed_ms: 12,
  seq,
  ...extra,
});

beforeAll(async () => {
  k = await keys();
  base = {
    netuid: 7,
    config: { pipeline: { min_validators: 1, min_stake_fraction: 0 }, challenges: [{ id: 'bounty', kind: 'bounty', alpha: 0.8 }] },
    epoch: 3,
    validatorHotkey: k.validator.address,
    inputs: {},
    stakes: [{ validator_hotkey: k.validator.address, stake: '1000000000' }],
    metagraph: [{ hotkey: k.validator.address, uid: 0 }, ...k.miners.map((m, i) => ({ hotkey: m.address, uid: i + 1 }))],
    submission: dryRun,
  };
});

describe('queries in the bundle (docs/spec.md G.6 "Queries")', () => {
  it('a bundle without queries has no queries field, so bundles of validators that dispatch nothing keep their bytes', () => {
    const bundle = buildBundle(base);
    expect(Object.hasOwn(bundle, 'queries')).toBe(false);
    expect(canonicalJson(bundle)).not.toContain('queries');
    // A bundle written before the field existed still parses.
    expect(bundleSchema.safeParse(JSON.parse(canonicalJson(bundle))).success).toBe(true);
  });

  it('every query is kept, sorted by seq, inside the signed digest, and does not change the recomputation', () => {
    const [a, b, c, d] = k.miners.map((m) => m.address) as [string, string, string, string];
    const bundle = buildBundle({
      ...base,
      queries: [query(4, d, 'no_axon'), query(2, b, 'timeout'), query(1, a, 'answered'), query(3, c, 'garbage')],
    });
    expect(bundle.queries?.map((q) => [q.seq, q.outcome])).toEqual([
      [1, 'answered'],
      [2, 'timeout'],
      [3, 'garbage'],
      [4, 'no_axon'],
    ]);
    const signed = JSON.parse(JSON.stringify(signBundle(bundle, k.validator))) as { bundle: { queries: { outcome: string }[] } };
    expect(verifyBundle(signed, verifier).queries).toHaveLength(4);
    const tampered = structuredClone(signed);
    const first = tampered.bundle.queries[1];
    if (first !== undefined) first.outcome = 'answered';
    expectCode(() => verifyBundle(tampered, verifier), 'BUNDLE_DIGEST_MISMATCH', 'signed.digest');
    expect(recomputeBundle(bundle).identical).toBe(true);
  });

  it('an unknown outcome or a missing field is refused with the path of the bad value', () => {
    const a = k.miners[0]?.address ?? '';
    expectCode(() => buildBundle({ ...base, queries: [query(1, a, 'lost')] }), 'BUNDLE_INVALID_BUNDLE', 'bundle.queries[0].outcome');
    const { reason: _reason, ...noReason } = query(1, a, 'timeout');
    expectCode(() => buildBundle({ ...base, queries: [noReason] }), 'BUNDLE_INVALID_BUNDLE', 'bundle.queries[0].reason');
  });

  it('outcome codes are append-only', () => {
    expect(QUERY_OUTCOMES).toEqual([
      'answered',
      'no_axon',
      'unreachable',
      'timeout',
      'refused',
      'axon_error',
      'too_large',
      'garbage',
      'invalid_answer',
      'conflict',
    ]);
  });
});
