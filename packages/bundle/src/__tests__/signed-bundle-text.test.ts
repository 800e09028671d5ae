import { beforeAll, describe, expect, it } from 'vitest';

import { canonicalJson, sha256Hex } from '@subnet/core';

import { buildBundle, bundleDigest, signBundle, signedBundleText, verifyBundle } from '../index.js';
import type { Bundle } from '../index.js';
import { bountyBundleInput, dryRun, expectCode, keys, verifier } from './helpers.js';

let k: Awaited<ReturnType<typeof keys>>;
let bundle: Bundle;
beforeAll(async () => {
  k = await keys();
  bundle = buildBundle({ ...bountyBundleInput(k), submission: dryRun });
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
