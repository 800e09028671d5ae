import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import type { SignatureVerifier, SignedBundle } from '@subnet/bundle';
import { buildBundle, signBundle } from '@subnet/bundle';
import { canonicalJson } from '@subnet/core';

import { readBundleBytes } from '../bundle-bytes.js';
import { auditCanonicalBytes, auditCanonicalText } from '../canonical-text-audit.js';
import { auditBundle, auditFile, signatureVerifier } from '../index.js';
import type { BundleLimits } from '../bundle-limits.js';
import { BUNDLE_LIMIT_OPTIONS, DEFAULT_BUNDLE_LIMITS } from '../bundle-limits.js';
import * as jsonDiff from '../json-diff.js';
import * as loadBundles from '../load-bundles.js';
import { parseBundleText } from '../load-bundles.js';
import { auditReveal } from '../reveal-audit.js';
import { attestedText, committedBundleText, dryRun, epochInput, keys, resign, signedBundle } from './fixtures.js';
import type { Keys } from './fixtures.js';

// Issue 18 item 6: a bundle file as published is audited without parsing, proving or comparing its claimed
// result value by value; the verdict must be the one the whole document's audit gives, and anything else
// must go to that whole audit.
vi.mock('../json-diff.js', { spy: true });
vi.mock('../load-bundles.js', { spy: true });

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
  // As auditFile parses a file: a refusal for a limit names verify's option for it.
  const doc = parseBundleText('f.json', text, limits, BUNDLE_LIMIT_OPTIONS);
  if (!doc.ok) return doc.error;
  return auditReveal(doc.value, auditBundle(doc.value, 'f.json', verify, { text: doc.text, canonical: doc.canonical }).audit, verify);
}

