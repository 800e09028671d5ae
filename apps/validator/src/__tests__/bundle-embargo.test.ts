import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { fetchBundles, readPublishedBundles, runCli, signatureVerifier } from 'auditor-replay';
import type { TimelockedCommitRecord } from '@subnet/chain';
import { describe, expect, it } from 'vitest';

import { blockClock, retryAfterSeconds } from '../bundle-embargo.js';
import type { ChainSubmission, RevealCheck } from '../chain-port.js';
import { startValidator } from '../service.js';
import { timelockRecordToJson } from '../timelock-record-json.js';
import { bountyBody, expectAttestedBundle, fakeChain, postExecutor, silent, startInDir, tempDir, testConfig, useCleanups, useKeys } from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

/** A text sink for the auditor CLI. */
function sink(): { stdout: { write: (s: string) => boolean }; stderr: { write: (s: string) => boolean }; out: () => string } {
  let out = '';
  return {
    stdout: {
      write: (s: string) => {
        out += s;
        return true;
      },
    },
    stderr: { write: () => true },
    out: () => out,
  };
}

describe('the bundle embargo on a commit-reveal v4 subnet (real HTTP, real SQLite; chain port scripted)', () => {
  it("withholds a timelocked epoch's bundle, weights and miner pages with 425 BUNDLE_EMBARGOED until its reveal is confirmed, then serves the bundle unchanged; the auditor reports it embargoed, not failed", async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    // Epoch 0 is set with set_weights (nothing to embargo); epoch 1 is a timelocked commit revealed at block 25, round 1234.
    const record = timelockRecordToJson({ revealRound: 1234n, commitBlock: 21n } as unknown as TimelockedCommitRecord);
    const plain = chain.setWeights.bind(chain);
    let timelocked = false;
    chain.setWeights = async (uids, weights): Promise<ChainSubmission> => {
      const landed = await plain(uids, weights);
      return timelocked
        ? { ...landed, call: 'SubtensorModule.commit_timelocked_mechanism_weights', timelock: { record, dueBlock: 25n, commitHash: `0x${'ee'.repeat(32)}` } }
        : landed;
    };
    let answer: RevealCheck = { status: 'pending' };
    chain.confirmReveal = () => Promise.resolve(answer);
    const config = testConfig(t.dir);
    const v = await startValidator({ config, chain, logger: silent, autoTick: false });
    cleanups.push(() => v.stop());
    const [m1, m2] = [k.miners[1]!.address, k.miners[2]!.address];
    await v.tick();
    expect((await postExecutor(v.url, '/v1/bounty-records', bountyBody('e0', m1))).status).toBe(201);
    chain.headBlock = 11n;
    await v.tick(); // closes epoch 0 (set_weights)
    timelocked = true;
    expect((await postExecutor(v.url, '/v1/bounty-records', bountyBody('e1', m2))).status).toBe(201);
    chain.headBlock = 21n;
    await v.tick(); // closes epoch 1 (timelocked commit, reveal pending)
    expect((await v.storage.getEpoch(1))?.revealStatus).toBe('pending');

    // The bundle: 425 with the reveal block and round, a Retry-After, and a coded message.
    const refused = await fetch(`${v.url}/v1/epochs/1/bundle`);
    expect(refused.status).toBe(425);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 5).toBe(true);
    const refusal = (await refused.json()) as { error: Record<string, unknown> };
    expect(refusal.error).toMatchObject({ code: 'BUNDLE_EMBARGOED', epoch: 1, reveal_block: '25', reveal_round: '1234', retry_after_seconds: retryAfter });
    expect(String(refusal.error['message'])).toMatch(/block 25 \(drand round 1234\)/);
    // A set_weights epoch is never embargoed.
    expect((await fetch(`${v.url}/v1/epochs/0/bundle`)).status).toBe(200);
    // The stored bundle holds the weights the chain has not revealed: nothing served may carry them.
    const stored = (await v.storage.getEpoch(1))?.bundle ?? '';
    expect(stored).toContain(m2);

    // The epoch list names the embargo (and still the digest: a hash reveals nothing).
    const listed = ((await (await fetch(`${v.url}/v1/epochs`)).json()) as { epochs: Record<string, unknown>[] }).epochs;
    expect(listed.find((e) => e['epoch'] === 1)).toMatchObject({
      embargo: { code: 'BUNDLE_EMBARGOED', reveal_block: '25', reveal_round: '1234' },
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(listed.find((e) => e['epoch'] === 0)?.['embargo']).toBeNull();
    expect(JSON.stringify(listed)).not.toContain(m2);

    // The latest weights: the newest public ones (epoch 0), naming the newer embargoed epoch.
    const latest = (await (await fetch(`${v.url}/v1/weights/latest`)).json()) as Record<string, unknown>;
    expect(latest).toMatchObject({ epoch: 0, embargoed: [{ epoch: 1, reveal_block: '25', reveal_round: '1234' }] });

    // The pages: no link, no scores, no miner story of the embargoed epoch.
    const overview = await (await fetch(`${v.url}/pages`)).text();
    expect(overview).toContain('embargoed until the chain reveals it (block 25)');
    expect(overview).not.toContain('/v1/epochs/1/bundle');
    expect(overview).not.toContain(m2);
    expect((await fetch(`${v.url}/pages/miners/${m2}`)).status).toBe(404);
    expect((await fetch(`${v.url}/pages/miners/${m1}?epoch=1`)).status).toBe(404);

    // The auditor: embargoed with when to try again, not a failure.
    const out = join(t.dir, 'fetched');
    const fetched = await fetchBundles({ validator: v.url, from: 0, to: 1, outDir: out, retries: 0 });
    expect(fetched.map((f) => f.status)).toEqual(['saved', 'embargoed']);
    expect(fetched[1]).toMatchObject({ attempts: 1, embargo: { epoch: 1, revealBlock: '25', revealRound: '1234', retryAfterSeconds: retryAfter } });
    expect(fetched[1]?.error).toMatch(/embargoed until the chain reveals epoch 1's commit-reveal weights \(block 25, drand round 1234\); try after \d{4}-/);
    const published = await readPublishedBundles(v.url, { verify: await signatureVerifier() });
    expect(published.map((p) => p.problem?.code ?? 'verified')).toEqual(['verified', 'AUDITOR_BUNDLE_EMBARGOED']);
    const io = sink();
    expect(await runCli(['fetch', '--validator', v.url, '--from', '0', '--to', '1', '--out', join(t.dir, 'cli'), '--quiet'], io)).toBe(0);
    expect(io.out()).toMatch(/epoch 1: embargoed: .*try after/);
    expect(io.out()).toContain('1/2 bundle(s) saved');

    // The reveal is confirmed: everything is served, the bundle byte for byte as signed at close.
    answer = { status: 'revealed', block: 25n, blockHash: `0x${'cd'.repeat(32)}` };
    chain.headBlock = 26n;
    await v.tick();
    await expect.poll(async () => (await v.storage.getEpoch(1))?.revealStatus, { timeout: 20_000 }).toBe('revealed');
    const served = await fetch(`${v.url}/v1/epochs/1/bundle`);
    expect(served.status).toBe(200);
    const text = await served.text();
    await expectAttestedBundle(text, stored, { status: 'revealed', reveal_block: '25', reveal_round: '1234', commit_block: '21' });
    expect(`${text}\n`).toBe(readFileSync(join(config.bundles.dir, 'epoch-1.json'), 'utf8'));
    expect(((await (await fetch(`${v.url}/v1/weights/latest`)).json()) as Record<string, unknown>)['epoch']).toBe(1);
    expect(await (await fetch(`${v.url}/pages`)).text()).toContain('/v1/epochs/1/bundle');
    expect((await fetch(`${v.url}/pages/miners/${m2}`)).status).toBe(200);
    const again = await fetchBundles({ validator: v.url, from: 1, to: 1, outDir: out, retries: 0 });
    expect(again[0]?.status).toBe('saved');
    expect(readFileSync(join(out, 'epoch-1.json'), 'utf8')).toBe(text);
  }, 60_000);

  it('an overdue or dropped reveal lifts the embargo too (the reveal round has passed: the commit is public anyway)', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    const plain = chain.setWeights.bind(chain);
    chain.setWeights = async (uids, weights): Promise<ChainSubmission> => ({
      ...(await plain(uids, weights)),
      timelock: { record: 'not a record', dueBlock: 15n, commitHash: `0x${'ee'.repeat(32)}` },
    });
    chain.confirmReveal = () => Promise.resolve({ status: 'pending' });
    const v = await startInDir(t.dir, chain, cleanups);
    await v.tick();
    expect((await postExecutor(v.url, '/v1/bounty-records', bountyBody('e0', k.miners[1]!.address))).status).toBe(201);
    chain.headBlock = 11n;
    await v.tick();
    const refused = await fetch(`${v.url}/v1/epochs/0/bundle`);
    expect(refused.status).toBe(425);
    // The stored record is unreadable: the round is not known, the reveal block is.
    expect(((await refused.json()) as { error: Record<string, unknown> }).error).toMatchObject({ reveal_block: '15', reveal_round: null });
    // Past the overdue bound (two epochs of 10 blocks after the due block) the reveal is final and the bundle public.
    chain.headBlock = 15n + 22n;
    await v.tick();
    await expect.poll(async () => (await v.storage.getEpoch(0))?.revealStatus, { timeout: 20_000 }).toBe('unconfirmed');
    expect((await fetch(`${v.url}/v1/epochs/0/bundle`)).status).toBe(200);
  }, 60_000);
});

