import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';

import { isSubnetError } from '@subnet/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { WALLET_ERROR_CODES } from '../errors.js';
import { loadWalletHotkey } from '../load-wallet.js';
import { readKeyfile } from '../read-keyfile.js';
import { copyVectors, referencePasswordEnv, walletIndex } from './helpers.js';

const index = walletIndex();
let dir: string;
let cleanup: () => void;

beforeEach(() => {
  ({ dir, cleanup } = copyVectors());
});
afterEach(() => {
  cleanup();
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

function allText(error: unknown): string {
  return `${String(error)} ${inspect(error, { depth: 10 })} ${JSON.stringify((error as { context?: unknown }).context)}`;
}

it('the codes are append-only: this list only grows', () => {
  expect(Object.values(WALLET_ERROR_CODES)).toEqual([
    'WALLET_INVALID_NAME',
    'WALLET_KEYFILE_NOT_FOUND',
    'WALLET_INSECURE_FILE_MODE',
    'WALLET_INVALID_KEYFILE',
    'WALLET_PUBLIC_ONLY',
    'WALLET_PASSWORD_UNAVAILABLE',
    'WALLET_INVALID_PASSWORD_ENV',
    'WALLET_PASSWORD_FILE_UNREADABLE',
    'WALLET_WRONG_PASSWORD',
    'WALLET_UNSUPPORTED_ENCRYPTION',
    'WALLET_KEY_MISMATCH',
  ]);
});

describe('coded errors', () => {
  it('WALLET_WRONG_PASSWORD for a wrong password, and the password appears nowhere in the error', async () => {
    const file = index.files.find((f) => f.path === 'wallets/miner/hotkeys/locked')!;
    const wrong = file.wrong_password!.password;
    const passwordFile = join(dir, 'pw');
    writeFileSync(passwordFile, wrong, { mode: 0o600 });
    const error = await failure(readKeyfile(join(dir, file.path), { passwordFile, prompt: null, env: {} }));
    expect(isSubnetError(error, WALLET_ERROR_CODES.wrongPassword)).toBe(true);
    expect(allText(error)).not.toContain(wrong);
  });

  it('WALLET_WRONG_PASSWORD names the keyfile and where the password came from (password file, BT_PW_ variable, prompt), never the password', async () => {
    const file = index.files.find((f) => f.path === 'wallets/miner/hotkeys/locked')!;
    const wrong = file.wrong_password!.password;
    const path = join(dir, file.path);
    const passwordFile = join(dir, 'pw');
    writeFileSync(passwordFile, `${wrong}\n`, { mode: 0o600 });
    const fromFile = await failure(readKeyfile(path, { passwordFile, prompt: null, env: {} }));
    expect(fromFile).toMatchObject({
      code: 'WALLET_WRONG_PASSWORD',
      context: { path: 'keyfile', value: path, source: 'password_file', password_file: passwordFile },
    });
    expect((fromFile as Error).message).toBe(
      `[WALLET_WRONG_PASSWORD] wrong password for the encrypted keyfile ${path} (the secretbox tag does not verify): the password came from the ` +
        `password file ${passwordFile} (all of it but one trailing newline); put in it the password this keyfile was encrypted with at keyfile (got "${path}")`,
    );
    const variable = `BT_PW_${path.replaceAll('/', '_').replaceAll('.', '_').toUpperCase()}`;
    const fromEnv = await failure(readKeyfile(path, { prompt: null, env: { [variable]: referencePasswordEnv(wrong, variable) } }));
    expect(fromEnv).toMatchObject({ code: 'WALLET_WRONG_PASSWORD', context: { source: 'env', variable } });
    expect((fromEnv as Error).message).toContain(`the password came from ${variable} (btwallet's password variable)`);
    const typed = await failure(readKeyfile(path, { env: {}, prompt: () => Promise.resolve(wrong) }));
    expect(typed).toMatchObject({ code: 'WALLET_WRONG_PASSWORD', context: { source: 'prompt' } });
    expect((typed as Error).message).toContain('the password came from the prompt; type the password this keyfile was encrypted with');
    for (const error of [fromFile, fromEnv, typed]) expect(allText(error)).not.toContain(wrong);
  });

  it('WALLET_INSECURE_FILE_MODE for a secret keyfile readable by group or others, before any password is asked', async () => {
    const path = join(dir, 'wallets/miner/hotkeys/locked');
    chmodSync(path, 0o640);
    let asked = false;
    const error = await failure(
      readKeyfile(path, {
        env: {},
        prompt: () => {
          asked = true;
          return Promise.resolve('x');
        },
      }),
    );
    expect(error).toMatchObject({ code: 'WALLET_INSECURE_FILE_MODE', context: { mode: '640' } });
    expect(asked).toBe(false);
    const plain = join(dir, 'wallets/miner/hotkeys/default');
    chmodSync(plain, 0o604);
    expect(await failure(readKeyfile(plain, { prompt: null }))).toMatchObject({ code: 'WALLET_INSECURE_FILE_MODE' });
  });

  it('a public-only pub file may be world-readable (it holds no secret)', async () => {
    const pub = join(dir, 'wallets/miner/hotkeys/defaultpub.txt');
    chmodSync(pub, 0o644);
    expect((await readKeyfile(pub, { prompt: null })).pair).toBeUndefined();
  });

  it('WALLET_KEYFILE_NOT_FOUND for a missing hotkey, naming the path', async () => {
    const error = await failure(loadWalletHotkey({ name: 'miner', hotkey: 'absent', path: join(dir, 'wallets'), prompt: null }));
    expect(error).toMatchObject({ code: 'WALLET_KEYFILE_NOT_FOUND', context: { value: join(dir, 'wallets', 'miner', 'hotkeys', 'absent') } });
  });

  it('WALLET_KEYFILE_NOT_FOUND for a hotkey the wallet does not have names the hotkeys it has and what to do', async () => {
    const wallets = join(dir, 'wallets');
    const path = join(wallets, 'miner', 'hotkeys', 'absent');
    const error = await failure(loadWalletHotkey({ name: 'miner', hotkey: 'absent', path: wallets, prompt: null }));
    expect(error).toMatchObject({
      code: 'WALLET_KEYFILE_NOT_FOUND',
      context: { path: 'keyfile', value: path, missing: 'hotkey', available: ['default', 'locked', 'seeded', 'uri'] },
    });
    expect((error as Error).message).toBe(
      `[WALLET_KEYFILE_NOT_FOUND] no hotkey file at ${path}: wallet "miner" has no hotkey "absent" ` +
        `(${join(wallets, 'miner', 'hotkeys')} holds default, locked, seeded, uri); give one of those hotkey names ` +
        `(btcli's --wallet.hotkey), or create it with btcli wallet new-hotkey at keyfile (got "${path}")`,
    );
  });

  it('WALLET_KEYFILE_NOT_FOUND for a wallet name the wallets folder does not hold names the wallets it holds', async () => {
    const wallets = join(dir, 'wallets');
    const path = join(wallets, 'nosuch', 'hotkeys', 'default');
    const error = await failure(loadWalletHotkey({ name: 'nosuch', hotkey: 'default', path: wallets, prompt: null }));
    expect(error).toMatchObject({ code: 'WALLET_KEYFILE_NOT_FOUND', context: { value: path, missing: 'wallet', available: ['miner'] } });
    expect((error as Error).message).toBe(
      `[WALLET_KEYFILE_NOT_FOUND] no hotkey file at ${path}: ${wallets} holds no wallet "nosuch" (it holds miner); ` +
        `give the name of the wallet that holds the hotkey (btcli's --wallet.name), or create it with btcli wallet create ` +
        `at keyfile (got "${path}")`,
    );
  });

  it('WALLET_KEYFILE_NOT_FOUND for a wallets folder that does not exist says so', async () => {
    const wallets = join(dir, 'no-wallets-here');
    const path = join(wallets, 'miner', 'hotkeys', 'default');
    const error = await failure(loadWalletHotkey({ name: 'miner', hotkey: 'default', path: wallets, prompt: null }));
    expect(error).toMatchObject({ code: 'WALLET_KEYFILE_NOT_FOUND', context: { value: path, missing: 'wallets', available: [] } });
    expect((error as Error).message).toBe(
      `[WALLET_KEYFILE_NOT_FOUND] no hotkey file at ${path}: the wallets folder ${wallets} does not exist; ` +
        `give the folder that holds your wallets (btcli's --wallet.path, default ~/.bittensor/wallets) at keyfile (got "${path}")`,
    );
  });

  it('WALLET_PASSWORD_UNAVAILABLE for an encrypted file with no password file, no BT_PW_ variable and no TTY; it names the variable', async () => {
    const path = join(dir, 'wallets/miner/coldkey');
    const error = await failure(readKeyfile(path, { env: {}, prompt: null }));
    expect(error).toMatchObject({
      code: 'WALLET_PASSWORD_UNAVAILABLE',
      context: { variable: `BT_PW_${path.replaceAll('/', '_').replaceAll('.', '_').toUpperCase()}` },
    });
  });

  it('WALLET_INVALID_PASSWORD_ENV for a BT_PW_ value that is not base64', async () => {
    const path = join(dir, 'wallets/miner/coldkey');
    const variable = `BT_PW_${path.replaceAll('/', '_').replaceAll('.', '_').toUpperCase()}`;
    expect(await failure(readKeyfile(path, { env: { [variable]: 'not base64!' }, prompt: null }))).toMatchObject({
      code: 'WALLET_INVALID_PASSWORD_ENV',
      context: { variable },
    });
  });

  it('WALLET_PASSWORD_FILE_UNREADABLE for a missing password file', async () => {
    const error = await failure(readKeyfile(join(dir, 'wallets/miner/coldkey'), { passwordFile: join(dir, 'absent'), prompt: null }));
    expect(error).toMatchObject({ code: 'WALLET_PASSWORD_FILE_UNREADABLE' });
  });

  it('WALLET_PUBLIC_ONLY when the hotkey file is a public key only', async () => {
    mkdirSync(join(dir, 'wallets', 'pubonly', 'hotkeys'), { recursive: true });
    const pub = index.files.find((f) => f.path === 'wallets/miner/hotkeys/defaultpub.txt')!;
    writeFileSync(join(dir, 'wallets', 'pubonly', 'hotkeys', 'default'), JSON.stringify({ ss58Address: pub.expected.ss58Address }), { mode: 0o600 });
    expect(await failure(loadWalletHotkey({ name: 'pubonly', path: join(dir, 'wallets'), prompt: null }))).toMatchObject({ code: 'WALLET_PUBLIC_ONLY' });
  });

  it('WALLET_UNSUPPORTED_ENCRYPTION for a legacy Fernet file (btwallet 4 cannot open it either)', async () => {
    const path = join(dir, 'fernet');
    writeFileSync(path, 'gAAAAABfake-token', { mode: 0o600 });
    expect(await failure(readKeyfile(path, { prompt: null }))).toMatchObject({ code: 'WALLET_UNSUPPORTED_ENCRYPTION' });
  });

  it('WALLET_INVALID_KEYFILE for a non-string value (btwallet refuses the whole file), without echoing secrets', async () => {
    const path = join(dir, 'bad');
    const phrase = 'bottom drive obey lake curtain smoke basket hold race lonely fit walk';
    writeFileSync(path, JSON.stringify({ secretPhrase: phrase, accountId: 7 }), { mode: 0o600 });
    const error = await failure(readKeyfile(path, { prompt: null }));
    expect(error).toMatchObject({ code: 'WALLET_INVALID_KEYFILE', context: { path: 'keyfile.accountId' } });
    expect(allText(error)).not.toContain('curtain');
  });

  it('WALLET_KEY_MISMATCH when ss58Address is not the address the secret derives', async () => {
    const path = join(dir, 'mismatch');
    const other = index.files.find((f) => f.path === 'wallets/miner/coldkeypub.txt')!.expected.ss58Address;
    writeFileSync(path, JSON.stringify({ secretPhrase: 'bottom drive obey lake curtain smoke basket hold race lonely fit walk', ss58Address: other }), {
      mode: 0o600,
    });
    expect(await failure(readKeyfile(path, { prompt: null }))).toMatchObject({ code: 'WALLET_KEY_MISMATCH' });
  });

  it('WALLET_INVALID_NAME for a wallet name that is not one path segment', async () => {
    expect(await failure(loadWalletHotkey({ name: '../etc', path: dir, prompt: null }))).toMatchObject({
      code: 'WALLET_INVALID_NAME',
      context: { path: 'wallet.name' },
    });
  });
});
