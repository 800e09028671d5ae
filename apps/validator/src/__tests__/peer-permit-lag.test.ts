import { describe, expect, it } from 'vitest';

import { publishPeerScores } from '../peer-publisher.js';
import { fakeChain, postSigned, useKeys, useService } from './helpers.js';

/**
 * A peer granted a validator permit after this validator last read its metagraph: its peer-score document is
 * refused NOT_A_VALIDATOR only after one re-read of the metagraph (the 2 s throttle an unknown signer shares),
 * and its publisher retries that refusal, so the document lands within the epoch. Real HTTP, fake chain.
 */

const k = useKeys();
let reads = 0;
/** When set, the fake chain's metagraph reads fail (a node outage). */
let viewDown = false;
const validator = useService(k, {
  chain: () => {
    const chain = fakeChain(k);
    const view = chain.view.bind(chain);
    chain.view = () => {
      reads++;
      return viewDown ? Promise.reject(new Error('socket closed')) : view();
    };
    return chain;
  },
});

/** Past the receiver's metagraph re-read throttle (2 s). */
const pastThrottle = () => new Promise((resolve) => setTimeout(resolve, 2100));

/** Replaces a neuron's entry on the fake chain with one holding a validator permit (as the next read will show). */
function grantPermit(hotkey: string): void {
  const { neurons } = validator.chain;
  const i = neurons.findIndex((n) => n.hotkey === hotkey);
  neurons[i] = { ...neurons[i]!, stake: 500_000_000n, validatorPermit: true };
}

const doc = (challenge: string, miner: number) => ({ epoch: 0, challenge_id: challenge, scores: [{ miner_hotkey: k.miners[miner]!.address, score: 0.5 }] });
const code = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

describe('POST /v1/peer-scores: a validator permit the receiver has not seen yet', () => {
  it('a permit granted since the last read: the receiver re-reads its metagraph and takes the document', async () => {
    grantPermit(k.miners[0]!.address);
    await pastThrottle();
    const res = await postSigned(validator.url, '/v1/peer-scores', k.miners[0]!, doc('term', 1));
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ status: 'accepted', epoch: 1 });
  });

  it('a signer that never gets a permit is refused every time, and reads the chain at most once per 2 s, a throttle shared with unknown signers', async () => {
    await pastThrottle();
    const before = reads;
    for (let i = 0; i < 5; i++) {
      const res = await postSigned(validator.url, '/v1/peer-scores', k.miners[1]!, doc('term', 2));
      expect(res.status).toBe(403);
      expect(await code(res)).toBe('NOT_A_VALIDATOR');
    }
    // The first refusal re-read the metagraph; the four after it within 2 s did not.
    expect(reads - before).toBe(1);
    // An unknown signer within the same 2 s: refused from the view just read, no read of its own.
    const stranger = await postSigned(validator.url, '/v1/peer-scores', k.stranger, doc('term', 2));
    expect(stranger.status).toBe(403);
    expect(await code(stranger)).toBe('NOT_REGISTERED');
    expect(reads - before).toBe(1);
    await pastThrottle();
    const later = await postSigned(validator.url, '/v1/peer-scores', k.miners[1]!, doc('term', 2));
    expect(await code(later)).toBe('NOT_A_VALIDATOR');
    expect(reads - before).toBe(2);
  });

  it('while the metagraph cannot be read, a failed read counts for the throttle too: refusals do not become a read each', async () => {
    await pastThrottle();
    viewDown = true;
    const before = reads;
    try {
      for (const signer of [k.miners[3]!, k.stranger, k.miners[3]!, k.stranger, k.miners[3]!]) {
        const res = await postSigned(validator.url, '/v1/peer-scores', signer, doc('term', 2));
        expect(res.status).toBe(403);
      }
    } finally {
      viewDown = false;
    }
    expect(reads - before).toBe(1);
  });

  it('the publisher retries NOT_A_VALIDATOR with its backoff: a permit granted right after the receiver read its metagraph lands on a later attempt', async () => {
    await pastThrottle();
    // The receiver reads its metagraph for this refusal; the permit comes right after that read.
    const first = await postSigned(validator.url, '/v1/peer-scores', k.miners[2]!, doc('workflow', 3));
    expect(await code(first)).toBe('NOT_A_VALIDATOR');
    grantPermit(k.miners[2]!.address);
    // Attempts at about 0, 0.8 and 2.4 s: the first two inside the receiver's throttle, the third after it.
    const [outcome] = await publishPeerScores([doc('workflow', 3)], { peers: [validator.url], signer: k.miners[2]!, attempts: 4, backoffMs: 800 });
    expect(outcome).toMatchObject({ peer: validator.url, result: 'delivered', status: 201 });
    expect(outcome!.attempts).toBeGreaterThan(1);
  });
});