async function file(text: string | Uint8Array): Promise<string> {
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

  it('declines a text with a raw lone surrogate, which has no UTF-8 form and is not canonical JSON', () => {
    const text = canonicalJson(good);
    const at = text.indexOf('"validator_hotkey":"') + '"validator_hotkey":"'.length;
    const lone = `${text.slice(0, at)}\ud800${text.slice(at)}`;
    expect(auditCanonicalText(text, 'f.json', verify, DEFAULT_BUNDLE_LIMITS)).toBeDefined();
    expect(auditCanonicalText(lone, 'f.json', verify, DEFAULT_BUNDLE_LIMITS)).toBeUndefined();
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

  it('leaves to the whole audit a document whose "result" and "schema_version" sit elsewhere than in a bundle object (bundle null, a string)', async () => {
    for (const bundle of ['null', '"b"']) {
      const text = `{"bundle":${bundle},"x":{"a":1,"result":{"k":1},"schema_version":1}}`;
      expect(auditCanonicalText(text, 'f.json', verify, DEFAULT_BUNDLE_LIMITS)).toBeUndefined();
      const audit = await auditFile(await file(text), verify);
      expect(audit).toMatchObject({ status: 'invalid', error: { code: 'AUDITOR_INVALID_BUNDLE' } });
      expect({ ...audit, source: 'f.json' }).toEqual(wholeAudit(text));
    }
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

/** A signed bundle whose task ids are `rename(id)`: they reach the result (the explanation of failed tasks). */
function renamedTasks(rename: (id: string) => string, epoch: number): string {
  const input = epochInput(k, { miners: 5, epoch });
  const inputs = {
    ...input.inputs,
    term_results: input.inputs.term_results.map((r) => ({ ...r, results: r.results.map((t) => ({ ...t, task_id: rename(t.task_id) })) })),
  };
  return canonicalJson(signBundle(buildBundle({ ...input, inputs, submission: dryRun }), k.validator));
}

describe('auditFile on the file’s bytes', () => {
  it('gives the whole audit of published files, ASCII or not, framed by white space or not, all on their bytes', async () => {
    const close = committedBundleText(k, { miners: 4, epoch: 12 });
    const wide = renamedTasks((id) => `tâche-${id}-\u{1F600}`, 31);
    expect(wide).toContain('tâche-');
    const texts = [canonicalJson(good), ` \n${canonicalJson(good)}\r\n\t`, attestedText(k, close), wide];
    for (const text of texts) {
      vi.mocked(jsonDiff.diffJson).mockClear();
      vi.mocked(loadBundles.parseBundleText).mockClear();
      const audit = await auditFile(await file(text), verify);
      expect(audit.status).toBe('ok');
      expect(jsonDiff.diffJson).not.toHaveBeenCalled();
      // Audited on the bytes: the whole file was never parsed.
      expect(loadBundles.parseBundleText).not.toHaveBeenCalled();
      expect({ ...audit, source: 'f.json' }).toEqual(wholeAudit(text));
    }
    // Multi-byte characters in the rest and in the result: the digest is taken over the file's own bytes.
    expect(auditCanonicalBytes(Buffer.from(wide, 'utf8'), 'f.json', verify, DEFAULT_BUNDLE_LIMITS)).toEqual(wholeAudit(wide));
  });

  it('reads a file once even when its bytes leave it to the whole audit', async () => {
    const tampered = copy(good) as unknown as { bundle: { epoch: number } };
    tampered.bundle.epoch += 1;
    const path = await file(canonicalJson(tampered));
    vi.mocked(loadBundles.readBundleText).mockClear();
    const audit = await auditFile(path, verify);
    expect(audit.status).toBe('mismatch');
    expect(loadBundles.readBundleText).not.toHaveBeenCalled();
    expect({ ...audit, source: 'f.json' }).toEqual(wholeAudit(canonicalJson(tampered)));
  });

  it('gives the whole audit’s verdict to a result with a lone surrogate, and to a file that is not UTF-8', async () => {
    // Canonical JSON writes a lone surrogate as ASCII (`\\udc00`), but the shape check refuses it.
    const lone = `${canonicalJson(good).slice(0, -1)},"zz":"\\udc00"}`;
    const audit = await auditFile(await file(lone), verify);
    expect(audit).toMatchObject({ status: 'invalid', error: { code: 'CORE_INPUT_NOT_JSON' } });
    expect(audit.error).toEqual(wholeAudit(lone)); // the whole audit's refusal, path and message
    // A byte 0xff in a task id: read as U+FFFD, as readFile reads it, so the bytes no longer hash to the digest.
    const bytes = Buffer.from(canonicalJson(good), 'latin1');
    bytes[bytes.indexOf('task-0') + 4] = 0xff;
    expect(auditCanonicalBytes(bytes, 'f.json', verify, DEFAULT_BUNDLE_LIMITS)).toBeUndefined();
    // A byte-order mark is kept in the text, as readFile keeps it, and JSON does not allow it.
    const marked = `\ufeff${canonicalJson(good)}`;
    expect(auditCanonicalText(marked, 'f.json', verify, DEFAULT_BUNDLE_LIMITS)).toBeUndefined();
    const markedFile = await file(marked);
    const withMark = await auditFile(markedFile, verify);
    expect(withMark).toMatchObject({ status: 'invalid', error: { code: 'AUDITOR_MALFORMED_JSON' } });
    expect(parseBundleText(markedFile, marked, DEFAULT_BUNDLE_LIMITS)).toEqual({ source: markedFile, ok: false, error: withMark.error });
    const broken = await auditFile(await file(bytes), verify);
    expect(broken.status).toBe('mismatch');
    expect({ ...broken, source: 'f.json' }).toEqual(wholeAudit(bytes.toString('utf8')));
  });

  it('reads a file whole into one reused array, and leaves a missing, unreadable or oversized file to the reader that says why', async () => {
    const big = ` ${'x'.repeat(3 << 20)} `;
    const small = 'short';
    for (const text of [small, big, small]) expect(readBundleBytes(await file(text), DEFAULT_BUNDLE_LIMITS)?.toString('latin1')).toBe(text);
    expect(readBundleBytes(await file(small), { ...DEFAULT_BUNDLE_LIMITS, maxBytes: 4 })).toBeUndefined();
    const path = await file(small);
    expect(readBundleBytes(`${path}.missing`, DEFAULT_BUNDLE_LIMITS)).toBeUndefined();
    expect(readBundleBytes(join(path, '..'), DEFAULT_BUNDLE_LIMITS)).toBeUndefined();
    expect(await auditFile(`${path}.missing`, verify)).toMatchObject({ status: 'invalid', error: { code: 'AUDITOR_UNREADABLE' } });
    expect(await auditFile(path, verify, { ...DEFAULT_BUNDLE_LIMITS, maxBytes: 4 })).toMatchObject({
      status: 'invalid',
      error: { code: 'CORE_INPUT_TOO_LARGE' },
    });
  });
});
