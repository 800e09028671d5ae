import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';

import { buildBundle, signBundle } from '@subnet/bundle';
import type { SignatureVerifier, SignedBundle } from '@subnet/bundle';

import { auditBundle, IDENTITY_KEYS, signatureVerifier } from '../index.js';
import { changed, dryRun, keys, leaves, minerHotkey, resign, setAt, signedBundle, sssaTaskInputs } from './fixtures.js';
import type { Keys } from './fixtures.js';

let k: Keys;
let verify: SignatureVerifier;
let good: SignedBundle;
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

beforeAll(async () => {
  k = await keys();
  verify = await signatureVerifier();
  good = signedBundle(k, { miners: 6, epoch: 21 });
});

describe('auditBundle (SPEC E: the auditor recomputes everything and gets identical bytes)', () => {
  it('an honest bundle passes every check with no mismatch', () => {
    const { audit } = auditBundle(copy(good), 'good.json', verify);
    expect(audit.status).toBe('ok');
    expect(audit.checks).toEqual({ schema: true, digest: true, signature: true, recompute: true, chain: null });
    expect(audit.mismatches).toEqual([]);
    expect(audit.epoch).toBe(21);
    expect(audit.weights?.reduce((s, w) => s + w.weight, 0)).toBe(65535);
  });

  it('a bundle whose signature is by a different validator key fails the signature check only', () => {
    const forged = resign(copy(good), k.stranger);
    const { audit } = auditBundle(forged, 'forged.json', verify);
    expect(audit.status).toBe('mismatch');
    expect(audit.checks).toMatchObject({ digest: true, signature: false, recompute: true });
    expect(audit.mismatches.map((m) => m.stage)).toEqual(['signature']);
  });

  it('a bundle claiming another validator hotkey, signed by the real one, fails the signature check', () => {
    const eve = signedBundle({ ...k, validator: k.stranger }, { miners: 4, epoch: 3 });
    const swapped = resign(copy(eve), k.validator);
    const { audit } = auditBundle(swapped, 'swapped.json', verify);
    expect(audit.checks.signature).toBe(false);
    expect(audit.validator_hotkey).toBe(k.stranger.address);
  });

  it('a value changed after signing breaks the digest and is reported where it was changed', () => {
    const doc = copy(good) as unknown as { bundle: { result: { u16: { weights: number[]; uids: number[] } } } };
    const i = doc.bundle.result.u16.weights.findIndex((w) => w > 0);
    const before = doc.bundle.result.u16.weights[i]!;
    doc.bundle.result.u16.weights[i] = before + 1;
    const { audit } = auditBundle(doc, 'x.json', verify);
    expect(audit.checks).toMatchObject({ digest: false, signature: true, recompute: false });
    const digest = audit.mismatches.find((m) => m.stage === 'digest');
    expect(digest?.claimed).toBe(good.digest);
    const weight = audit.mismatches.find((m) => m.stage === 'u16.weights');
    expect(weight).toMatchObject({ epoch: 21, path: `bundle.result.u16.weights[${i}]`, expected: before, claimed: before + 1, kind: 'value' });
    expect(weight?.miner?.uid).toBe(doc.bundle.result.u16.uids[i]);
  });

  it('property: changing any single intermediate or final value (re-signed by the validator) is reported at exactly that value', () => {
    const all = leaves(good.bundle.result, ['result']);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: all.length - 1 }), (index) => {
        const leaf = all[index]!;
        const doc = copy(good) as unknown as { bundle: unknown };
        const mutated = changed(leaf.value);
        setAt(doc.bundle, leaf.segments, mutated);
        const { audit } = auditBundle(resign(doc, k.validator), 'p.json', verify);
        const path = `bundle.${leaf.segments
          .map((s) => (typeof s === 'number' ? `[${s}]` : s))
          .join('.')
          .replace(/\.\[/g, '[')}`;
        expect(audit.checks).toMatchObject({ digest: true, signature: true, recompute: false });
        expect(audit.mismatches.length).toBeGreaterThan(0);
        const key = leaf.segments[leaf.segments.length - 1];
        if ((IDENTITY_KEYS as readonly unknown[]).includes(key)) {
          // An identity key changed: the entry no longer matches, reported on the entry containing it.
          for (const m of audit.mismatches) expect(path.startsWith(m.path)).toBe(true);
        } else {
          expect(audit.mismatches).toHaveLength(1);
          expect(audit.mismatches[0]).toMatchObject({ path, kind: 'value', expected: leaf.value, claimed: mutated, epoch: 21 });
        }
      }),
      { numRuns: 60 },
    );
  });

  it('property: changing any single signature byte fails the signature check and nothing else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 63 }), fc.integer({ min: 1, max: 255 }), (byte, xor) => {
        const doc = copy(good);
        const bytes = Buffer.from(doc.signature.slice(2), 'hex');
        bytes[byte] = (bytes[byte] ?? 0) ^ xor;
        const { audit } = auditBundle({ ...doc, signature: `0x${bytes.toString('hex')}` }, 's.json', verify);
        expect(audit.checks).toMatchObject({ digest: true, signature: false, recompute: true });
        expect(audit.mismatches.map((m) => m.stage)).toEqual(['signature']);
      }),
      { numRuns: 60 },
    );
  });

  it('property: changing any single input value (re-signed) is detected, at the miner whose record changed', () => {
    type Doc = {
      bundle: {
        inputs: {
          term_results: { miner_hotkey: string; results: { tests_passed: number; tests_total: number; timed_out: boolean }[] }[];
          peer_scores: { miner_hotkey: string; score: number }[];
          bounty_records: { miner_hotkey: string; valid_issues: number }[];
        };
        stakes: { stake: string }[];
      };
    };
    const base = copy(good) as unknown as Doc;
    const arb = fc.oneof(
      fc.record({ kind: fc.constant('term' as const), i: fc.nat(base.bundle.inputs.term_results.length - 1), t: fc.nat(5) }),
      fc.record({ kind: fc.constant('peer' as const), i: fc.nat(base.bundle.inputs.peer_scores.length - 1), t: fc.constant(0) }),
      fc.record({ kind: fc.constant('bounty' as const), i: fc.nat(base.bundle.inputs.bounty_records.length - 1), t: fc.constant(0) }),
      fc.record({ kind: fc.constant('stake' as const), i: fc.nat(base.bundle.stakes.length - 1), t: fc.constant(0) }),
    );
    fc.assert(
      fc.property(arb, ({ kind, i, t }) => {
        const doc = copy(good) as unknown as Doc;
        const inputs = doc.bundle.inputs;
        let miner: string | null = null;
        if (kind === 'term') {
          const r = inputs.term_results[i]!;
          const task = r.results[t]!;
          const passed = task.tests_passed === task.tests_total && !task.timed_out;
          if (passed) task.tests_passed = task.tests_total - 1;
          else Object.assign(task, { tests_passed: task.tests_total, timed_out: false });
          miner = r.miner_hotkey;
        } else if (kind === 'peer') {
          const p = inputs.peer_scores[i]!;
          p.score = (p.score + 0.25) % 1;
          miner = p.miner_hotkey;
        } else if (kind === 'bounty') {
          const b = inputs.bounty_records[i]!;
          b.valid_issues += 7;
          miner = b.miner_hotkey;
        } else {
          doc.bundle.stakes[i]!.stake = String(BigInt(doc.bundle.stakes[i]!.stake) + 1_000_000_000n);
        }
        const { audit } = auditBundle(resign(doc, k.validator), 'i.json', verify);
        expect(audit.checks).toMatchObject({ digest: true, signature: true, recompute: false });
        expect(audit.mismatches.length).toBeGreaterThan(0);
        if (miner !== null) expect(audit.mismatches.some((m) => m.miner?.hotkey === miner)).toBe(true);
        else expect(audit.mismatches.some((m) => m.field.endsWith('stake') || m.field.includes('stake'))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('a bundle that is not a bundle is invalid input, naming the field and value', () => {
    const doc = copy(good) as unknown as { bundle: { netuid: unknown } };
    doc.bundle.netuid = -1;
    const { audit } = auditBundle(doc, 'bad.json', verify);
    expect(audit.status).toBe('invalid');
    expect(audit.error).toMatchObject({ code: 'AUDITOR_INVALID_BUNDLE', path: 'signed.bundle.netuid' });
    expect(audit.error?.message).toContain('-1');
    expect(auditBundle({ nope: true }, 'x.json', verify).audit.error?.code).toBe('AUDITOR_INVALID_BUNDLE');
  });

  it('an input record the pipeline refuses is excluded on recomputation, so a tampered record shows where the result differs', () => {
    const doc = copy(good) as unknown as { bundle: { inputs: { peer_scores: { validator_hotkey: string }[] } } };
    doc.bundle.inputs.peer_scores[0]!.validator_hotkey = k.validator.address;
    const { audit } = auditBundle(resign(doc, k.validator), 'r.json', verify);
    expect(audit.status).toBe('mismatch');
    expect(audit.checks).toMatchObject({ schema: true, digest: true, signature: true, recompute: false });
    const excluded = audit.mismatches.find((m) => m.stage === 'excluded');
    expect(excluded).toMatchObject({ kind: 'missing', expected: expect.objectContaining({ code: 'BUNDLE_OWN_PEER_SCORE' }) });
  });

  it('a signed result with keys named like members of Object.prototype (toString, constructor, __proto__): each an extra value, not a crash', () => {
    // The result's inner objects are the validator's to fill: its keys are data, read as the file holds them.
    const text = JSON.stringify(copy(good)).replace('"aggregation":{', '"aggregation":{"__proto__":1,"constructor":2,"toString":3,');
    const doc = resign(JSON.parse(text) as { bundle: unknown }, k.validator);
    const { audit } = auditBundle(doc, 'p.json', verify);
    expect(audit.status).toBe('mismatch');
    expect(audit.checks).toMatchObject({ schema: true, digest: true, signature: true, recompute: false });
    expect(audit.mismatches.map((m) => [m.path, m.kind, m.claimed])).toEqual([
      ['bundle.result.aggregation.__proto__', 'extra', 1],
      ['bundle.result.aggregation.constructor', 'extra', 2],
      ['bundle.result.aggregation.toString', 'extra', 3],
    ]);
    expect(audit.root_cause).toMatchObject({ kind: 'result', path: 'bundle.result.aggregation.__proto__' });
  });
});

describe('auditBundle: configuration and inputs that are not valid are invalid input', () => {
  it('a schema-invalid input record is excluded on recomputation, naming its path in the exclusion', () => {
    const doc = copy(good) as unknown as { bundle: { inputs: { term_results: { seq: unknown }[] } } };
    doc.bundle.inputs.term_results[1]!.seq = -4;
    const { audit } = auditBundle(resign(doc, k.validator), 'q.json', verify);
    expect(audit.status).toBe('mismatch');
    const excluded = audit.mismatches.find((m) => m.stage === 'excluded');
    expect(excluded?.expected).toMatchObject({ list: 'term_results', code: 'BUNDLE_INVALID_RECORD' });
    expect((excluded?.expected as { reason: string }).reason).toContain('term_results[1].seq');
  });

  it('an unsigned bundle (signature null, as a dry-run validator writes it) is invalid input: there is nothing to verify', () => {
    const { audit } = auditBundle({ ...copy(good), signature: null }, 'u.json', verify);
    expect(audit.status).toBe('invalid');
    expect(audit.error?.path).toBe('signed.signature');
  });

  it('a metagraph that is not a list is invalid input, not a crash', () => {
    const doc = copy(good) as unknown as { bundle: { metagraph: unknown } };
    doc.bundle.metagraph = 'nope';
    const { audit } = auditBundle(doc, 'm.json', verify);
    expect(audit.status).toBe('invalid');
    expect(audit.error?.path).toBe('bundle.metagraph');
  });
});

describe('auditBundle: tasks, groups and reputations are recomputed (SPEC B, docs/spec.md G.3)', () => {
  function sssaBundle(): SignedBundle {
    const miners = [0, 1, 2, 3].map((i) => minerHotkey(i));
    const bundle = buildBundle({
      netuid: 1,
      config: { pipeline: { min_validators: 1, min_stake_fraction: 0 }, challenges: [{ id: 'sssa', kind: 'sssa', alpha: 1 }] },
      epoch: 5,
      validatorHotkey: k.validator.address,
      inputs: {
        ...sssaTaskInputs(miners),
      },
      stakes: [{ validator_hotkey: k.validator.address, stake: '1000' }],
      metagraph: [{ hotkey: k.validator.address, uid: 0 }, ...miners.map((hotkey, i) => ({ hotkey, uid: i + 1 }))],
      submission: dryRun,
    });
    return copy(signBundle(bundle, k.validator));
  }

  it('an honest SSSA bundle recomputes its groups and reputations exactly', () => {
    expect(auditBundle(sssaBundle(), 's.json', verify).audit.status).toBe('ok');
  });

  it('a claimed role or reputation that the draw does not give is reported with the task and the miner', () => {
    const doc = sssaBundle() as unknown as {
      bundle: { result: { tasks: { members: { hotkey: string; role: string }[] }[]; reputations: { hotkey: string; reputation: number }[] } };
    };
    const member = doc.bundle.result.tasks[0]!.members[0]!;
    member.role = member.role === 'primary' ? 'auditor' : 'primary';
    const entry = doc.bundle.result.reputations[0]!;
    entry.reputation = entry.reputation + 0.25;
    const { audit } = auditBundle(resign(doc, k.validator), 't.json', verify);
    expect(audit.status).toBe('mismatch');
    expect(audit.mismatches.find((m) => m.stage === 'tasks[t-1].members')).toMatchObject({ field: 'role', miner: { hotkey: member.hotkey } });
    expect(audit.mismatches.find((m) => m.stage === 'reputations')).toMatchObject({ field: 'reputation', miner: { hotkey: entry.hotkey } });
  });
});
