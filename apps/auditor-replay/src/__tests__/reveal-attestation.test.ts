import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { revealSigningMessage, signRevealAttestation, withRevealAttestation } from '@subnet/bundle';
import type { RevealAttestation, SignedBundleText } from '@subnet/bundle';
import { tempDir } from '@subnet/vitest-config/temp-dir';
import * as core from '@subnet/core';
import { beforeAll, describe, expect, it, vi } from 'vitest';

import type { AuditReport, BundleAudit, FollowedCommit } from '../index.js';
import { auditBundle, judgeReveal, runCli, signatureVerifier } from '../index.js';
import { committedBundleText, committedSubmission, keys, revealAttestation } from './fixtures.js';
import type { Keys } from './fixtures.js';
import { captureIo } from './capture-io.js';

// Spies that keep core's behaviour: one test checks which path the digest took.
vi.mock('@subnet/core', { spy: true });

let k: Keys;
let close: SignedBundleText;
beforeAll(async () => {
  k = await keys();
  close = committedBundleText(k, { miners: 4, epoch: 7 });
});

function attestation(over: Record<string, unknown> = {}): Record<string, unknown> {
  return revealAttestation(close, over);
}

/** Writes a served document and verifies it with the CLI; returns the exit code, the text report and the JSON report. */
async function verifyServed(text: string): Promise<{ code: number; text: string; report: AuditReport }> {
  const file = join(tempDir('auditor-reveal-'), 'epoch-7.json');
  writeFileSync(file, `${text}\n`);
  const plain = captureIo();
  const code = await runCli(['verify', file], plain);
  const json = captureIo();
  await runCli(['verify', file, '--json'], json);
  return { code, text: plain.out(), report: JSON.parse(json.out()) as AuditReport };
}

