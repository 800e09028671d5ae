import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { tempDir } from '@subnet/vitest-config/temp-dir';
import { describe, expect, it } from 'vitest';

import type { AuditReport } from '../index.js';
import { readPublishedBundles, runCli, signatureVerifier } from '../index.js';
import { captureIo } from './capture-io.js';

/**
 * A file of another kind given where a signed bundle belongs (a miner-check input, the files a user has beside the
 * bundles): the refusal leads with what the file looks like and which command and flag take it, then zod's words
 * and the field path as before. It read only `expected nonoptional, received undefined at signed.bundle`.
 */
const examples = fileURLToPath(new URL('../../../miner-check/examples', import.meta.url));
const run = join(examples, 'workflow', 'run.json');
const peers = join(examples, 'sssa', 'peers.json');

describe('a file of another kind given to verify, or in a folder of bundles', () => {
  it('verify: AUDITOR_INVALID_BUNDLE leads with what the file looks like and where it goes, the field path kept', async () => {
    const t = captureIo();
    expect(await runCli(['verify', run, peers, '--json'], t)).toBe(2);
    const report = JSON.parse(t.out()) as AuditReport;
    expect(report.bundles.map((b) => b.error)).toEqual([
      {
        code: 'AUDITOR_INVALID_BUNDLE',
        message:
          '[AUDITOR_INVALID_BUNDLE] this file looks like a workflow execution record (output_quality_score, actual_tao, actual_seconds): ' +
          'give it to miner-check workflow --run; invalid signed: Invalid input: expected nonoptional, received undefined at signed.bundle (got undefined)',
        path: 'signed.bundle',
      },
      expect.objectContaining({
        code: 'AUDITOR_INVALID_BUNDLE',
        message: expect.stringMatching(
          /^\[AUDITOR_INVALID_BUNDLE\] this file looks like a peers file \(a list of SSSA documents or group members\): give it to miner-check sssa --peers; invalid signed: .* at signed \(got /,
        ),
        path: 'signed',
      }),
    ]);
  });

  it('a folder read for explain sets the file aside with the same lead', async () => {
    const dir = tempDir('auditor-wrong-kind-');
    copyFileSync(run, join(dir, 'run.json'));
    const [read] = await readPublishedBundles(dir, { verify: await signatureVerifier() });
    expect(read?.problem?.message).toMatch(
      /^\[BUNDLE_INVALID_BUNDLE\] this file looks like a workflow execution record \(.*\): give it to miner-check workflow --run; invalid signed: .* at signed\.bundle/,
    );
  });
});
