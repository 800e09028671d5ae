import { beforeAll, describe, expect, it } from 'vitest';

import { buildBundle, signBundle } from '@subnet/bundle';

import { auditBundle, buildReport, explainMiner, formatReport } from '../index.js';
import { signatureVerifier } from '../signature-verifier.js';
import type { Keys } from './fixtures.js';
import { dryRun, keys, minerHotkey, resign } from './fixtures.js';

/**
 * docs/spec.md G.4 "A miner's submission in an epoch": an exact tie at the top of a winner_takes_all challenge
 * goes to the earlier submission (smallest seq the epoch used), and the bundle records the tie (`winner_tie`).
 */

const SPEC = 'docs/spec.md G.4';
const TITLE = "A miner's submission in an epoch is the smallest seq among its records the epoch used";

let k: Keys;
let verify: Awaited<ReturnType<typeof signatureVerifier>>;
let low: string;
let high: string;
beforeAll(async () => {
  k = await keys();
  verify = await signatureVerifier();
  [low, high] = [minerHotkey(0), minerHotkey(1)].sort() as [string, string];
});

/** A term epoch under winner_takes_all where both miners pass every task; `seqs` gives each one's record seq. */
function tieBundle(seqs: { readonly low: number; readonly high: number }) {
  const passAll = [{ task_id: 'a', tests_passed: 2, tests_total: 2, timed_out: false }];
  return buildBundle({
    netuid: 3,
    config: {
      pipeline: { min_validators: 1, min_stake_fraction: 0 },
      challenges: [{ id: 'term', kind: 'term_pass_rate', alpha: 1, weight_cap: 1, total_tasks: 1, normalisation: { strategy: 'winner_takes_all' } }],
    },
    epoch: 6,
    validatorHotkey: k.validator.address,
    inputs: {
      term_results: [
        { record_id: 'l', seq: seqs.low, miner_hotkey: low, results: passAll },
        { record_id: 'h', seq: seqs.high, miner_hotkey: high, results: passAll },
      ],
    },
    stakes: [{ validator_hotkey: k.validator.address, stake: 1 }],
    metagraph: [
      { hotkey: low, uid: 1 },
      { hotkey: high, uid: 2 },
    ],
    submission: dryRun,
  });
}

