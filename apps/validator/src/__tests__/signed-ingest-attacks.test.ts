import { readFileSync } from 'node:fs';

import { Keyring } from '@polkadot/keyring';
import { base58Decode, encodeAddress } from '@polkadot/util-crypto';

import type { Bundle } from '@subnet/bundle';
import { describe, expect, it } from 'vitest';

import type { ChainNeuron } from '../chain-port.js';
import { checkSssaAssignment } from '../ingest-checks.js';
import { startValidator } from '../service.js';
import { signRequest } from '../signed-request.js';
import type { RegisteredTask } from '../task-registry.js';
import {
  fakeChain,
  nonce,
  postSigned,
  silent,
  sssaDoc,
  startWithSecondPeer,
  tempDir,
  testConfig,
  TOKEN,
  twoBytePrefix42,
  useKeys,
  useService,
} from './helpers.js';

/**
 * A hostile miner or peer against the signed endpoints (`POST /v1/sssa`, `POST /v1/peer-scores`), over real
 * HTTP on 127.0.0.1, a real SQLite file and real sr25519 signatures (docs/spec.md G.6 "Signed requests").
 */

const k = useKeys();

const BURST = 3;

const validator = useService(k, {
  config: (dir) => {
    const base = testConfig(dir);
    // One token a minute after the burst: nothing refills while a test runs.
    return { ...base, server: { ...base.server, signer_rate_per_minute: 1, signer_burst: BURST } };
  },
});

type ErrorReply = { error: { code: string; message: string; path?: string } };

