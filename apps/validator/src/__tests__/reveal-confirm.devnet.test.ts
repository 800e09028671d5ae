import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Keyring } from '@polkadot/keyring';
import { signRevealAttestation } from '@subnet/bundle';
import { devHotkeyUri } from '@subnet/devnet';
import type { AuditReport, BundleAudit } from 'auditor-replay';
import { runCli } from 'auditor-replay';
import { describe, expect, it } from 'vitest';

import type { EpochOutcome } from '../epoch-runner.js';
import { startValidator } from '../service.js';
import { bountyBody, postExecutor, silent, tempDir, testConfig } from './helpers.js';
import { startCommitRevealDevnet, waitFor } from './commit-reveal-devnet.js';

interface ServedEpoch {
  readonly epoch: number;
  readonly status: string;
  readonly submission: { readonly call?: string } | null;
  readonly reveal: Record<string, unknown> | null;
}

const until = <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => waitFor(what, read, done, 90_000);

/** Runs the auditor CLI; returns the exit code, the text report and, with `--json`, the report. */
async function audit(args: readonly string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runCli([...args], { stdout: { write: (s: string) => (out += s) }, stderr: { isTTY: false, write: () => true } });
  return { code, out };
}

describe.each(['stateful', 'legacy'] as const)(
  'timelocked reveal confirmation on a real devnet (commit-reveal v4, its own drand beacon, %s runtime)',
  (runtime) => {
    it('a dropped commit (version key raised before the reveal) is recorded not_revealed, the next one revealed; both counted, both bundles embargoed until then, then served with the signed outcome, which the auditor checks against the chain', async () => {
      const devnet = await startCommitRevealDevnet({ runtime, beacon: { period: 12 } });
      const t = tempDir();
      const outcomes: EpochOutcome[] = [];
      const config = testConfig(t.dir, {
        validator: { hotkey_uri: devHotkeyUri(devnet.options.seed, 0) },
        chain: { endpoint: devnet.url, epoch_length: 40, poll_ms: 100 },
      });
      const service = await startValidator({ config, logger: silent });
      let raised = false;
      const raise = (): void => {
        raised = true;
        devnet.setHyperparameter('weightsVersionKey', 7n);
      };
      // The first commit is signed with the version key of its block; raised as soon as that commit waits in the pool
      // (long before its reveal epoch), the chain drops it at the reveal. Watching the pool rather than the
      // validator's outcome keeps the window wide on a loaded machine; the outcome below is the fallback.
      const poolWatch = setInterval(() => {
        if (!raised && devnet.poolSize() > 0) raise();
      }, 2);
      // Right after each commit lands (seconds before the chain's reveal): what the bundle route answers.
      const early: Promise<{ epoch: number; status: number; retryAfter: string | null; body: unknown }>[] = [];
      service.onEpoch((o) => {
        outcomes.push(o);
        if (o.status === 'submitted') {
          const answer = fetch(`${service.url}/v1/epochs/${o.epoch}/bundle`).then(async (r) => ({
            epoch: o.epoch,
            status: r.status,
            retryAfter: r.headers.get('retry-after'),
            body: await r.json(),
          }));
          // An epoch closed while the service stops has its request refused: only the answers read below
          // matter, and they still reject there; a later one must not end the run as an unhandled rejection.
          answer.catch(() => undefined);
          early.push(answer);
        }
        // Right after the first commit landed, long before its reveal epoch: the chain will drop it.
        if (o.status === 'submitted' && !raised) raise();
      });
      const epochs = async (): Promise<ServedEpoch[]> => ((await (await fetch(`${service.url}/v1/epochs`)).json()) as { epochs: ServedEpoch[] }).epochs;
      try {
        await until(
          'readiness',
          async () => (await fetch(`${service.url}/readyz`)).status,
          (s) => s === 200,
        );
        const miner = devnet.accounts[3]?.hotkey.address ?? '';
        expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('tl-1', miner))).status).toBe(201);
        const first = await until(
          'the first commit',
          () => Promise.resolve(outcomes.find((o) => o.status === 'submitted')),
          (o) => o !== undefined,
        );
        expect(first?.submission?.call).toMatch(/^SubtensorModule\.commit_timelocked_(mechanism_)?weights$/);
        expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('tl-2', miner))).status).toBe(201);
        const second = await until(
          'the second commit',
          () => Promise.resolve(outcomes.find((o) => o.status === 'submitted' && o.epoch > (first?.epoch ?? 0))),
          (o) => o !== undefined,
        );
        const outcomeOf = (list: ServedEpoch[], epoch: number | undefined) => list.find((e) => e.epoch === epoch)?.reveal ?? null;
        const served = await until(
          'both reveal outcomes',
          epochs,
          (list) => outcomeOf(list, first?.epoch)?.['status'] !== 'pending' && outcomeOf(list, second?.epoch)?.['status'] !== 'pending',
        );
        expect(outcomeOf(served, first?.epoch)).toMatchObject({ status: 'not_revealed', code: 'CHAIN_TIMELOCK_REVEAL_MISSING', reason: 'version_key_raised' });
        expect(outcomeOf(served, second?.epoch)).toMatchObject({ status: 'revealed', block: expect.stringMatching(/^\d+$/) });
        const metrics = await (await fetch(`${service.url}/metrics`)).text();
        expect(metrics).toMatch(/validator_reveal_confirmations_total\{outcome="not_revealed",reason="version_key_raised"\} 1/);
        expect(metrics).toMatch(/validator_reveal_confirmations_total\{outcome="revealed",reason=""\} [1-9]/);
        expect(devnet.timelockDrops().map((d) => d.detail)).toEqual(['IncorrectWeightVersionKey']);
        // The embargo: both bundles were withheld (425, the reveal block of their commit) until the reveal's
        // outcome, dropped or revealed, was recorded; then served byte for byte as signed at the close.
        const before = await Promise.all(early);
        for (const e of [first, second]) {
          const answer = before.find((b) => b.epoch === e?.epoch);
          expect(answer).toMatchObject({
            status: 425,
            retryAfter: expect.stringMatching(/^\d+$/),
            body: { error: { code: 'BUNDLE_EMBARGOED', epoch: e?.epoch } },
          });
          const pendingReveal = outcomeOf(served, e?.epoch);
          expect((answer?.body as { error: { reveal_block: string } }).error.reveal_block).toBe(pendingReveal?.['due_block']);
          const after = await fetch(`${service.url}/v1/epochs/${e?.epoch}/bundle`);
          expect(after.status).toBe(200);
          // The close did not write the file (embargoed); the confirmation wrote it when the embargo lifted.
          expect(e?.bundlePath).toBeNull();
          expect(`${await after.text()}\n`).toBe(readFileSync(join(config.bundles.dir, `epoch-${e?.epoch}.json`), 'utf8'));
        }

        // Served with the signed outcome; the auditor follows each commit to its reveal on chain (--chain) and checks
        // the attestation against it: the drop at the block the commit left its queue, the reveal with Weights there.
        const files = [first, second].map((e) => join(config.bundles.dir, `epoch-${e?.epoch}.json`));
        const chainArgs = ['--chain', devnet.url, '--netuid', '1'];
        const checked = await audit(['verify', ...files, ...chainArgs, '--json']);
        const report = JSON.parse(checked.out) as AuditReport;
        expect(checked.code).toBe(0);
        const [dropped, revealed] = report.bundles as [BundleAudit, BundleAudit];
        expect(dropped).toMatchObject({
          status: 'ok',
          checks: { digest: true, signature: true, recompute: true, chain: true },
          reveal: {
            verified: true,
            attestation: { status: 'not_revealed', code: 'CHAIN_TIMELOCK_REVEAL_MISSING', reason: 'version_key_raised' },
            chain: { outcome: 'dropped' },
          },
        });
        expect(dropped.reveal?.chain?.block).toBe(outcomeOf(served, first?.epoch)?.['block']);
        expect(revealed).toMatchObject({
          status: 'ok',
          checks: { digest: true, signature: true, recompute: true, chain: true },
          reveal: { verified: true, attestation: { status: 'revealed' }, chain: { outcome: 'revealed' } },
        });
        expect(revealed.reveal?.chain?.block).toBe(outcomeOf(served, second?.epoch)?.['block']);
        expect(revealed.reveal?.chain?.blockHash).toBe(outcomeOf(served, second?.epoch)?.['block_hash']);
        expect(revealed.mismatches).toEqual([]);
        const text = await audit(['verify', ...files, ...chainArgs]);
        expect(text.out).toMatch(
          new RegExp(
            `revealed in block ${String(revealed.reveal?.chain?.block)} \\(attested by the validator\\); chain: revealed in block ${String(revealed.reveal?.chain?.block)}`,
          ),
        );
        expect(text.out).toMatch(/\[CHAIN_TIMELOCK_REVEAL_MISSING\] version_key_raised \(attested by the validator\); chain: dropped at block \d+/);

        // Attestations that lie, signed with the validator's own key: the chain catches them.
        const key = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri(devHotkeyUri(devnet.options.seed, 0));
        const liars = join(t.dir, 'liars');
        mkdirSync(liars, { recursive: true });
        const lie = (file: string, name: string, change: Record<string, unknown>): string => {
          const doc = JSON.parse(readFileSync(file, 'utf8')) as { reveal: Record<string, unknown>; reveal_signature: string };
          const signed = signRevealAttestation({ ...doc.reveal, ...change }, key);
          const out = join(liars, name);
          writeFileSync(out, JSON.stringify({ ...doc, reveal: signed.reveal, reveal_signature: signed.signature }));
          return out;
        };
        const later = lie(files[1] ?? '', 'later.json', { reveal_block: String(BigInt(String(revealed.reveal?.chain?.block)) + 1n) });
        const claimed = lie(files[0] ?? '', 'claimed.json', {
          status: 'revealed',
          code: null,
          reason: null,
          reasons: [],
          reveal_block_hash: `0x${'11'.repeat(32)}`,
        });
        // Without the chain both verify (the validator signed them); with it, both are mismatches.
        expect((await audit(['verify', later, claimed])).code).toBe(0);
        const caught = await audit(['verify', later, claimed, ...chainArgs, '--json']);
        expect(caught.code).toBe(1);
        const [l, c] = (JSON.parse(caught.out) as AuditReport).bundles as [BundleAudit, BundleAudit];
        expect(l).toMatchObject({ status: 'mismatch', checks: { chain: false } });
        expect(l.mismatches).toEqual([expect.objectContaining({ stage: 'chain.reveal', field: 'reveal_block', expected: revealed.reveal?.chain?.block })]);
        expect(c).toMatchObject({ status: 'mismatch', checks: { chain: false } });
        expect(c.mismatches).toContainEqual(expect.objectContaining({ stage: 'chain.reveal', field: 'status', expected: 'dropped', claimed: 'revealed' }));
      } finally {
        clearInterval(poolWatch);
        await service.stop();
        await devnet.stop();
        t.cleanup();
      }
    }, 180_000);
  },
);
