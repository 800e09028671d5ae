import { beforeAll, describe, expect, it } from 'vitest';

import { canonicalJson, sha256Hex } from '@subnet/core';

import { buildBundle, bundleDigest, recomputeBundle, signBundle, sr25519Verifier, verifyBundle } from '../index.js';
import type { Bundle } from '../index.js';
import { bountyBundleInput, dryRun, expectCode, keys, verifier } from './helpers.js';

let k: Awaited<ReturnType<typeof keys>>;
let bundle: Bundle;
let bundleInput: () => Omit<Parameters<typeof buildBundle>[0], 'submission'>;
beforeAll(async () => {
  k = await keys();
  bundleInput = () => bountyBundleInput(k);
  bundle = buildBundle({ ...bundleInput(), submission: dryRun });
});

describe('audit bundle (SPEC E)', () => {
  it('carries schema version, netuid, epoch, validator hotkey, full configuration, inputs, results and submission', () => {
    expect(bundle.schema_version).toBe(2);
    expect(bundle.netuid).toBe(7);
    expect(bundle.epoch).toBe(12);
    expect(bundle.validator_hotkey).toBe(k.validator.address);
    expect((bundle.config as { pipeline: { weight_cap: number } }).pipeline.weight_cap).toBe(0.5);
    expect((bundle.inputs as { bounty_records: unknown[] }).bounty_records).toHaveLength(2);
    expect(bundle.result.u16.weights.reduce((a, b) => a + b, 0)).toBe(65535);
    expect(bundle.submission).toEqual(dryRun);
  });

  it('digest = sha256 of the canonical JSON; signature by the validator hotkey verifies', () => {
    const signed = signBundle(bundle, k.validator);
    expect(signed.digest).toBe(sha256Hex(canonicalJson(bundle)));
    expect(bundleDigest(bundle)).toBe(signed.digest);
    const roundTripped: unknown = JSON.parse(JSON.stringify(signed));
    expect(canonicalJson(verifyBundle(roundTripped, verifier))).toBe(canonicalJson(bundle));
  });

  it('sr25519Verifier accepts the validator signature and rejects another key', async () => {
    const verify = await sr25519Verifier();
    const signed = signBundle(bundle, k.validator);
    expect(verifyBundle(signed, verify).epoch).toBe(12);
    const forged = { ...signed, signature: `0x${Buffer.from(k.other.sign(Buffer.from(signed.digest, 'hex'))).toString('hex')}` };
    expectCode(() => verifyBundle(forged, verify), 'BUNDLE_BAD_SIGNATURE', 'signed.signature');
  });

  it('sr25519Verifier still accepts the <Bytes>-wrapped form signatureVerify knows, and nothing over another message', async () => {
    const verify = await sr25519Verifier();
    const digestBytes = Buffer.from(signBundle(bundle, k.validator).digest, 'hex');
    const wrapped = Buffer.concat([Buffer.from('<Bytes>'), digestBytes, Buffer.from('</Bytes>')]);
    const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
    expect(verify(digestBytes, hex(k.validator.sign(wrapped)), k.validator.address)).toBe(true);
    expect(verify(digestBytes, hex(k.validator.sign(digestBytes)), k.validator.address)).toBe(true);
    expect(verify(digestBytes, hex(k.validator.sign(Buffer.from('another message'))), k.validator.address)).toBe(false);
    expect(verify(digestBytes, hex(k.validator.sign(digestBytes)), 'not an address')).toBe(false);
  });

  it('a tampered bundle fails the digest check', () => {
    const signed = JSON.parse(JSON.stringify(signBundle(bundle, k.validator))) as { bundle: { epoch: number } };
    signed.bundle.epoch = 13;
    expectCode(() => verifyBundle(signed, verifier), 'BUNDLE_DIGEST_MISMATCH', 'signed.digest');
  });

  it('a signature by another key fails, and signing with a key other than the validator hotkey is refused', () => {
    const good = signBundle(bundle, k.validator);
    const forged = { ...good, signature: `0x${Buffer.from(k.other.sign(Buffer.from(good.digest, 'hex'))).toString('hex')}` };
    expectCode(() => verifyBundle(forged, verifier), 'BUNDLE_BAD_SIGNATURE', 'signed.signature');
    expectCode(() => signBundle(bundle, k.other), 'BUNDLE_SIGNER_MISMATCH', 'signer.address');
  });

  it('carries the statuses missed and not_landed with their error, signed and verified; an unknown status is refused', () => {
    for (const status of ['missed', 'not_landed'] as const) {
      const submission = { status, block: null, extrinsic_hash: null, call: null, error: { code: `VALIDATOR_${status.toUpperCase()}`, message: status } };
      const built = buildBundle({ ...bundleInput(), submission });
      const verified = verifyBundle(JSON.parse(JSON.stringify(signBundle(built, k.validator))), verifier);
      expect(verified.submission).toEqual(submission);
    }
    const signed = JSON.parse(JSON.stringify(signBundle(bundle, k.validator))) as { bundle: { submission: { status: string } } };
    signed.bundle.submission.status = 'lost';
    expectCode(() => verifyBundle(signed, verifier), 'BUNDLE_INVALID_BUNDLE', 'signed.bundle.submission.status');
  });

  it('rejects a document that is not a bundle, naming the field', () => {
    const signed = JSON.parse(JSON.stringify(signBundle(bundle, k.validator))) as { bundle: { netuid: unknown } };
    signed.bundle.netuid = -1;
    expectCode(() => verifyBundle(signed, verifier), 'BUNDLE_INVALID_BUNDLE', 'signed.bundle.netuid');
  });

  it('the auditor recomputes identical bytes from the bundle alone; a changed result is detected', () => {
    const parsed = JSON.parse(JSON.stringify(bundle)) as Bundle;
    expect(recomputeBundle(parsed).identical).toBe(true);
    const altered = JSON.parse(JSON.stringify(bundle)) as { result: { u16: { weights: number[] } } };
    altered.result.u16.weights[0] = (altered.result.u16.weights[0] ?? 0) + 1;
    expect(recomputeBundle(altered as unknown as Bundle).identical).toBe(false);
  });
});
