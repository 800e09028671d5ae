import { createHash } from 'node:crypto';

import { beforeAll, describe, expect, it } from 'vitest';

import { canonicalJson } from '@subnet/core';

import {
  buildBundle,
  bundleTextIn,
  revealSigningMessage,
  signedBundleText,
  signRevealAttestation,
  verifyBundle,
  verifyRevealAttestation,
  withRevealAttestation,
} from '../index.js';
import type { Bundle, SignedBundleText } from '../index.js';
import { bountyBundleInput, expectCode, keys, verifier } from './helpers.js';

let k: Awaited<ReturnType<typeof keys>>;
let bundle: Bundle;
let signed: SignedBundleText;
const submitted = {
  status: 'submitted' as const,
  block: '12',
  extrinsic_hash: `0x${'ab'.repeat(32)}`,
  call: 'SubtensorModule.commit_timelocked_mechanism_weights',
  error: null,
};
beforeAll(async () => {
  k = await keys();
  bundle = buildBundle({ ...bountyBundleInput(k), submission: submitted });
  signed = signedBundleText(bundle, k.validator);
});

const revealed = () => ({
  kind: 'reveal_attestation',
  netuid: bundle.netuid,
  epoch: bundle.epoch,
  validator_hotkey: bundle.validator_hotkey,
  bundle_digest: signed.digest,
  status: 'revealed',
  code: null,
  reason: null,
  reasons: [],
  message: 'revealed by the chain in block 25',
  commit_hash: `0x${'ee'.repeat(32)}`,
  commit_block: '12',
  commit_extrinsic_hash: `0x${'ab'.repeat(32)}`,
  reveal_round: '777',
  due_block: '25',
  reveal_block: '25',
  reveal_block_hash: `0x${'cd'.repeat(32)}`,
  confirmed_at_head: '27',
});

const binding = () => ({ digest: signed.digest, netuid: bundle.netuid, epoch: bundle.epoch, validator_hotkey: bundle.validator_hotkey });

describe('reveal attestation: the v4 reveal outcome signed after the close, bound to the bundle (docs/spec.md G.6)', () => {
  it('signs the domain-separated message (UTF-8 of the domain, ":" and the sha256 of its canonical JSON), never the 32 digest bytes of a bundle', () => {
    const { reveal, signature } = signRevealAttestation(revealed(), k.validator);
    const message = `subnet-scoring/reveal-attestation/v1:${createHash('sha256').update(canonicalJson(revealed())).digest('hex')}`;
    expect(new TextDecoder().decode(revealSigningMessage(reveal))).toBe(message);
    expect(verifier(new TextEncoder().encode(message), signature, k.validator.address)).toBe(true);
    // A bundle signature does not pass for an attestation's, nor the other way round.
    expect(verifier(new TextEncoder().encode(message), signed.signature ?? '', k.validator.address)).toBe(false);
    expect(verifier(Buffer.from(signed.digest, 'hex'), signature, k.validator.address)).toBe(false);
  });

  it('the served document is the close text with reveal and reveal_signature inserted: canonical, the bundle, digest and signature unchanged; verifyBundle accepts it', () => {
    const attested = signRevealAttestation(revealed(), k.validator);
    const served = withRevealAttestation(signed.text, attested);
    const doc = JSON.parse(served) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['bundle', 'digest', 'reveal', 'reveal_signature', 'signature']);
    expect(served).toBe(canonicalJson(doc));
    expect(canonicalJson(doc['bundle'])).toBe(canonicalJson(bundle));
    expect(doc['digest']).toBe(signed.digest);
    expect(doc['signature']).toBe(signed.signature);
    expect(doc['reveal']).toEqual(revealed());
    expect(verifyBundle(doc, verifier)).toEqual(JSON.parse(canonicalJson(bundle)));
    expect(verifyRevealAttestation(doc['reveal'], doc['reveal_signature'], binding(), verifier)).toEqual(revealed());
  });

  it('refuses a tampered attestation (BUNDLE_REVEAL_BAD_SIGNATURE), in verifyBundle too', () => {
    const attested = signRevealAttestation(revealed(), k.validator);
    const doc = JSON.parse(withRevealAttestation(signed.text, attested)) as { reveal: Record<string, unknown> };
    doc.reveal = { ...doc.reveal, reveal_block: '26' };
    expectCode(() => verifyBundle(doc, verifier), 'BUNDLE_REVEAL_BAD_SIGNATURE', 'reveal_signature');
  });

  it('refuses an attestation signed by another key (BUNDLE_REVEAL_BAD_SIGNATURE) and will not sign with one (BUNDLE_SIGNER_MISMATCH)', () => {
    const forged = { reveal: revealed(), signature: `0x${Buffer.from(k.other.sign(revealSigningMessage(revealed() as never))).toString('hex')}` };
    expectCode(() => verifyRevealAttestation(forged.reveal, forged.signature, binding(), verifier), 'BUNDLE_REVEAL_BAD_SIGNATURE', 'reveal_signature');
    expectCode(() => signRevealAttestation(revealed(), k.other), 'BUNDLE_SIGNER_MISMATCH', 'signer.address');
  });

  it('refuses an attestation bound to another bundle: another digest (BUNDLE_REVEAL_DIGEST_MISMATCH), epoch or validator (BUNDLE_REVEAL_INVALID)', () => {
    const other = signRevealAttestation({ ...revealed(), bundle_digest: 'ff'.repeat(32) }, k.validator);
    expectCode(() => verifyRevealAttestation(other.reveal, other.signature, binding(), verifier), 'BUNDLE_REVEAL_DIGEST_MISMATCH', 'reveal.bundle_digest');
    expectCode(() => withRevealAttestation(signed.text, other), 'BUNDLE_REVEAL_DIGEST_MISMATCH', 'reveal.bundle_digest');
    const epoch = signRevealAttestation({ ...revealed(), epoch: bundle.epoch + 1 }, k.validator);
    expectCode(() => verifyRevealAttestation(epoch.reveal, epoch.signature, binding(), verifier), 'BUNDLE_REVEAL_INVALID', 'reveal.epoch');
    const hotkey = signRevealAttestation({ ...revealed(), validator_hotkey: k.other.address }, k.other);
    expectCode(() => verifyRevealAttestation(hotkey.reveal, hotkey.signature, binding(), verifier), 'BUNDLE_REVEAL_INVALID', 'reveal.validator_hotkey');
  });

  it('refuses a malformed attestation or a missing signature (BUNDLE_REVEAL_INVALID, naming the field)', () => {
    expectCode(() => signRevealAttestation({ ...revealed(), reveal_block: null }, k.validator), 'BUNDLE_REVEAL_INVALID', 'reveal.reveal_block');
    expectCode(() => signRevealAttestation({ ...revealed(), status: 'not_revealed' }, k.validator), 'BUNDLE_REVEAL_INVALID', 'reveal.code');
    expectCode(() => signRevealAttestation({ ...revealed(), extra: 1 }, k.validator), 'BUNDLE_REVEAL_INVALID');
    expectCode(() => signRevealAttestation({ ...revealed(), due_block: '025' }, k.validator), 'BUNDLE_REVEAL_INVALID', 'reveal.due_block');
    const { reveal } = signRevealAttestation(revealed(), k.validator);
    expectCode(() => verifyRevealAttestation(reveal, undefined, binding(), verifier), 'BUNDLE_REVEAL_INVALID', 'reveal_signature');
    const doc = { ...(JSON.parse(signed.text) as object), reveal };
    expectCode(() => verifyBundle(doc, verifier), 'BUNDLE_REVEAL_INVALID', 'reveal_signature');
  });

  it('a drop is attested with its code and reason', () => {
    const dropped = {
      ...revealed(),
      status: 'not_revealed',
      code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
      reason: 'version_key_raised',
      reasons: ['version_key_raised'],
      reveal_block_hash: null,
    };
    const attested = signRevealAttestation(dropped, k.validator);
    expect(verifyBundle(JSON.parse(withRevealAttestation(signed.text, attested)), verifier)).toEqual(JSON.parse(canonicalJson(bundle)));
  });

  it('splices only into a signed close text (BUNDLE_INVALID_BUNDLE for an unsigned dry-run document)', () => {
    const attested = signRevealAttestation(revealed(), k.validator);
    expectCode(() => withRevealAttestation(signedBundleText(bundle, undefined).text, attested), 'BUNDLE_INVALID_BUNDLE', 'signedText');
  });
});

