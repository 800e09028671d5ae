import { describe, expect, it } from 'vitest';

import { bountyBody, postExecutor, postSigned, useKeys, useService } from './helpers.js';

/**
 * docs/spec.md G.20: a body whose required key is misspelt (`scroe` for `score`) is refused naming both the missing key
 * (the path, as before) and the unknown key that was probably meant to be it. Real HTTP on 127.0.0.1, a real SQLite
 * file, real sr25519 signatures.
 */

const k = useKeys();
const validator = useService(k);

type Reply = { status?: string; error?: { code: string; message: string; path?: string } };
const read = async (res: Response): Promise<[number, Reply]> => [res.status, (await res.json()) as Reply];

describe('a misspelt key names the unknown key and the missing one (docs/spec.md G.20)', () => {
  it('POST /v1/peer-scores with scores[1].scroe: 400 INVALID_RECORD at body.scores[1].score, naming "scroe" and "did you mean score"', async () => {
    const doc = {
      epoch: 0,
      challenge_id: 'term',
      scores: [
        { miner_hotkey: k.miners[0]!.address, score: 0.5 },
        { miner_hotkey: k.miners[1]!.address, scroe: 0.25 },
      ],
    };
    const [status, reply] = await read(await postSigned(validator.url, '/v1/peer-scores', k.peer, doc));
    expect([status, reply.error?.code, reply.error?.path]).toEqual([400, 'INVALID_RECORD', 'body.scores[1].score']);
    expect(reply.error?.message).toMatch(/ at body\.scores\[1\]\.score; body\.scores\[1\] has an unknown key "scroe" \(did you mean "score"\?\)$/);
  });

  it('an executor body with valid_isseus for valid_issues names both; an unknown key far from any missing one is named without a guess; unknown keys alone, or a missing key alone, read as before', async () => {
    const { valid_issues: valid, ...rest } = bountyBody('b-slip', k.miners[2]!.address);
    const [status, reply] = await read(await postExecutor(validator.url, '/v1/bounty-records', { ...rest, valid_isseus: valid }));
    expect([status, reply.error?.code, reply.error?.path]).toEqual([400, 'INVALID_RECORD', 'body.valid_issues']);
    expect(reply.error?.message).toMatch(/; body has an unknown key "valid_isseus" \(did you mean "valid_issues"\?\)$/);
    const [, far] = await read(await postExecutor(validator.url, '/v1/bounty-records', { ...rest, issues_found: valid }));
    expect(far.error?.path).toBe('body.valid_issues');
    expect(far.error?.message).toMatch(/; body has an unknown key "issues_found"$/);
    // thousands of unknown keys: three named, the rest counted
    const many = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${String(i)}`, i]));
    const [, crowd] = await read(await postExecutor(validator.url, '/v1/bounty-records', { ...rest, ...many }));
    expect(crowd.error?.message).toMatch(/; body has unknown keys "k0", "k1", "k2" and 1997 more$/);
    // an unknown key with nothing missing is reported as before (zod names it), and a missing key with no unknown key too
    const [, extra] = await read(await postExecutor(validator.url, '/v1/bounty-records', { ...bountyBody('b-extra', k.miners[2]!.address), note: 'x' }));
    expect(extra.error?.message).toMatch(/^Unrecognized key: "note" at body \(got \{/);
    expect(extra.error?.message).not.toContain('did you mean');
    const { record_id: _dropped, ...missing } = bountyBody('b-missing', k.miners[2]!.address);
    const [, absent] = await read(await postExecutor(validator.url, '/v1/bounty-records', missing));
    expect(absent.error?.path).toBe('body.record_id');
    expect(absent.error?.message).not.toContain(';');
  });

  it('keys are data: "__proto__" and "constructor" in place of a missing key are named as unknown keys, and nothing is taken from the prototype', async () => {
    const text = `{"epoch":0,"challenge_id":"term","scores":[{"miner_hotkey":"${k.miners[0]!.address}","__proto__":0.5,"constructor":1}]}`;
    const [status, reply] = await read(await postSigned(validator.url, '/v1/peer-scores', k.peer, JSON.parse(text) as unknown));
    expect([status, reply.error?.code, reply.error?.path]).toEqual([400, 'INVALID_RECORD', 'body.scores[0].score']);
    expect(reply.error?.message).toMatch(/; body\.scores\[0\] has unknown keys "__proto__", "constructor"$/);
  });
});
