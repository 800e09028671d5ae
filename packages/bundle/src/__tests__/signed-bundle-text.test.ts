import { beforeAll, describe, expect, it } from 'vitest';

import { canonicalJson, sha256Hex } from '@subnet/core';

import { buildBundle, bundleDigest, signBundle, signedBundleText, verifyBundle } from '../index.js';
import type { Bundle } from '../index.js';
import { dryRun, expectCode, keys, verifier } from './helpers.js';

let k: Awaited<ReturnType<typeof keys>>;
let bundle: Bundle;
beforeAll(async () => {
  k = await keys();
  const [A, B] = k.miners.map((m) => m.address) as [string, string];
  bundle = buildBundle({
    netuid: 7,
    config: { pipeline: { min_validators: 1, min_stake_fraction: 0 }, challenges: [{ id: 'bounty', kind: 'bounty', alpha: 0.8 }] },
    epoch: 12,
    validatorHotkey: k.validator.address,
    inputs: {
      bounty_records: [
        { record_id: 'b1', seq: 1, miner_hotkey: A, valid_issues: 4, invalid_issues: 1, starred_repos: 2 },
        { record_id: 'b2', seq: 2, miner_hotkey: B, valid_issues: 9, invalid_issues: 0, starred_repos: 0 },
      ],
    },
    stakes: [{ validator_hotkey: k.validator.address, stake: '1000000000' }],
    metagraph: [
      { hotkey: k.validator.address, uid: 0 },
      { hotkey: A, uid: 1 },
      { hotkey: B, uid: 2 },
    ],
    submission: dryRun,
  });
});

describe('signedBundleText: a bundle serialised once for digest, signature and file', () => {
  it('gives the canonical JSON of the signed document, the bundle digest and a signature that verifies', () => {
    const out = signedBundleText(bundle, k.validator);
    expect(out.digest).toBe(bundleDigest(bundle));
    expect(out.digest).toBe(sha256Hex(canonicalJson(bundle)));
    expect(out.text).toBe(canonicalJson({ bundle, digest: out.digest, signature: out.signature }));
    expect(out.signature).toMatch(/^0x[0-9a-f]{128}$/);
    expect(verifyBundle(JSON.parse(out.text), verifier)).toEqual(JSON.parse(canonicalJson(bundle)));
    // The same digest signBundle computes (sr25519 signatures are randomised, so only the digest repeats).
    expect(signBundle(bundle, k.validator).digest).toBe(out.digest);
  });

  it('writes `signature: null` without a signer (dry run), still canonical', () => {
    const out = signedBundleText(bundle, undefined);
    expect(out.signature).toBeNull();
    expect(out.text).toBe(canonicalJson({ bundle, digest: bundleDigest(bundle), signature: null }));
  });

  it('reads the bundle exactly once (one serialisation for digest, signature and text)', () => {
    let reads = 0;
    const counted = { ...bundle };
    Object.defineProperty(counted, 'result', {
      enumerable: true,
      get: () => {
        reads++;
        return bundle.result;
      },
    });
    const out = signedBundleText(counted, k.validator);
    expect(reads).toBe(1);
    expect(out.digest).toBe(bundleDigest(bundle));
  });

  it('refuses a key that is not the validator hotkey (BUNDLE_SIGNER_MISMATCH)', () => {
    expectCode(() => signedBundleText(bundle, k.other), 'BUNDLE_SIGNER_MISMATCH', 'signer.address');
  });
});
