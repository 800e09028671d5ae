import { beforeAll, describe, expect, it } from 'vitest';

import { buildBundle } from '@subnet/bundle';

import { auditBundle, buildReport, formatReport } from '../index.js';
import { signatureVerifier } from '../signature-verifier.js';
import type { Keys } from './fixtures.js';
import { dryRun, keys, minerHotkey, resign } from './fixtures.js';

/**
 * docs/spec.md G.9 "A new decay top names the miner the challenge ranks first among those tied at the best
 * score": under winner_takes_all the decay's candidate (and the top it sets) is the tie winner, the earlier
 * submission, no longer the lowest hotkey. A bundle a build before the rule wrote names the lowest hotkey there;
 * it recomputes differently, and the auditor gives the rule as the root cause.
 */

const SPEC = 'docs/spec.md G.9';
const TITLE = 'A new decay top names the miner the challenge ranks first among those tied at the best score';

let k: Keys;
let verify: Awaited<ReturnType<typeof signatureVerifier>>;
let low: string;
let high: string;
beforeAll(async () => {
  k = await keys();
  verify = await signatureVerifier();
  [low, high] = [minerHotkey(0), minerHotkey(1)].sort() as [string, string];
});

interface Editable {
  inputs: unknown;
  result: {
    aggregation: { challenges: { decay: { candidate: { hotkey: string }; replaced_top: boolean; epochs_stale: number } }[] };
    decay_states: { state: { top_hotkey: string } }[];
    u16: { weights: number[] };
  };
}

/**
 * A term epoch with reward decay where both miners pass every task (a tie at 1): under `strategy`, with each
 * miner's record seq, and the carried decay state `top` (none: the tie sets the first top).
 */
function tieBundle(seqs: { readonly low: number; readonly high: number }, strategy = 'winner_takes_all', top: { score: number; hotkey: string } | null = null) {
  const passAll = [{ task_id: 'a', tests_passed: 2, tests_total: 2, timed_out: false }];
  return buildBundle({
    netuid: 3,
    config: {
      pipeline: { min_validators: 1, min_stake_fraction: 0 },
      challenges: [{ id: 'term', kind: 'term_pass_rate', alpha: 1, weight_cap: 1, total_tasks: 1, decay: true, normalisation: { strategy } }],
    },
    epoch: 6,
    validatorHotkey: k.validator.address,
    inputs: {
      term_results: [
        { record_id: 'l', seq: seqs.low, miner_hotkey: low, results: passAll },
        { record_id: 'h', seq: seqs.high, miner_hotkey: high, results: passAll },
      ],
      ...(top === null ? {} : { decay_states: [{ challenge_id: 'term', state: { top_score: top.score, top_epoch: 2, top_hotkey: top.hotkey } }] }),
    },
    stakes: [{ validator_hotkey: k.validator.address, stake: 1 }],
    metagraph: [
      { hotkey: low, uid: 1 },
      { hotkey: high, uid: 2 },
    ],
    submission: dryRun,
  });
}

/** A plain copy of a bundle to edit. */
function copy(bundle: unknown): Editable {
  return JSON.parse(JSON.stringify(bundle)) as Editable;
}

/** What a build before the rule wrote: the lowest tied hotkey as the candidate and, when the top was replaced, as the carried top. */
function asBeforeTheRule(bundle: unknown): Editable {
  const earlier = copy(bundle);
  const decay = earlier.result.aggregation.challenges[0]!.decay;
  decay.candidate.hotkey = low;
  if (decay.replaced_top) earlier.result.decay_states[0]!.state.top_hotkey = low;
  return earlier;
}

function valueMismatches(audit: ReturnType<typeof auditBundle>['audit']) {
  return audit.mismatches.filter((m) => m.stage !== 'digest' && m.stage !== 'signature');
}

