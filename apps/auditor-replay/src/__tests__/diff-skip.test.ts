import { beforeAll, describe, expect, it, vi } from 'vitest';

import type { SignatureVerifier, SignedBundle } from '@subnet/bundle';

import { auditBundle, signatureVerifier } from '../index.js';
import * as jsonDiff from '../json-diff.js';
import { keys, resign, signedBundle } from './fixtures.js';
import type { Keys } from './fixtures.js';

// Issue 18 item 6: an intact, signed bundle whose recomputation has the claimed result's canonical bytes
// needs no value-by-value diff; any other bundle still gets one, naming every difference.
vi.mock('../json-diff.js', { spy: true });

let k: Keys;
let verify: SignatureVerifier;
let good: SignedBundle;
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

beforeAll(async () => {
  k = await keys();
  verify = await signatureVerifier();
  good = signedBundle(k, { miners: 6, epoch: 21 });
});

describe('the value-by-value diff runs only when something may differ', () => {
  it('does not run for an honest bundle (digest, signature and recomputed bytes all match)', () => {
    vi.mocked(jsonDiff.diffJson).mockClear();
    const { audit } = auditBundle(copy(good), 'good.json', verify);
    expect(audit.status).toBe('ok');
    expect(audit.checks.recompute).toBe(true);
    expect(jsonDiff.diffJson).not.toHaveBeenCalled();
  });

  it('runs, and names the changed value, for a tampered result re-signed by the validator', () => {
    const tampered = copy(good) as unknown as { bundle: { result: { u16: { weights: number[] } } } };
    const weights = tampered.bundle.result.u16.weights;
    weights[0] = (weights[0] ?? 0) + 1;
    weights[1] = (weights[1] ?? 0) - 1;
    vi.mocked(jsonDiff.diffJson).mockClear();
    const { audit } = auditBundle(resign(tampered, k.validator), 'tampered.json', verify);
    expect(jsonDiff.diffJson).toHaveBeenCalledTimes(1);
    expect(audit.checks).toMatchObject({ digest: true, signature: true, recompute: false });
    expect(audit.mismatches.some((m) => m.path === 'bundle.result.u16.weights[0]')).toBe(true);
  });

  it('runs when the signature does not verify, even if the result is honest', () => {
    vi.mocked(jsonDiff.diffJson).mockClear();
    const { audit } = auditBundle(resign(copy(good), k.stranger), 'forged.json', verify);
    expect(jsonDiff.diffJson).toHaveBeenCalledTimes(1);
    expect(audit.checks).toMatchObject({ digest: true, signature: false, recompute: true });
  });
});