describe('the reveal attestation of a commit-reveal v4 bundle (docs/spec.md G.6)', () => {
  it('verifies a signed attestation and prints the outcome: revealed in block N', async () => {
    const served = withRevealAttestation(close.text, signRevealAttestation(attestation(), k.validator));
    const { code, text, report } = await verifyServed(served);
    expect(code).toBe(0);
    expect(report.bundles[0]?.reveal).toMatchObject({ verified: true, error: null, attestation: { status: 'revealed', reveal_block: '131' } });
    expect(text).toContain('REVEAL epoch 7');
    expect(text).toMatch(/epoch-7\.json: revealed in block 131 \(attested by the validator\)/);
  });

  it('prints a reveal whose uid a registration took in the reveal block as revealed, then removed, with the reason', async () => {
    const replaced = attestation({ reason: 'uid_replaced' });
    const { code, text, report } = await verifyServed(withRevealAttestation(close.text, signRevealAttestation(replaced, k.validator)));
    expect(code).toBe(0);
    expect(report.bundles[0]?.reveal).toMatchObject({ verified: true, error: null, attestation: { status: 'revealed', reason: 'uid_replaced' } });
    expect(text).toContain(
      "epoch-7.json: revealed in block 131, then removed there with the validator's uid, which a registration took (uid_replaced) (attested by the validator)",
    );
  });

  it('prints a diagnosed drop with its code and reason', async () => {
    const dropped = attestation({
      status: 'not_revealed',
      code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
      reason: 'version_key_raised',
      reasons: ['version_key_raised'],
      reveal_block_hash: null,
    });
    const { code, text } = await verifyServed(withRevealAttestation(close.text, signRevealAttestation(dropped, k.validator)));
    expect(code).toBe(0);
    expect(text).toMatch(/not revealed: the chain dropped the commit at block 131 \[CHAIN_TIMELOCK_REVEAL_MISSING\] version_key_raised/);
  });

  it('prints a commit-reveal v2 commit the validator let expire as not revealed by the validator, not dropped by the chain (G.22)', async () => {
    const expired = attestation({
      status: 'not_revealed',
      code: 'CHAIN_REVEAL_WINDOW_MISSED',
      reason: 'expired',
      reasons: ['expired'],
      reveal_round: null,
      reveal_block: null,
      reveal_block_hash: null,
    });
    const { code, text } = await verifyServed(withRevealAttestation(close.text, signRevealAttestation(expired, k.validator)));
    expect(code).toBe(0);
    expect(text).toMatch(
      /epoch-7\.json: not revealed: the validator did not reveal its commit before the window ended \[CHAIN_REVEAL_WINDOW_MISSED\] expired \(attested by the validator\)/,
    );
  });

  it('rejects a tampered attestation (BUNDLE_REVEAL_BAD_SIGNATURE, exit 1)', async () => {
    const doc = JSON.parse(withRevealAttestation(close.text, signRevealAttestation(attestation(), k.validator))) as { reveal: Record<string, unknown> };
    doc.reveal['reveal_block'] = '140';
    const { code, text, report } = await verifyServed(JSON.stringify(doc));
    expect(code).toBe(1);
    const a = report.bundles[0] as BundleAudit;
    expect(a.status).toBe('mismatch');
    expect(a.reveal).toMatchObject({ verified: false, error: { code: 'BUNDLE_REVEAL_BAD_SIGNATURE', path: 'reveal_signature' } });
    expect(a.mismatches).toEqual([expect.objectContaining({ stage: 'reveal', field: 'BUNDLE_REVEAL_BAD_SIGNATURE' })]);
    expect(text).toContain('attestation refused [BUNDLE_REVEAL_BAD_SIGNATURE]');
  });

  it("rejects an attestation signed by another key than the bundle's (BUNDLE_REVEAL_BAD_SIGNATURE)", async () => {
    const reveal = attestation() as unknown as RevealAttestation;
    const signature = `0x${Buffer.from(k.stranger.sign(revealSigningMessage(reveal))).toString('hex')}`;
    const { code, report } = await verifyServed(withRevealAttestation(close.text, { reveal, signature }));
    expect(code).toBe(1);
    expect(report.bundles[0]?.reveal?.error?.code).toBe('BUNDLE_REVEAL_BAD_SIGNATURE');
  });

  it('rejects an attestation of another bundle moved onto this one (BUNDLE_REVEAL_DIGEST_MISMATCH)', async () => {
    const other = signRevealAttestation(attestation({ bundle_digest: 'f'.repeat(64) }), k.validator);
    const doc = { ...(JSON.parse(close.text) as object), reveal: other.reveal, reveal_signature: other.signature };
    const { code, report } = await verifyServed(JSON.stringify(doc));
    expect(code).toBe(1);
    expect(report.bundles[0]?.reveal?.error).toMatchObject({ code: 'BUNDLE_REVEAL_DIGEST_MISMATCH', path: 'reveal.bundle_digest' });
  });

  it('refuses a malformed attestation as invalid input (BUNDLE_REVEAL_INVALID, exit 2)', async () => {
    const doc = { ...(JSON.parse(close.text) as object), reveal: { ...attestation(), status: 'maybe' }, reveal_signature: `0x${'00'.repeat(64)}` };
    const { code, report } = await verifyServed(JSON.stringify(doc));
    expect(code).toBe(2);
    expect(report.bundles[0]).toMatchObject({ status: 'invalid', error: { code: 'BUNDLE_REVEAL_INVALID', path: 'reveal.status' } });
  });

  it('half an attestation (the attestation without its signature, or a signature alone) is malformed: BUNDLE_REVEAL_INVALID, exit 2', async () => {
    const signed = signRevealAttestation(attestation(), k.validator);
    for (const half of [{ reveal: signed.reveal }, { reveal_signature: signed.signature }]) {
      const { code, report } = await verifyServed(JSON.stringify({ ...(JSON.parse(close.text) as object), ...half }));
      expect(code).toBe(2);
      expect(report.bundles[0]).toMatchObject({ status: 'invalid', error: { code: 'BUNDLE_REVEAL_INVALID' }, reveal: { verified: false } });
    }
    // A refused attestation is reported as carried, whatever it is (0 here), not as absent.
    const { code, report } = await verifyServed(JSON.stringify({ ...(JSON.parse(close.text) as object), reveal: 0, reveal_signature: signed.signature }));
    expect(code).toBe(2);
    expect(report.bundles[0]?.reveal).toMatchObject({ verified: false, attestation: 0, error: { code: 'BUNDLE_REVEAL_INVALID' } });
  });

  it('a bundle without an attestation has no reveal line, as before', async () => {
    const { code, text, report } = await verifyServed(close.text);
    expect(code).toBe(0);
    expect(report.bundles[0]?.reveal).toBeUndefined();
    expect(text).not.toContain('REVEAL');
  });
});

