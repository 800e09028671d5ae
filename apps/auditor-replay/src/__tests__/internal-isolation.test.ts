import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { tempDir } from '@subnet/vitest-config/temp-dir';
import { beforeAll, describe, expect, it, vi } from 'vitest';

import type { SignatureVerifier } from '@subnet/bundle';

import { signatureVerifier, verifyBundles } from '../index.js';
import * as jsonDiff from '../json-diff.js';
import { keys, resign, signedBundle } from './fixtures.js';

// A defect of the auditor that one bundle's content reaches (a signed key named `toString` was one, json-diff.ts) is
// that bundle's problem: the run used to stop at it, with no report and no verdict for any other bundle.
vi.mock('../json-diff.js', { spy: true });

let verify: SignatureVerifier;
let dir: string;
beforeAll(async () => {
  dir = tempDir('auditor-internal-', 'file');
  const k = await keys();
  verify = await signatureVerifier();
  const good = signedBundle(k, { miners: 4, epoch: 7 });
  const tampered = JSON.parse(JSON.stringify(signedBundle(k, { miners: 4, epoch: 8 }))) as { bundle: { result: { u16: { weights: number[] } } } };
  const weights = tampered.bundle.result.u16.weights;
  weights[0] = (weights[0] ?? 0) + 1;
  weights[1] = (weights[1] ?? 0) - 1;
  writeFileSync(join(dir, 'a-tampered.json'), JSON.stringify(resign(tampered, k.validator)));
  writeFileSync(join(dir, 'b-good.json'), JSON.stringify(good));
});

describe('an unexpected failure while auditing one bundle', () => {
  it('is that bundle invalid with AUDITOR_INTERNAL and the failure, the other bundles audited, exit 2', async () => {
    // The tampered bundle's diff (it runs only when something differs) fails as a defect would.
    vi.mocked(jsonDiff.diffJson).mockImplementationOnce(() => {
      throw new TypeError('Cannot read properties of undefined (reading "x")');
    });
    const report = await verifyBundles([dir], { verify });
    expect(report.bundles.map((b) => [b.source.slice(dir.length + 1), b.status, b.error?.code ?? null])).toEqual([
      ['a-tampered.json', 'invalid', 'AUDITOR_INTERNAL'],
      ['b-good.json', 'ok', null],
    ]);
    expect(report.bundles[0]?.error?.message).toBe(
      '[AUDITOR_INTERNAL] an unexpected failure while auditing this bundle (a defect of the auditor; please report it with the file): Cannot read properties of undefined (reading "x")',
    );
    expect(report.exit_code).toBe(2);
  });
});