describe('Retry-After of an embargo (block clock)', () => {
  it('is the time until the reveal block at the observed block rate, at least 5 s; 60 s while the rate is unknown', () => {
    const clock = blockClock();
    const until = (b: bigint): number | undefined => clock.secondsUntil(b, 120_000);
    const embargo = { epoch: 1, revealBlock: 120n, revealRound: 9n, commitHash: null, scheme: 'timelock' as const };
    expect(retryAfterSeconds(embargo, until)).toBe(60);
    clock.observe(100n, 0);
    clock.observe(110n, 120_000); // 12 s per block
    expect(retryAfterSeconds(embargo, until)).toBe(120);
    expect(retryAfterSeconds({ ...embargo, revealBlock: 110n }, until)).toBe(5);
    expect(retryAfterSeconds({ ...embargo, revealBlock: null }, until)).toBe(60);
  });

  it('measures from the first time the lowest head was seen: the same head read again later moves nothing', () => {
    const clock = blockClock();
    clock.observe(100n, 0);
    expect(clock.secondsUntil(120n, 0)).toBeUndefined(); // one head: no rate yet
    clock.observe(100n, 6_000); // the head read again, unchanged
    expect(clock.secondsUntil(120n, 6_000)).toBeUndefined();
    clock.observe(110n, 120_000);
    clock.observe(110n, 126_000);
    // 12 s a block from (100, 0) to (110, 120 000): block 120 is due at 240 000.
    expect(clock.secondsUntil(120n, 120_000)).toBe(120);
  });

  it('a head below the first one (a reorganisation, a lagging endpoint) starts the measure again instead of giving a negative rate', () => {
    const clock = blockClock();
    clock.observe(100n, 0);
    clock.observe(110n, 120_000);
    clock.observe(95n, 130_000);
    expect(clock.secondsUntil(120n, 130_000)).toBeUndefined(); // one head since: no rate yet (the caller waits 60 s)
    clock.observe(96n, 142_000);
    // 12 s a block from (95, 130 000) to (96, 142 000): block 120 is due at 142 000 + 24 x 12 000.
    expect(clock.secondsUntil(120n, 142_000)).toBe(288);
  });
});
