import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { resolveConfig } from '../config.js';
import { startValidator } from '../service.js';
import { BUILT_CLI, expectBuiltCli, fakeChain, keys, scoring, tempDir, TOKEN } from './helpers.js';

/** The validator signs with a btcli wallet hotkey: configuration, BT_WALLET_* variables, --wallet.* flags. */

const VECTORS = join(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..', 'shared'), 'vectors', 'wallets');
const uriVector = (
  JSON.parse(readFileSync(join(VECTORS, 'index.json'), 'utf8')) as {
    files: { path: string; expected: { ss58Address: string; privateKey_btwallet?: string } }[];
  }
).files.find((f) => f.path === 'wallets/miner/hotkeys/uri')!;

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => {
  cleanup();
});

const base = { netuid: 1, scoring };

describe('wallet configuration', () => {
  it('defaults to wallet default/default under ~/.bittensor/wallets', () => {
    expect(resolveConfig({ object: base }).wallet).toEqual({ name: 'default', hotkey: 'default', path: '~/.bittensor/wallets' });
  });

  it('BT_WALLET_* override the file, SUBNET_VALIDATOR_WALLET__* override those, --wallet.* flags override all', () => {
    const object = { ...base, wallet: { name: 'file', hotkey: 'file', path: '/file' } };
    const env = { BT_WALLET_NAME: 'env', BT_WALLET_HOTKEY: 'env', BT_WALLET_PATH: '/env' };
    expect(resolveConfig({ object, env }).wallet).toEqual({ name: 'env', hotkey: 'env', path: '/env' });
    expect(resolveConfig({ object, env: { ...env, SUBNET_VALIDATOR_WALLET__HOTKEY: 'prefixed' } }).wallet.hotkey).toBe('prefixed');
    expect(resolveConfig({ object, env, flags: { walletName: 'flag', walletHotkey: 'flag', walletPath: '/flag' } }).wallet).toEqual({
      name: 'flag',
      hotkey: 'flag',
      path: '/flag',
    });
  });
});

describe('start-up with a btcli wallet', () => {
  it('loads the hotkey of the configured wallet (privateKey-only form) and logs the SS58 address it signs with, and no secret', async () => {
    mkdirSync(join(dir, 'wallets', 'miner', 'hotkeys'), { recursive: true });
    const file = join(dir, 'wallets', 'miner', 'hotkeys', 'uri');
    copyFileSync(join(VECTORS, uriVector.path), file);
    chmodSync(file, 0o600);
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const config = resolveConfig({
      object: {
        ...base,
        server: { port: 0, executor_token: TOKEN },
        database: { path: join(dir, 'validator.sqlite') },
        chain: { epoch_length: 10, poll_ms: 20, commit_store: join(dir, 'commits.json') },
        bundles: { dir: join(dir, 'bundles') },
      },
      env: { BT_WALLET_NAME: 'miner', BT_WALLET_PATH: join(dir, 'wallets') },
      flags: { walletHotkey: 'uri' },
    });
    const service = await startValidator({ config, chain: fakeChain(await keys()), logger, autoTick: false });
    await service.stop();
    const signing = lines.map((l) => JSON.parse(l) as { msg: string; hotkey?: string }).find((l) => l.hotkey !== undefined);
    expect(signing?.hotkey).toBe(uriVector.expected.ss58Address);
    expect(signing?.msg).toContain(uriVector.expected.ss58Address);
    expect(lines.join('')).not.toContain(uriVector.expected.privateKey_btwallet!.slice(2, 34));
  });

  it('the CLI passes --wallet.name/--wallet.hotkey/--wallet.path to the key loader (a missing hotkey is named)', () => {
    expectBuiltCli();
    const file = join(dir, 'validator.yaml');
    writeFileSync(
      file,
      `netuid: 1\nscoring:\n  pipeline: { min_validators: 1, min_stake_fraction: 0 }\n  challenges:\n    - { id: term, kind: term_pass_rate, alpha: 0.2, total_tasks: 4 }\n`,
    );
    const run = spawnSync(
      process.execPath,
      [BUILT_CLI, 'run', '--config', file, '--wallet.name', 'vali', '--wallet.hotkey', 'hk', '--wallet.path', join(dir, 'w')],
      {
        encoding: 'utf8',
        env: { ...process.env, SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN: TOKEN, BT_WALLET_NAME: 'ignored' },
        timeout: 60_000,
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('WALLET_KEYFILE_NOT_FOUND');
    expect(run.stderr).toContain(join(dir, 'w', 'vali', 'hotkeys', 'hk'));
  }, 90_000);
});