describe('winner_takes_all ties in the audit (docs/spec.md G.4)', () => {
  it('a bundle whose tie went to the earlier submitter replays, and both miner stories say how the tie was decided', () => {
    const bundle = tieBundle({ low: 5, high: 2 });
    const signed = JSON.parse(JSON.stringify(signBundle(bundle, k.validator))) as { bundle: unknown };
    expect(auditBundle(signed, 'tie.json', verify).audit.status).toBe('ok');
    const winner = explainMiner(signed.bundle, high).sentences.find((s) => s.startsWith('Challenge term'));
    expect(winner).toContain(`tied at the top with ${low} (seq 5) as seq 2; the earlier submission takes the challenge: this miner`);
    // winner_takes_all has no denominator: the share is said without a fraction.
    expect(winner).toContain('; normalised (winner_takes_all) to 1; tied at the top');
    const loser = explainMiner(signed.bundle, low).sentences.find((s) => s.startsWith('Challenge term'));
    expect(loser).toContain(`tied at the top with ${high} (seq 2) as seq 5; the earlier submission takes the challenge: ${high}`);
    expect(loser).toContain('; normalised (winner_takes_all) to 0; tied at the top');
    expect(explainMiner(signed.bundle, low).challenges[0]!.winner_tie).toEqual({
      winner: high,
      broken_by: 'earlier_submission',
      tied: [
        { miner_hotkey: high, submitted_seq: 2 },
        { miner_hotkey: low, submitted_seq: 5 },
      ],
    });
  });

  it('a bundle written before the rule (no winner_tie) recomputes differently; the first differing value is winner_tie', () => {
    // The lower hotkey submitted first, so the earlier build picked the same winner: only winner_tie is new.
    const today = JSON.parse(JSON.stringify(tieBundle({ low: 2, high: 5 }))) as { result: { challenges: Record<string, unknown>[] } };
    delete today.result.challenges[0]!.winner_tie;
    const audit = auditBundle(resign({ bundle: today }, k.validator), 'earlier.json', verify).audit;
    expect(audit.checks).toEqual({ schema: true, digest: true, signature: true, recompute: false, chain: null });
    const values = audit.mismatches.filter((m) => m.stage !== 'digest' && m.stage !== 'signature');
    expect(values.map((m) => [m.path, m.kind])).toEqual([['bundle.result.challenges[0].winner_tie', 'missing']]);
    expect(audit.root_cause).toMatchObject({ kind: 'rule', path: 'bundle.result.challenges[0].winner_tie', record: null, mismatch: values[0] });
    expect(audit.root_cause?.rule).toEqual({
      spec: SPEC,
      title: TITLE,
      ties: [
        {
          challenge_id: 'term',
          score: 1,
          claimed_winner: low,
          winner: low,
          tied: [
            { miner_hotkey: low, submitted_seq: 2 },
            { miner_hotkey: high, submitted_seq: 5 },
          ],
        },
      ],
    });
    const sentence = audit.root_cause?.sentence ?? '';
    expect(sentence).toContain(`computed under the earlier rule of ${SPEC} "${TITLE}"`);
    expect(sentence).toContain(`challenge term: 2 miners tied at 1, ${low} (seq 2), ${high} (seq 5); the bundle gave it to ${low}, the lowest hotkey`);
    expect(sentence).toContain('this build gives it to the same miner and only adds the tie as winner_tie');
    expect(formatReport(buildReport([audit]))).toContain(`  root cause: ${sentence}\n`);
  });

  it('a bundle written before the rule whose lower hotkey submitted later: the rule names both winners', () => {
    // What a build before the rule wrote: the lower hotkey took the tie (the result of a tie it also won by seq),
    // while the records say the higher hotkey submitted first.
    const earlier = JSON.parse(JSON.stringify(tieBundle({ low: 2, high: 5 }))) as {
      inputs: { term_results: { seq: number }[] };
      result: { challenges: Record<string, unknown>[] };
    };
    delete earlier.result.challenges[0]!.winner_tie;
    earlier.inputs.term_results[0]!.seq = 5;
    earlier.inputs.term_results[1]!.seq = 2;
    const audit = auditBundle(resign({ bundle: earlier }, k.validator), 'earlier.json', verify).audit;
    const values = audit.mismatches.filter((m) => m.stage !== 'digest' && m.stage !== 'signature');
    expect(values[0]).toMatchObject({ path: 'bundle.result.challenges[0].winner_tie', kind: 'missing' });
    // The weight went to the other miner: values downstream of the normalisation differ too.
    expect(values.length).toBeGreaterThan(1);
    expect(values.some((m) => m.path.startsWith('bundle.result.u16'))).toBe(true);
    expect(audit.root_cause).toMatchObject({ kind: 'rule', path: 'bundle.result.challenges[0].winner_tie' });
    expect(audit.root_cause?.rule).toMatchObject({
      title: TITLE,
      ties: [{ challenge_id: 'term', score: 1, claimed_winner: low, winner: high }],
    });
    expect(audit.root_cause?.sentence).toContain(
      `${high} (seq 2), ${low} (seq 5); the bundle gave it to ${low}, the lowest hotkey; this build gives it to ${high}, the earlier submission, so every value that weight reached differs`,
    );
  });

  it('an edited bundle is not taken for an earlier build: a claimed winner that is not the lowest hotkey, or another strategy', () => {
    // The higher hotkey won by seq today; deleting winner_tie leaves a winner no build before the rule could pick.
    const edited = JSON.parse(JSON.stringify(tieBundle({ low: 5, high: 2 }))) as { result: { challenges: Record<string, unknown>[] } };
    delete edited.result.challenges[0]!.winner_tie;
    const audit = auditBundle(resign({ bundle: edited }, k.validator), 'edited.json', verify).audit;
    expect(audit.root_cause).toMatchObject({ kind: 'result', path: 'bundle.result.challenges[0].winner_tie' });
    expect(audit.root_cause?.rule).toBeUndefined();
    // A claimed normalisation of another strategy is not an earlier build's tie either.
    const other = JSON.parse(JSON.stringify(tieBundle({ low: 2, high: 5 }))) as {
      result: { challenges: Record<string, unknown>[]; aggregation: { challenges: { normalisation: { strategy: string } }[] } };
    };
    delete other.result.challenges[0]!.winner_tie;
    other.result.aggregation.challenges[0]!.normalisation.strategy = 'linear';
    const second = auditBundle(resign({ bundle: other }, k.validator), 'other.json', verify).audit;
    expect(second.root_cause?.kind).not.toBe('rule');
    expect(second.root_cause?.rule).toBeUndefined();
  });
});
