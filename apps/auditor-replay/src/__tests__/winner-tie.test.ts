import { beforeAll, describe, expect, it } from 'vitest';

import { buildBundle, signBundle } from '@subnet/bundle';

import { auditBundle, explainMiner } from '../index.js';
import { signatureVerifier } from '../signature-verifier.js';
import type { Keys } from './fixtures.js';
import { dryRun, keys, minerHotkey, resign } from './fixtures.js';

/**
 * docs/spec.md G.4 "A miner's submission in an epoch": an exact tie at the top of a winner_takes_all challenge
 * goes to the earlier submission (smallest seq the epoch used), and the bundle records the tie (`winner_tie`).
 */

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
    const loser = explainMiner(signed.bundle, low).sentences.find((s) => s.startsWith('Challenge term'));
    expect(loser).toContain(`tied at the top with ${high} (seq 2) as seq 5; the earlier submission takes the challenge: ${high}`);
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
  });
});