describe("bundleTextIn: the bundle's own bytes inside a published document", () => {
  it('finds them in a signed text and in the same text with a reveal attestation, and in nothing framed otherwise', () => {
    const bundleText = canonicalJson(bundle);
    expect(bundleTextIn(signed.text, JSON.parse(signed.text) as { bundle: unknown })).toBe(bundleText);
    expect(bundleTextIn(`\n${signed.text}\n`, JSON.parse(signed.text) as { bundle: unknown })).toBe(bundleText);
    const served = withRevealAttestation(signed.text, signRevealAttestation(revealed(), k.validator));
    expect(bundleTextIn(served, JSON.parse(served) as { bundle: unknown })).toBe(bundleText);
    // Framed otherwise: pretty-printed, the attestation's keys reordered, a field the text does not hold.
    expect(bundleTextIn(JSON.stringify(JSON.parse(served), null, 1), JSON.parse(served) as { bundle: unknown })).toBeUndefined();
    const doc = JSON.parse(served) as { bundle: unknown; reveal: Record<string, unknown> };
    const reordered = { ...doc, reveal: Object.fromEntries(Object.entries(doc.reveal).reverse()) };
    const reorderedText = `{"bundle":${bundleText},"digest":"${signed.digest}","reveal":${JSON.stringify(reordered.reveal)},"reveal_signature":${JSON.stringify((doc as unknown as { reveal_signature: string }).reveal_signature)},"signature":"${signed.signature ?? ''}"}`;
    expect(bundleTextIn(reorderedText, reordered)).toBeUndefined();
    const withExtra = { ...(JSON.parse(signed.text) as { bundle: unknown }), extra: 1 };
    expect(bundleTextIn(signed.text, withExtra)).toBeUndefined();
    const keyBeforeBundle = { a: 1, ...(JSON.parse(signed.text) as { bundle: unknown }) };
    expect(bundleTextIn(`{"a":1,${signed.text.slice(1)}`, keyBeforeBundle)).toBeUndefined();
  });
});