describe('judgeReveal: a committed bundle against what the chain shows', () => {
  const audit = (reveal?: Record<string, unknown>): BundleAudit =>
    ({
      source: 'epoch-7.json',
      status: 'ok',
      epoch: 7,
      netuid: 1,
      validator_hotkey: 'V',
      checks: { schema: true, digest: true, signature: true, recompute: true, chain: null },
      mismatches: [],
      root_cause: null,
      digest: 'd',
      error: null,
      weights: [
        { uid: 1, hotkey: 'a', weight: 30000 },
        { uid: 2, hotkey: 'b', weight: 35535 },
      ],
      submission_block: '120',
      submission: { status: 'submitted', code: null, call: committedSubmission.call },
      ...(reveal === undefined ? {} : { reveal: { verified: true, attestation: reveal, error: null, chain: null } }),
    }) as BundleAudit;
  const commit = { netuidIndex: 1, commitHash: `0x${'ee'.repeat(32)}`, revealRound: '4242' };
  // The chain max-upscales: 35535 -> 65535, 30000 -> floor(30000 x 65535 / 35535) = 55327.
  const revealedAt = (block: string, pairs: (readonly [number, number])[]): FollowedCommit => ({
    commit,
    reveal: { outcome: 'revealed', block, blockHash: `0x${'cd'.repeat(32)}`, head: '133' },
    weights: { block, validatorUid: 0, pairs },
  });
  const honest: (readonly [number, number])[] = [
    [1, 55327],
    [2, 65535],
  ];

  it("compares Weights at the reveal block with the bundle's vector, and the attestation with the chain's reveal", () => {
    const ok = judgeReveal(audit(attestation()), 1, revealedAt('131', honest));
    expect(ok).toMatchObject({ status: 'ok', checks: { chain: true }, reveal: { chain: { outcome: 'revealed', block: '131' } } });
    const other = judgeReveal(audit(attestation()), 1, revealedAt('131', [[1, 65535]]));
    expect(other.status).toBe('mismatch');
    expect(other.mismatches.map((m) => m.stage)).toEqual(['chain.weights', 'chain.weights']);
  });

  it('catches an attestation that lies about the reveal: another block, or a drop the chain did not make', () => {
    const block = judgeReveal(audit(attestation({ reveal_block: '132' })), 1, revealedAt('131', honest));
    expect(block.checks.chain).toBe(false);
    expect(block.mismatches).toEqual([expect.objectContaining({ stage: 'chain.reveal', field: 'reveal_block', expected: '131', claimed: '132' })]);
    const drop = judgeReveal(
      audit(attestation({ status: 'not_revealed', code: 'CHAIN_TIMELOCK_REVEAL_MISSING', reason: 'stake_lost', reveal_block_hash: null })),
      1,
      revealedAt('131', honest),
    );
    expect(drop.mismatches).toEqual([expect.objectContaining({ stage: 'chain.reveal', field: 'status', expected: 'revealed', claimed: 'not_revealed' })]);
    // `unconfirmed` (e.g. CHAIN_WEIGHTS_NOT_CONFIRMED: other weights stored) claims no outcome: no status mismatch, weights still compared.
    const unsure = judgeReveal(
      audit(attestation({ status: 'unconfirmed', code: 'CHAIN_WEIGHTS_NOT_CONFIRMED', reveal_block: null, reveal_block_hash: null })),
      1,
      revealedAt('131', [[1, 65535]]),
    );
    expect(unsure.mismatches.map((m) => m.stage)).toEqual(['chain.weights', 'chain.weights']);
    const claimed = judgeReveal(audit(attestation()), 1, {
      commit,
      reveal: { outcome: 'dropped', block: '131', blockHash: `0x${'cd'.repeat(32)}`, head: '133' },
      weights: null,
    });
    expect(claimed.mismatches).toEqual([expect.objectContaining({ stage: 'chain.reveal', field: 'status', expected: 'dropped', claimed: 'revealed' })]);
  });

  it('a drop the attestation states is a verified chain check; without an attestation, or still queued, nothing is compared', () => {
    const dropped = { commit, reveal: { outcome: 'dropped' as const, block: '131', blockHash: `0x${'cd'.repeat(32)}`, head: '133' }, weights: null };
    const stated = judgeReveal(
      audit(attestation({ status: 'not_revealed', code: 'CHAIN_TIMELOCK_REVEAL_MISSING', reason: 'stake_lost', reveal_block_hash: null })),
      1,
      dropped,
    );
    expect(stated).toMatchObject({ status: 'ok', checks: { chain: true } });
    expect(judgeReveal(audit(), 1, dropped)).toMatchObject({ status: 'ok', checks: { chain: null }, reveal: { chain: { outcome: 'dropped' } } });
    const queued = { commit, reveal: { outcome: 'queued' as const, block: null, blockHash: null, head: '125' }, weights: null };
    expect(judgeReveal(audit(), 1, queued)).toMatchObject({ status: 'ok', checks: { chain: null } });
  });

  it('a commit the chain does not show in the named extrinsic is a mismatch (chain.commit)', () => {
    const none = judgeReveal(audit(attestation()), 1, { commit: null, reveal: null, weights: null });
    expect(none).toMatchObject({ status: 'mismatch', checks: { chain: false } });
    expect(none.mismatches.map((m) => m.stage)).toEqual(['chain.commit']);
  });
});

describe('the digest of an attested bundle', () => {
  it("is taken over the bundle's own bytes in the served text, as for a bundle without an attestation, with the same verdict", async () => {
    const verify = await signatureVerifier();
    const served = withRevealAttestation(close.text, signRevealAttestation(attestation(), k.validator));
    vi.mocked(core.isCanonicalJsonOf).mockClear();
    const withText = auditBundle(JSON.parse(served), 'epoch-7.json', verify, { text: served }).audit;
    expect(vi.mocked(core.isCanonicalJsonOf).mock.results.map((r): unknown => r.value)).toEqual([true]);
    expect(withText).toEqual(auditBundle(JSON.parse(served), 'epoch-7.json', verify).audit);
    expect(withText.checks.digest).toBe(true);
  });
});
