import { Writable } from 'node:stream';

import { isSubnetError } from '@subnet/core';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';

import { openPostgresStorage } from '../postgres-storage.js';
import { startValidator } from '../service.js';
import { fakeChain, keys, PG_URL, tempDir, testConfig } from './helpers.js';

/** No PostgreSQL listens on port 1 of 127.0.0.1: the connection is refused at once. */
const REFUSED = 'postgresql://admin:hunter1@127.0.0.1:1/validator?sslmode=disable&password=hunter2&sslpassword=hunter3';

/** A pino destination that keeps each line. */
function lineSink(): { lines: string[]; sink: Writable } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, sink };
}

describe('URL credentials never reach a log line or an error', () => {
  let cleanup: (() => void) | undefined;
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
  });

  it('the PostgreSQL open error names the redacted URL (both the userinfo and the query form)', async () => {
    const error: unknown = await openPostgresStorage({ url: REFUSED }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSubnetError(error, 'VALIDATOR_STORAGE')).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('postgresql://***@127.0.0.1:1/validator?sslmode=disable&password=***&sslpassword=***');
    expect(message).not.toMatch(/hunter/);
    // The reason leads, then what to do about it.
    expect(message).toContain('ECONNREFUSED');
    expect(message).toContain('nothing listens at that host and port: start PostgreSQL there, or correct the host and port of database.url');
  });

  it.skipIf(PG_URL === undefined)('a wrong password or a database that does not exist says what to correct (a real PostgreSQL)', async () => {
    const url = new URL(PG_URL!);
    const failure = async (u: URL): Promise<string> =>
      openPostgresStorage({ url: u.toString() }).then(
        async (storage) => {
          await storage.close();
          return 'opened';
        },
        (e: unknown) => (e as Error).message,
      );
    const wrong = new URL(url);
    wrong.password = 'not-the-password';
    expect(await failure(wrong)).toMatch(/password authentication failed .*; PostgreSQL refused the user or password: correct them in database\.url/);
    expect(await failure(wrong)).not.toContain('not-the-password');
    const missing = new URL(url);
    missing.pathname = '/no_such_database_here';
    expect(await failure(missing)).toMatch(/does not exist; the database named in database\.url does not exist: create it/);
  });

  it('the configuration logged at start-up and the start-up failure hide them', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const { lines, sink } = lineSink();
    const config = testConfig(t.dir, { database: { url: REFUSED }, chain: { endpoint: 'wss://node.example/ws?token=hunter4', epoch_length: 10, poll_ms: 20 } });
    const error: unknown = await startValidator({ config, chain: fakeChain(await keys()), logger: pino({ level: 'info' }, sink) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSubnetError(error, 'VALIDATOR_STORAGE')).toBe(true);
    expect((error as Error).message).not.toMatch(/hunter/);
    const starting = lines.find((l) => l.includes('"starting"'));
    expect(starting).toBeDefined();
    expect(starting).toContain('password=***');
    expect(starting).toContain('token=***');
    expect(lines.join('')).not.toMatch(/hunter/);
  });

  it('says it is starting, and where the hotkey is loaded from, before loading it (an encrypted keyfile takes seconds)', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const { lines, sink } = lineSink();
    // No such wallet: the key load fails, after the two lines.
    const config = testConfig(t.dir, { validator: {}, wallet: { path: t.dir, name: 'op', hotkey: 'hk' } });
    const error: unknown = await startValidator({ config, chain: fakeChain(await keys()), logger: pino({ level: 'info' }, sink) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSubnetError(error)).toBe(true);
    expect((error as { code: string }).code).toMatch(/^WALLET_/);
    const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toEqual(['starting', 'loading the hotkey from wallet op/hotkeys/hk (an encrypted keyfile takes a few seconds to open)']);
  });

  it('does not speak of an encrypted keyfile when the hotkey comes from validator.hotkey_uri (nothing to decrypt)', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const { lines, sink } = lineSink();
    // A URI no key can be derived from: the load fails right after the line under test.
    const config = testConfig(t.dir, { validator: { hotkey_uri: 'not a uri' } });
    const error: unknown = await startValidator({ config, chain: fakeChain(await keys()), logger: pino({ level: 'info' }, sink) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSubnetError(error)).toBe(true);
    const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toEqual(['starting', 'loading the hotkey from validator.hotkey_uri']);
  });
});
