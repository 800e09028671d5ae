import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import type { SignatureVerifier, SignedBundle } from '@subnet/bundle';
import { canonicalJson } from '@subnet/core';

import { auditCanonicalText } from '../canonical-text-audit.js';
import { auditBundle, auditFile, signatureVerifier } from '../index.js';
import type { BundleLimits } from '../bundle-limits.js';
import { DEFAULT_BUNDLE_LIMITS } from '../bundle-limits.js';
import * as jsonDiff from '../json-diff.js';
import { parseBundleText } from '../load-bundles.js';
import { auditReveal } from '../reveal-audit.js';
import { attestedText, committedBundleText, keys, resign, signedBundle } from './fixtures.js';
import type { Keys } from './fixtures.js';

// Issue 18 item 6: a bundle file as published is audited without parsing, proving or comparing its claimed
// result value by value; the verdict must be the one the whole document's audit gives, and anything else
// must go to that whole audit.
vi.mock('../json-diff.js', { spy: true });

let k: Keys;
let verify: SignatureVerifier;
let good: SignedBundle;
const dirs: string[] = [];
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

beforeAll(async () => {
  k = await keys();
  verify = await signatureVerifier();
  good = signedBundle(k, { miners: 6, epoch: 21 });
});

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** The whole document's audit, as auditFile gave it before (and still gives when the text is not as published). */
function wholeAudit(text: string, limits: BundleLimits = DEFAULT_BUNDLE_LIMITS) {
  const doc = parseBundleText('f.json', text, limits);
  if (!doc.ok) return doc.error;
  return auditReveal(doc.value, auditBundle(doc.value, 'f.json', verify, { text: doc.text, canonical: doc.canonical }).audit, verify);
}

async function file(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'canonical-text-audit-'));
  dirs.push(dir);
  const path = join(dir, 'f.json');
  await writeFile(path, text);
  return path;
}

describe('auditCanonicalText', () => {
  it('gives the whole audit of a bundle file as published, without a value-by-value diff', () => {
    const texts = [canonicalJson(good), committedBundleText(k, { miners: 5, epoch: 9 }).text];
    const close = committedBundleText(k, { miners: 4, epoch: 12 });
    const attested = attestedText(k, close);
    const at = attested.indexOf('"reveal_signature":"0x') + '"reveal_signature":"0x'.length;
    // A forged attestation signature: the reveal check fails, the bundle's own audit still applies.
    texts.push(attested, `${attested.slice(0, at)}${attested[at] === '0' ? '1' : '0'}${attested.slice(at + 1)}`);
    for (const text of texts) {
      vi.mocked(jsonDiff.diffJson).mockClear();
      const fast = auditCanonicalText(text, 'f.json', verify, DEFAULT_BUNDLE_LIMITS);
      expect(fast).toBeDefined();
      expect(jsonDiff.diffJson).not.toHaveBeenCalled();
      expect(fast).toEqual(wholeAudit(text));
    }
    expect(wholeAudit(texts[3] ?? '')).toMatchObject({ status: 'mismatch', reveal: { verified: false } });
  });

  it('leaves to the whole audit a result that differs by one value, and auditFile then names it', async () => {
    const tampered = copy(good) as unknown as { bundle: { result: { u16: { weights: number[] } } } };
    const weights = tampered.bundle.result.u16.weights;
    weights[0] = (weights[0] ?? 0) + 1;
    weights[1] = (weights[1] ?? 0) - 1;
    for (const doc of [tampered, resign(tampered, k.validator)]) {
      const text = canonicalJson(doc);
      expect(auditCanonicalText(text, 'f.json', verify, DEFAULT_BUNDLE_LIMITS)).toBeUndefined();
      const audit = await auditFile(await file(text), verify);
      expect(audit.status).toBe('mismatch');
      expect(audit.mismatches.some((m) => m.path === 'bundle.result.u16.weights[0]')).toBe(true);
      expect({ ...audit, source: 'f.json' }).toEqual(wholeAudit(text));
    }
  });

  it('leaves to the whole audit a text that is not canonical, or holds the stand-in it parses in the result’s place', async () => {
    const spaced = JSON.stringify(good, null, 1);
    const stray = `${canonicalJson(good).slice(0, -1)},"x":"\\u0000result\\u0000"}`;
    for (const text of [spaced, stray]) {
      expect(auditCanonicalText(text, 'f.json', verify, DEFAULT_BUNDLE_LIMITS)).toBeUndefined();
      expect({ ...(await auditFile(await file(text), verify)), source: 'f.json' }).toEqual(wholeAudit(text));
    }
    expect((await auditFile(await file(spaced), verify)).status).toBe('ok');
    // White space around the document is not part of it (the bundle's bytes are still canonical).
    const newline = `${canonicalJson(good)}\n`;
    expect(auditCanonicalText(newline, 'f.json', verify, DEFAULT_BUNDLE_LIMITS)).toEqual(wholeAudit(newline));
  });

  it('refuses a result over the limits exactly as the whole document is refused, though the rest fits', async () => {
    const text = canonicalJson(good);
    // The fixture's result nests 11 containers deep and holds a 12-key object; the rest, 7 and 10.
    for (const limits of [
      { ...DEFAULT_BUNDLE_LIMITS, maxDepth: 10 },
      { ...DEFAULT_BUNDLE_LIMITS, maxObjectKeys: 11 },
    ]) {
      expect(auditCanonicalText(text, 'f.json', verify, limits)).toBeUndefined();
      const audit = await auditFile(await file(text), verify, limits);
      expect(audit.status).toBe('invalid');
      expect(audit.error?.code).toMatch(/^CORE_INPUT_TOO_(DEEP|LARGE)$/);
      expect(audit.error).toEqual(wholeAudit(text, limits));
    }
    expect(auditCanonicalText(text, 'f.json', verify, { ...DEFAULT_BUNDLE_LIMITS, maxDepth: 11, maxObjectKeys: 12 })).toBeDefined();
  });
});
