import { describe, expect, it } from 'vitest';

import { landingVerdict } from '../landing-verdict.js';

/** The decision on a submission no final block holds (docs/spec.md G.8): only a final block is ever "landed". */
describe('landingVerdict: a weight submission in no final block', () => {
  it('is pending while finality has not passed the last block it can be in and the best chain has not either', () => {
    expect(landingVerdict({ head: 130n, finalized: 126n, lastBlock: 180n })).toEqual({ status: 'pending', checkedTo: 126n });
    // finality ahead of the head read (read a moment later): the head bounds what was checked
    expect(landingVerdict({ head: 130n, finalized: 131n, lastBlock: 180n })).toEqual({ status: 'pending', checkedTo: 130n });
  });

  it('is not_landed once the finalised chain is past its last block: final, whatever the best chain holds', () => {
    expect(landingVerdict({ head: 200n, finalized: 180n, lastBlock: 180n })).toEqual({ status: 'not_landed', checkedTo: 180n });
    expect(landingVerdict({ head: 200n, finalized: 190n, lastBlock: 180n, bestHit: 175n })).toEqual({ status: 'not_landed', checkedTo: 180n });
  });

  it('finality lagging past the era: pending while an unfinalised block of the best chain holds it (it may still become final)', () => {
    expect(landingVerdict({ head: 190n, finalized: 170n, lastBlock: 180n, bestHit: 172n })).toEqual({
      status: 'pending',
      checkedTo: 170n,
      unfinalizedBlock: 172n,
    });
  });

  it('finality lagging past the era and no block of the best chain holds it: not_landed on the best chain, naming how far finality got', () => {
    expect(landingVerdict({ head: 190n, finalized: 170n, lastBlock: 180n, bestHit: null })).toEqual({
      status: 'not_landed',
      checkedTo: 180n,
      finalizedTo: 170n,
    });
  });

  it('the best chain past the era but its unfinalised blocks not scanned: pending (never not_landed on a guess)', () => {
    expect(landingVerdict({ head: 190n, finalized: 170n, lastBlock: 180n })).toEqual({ status: 'pending', checkedTo: 170n });
  });
});
