import { beforeAll, describe, expect, it } from 'vitest';

import { canonicalJson } from '@subnet/core';

import { buildBundle, recomputeBundle } from '../index.js';
import type { Bundle } from '../index.js';
import { bountyBundleInput, dryRun, keys } from './helpers.js';

/**
 * A bundle stores its inputs in canonical order and canonical JSON (SPEC E), and an auditor recomputes the
 * result from exactly those stored inputs. So the result `buildBundle` computes must be the one those
 * inputs give, whatever order and number spelling the caller's lists had: an excluded record is named by
 * its position in its list (`#1`, `bounty_records[1].valid_issues`), and a number beyond 2^53 is stored as
 * a decimal string.
 */

let k: Awaited<ReturnType<typeof keys>>;
beforeAll(async () => {
  k = await keys();
});

/** The bundle as an auditor reads it: its canonical JSON, parsed. */
const published = (bundle: Bundle): Bundle => JSON.parse(canonicalJson(bundle)) as Bundle;

describe('buildBundle computes from the inputs as the bundle stores them (SPEC E canonical order)', () => {
  it('canonical order: records given out of arrival order, one of them invalid, give a bundle whose recomputation is identical', () => {
    const base = bountyBundleInput(k);
    const [good1, good2] = (base.inputs as { bounty_records: Record<string, unknown>[] }).bounty_records as [Record<string, unknown>, Record<string, unknown>];
    // The invalid record arrived first (seq 0) but is given last: canonical order puts it at index 0.
    const invalid = { ...good1, record_id: 'b0', seq: 0, valid_issues: -1 };
    const bundle = buildBundle({ ...base, inputs: { bounty_records: [good2, good1, invalid] }, submission: dryRun });
    const stored = (bundle.inputs as { bounty_records: { record_id: string }[] }).bounty_records.map((r) => r.record_id);
    expect(stored).toEqual(['b0', 'b1', 'b2']);
    expect(bundle.result.excluded).toHaveLength(1);
    expect(bundle.result.excluded[0]).toMatchObject({ record_id: 'b0', code: 'BUNDLE_INVALID_RECORD' });
    expect(bundle.result.excluded[0]?.reason).toContain('bounty_records[0].valid_issues');
    expect(recomputeBundle(published(bundle)).identical).toBe(true);
  });

  it('canonical order: an invalid record without an id is named by its stored position', () => {
    const base = bountyBundleInput(k);
    const records = (base.inputs as { bounty_records: unknown[] }).bounty_records;
    const bundle = buildBundle({ ...base, inputs: { bounty_records: ['not a record', ...records] }, submission: dryRun });
    // Canonical order puts a record without a seq last.
    expect(bundle.result.excluded).toEqual([expect.objectContaining({ record_id: '#2', code: 'BUNDLE_INVALID_RECORD' })]);
    expect(recomputeBundle(published(bundle)).identical).toBe(true);
  });

  it('canonical order: carried decay states are stored by challenge id, so their order does not change the digest', () => {
    const base = bountyBundleInput(k);
    const states = [
      { challenge_id: 'term', state: { top_score: 0.9, top_epoch: 1, top_hotkey: k.miners[0]!.address } },
      { challenge_id: 'bounty-term', state: null },
    ];
    const given = (decay_states: unknown[]) =>
      buildBundle({ ...base, inputs: { ...(base.inputs as Record<string, unknown>), decay_states }, submission: dryRun });
    const forward = given(states);
    const reversed = given([...states].reverse());
    expect((forward.inputs as { decay_states: { challenge_id: string }[] }).decay_states.map((d) => d.challenge_id)).toEqual(['bounty-term', 'term']);
    expect(canonicalJson(reversed)).toBe(canonicalJson(forward));
    expect(recomputeBundle(published(forward)).identical).toBe(true);
  });

  it('canonical numbers: a record holding an integer beyond 2^53 gives a bundle whose recomputation is identical', () => {
    const base = bountyBundleInput(k);
    const [good1, good2] = (base.inputs as { bounty_records: Record<string, unknown>[] }).bounty_records as [Record<string, unknown>, Record<string, unknown>];
    const bundle = buildBundle({ ...base, inputs: { bounty_records: [{ ...good1, valid_issues: 1e21 }, good2] }, submission: dryRun });
    // Stored (canonical JSON) as the string "1000000000000000000000": the record is refused as the auditor will see it.
    expect(bundle.result.excluded[0]?.reason).toContain('expected number, received string');
    expect(recomputeBundle(published(bundle)).identical).toBe(true);
  });
});
