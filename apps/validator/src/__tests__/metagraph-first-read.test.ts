import { afterEach, describe, expect, it } from 'vitest';

import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
import { bountyBody, fakeChain, freePort, postExecutor, postSigned, silent, testConfig, TOKEN, until, useKeys, useTempDir } from './helpers.js';

const k = useKeys();
const t = useTempDir();

interface ErrorAnswer {
  readonly error?: { readonly code: string; readonly message: string };
}

let running: ValidatorService | undefined;
let release: (() => void) | undefined;
afterEach(async () => {
  release?.();
  await running?.stop();
  running = undefined;
});

describe('ingest while the first metagraph read after a start is in flight (docs/spec.md G.43)', () => {
  it("a registered miner's record and a registered peer's signed scores are 503 NOT_READY, not refused as unregistered, and are taken once the read is done", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const chain = fakeChain(k);
    const view = chain.view.bind(chain);
    // The node answers the first tick's metagraph read slowly (a real subnet's read takes seconds); it is held here.
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    chain.view = async () => {
      await gate;
      return view();
    };
    const config = testConfig(t.dir, { server: { port, executor_token: TOKEN, body_limit_bytes: 64 * 1024 } });
    const starting = startValidator({ config, chain, logger: silent, autoTick: false });
    // Listening: the first tick has read the head and waits on the metagraph.
    await until(
      'the validator to listen',
      () =>
        fetch(`${url}/readyz`).then(
          (r) => r.status,
          () => undefined,
        ),
      30_000,
      20,
    );

    const miner = k.miners[0]?.address ?? '';
    const record = await postExecutor(url, '/v1/bounty-records', bountyBody('first-read', miner, 3));
    const recordAnswer = (await record.json()) as ErrorAnswer;
    expect([record.status, recordAnswer.error?.code, record.headers.get('retry-after')]).toEqual([503, 'NOT_READY', '1']);
    expect(recordAnswer.error?.message).toBe(
      `the validator has not read the metagraph since it started, so whether the miner hotkey at body.miner_hotkey (${miner}) is registered is not known yet; send the request again shortly`,
    );
    const scores = { epoch: 0, challenge_id: 'term', scores: [{ miner_hotkey: miner, score: 0.5 }] };
    const signed = await postSigned(url, '/v1/peer-scores', k.peer, scores);
    const signedAnswer = (await signed.json()) as ErrorAnswer;
    expect([signed.status, signedAnswer.error?.code, signed.headers.get('retry-after')]).toEqual([503, 'NOT_READY', '1']);
    expect(signedAnswer.error?.message).toContain(`whether the signing hotkey (${k.peer.address}) is registered is not known yet`);

    release?.();
    running = await starting;
    // The same requests, sent again once the metagraph is read, are taken (a new nonce: a retry is a new request).
    expect((await postExecutor(url, '/v1/bounty-records', bountyBody('first-read', miner, 3))).status).toBe(201);
    expect((await postSigned(url, '/v1/peer-scores', k.peer, scores)).status).toBe(201);
    // An unregistered miner is still refused as such once the metagraph is known.
    const stranger = await postExecutor(url, '/v1/bounty-records', bountyBody('stranger', k.stranger.address, 3));
    expect([stranger.status, ((await stranger.json()) as ErrorAnswer).error?.code]).toEqual([422, 'MINER_NOT_REGISTERED']);
  }, 60_000);
});