async function send(path: string, text: string, headers: Record<string, string>): Promise<{ status: number; body: ErrorReply }> {
  const res = await fetch(`${validator.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text });
  return { status: res.status, body: (await res.json()) as ErrorReply };
}

describe('a replayed request does not spend the signer’s rate budget', () => {
  it('decision: replays of a used nonce are 409 NONCE_REPLAYED without taking a token, so the signer’s next fresh request is served', async () => {
    const miner = k.miners[0]!;
    const text = JSON.stringify({ task_id: 'replay-budget', sssa: sssaDoc() });
    const headers = signRequest(miner, { method: 'POST', path: '/v1/sssa', body: text, timestamp: Date.now(), nonce: nonce() });
    // The miner's own request (no task is registered: it passes the signature and the limiter, then 404).
    expect((await send('/v1/sssa', text, headers)).body.error.code).toBe('UNKNOWN_TASK');
    // Whoever saw it (a hostile validator it was also sent to, a proxy) replays the same bytes and headers.
    const replays: string[] = [];
    for (let i = 0; i < BURST + 2; i++) replays.push((await send('/v1/sssa', text, headers)).body.error.code);
    expect(replays).toEqual(Array.from({ length: BURST + 2 }, () => 'NONCE_REPLAYED'));
    // The miner's budget is untouched by the replays: its next signed requests are served up to its burst.
    const fresh: string[] = [];
    for (let i = 0; i < BURST; i++) {
      const next = JSON.stringify({ task_id: `replay-budget-${i}`, sssa: sssaDoc() });
      const signed = signRequest(miner, { method: 'POST', path: '/v1/sssa', body: next, timestamp: Date.now(), nonce: nonce() });
      fresh.push((await send('/v1/sssa', next, signed)).body.error.code);
    }
    expect(fresh).toEqual(['UNKNOWN_TASK', 'UNKNOWN_TASK', 'RATE_LIMITED']);
  });
});

describe('a refused signature says which header and value', () => {
  const text = JSON.stringify({ task_id: 'header-messages', sssa: sssaDoc() });
  const signedBy = (i: number, opts: { timestamp?: number; nonce?: string } = {}) =>
    signRequest(k.miners[i]!, { method: 'POST', path: '/v1/sssa', body: text, timestamp: opts.timestamp ?? Date.now(), nonce: opts.nonce ?? nonce() });

  it('401 UNSIGNED names every missing header', async () => {
    const { 'x-subnet-nonce': _n, 'x-subnet-signature': _s, ...partial } = signedBy(1);
    const res = await send('/v1/sssa', text, partial);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNSIGNED');
    expect(res.body.error.path).toBe('headers.x-subnet-nonce');
    expect(res.body.error.message).toContain('x-subnet-nonce, x-subnet-signature');
  });

  it('401 MALFORMED_SIGNATURE for a short nonce names the nonce header, its value and the rule (not the signature)', async () => {
    const res = await send('/v1/sssa', text, signedBy(1, { nonce: 'abc123' }));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('MALFORMED_SIGNATURE');
    expect(res.body.error.path).toBe('headers.x-subnet-nonce');
    expect(res.body.error.message).toContain('"abc123"');
    expect(res.body.error.message).toContain('16-128');
  });

  it('401 MALFORMED_SIGNATURE for a timestamp in seconds names the timestamp header and value', async () => {
    const headers = { ...signedBy(1), 'x-subnet-timestamp': '1763798400.5' };
    const res = await send('/v1/sssa', text, headers);
    expect(res.body.error.code).toBe('MALFORMED_SIGNATURE');
    expect(res.body.error.path).toBe('headers.x-subnet-timestamp');
    expect(res.body.error.message).toContain('"1763798400.5"');
  });

  it('decision (docs/spec.md G.39): a timestamp with a leading zero is 401 MALFORMED_SIGNATURE naming the header and value, not read as the number it spells', async () => {
    // Signed with the number's own text: the server used to read "0" + it as the same number, so the signature held.
    const signed = signedBy(1);
    const padded = `0${signed['x-subnet-timestamp']!}`;
    const res = await send('/v1/sssa', text, { ...signed, 'x-subnet-timestamp': padded });
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({
      code: 'MALFORMED_SIGNATURE',
      message: `signed request refused: x-subnet-timestamp "${padded}" is not Unix milliseconds (1-16 decimal digits, no leading zero)`,
      path: 'headers.x-subnet-timestamp',
    });
  });

  it('401 STALE_TIMESTAMP names the timestamp, the server time and the allowed skew', async () => {
    const stale = Date.now() - 10 * 60_000;
    const res = await send('/v1/sssa', text, signedBy(2, { timestamp: stale }));
    expect(res.body.error.code).toBe('STALE_TIMESTAMP');
    expect(res.body.error.path).toBe('headers.x-subnet-timestamp');
    expect(res.body.error.message).toContain(String(stale));
    expect(res.body.error.message).toContain('60 s');
    expect(res.body.error.message).toMatch(/server time is [0-9]{13}/);
  });

  it('401 BAD_SIGNATURE names the signature header and the hotkey it was checked against', async () => {
    const headers = { ...signedBy(3), 'x-subnet-hotkey': k.miners[2]!.address };
    const res = await send('/v1/sssa', text, headers);
    expect(res.body.error.code).toBe('BAD_SIGNATURE');
    expect(res.body.error.path).toBe('headers.x-subnet-signature');
    expect(res.body.error.message).toContain(k.miners[2]!.address);
  });

  it('403 NOT_REGISTERED and NOT_A_VALIDATOR name the signing hotkey', async () => {
    const stranger = k.stranger.address;
    const res = await send('/v1/sssa', text, signRequest(k.stranger, { method: 'POST', path: '/v1/sssa', body: text, timestamp: Date.now(), nonce: nonce() }));
    expect([res.status, res.body.error.code, res.body.error.path]).toEqual([403, 'NOT_REGISTERED', 'headers.x-subnet-hotkey']);
    expect(res.body.error.message).toContain(stranger);
    const doc = JSON.stringify({ epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: k.miners[0]!.address, score: 1 }] });
    const miner = k.miners[3]!;
    const peer = await send(
      '/v1/peer-scores',
      doc,
      signRequest(miner, { method: 'POST', path: '/v1/peer-scores', body: doc, timestamp: Date.now(), nonce: nonce() }),
    );
    expect([peer.status, peer.body.error.code, peer.body.error.path]).toEqual([403, 'NOT_A_VALIDATOR', 'headers.x-subnet-hotkey']);
    expect(peer.body.error.message).toContain(miner.address);
  });
});

describe('a hotkey header is one spelling of a key (SS58, prefix 42)', () => {
  it('decision: the same key in prefix 0 or 2 is 400 WRONG_SS58_PREFIX naming the header, the value, the prefix found and 42 (not 403 NOT_REGISTERED)', async () => {
    const miner = k.miners[1]!;
    for (const prefix of [0, 2]) {
      const spelled = encodeAddress(miner.publicKey, prefix);
      const text = JSON.stringify({ task_id: `prefix-${prefix}`, sssa: sssaDoc() });
      const headers = {
        ...signRequest(miner, { method: 'POST', path: '/v1/sssa', body: text, timestamp: Date.now(), nonce: nonce() }),
        'x-subnet-hotkey': spelled,
      };
      const res = await send('/v1/sssa', text, headers);
      expect([res.status, res.body.error.code, res.body.error.path]).toEqual([400, 'WRONG_SS58_PREFIX', 'headers.x-subnet-hotkey']);
      expect(res.body.error.message).toContain(`"${spelled}"`);
      expect(res.body.error.message).toContain(`prefix ${prefix};`);
      expect(res.body.error.message).toContain('takes prefix 42');
      expect(res.body.error.message).toContain(miner.address);
    }
    // The two-byte form of prefix 42 is another string for the same key: refused the same way.
    const twoByte = twoBytePrefix42(miner.publicKey);
    expect(base58Decode(twoByte)).toHaveLength(36);
    const text = JSON.stringify({ task_id: 'prefix-42-two-byte', sssa: sssaDoc() });
    const res = await send('/v1/sssa', text, {
      ...signRequest(miner, { method: 'POST', path: '/v1/sssa', body: text, timestamp: Date.now(), nonce: nonce() }),
      'x-subnet-hotkey': twoByte,
    });
    expect([res.status, res.body.error.code]).toEqual([400, 'WRONG_SS58_PREFIX']);
    expect(res.body.error.message).toContain('prefix 42 in its two-byte form');
  });

  it('decision: a request accepted under prefix 42 and replayed under prefix 0, 2 or as the hex public key opens no second nonce space and no second bucket', async () => {
    const miner = k.miners[2]!;
    const text = JSON.stringify({ task_id: 'one-nonce-space', sssa: sssaDoc() });
    const headers = signRequest(miner, { method: 'POST', path: '/v1/sssa', body: text, timestamp: Date.now(), nonce: nonce() });
    expect((await send('/v1/sssa', text, headers)).body.error.code).toBe('UNKNOWN_TASK');
    const hex = `0x${Buffer.from(miner.publicKey).toString('hex')}`;
    const replays = [];
    for (const spelled of [encodeAddress(miner.publicKey, 0), encodeAddress(miner.publicKey, 2), twoBytePrefix42(miner.publicKey), hex]) {
      const res = await send('/v1/sssa', text, { ...headers, 'x-subnet-hotkey': spelled });
      replays.push([res.status, res.body.error.code]);
    }
    // None reached the nonce store or the limiter: the hex key (which @polkadot's verifier also takes) is no SS58 address.
    expect(replays).toEqual([
      [400, 'WRONG_SS58_PREFIX'],
      [400, 'WRONG_SS58_PREFIX'],
      [400, 'WRONG_SS58_PREFIX'],
      [401, 'MALFORMED_SIGNATURE'],
    ]);
    const again = await send('/v1/sssa', text, headers);
    expect([again.status, again.body.error.code]).toEqual([409, 'NONCE_REPLAYED']);
  });

  it('a hex public key in x-subnet-hotkey is 401 MALFORMED_SIGNATURE naming the header, its value and the rule', async () => {
    const miner = k.miners[3]!;
    const hex = `0x${Buffer.from(miner.publicKey).toString('hex')}`;
    const text = JSON.stringify({ task_id: 'hex-hotkey', sssa: sssaDoc() });
    const res = await send('/v1/sssa', text, {
      ...signRequest(miner, { method: 'POST', path: '/v1/sssa', body: text, timestamp: Date.now(), nonce: nonce() }),
      'x-subnet-hotkey': hex,
    });
    expect([res.status, res.body.error.code, res.body.error.path]).toEqual([401, 'MALFORMED_SIGNATURE', 'headers.x-subnet-hotkey']);
    expect(res.body.error.message).toContain('is not an SS58 address');
    expect(res.body.error.message).toContain(hex.slice(0, 40));
  });
});

describe('an unregistered signer gets no rate bucket', () => {
  const bucketsNow = async (): Promise<number> => {
    const text = await (await fetch(`${validator.url}/metrics`)).text();
    const line = /^validator_signer_rate_buckets (\d+)$/m.exec(text);
    if (line === null) throw new Error('validator_signer_rate_buckets is not served');
    return Number(line[1]);
  };

  it('decision: registration is checked before the rate limit, so an unregistered signer is 403 every time, never 429', async () => {
    const codes: string[] = [];
    for (let i = 0; i < BURST + 2; i++) {
      const text = JSON.stringify({ task_id: `stranger-${i}`, sssa: sssaDoc() });
      codes.push(
        (await send('/v1/sssa', text, signRequest(k.stranger, { method: 'POST', path: '/v1/sssa', body: text, timestamp: Date.now(), nonce: nonce() }))).body
          .error.code,
      );
    }
    expect(codes).toEqual(Array.from({ length: BURST + 2 }, () => 'NOT_REGISTERED'));
  });

  it('decision: a flood of fresh validly signed keys leaves the limiter with no more buckets than before', async () => {
    // One registered request first, so the gauge has been set at least once in this process.
    const text0 = JSON.stringify({ task_id: 'gauge-set', sssa: sssaDoc() });
    expect(
      (await send('/v1/sssa', text0, signRequest(k.miners[0]!, { method: 'POST', path: '/v1/sssa', body: text0, timestamp: Date.now(), nonce: nonce() })))
        .status,
    ).not.toBe(401);
    const before = await bucketsNow();
    const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
    const answers = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const fresh = keyring.addFromUri(`//fresh-${i}`);
      const text = JSON.stringify({ task_id: `fresh-${i}`, sssa: sssaDoc() });
      answers.add(
        (await send('/v1/sssa', text, signRequest(fresh, { method: 'POST', path: '/v1/sssa', body: text, timestamp: Date.now(), nonce: nonce() }))).body.error
          .code,
      );
    }
    expect([...answers]).toEqual(['NOT_REGISTERED']);
    expect(await bucketsNow()).toBe(before);
  });
});