describe('the decay top among miners tied at the best score in the audit (docs/spec.md G.9)', () => {
  it('a bundle of this build names the tie winner as its decay top and replays; so does a tie the lower hotkey won, unchanged', () => {
    const today = tieBundle({ low: 5, high: 2 });
    expect(today.result.challenges[0]!.winner_tie?.winner).toBe(high);
    expect(today.result.decay_states).toEqual([{ challenge_id: 'term', state: { top_score: 1, top_epoch: 6, top_hotkey: high } }]);
    expect(auditBundle(resign({ bundle: today }, k.validator), 'today.json', verify).audit.status).toBe('ok');
    // The lower hotkey submitted first: the rule names the same miner a build before it named.
    const same = tieBundle({ low: 2, high: 5 });
    expect(same.result.decay_states).toEqual([{ challenge_id: 'term', state: { top_score: 1, top_epoch: 6, top_hotkey: low } }]);
    expect(auditBundle(resign({ bundle: same }, k.validator), 'same.json', verify).audit.status).toBe('ok');
  });

  it('a bundle written before the rule (the lowest tied hotkey as the new top) differs only there, and the rule is its root cause', () => {
    const earlier = asBeforeTheRule(tieBundle({ low: 5, high: 2 }));
    const audit = auditBundle(resign({ bundle: earlier }, k.validator), 'earlier.json', verify).audit;
    expect(audit.checks).toEqual({ schema: true, digest: true, signature: true, recompute: false, chain: null });
    const values = valueMismatches(audit);
    expect(values.map((m) => [m.path, m.expected, m.claimed]).sort()).toEqual(
      [
        ['bundle.result.aggregation.challenges[0].decay.candidate.hotkey', high, low],
        ['bundle.result.decay_states[0].state.top_hotkey', high, low],
      ].sort(),
    );
    expect(audit.root_cause).toMatchObject({ kind: 'rule', record: null, path: audit.root_cause?.mismatch.path });
    expect(values.map((m) => m.path)).toContain(audit.root_cause?.path);
    expect(audit.root_cause?.rule).toEqual({
      spec: SPEC,
      title: TITLE,
      tops: [{ challenge_id: 'term', score: 1, claimed_hotkey: low, hotkey: high, replaced_top: true }],
    });
    const sentence = audit.root_cause?.sentence ?? '';
    expect(sentence).toContain(`computed before the rule of ${SPEC} "${TITLE}"`);
    expect(sentence).toContain(`challenge term: miners tied at 1; the bundle names ${low}, the lowest hotkey, this build names ${high}`);
    expect(sentence).toContain('as the decay candidate and the new top it carries; no weight or burn differs');
    expect(formatReport(buildReport([audit]))).toContain(`  root cause: ${sentence}\n`);
  });

  it('a tie that does not beat the carried top: only the candidate differs, and the rule says the top was not replaced', () => {
    const bundle = tieBundle({ low: 5, high: 2 }, 'winner_takes_all', { score: 1, hotkey: low });
    expect(bundle.result.decay_states).toEqual([{ challenge_id: 'term', state: { top_score: 1, top_epoch: 2, top_hotkey: low } }]);
    const audit = auditBundle(resign({ bundle: asBeforeTheRule(bundle) }, k.validator), 'kept.json', verify).audit;
    expect(valueMismatches(audit).map((m) => [m.path, m.expected, m.claimed])).toEqual([
      ['bundle.result.aggregation.challenges[0].decay.candidate.hotkey', high, low],
    ]);
    expect(audit.root_cause?.rule).toEqual({
      spec: SPEC,
      title: TITLE,
      tops: [{ challenge_id: 'term', score: 1, claimed_hotkey: low, hotkey: high, replaced_top: false }],
    });
    expect(audit.root_cause?.sentence).toContain('as the decay candidate (the top was not replaced)');
  });

  it('an edited bundle is not taken for an earlier build: half of the old naming, another value changed too, or another miner named', () => {
    const today = tieBundle({ low: 5, high: 2 });
    // The candidate as before the rule, the carried top as today: no build wrote that.
    const half = copy(today);
    half.result.aggregation.challenges[0]!.decay.candidate.hotkey = low;
    const first = auditBundle(resign({ bundle: half }, k.validator), 'half.json', verify).audit;
    expect(first.root_cause?.kind).toBe('result');
    expect(first.root_cause?.rule).toBeUndefined();
    // The old naming plus an edited decay value.
    const more = asBeforeTheRule(today);
    more.result.aggregation.challenges[0]!.decay.epochs_stale = 3;
    const second = auditBundle(resign({ bundle: more }, k.validator), 'more.json', verify).audit;
    expect(second.root_cause?.rule).toBeUndefined();
    expect(second.root_cause?.kind).not.toBe('rule');
    // A tie the rule gives the lower hotkey (it submitted first), claimed for the higher one: not the old rule's naming.
    const swapped = copy(tieBundle({ low: 2, high: 5 }));
    swapped.result.aggregation.challenges[0]!.decay.candidate.hotkey = high;
    swapped.result.decay_states[0]!.state.top_hotkey = high;
    const third = auditBundle(resign({ bundle: swapped }, k.validator), 'swapped.json', verify).audit;
    expect(third.root_cause?.rule).toBeUndefined();
    expect(third.root_cause?.kind).not.toBe('rule');
  });

  it('a strategy that does not rank by submission (linear) names the lowest hotkey, as before the rule: the bundle replays', () => {
    const linear = tieBundle({ low: 5, high: 2 }, 'linear');
    expect(linear.result.decay_states).toEqual([{ challenge_id: 'term', state: { top_score: 1, top_epoch: 6, top_hotkey: low } }]);
    expect(auditBundle(resign({ bundle: linear }, k.validator), 'linear.json', verify).audit.status).toBe('ok');
  });
});
