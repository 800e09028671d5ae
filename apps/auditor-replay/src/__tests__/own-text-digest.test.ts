import { beforeAll, describe, expect, it, vi } from 'vitest';

import type { SignatureVerifier, SignedBundle } from '@subnet/bundle';
import * as core from '@subnet/core';

import { auditBundle, signatureVerifier } from '../index.js';
import { keys, signedBundle } from './fixtures.js';
import type { Keys } from './fixtures.js';

// Issue 18 item 6: the digest of a bundle read from a file is taken over the bundle's own bytes when they
// are its canonical JSON; the verdict must be the one the canonical serialisation gives, for any text.
vi.mock('@subnet/core', { spy: true });

let k: Keys;
let verify: SignatureVerifier;
let good: SignedBundle;

beforeAll(async () => {
  k = await keys();
  verify = await signatureVerifier();
  good = signedBundle(k, { miners: 6, epoch: 33 });
});

/** The audit of a text with and without the text given, which must be equal. */
function bothWays(text: string) {
  const withText = auditBundle(JSON.parse(text), 'x.json', verify, { text }).audit;
  const without = auditBundle(JSON.parse(text), 'x.json', verify).audit;
  expect(withText).toEqual(without);
  return withText;
}

describe('the digest over the file text', () => {
  it('hashes the published bytes without writing canonical JSON again, with the same verdict', () => {
    const text = core.canonicalJson(good); // what the validator publishes
    vi.mocked(core.isCanonicalJsonOf).mockClear();
    const audit = bothWays(text);
    expect(audit.status).toBe('ok');
    expect(audit.checks.digest).toBe(true);
    expect(vi.mocked(core.isCanonicalJsonOf).mock.results.some((r) => r.value === true)).toBe(true);
    expect(bothWays(`${text}\n`).checks.digest).toBe(true);
  });

  it('gives the canonical verdict for pretty-printed, reordered, tampered and duplicate-key texts', () => {
    const canonical = core.canonicalJson(good.bundle);
    const tail = `,"digest":"${good.digest}","signature":"${good.signature}"}`;
    expect(bothWays(JSON.stringify(good, null, 2)).checks.digest).toBe(true);
    // The bundle's keys in reverse order: not canonical bytes, the same canonical JSON.
    const reversed = Object.fromEntries(Object.entries(good.bundle).reverse());
    expect(bothWays(`{"bundle":${JSON.stringify(reversed)}${tail}`).checks.digest).toBe(true);
    // One value changed, the original digest kept.
    const tampered = canonical.replace('"epoch":33', '"epoch":34');
    expect(tampered).not.toBe(canonical);
    expect(bothWays(`{"bundle":${tampered}${tail}`).checks.digest).toBe(false);
    // A second "bundle" key: JSON.parse keeps the last, and the bytes between the frame are not its JSON.
    expect(bothWays(`{"bundle":${canonical},"bundle":${tampered}${tail}`).checks.digest).toBe(false);
  });
});
