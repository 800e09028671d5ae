import { encodeAddress } from '@polkadot/util-crypto';
import { describe, expect, it } from 'vitest';

import { bountyBody, postExecutor, postSigned, twoBytePrefix42, useKeys, useService, workflowBody } from './helpers.js';

/**
 * Hotkeys in request bodies follow the signing header's rule (docs/spec.md G.6 "A hotkey in an ingest body has the
 * same one spelling"): SS58 with prefix 42 in its one-byte form. Another spelling of a registered miner's key is 400
 * `WRONG_SS58_PREFIX` naming the field path, the value, the prefix found and the address to send, not 422
 * `MINER_NOT_REGISTERED` (executor routes) or an accepted score the close later excludes (peer scores). Real
 * HTTP on 127.0.0.1, a real SQLite file, real sr25519 signatures; the reference spellings come from
 * `@polkadot/util-crypto`, not from the code under test.
 */

const k = useKeys();
const validator = useService(k);

type Reply = { status?: string; error?: { code: string; message: string; path?: string } };
const read = async (res: Response): Promise<[number, Reply]> => [res.status, (await res.json()) as Reply];

const termBody = (recordId: string, miner: string) => ({
  record_id: recordId,
  miner_hotkey: miner,
  results: [{ task_id: 't0', tests_passed: 1, tests_total: 1, timed_out: false }],
});

describe('executor routes: body.miner_hotkey is one spelling of a key', () => {
  it('decision: a registered miner spelled with prefix 0, prefix 2 or the two-byte form of 42 is 400 WRONG_SS58_PREFIX naming the field, the value, the prefix and the address to send', async () => {
    const miner = k.miners[0]!;
    const spellings: [string, string][] = [
      [encodeAddress(miner.publicKey, 0), 'prefix 0;'],
      [encodeAddress(miner.publicKey, 2), 'prefix 2;'],
      [twoBytePrefix42(miner.publicKey), 'prefix 42 in its two-byte form;'],
    ];
    const routes: [string, (id: string, hotkey: string) => unknown][] = [
      ['/v1/bounty-records', (id, h) => bountyBody(id, h)],
      ['/v1/workflow-runs', (id, h) => workflowBody(id, h)],
      ['/v1/term-results', (id, h) => termBody(id, h)],
    ];
    for (const [route, body] of routes) {
      for (const [n, [spelled, found]] of spellings.entries()) {
        const [status, reply] = await read(await postExecutor(validator.url, route, body(`spelling-${n}`, spelled)));
        expect([route, status, reply.error?.code, reply.error?.path]).toEqual([route, 400, 'WRONG_SS58_PREFIX', 'body.miner_hotkey']);
        expect(reply.error?.message).toContain(`"${spelled}"`);
        expect(reply.error?.message).toContain(found);
        expect(reply.error?.message).toContain('takes prefix 42');
        expect(reply.error?.message).toContain(miner.address);
      }
      // The address the message names is taken.
      const [status, reply] = await read(await postExecutor(validator.url, route, body('spelling-ok', miner.address)));
      expect([route, status, reply.status]).toEqual([route, 201, 'accepted']);
    }
  });

  it('decision: a miner_hotkey that is no SS58 address (a bad checksum, a name) is 400 INVALID_RECORD naming the field and value, not 422', async () => {
    const miner = k.miners[1]!;
    const flipped = `${miner.address.slice(0, -1)}${miner.address.endsWith('a') ? 'b' : 'a'}`;
    for (const value of [flipped, 'miner-1']) {
      const [status, reply] = await read(await postExecutor(validator.url, '/v1/bounty-records', bountyBody('not-ss58', value)));
      expect([status, reply.error?.code, reply.error?.path]).toEqual([400, 'INVALID_RECORD', 'body.miner_hotkey']);
      expect(reply.error?.message).toContain('is not an SS58 address');
      expect(reply.error?.message).toContain(`body.miner_hotkey "${value}"`);
    }
  });

  it('a well-spelt key that is not registered stays 422 MINER_NOT_REGISTERED', async () => {
    const [status, reply] = await read(await postExecutor(validator.url, '/v1/bounty-records', bountyBody('stranger', k.stranger.address)));
    expect([status, reply.error?.code, reply.error?.path]).toEqual([422, 'MINER_NOT_REGISTERED', 'body.miner_hotkey']);
  });
});

describe('POST /v1/peer-scores: every scores[i].miner_hotkey is one spelling of a key', () => {
  it('decision: a score of a registered miner spelled with prefix 2 is 400 WRONG_SS58_PREFIX naming its path; nothing is stored, so the corrected document is accepted', async () => {
    const miner = k.miners[2]!;
    const spelled = encodeAddress(miner.publicKey, 2);
    const doc = (hotkey: string) => ({
      epoch: 0,
      challenge_id: 'term',
      scores: [
        { miner_hotkey: k.miners[0]!.address, score: 0.5 },
        { miner_hotkey: hotkey, score: 0.25 },
      ],
    });
    const [status, reply] = await read(await postSigned(validator.url, '/v1/peer-scores', k.peer, doc(spelled)));
    expect([status, reply.error?.code, reply.error?.path]).toEqual([400, 'WRONG_SS58_PREFIX', 'body.scores[1].miner_hotkey']);
    expect(reply.error?.message).toContain(`"${spelled}"`);
    expect(reply.error?.message).toContain('prefix 2;');
    expect(reply.error?.message).toContain(miner.address);
    // Not stored: the same validator's corrected document for the epoch is the first one, not a RECORD_CONFLICT.
    const [again, accepted] = await read(await postSigned(validator.url, '/v1/peer-scores', k.peer, doc(miner.address)));
    expect([again, accepted.status]).toEqual([201, 'accepted']);
  });

  it('decision: one key scored under two spellings is refused at the second spelling, so a document cannot score a miner twice', async () => {
    const miner = k.miners[3]!;
    const doc = {
      epoch: 0,
      challenge_id: 'workflow',
      scores: [
        { miner_hotkey: miner.address, score: 0.5 },
        { miner_hotkey: encodeAddress(miner.publicKey, 0), score: 1 },
      ],
    };
    const [status, reply] = await read(await postSigned(validator.url, '/v1/peer-scores', k.peer, doc));
    expect([status, reply.error?.code, reply.error?.path]).toEqual([400, 'WRONG_SS58_PREFIX', 'body.scores[1].miner_hotkey']);
  });
});