describe('an SSSA for a task of another epoch', () => {
  it('409 TASK_EPOCH_OVER once the task’s epoch has ended, naming the task’s epoch and the current one', async () => {
    const registered = await fetch(`${validator.url}/v1/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ task_id: 'task-of-epoch-0', task_type: 'mcp_server' }),
    });
    const group = ((await registered.json()) as { group: { hotkey: string }[] }).group;
    expect(group.map((g) => g.hotkey)).toContain(k.miners[1]!.address);
    validator.chain.headBlock = 12n;
    await validator.service.tick();
    expect(validator.service.currentEpoch()).toBe(1);
    const text = JSON.stringify({ task_id: 'task-of-epoch-0', sssa: sssaDoc() });
    const res = await send(
      '/v1/sssa',
      text,
      signRequest(k.miners[1]!, { method: 'POST', path: '/v1/sssa', body: text, timestamp: Date.now(), nonce: nonce() }),
    );
    expect([res.status, res.body.error.code, res.body.error.path]).toEqual([409, 'TASK_EPOCH_OVER', 'body.task_id']);
    expect(res.body.error.message).toContain('epoch 0, which is over');
    expect(res.body.error.message).toContain('this validator is in epoch 1');
  });

  it('decision: a task of an epoch this instance has not reached yet (HA: the leader registered it after a head this standby has not read) is 503 TASK_EPOCH_NOT_STARTED, to be sent again, not a final 409 TASK_EPOCH_OVER', () => {
    const task = { epoch: 8, seq: 1, assignment: { members: [{ hotkey: 'hk-1', role: 'primary' }] } } as unknown as RegisteredTask;
    const refused = checkSssaAssignment(task, 7, 'hk-1');
    expect(refused).toMatchObject({ status: 503, code: 'TASK_EPOCH_NOT_STARTED', path: 'body.task_id' });
    expect((refused as { message: string }).message).toContain('epoch 8');
    expect((refused as { message: string }).message).toContain('epoch 7');
    expect(checkSssaAssignment(task, 8, 'hk-1')).toEqual({ role: 'primary' });
  });
});

describe('replay protection across a restart and under concurrency (one SQLite file)', () => {
  it('a request accepted before a restart is NONCE_REPLAYED after it; eight copies sent at once are taken once', async () => {
    const t = tempDir();
    const own = fakeChain(k);
    const config = testConfig(t.dir);
    let first = await startValidator({ config, chain: own, logger: silent, autoTick: false });
    try {
      const text = JSON.stringify({ epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: k.miners[0]!.address, score: 0.5 }] });
      const headers = signRequest(k.peer, { method: 'POST', path: '/v1/peer-scores', body: text, timestamp: Date.now(), nonce: nonce() });
      const post = (base: string, body: string, h: Record<string, string>) =>
        fetch(`${base}/v1/peer-scores`, { method: 'POST', headers: { 'content-type': 'application/json', ...h }, body });
      expect((await post(first.url, text, headers)).status).toBe(201);
      await first.stop();
      first = await startValidator({ config, chain: own, logger: silent, autoTick: false });
      const replay = await post(first.url, text, headers);
      expect([replay.status, ((await replay.json()) as ErrorReply).error.code]).toEqual([409, 'NONCE_REPLAYED']);

      const other = JSON.stringify({ epoch: 0, challenge_id: 'workflow', scores: [{ miner_hotkey: k.miners[1]!.address, score: 0.25 }] });
      const once = signRequest(k.peer, { method: 'POST', path: '/v1/peer-scores', body: other, timestamp: Date.now(), nonce: nonce() });
      const statuses = await Promise.all(Array.from({ length: 8 }, () => post(first.url, other, once).then((r) => r.status)));
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    } finally {
      await first.stop();
      t.cleanup();
    }
  });
});

describe('the nonce horizon (docs/spec.md G.6): a request whose nonce may have been pruned is refused', () => {
  it('decision: after a restart that raised max_clock_skew_seconds, a request signed before the last prune is 401 STALE_TIMESTAMP, not taken again', async () => {
    const t = tempDir();
    const own = fakeChain(k);
    // The run's clock is 20 minutes back, so a prune on the real clock would delete the nonce as well.
    const start = Date.now() - 20 * 60_000;
    let clock = start;
    const server = (skew: number) => ({ port: 0, executor_token: TOKEN, body_limit_bytes: 64 * 1024, max_clock_skew_seconds: skew });
    let service = await startValidator({ config: testConfig(t.dir, { server: server(30) }), chain: own, logger: silent, autoTick: false, now: () => clock });
    try {
      const text = JSON.stringify({ epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: k.miners[0]!.address, score: 0.5 }] });
      const headers = signRequest(k.peer, { method: 'POST', path: '/v1/peer-scores', body: text, timestamp: start, nonce: nonce() });
      const post = (base: string) =>
        fetch(`${base}/v1/peer-scores`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text });
      expect((await post(service.url)).status).toBe(201);
      // 61 s later the epoch ends: nonces signed more than twice the skew (60 s) ago are pruned, this one among them.
      clock = start + 61_000;
      own.headBlock = 10n;
      await service.tick();
      await service.stop();
      // The operator restarts with a skew of 300 s: the request, 100 s old, is within it, but its nonce is gone.
      clock = start + 100_000;
      service = await startValidator({ config: testConfig(t.dir, { server: server(300) }), chain: own, logger: silent, autoTick: false, now: () => clock });
      const replay = await post(service.url);
      // (the build before the horizon took it: 201 with no error)
      const body = (await replay.json()) as Partial<ErrorReply>;
      expect([replay.status, body.error?.code, body.error?.path]).toEqual([401, 'STALE_TIMESTAMP', 'headers.x-subnet-timestamp']);
      expect(body.error?.message).toContain(
        `x-subnet-timestamp ${start} is before ${start + 1_000}, the oldest timestamp whose nonces this validator still keeps`,
      );
      // A request signed now is taken.
      const fresh = JSON.stringify({ epoch: 1, challenge_id: 'term', scores: [{ miner_hotkey: k.miners[1]!.address, score: 0.25 }] });
      const signed = signRequest(k.peer, { method: 'POST', path: '/v1/peer-scores', body: fresh, timestamp: clock, nonce: nonce() });
      expect(
        (await fetch(`${service.url}/v1/peer-scores`, { method: 'POST', headers: { 'content-type': 'application/json', ...signed }, body: fresh })).status,
      ).toBe(201);
    } finally {
      await service.stop();
      t.cleanup();
    }
  });
});

describe('what the close does with documents of a peer that lost its permit, or has zero stake', () => {
  it('a taken document whose peer has no permit at the close is excluded with BUNDLE_PEER_NOT_A_VALIDATOR; a zero-stake peer’s scores are listed as ignored; the epoch is submitted', async () => {
    const r = await startWithSecondPeer();
    try {
      const set = (hotkey: string, change: Partial<ChainNeuron>): void => {
        r.chain.neurons = r.chain.neurons.map((n) => (n.hotkey === hotkey ? { ...n, ...change } : n));
      };
      set(r.k.stranger.address, { stake: 0n });
      const doc = (score: number) => ({ epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: r.k.miners[0]!.address, score }] });
      expect((await postSigned(r.service.url, '/v1/peer-scores', r.k.peer, doc(0.5))).status).toBe(201);
      expect((await postSigned(r.service.url, '/v1/peer-scores', r.k.stranger, doc(0.9))).status).toBe(201);
      r.chain.headBlock = 12n;
      await r.service.tick();
      // Bob loses his validator permit before the close that counts his document.
      set(r.k.peer.address, { validatorPermit: false });
      r.chain.headBlock = 22n;
      await r.service.tick();
      const closed = r.outcomes.find((o) => o.epoch === 1)!;
      expect(closed.status).toBe('submitted');
      const bundle = (JSON.parse(readFileSync(closed.bundlePath!, 'utf8')) as { bundle: Bundle }).bundle;
      const excluded = bundle.result.excluded.filter((e) => e.list === 'peer_scores');
      expect(excluded.map((e) => e.code)).toEqual(['BUNDLE_PEER_NOT_A_VALIDATOR']);
      const term = JSON.stringify(bundle.result.aggregation);
      expect(term).toContain(`"zero_stake_ignored":["${r.k.stranger.address}"]`);
    } finally {
      await r.stop();
    }
  });
});

describe('prototype-named keys in a peer document are data', () => {
  it('`__proto__` as a document or score key is an unknown key named in a 400; `constructor` as a challenge id is a challenge that does not run here', async () => {
    const miner = JSON.stringify(k.miners[0]!.address);
    const cases = [
      `{"epoch":1,"challenge_id":"term","scores":[{"miner_hotkey":${miner},"score":0.5}],"__proto__":{"epoch":0}}`,
      `{"epoch":1,"challenge_id":"term","scores":[{"miner_hotkey":${miner},"score":0.5,"__proto__":{"score":1}}]}`,
      `{"epoch":1,"challenge_id":"constructor","scores":[{"miner_hotkey":${miner},"score":0.5}]}`,
    ];
    const answers = [];
    for (const text of cases) {
      const res = await send(
        '/v1/peer-scores',
        text,
        signRequest(k.peer, { method: 'POST', path: '/v1/peer-scores', body: text, timestamp: Date.now(), nonce: nonce() }),
      );
      answers.push([res.status, res.body.error.code, res.body.error.path, res.body.error.message.includes('__proto__')]);
    }
    expect(answers).toEqual([
      [400, 'INVALID_RECORD', 'body', true],
      [400, 'INVALID_RECORD', 'body.scores[0]', true],
      [404, 'CHALLENGE_NOT_CONFIGURED', 'body.challenge_id', false],
    ]);
  });
});

describe('a conflicting second record names what it conflicts with', () => {
  it('409 DUPLICATE_SSSA names the task; 409 RECORD_CONFLICT of a peer document names its epoch and challenge (not an internal record id)', async () => {
    const t = tempDir();
    const own = fakeChain(k);
    const svc = await startValidator({ config: testConfig(t.dir), chain: own, logger: silent, autoTick: false });
    try {
      const registered = await fetch(`${svc.url}/v1/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ task_id: 'twice', task_type: 'mcp_server' }),
      });
      expect(registered.status).toBe(201);
      const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as ErrorReply });
      expect((await postSigned(svc.url, '/v1/sssa', k.miners[0]!, { task_id: 'twice', sssa: sssaDoc() })).status).toBe(201);
      const second = await answer(await postSigned(svc.url, '/v1/sssa', k.miners[0]!, { task_id: 'twice', sssa: sssaDoc('BLOCK') }));
      expect([second.status, second.body.error.code, second.body.error.path]).toEqual([409, 'DUPLICATE_SSSA', 'body.task_id']);
      expect(second.body.error.message).toContain('"twice"');
      expect(second.body.error.message).not.toContain('sssa-');

      const doc = (score: number) => ({ epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: k.miners[0]!.address, score }] });
      expect((await postSigned(svc.url, '/v1/peer-scores', k.peer, doc(0.5))).status).toBe(201);
      const other = await answer(await postSigned(svc.url, '/v1/peer-scores', k.peer, doc(0.6)));
      expect([other.status, other.body.error.code, other.body.error.path]).toEqual([409, 'RECORD_CONFLICT', 'body']);
      expect(other.body.error.message).toContain('epoch 0');
      expect(other.body.error.message).toContain('"term"');
      expect(other.body.error.message).not.toContain('peer-');
    } finally {
      await svc.stop();
      t.cleanup();
    }
  });
});
