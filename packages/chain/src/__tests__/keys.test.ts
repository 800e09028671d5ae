import { fileURLToPath } from 'node:url';
import { chmod, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { inspect } from 'node:util';

import { u8aToHex } from '@polkadot/util';
import { cryptoWaitReady, ed25519PairFromSeed, encodeAddress, signatureVerify, sr25519PairFromSeed } from '@polkadot/util-crypto';
import { afterEach, describe, expect, it } from 'vitest';

import { hotkeyFilePath, loadSigner } from '../keys.js';
import { tempDir } from '@subnet/vitest-config/temp-dir';

// Well-known public dev mnemonic (Substrate dev phrase); //Alice is derived from it.
const DEV_PHRASE = 'bottom drive obey lake curtain smoke basket hold race lonely fit walk';
const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
// The dev phrase's root key (no derivation), as subkey prints it.
const DEV_ROOT = '5DfhGyQdFobKM8NsWvEeAKk5EQQgYe9AydgJ7rMB6E1EqRzV';

async function walletWith(content: string, mode: number): Promise<{ dir: string; path: string }> {
  const dir = tempDir('chain-keys-');
  const path = hotkeyFilePath('w', 'h', dir);
  await mkdir(join(dir, 'w', 'hotkeys'), { recursive: true });
  await writeFile(path, content);
  await chmod(path, mode);
  return { dir, path };
}

function allText(error: unknown): string {
  return `${String(error)} ${inspect(error, { depth: 10 })} ${JSON.stringify((error as { context?: unknown }).context, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`;
}

describe('keys', () => {
  it('loads a dev URI', async () => {
    expect((await loadSigner({ kind: 'uri', uri: '//Alice' })).address).toBe(ALICE);
  });
  it('loads a mnemonic', async () => {
    expect((await loadSigner({ kind: 'mnemonic', mnemonic: DEV_PHRASE })).address).toBe(DEV_ROOT);
  });
  it('loads a Bittensor wallet hotkey file (secretPhrase) with mode 0600', async () => {
    const { dir } = await walletWith(JSON.stringify({ secretPhrase: DEV_PHRASE, ss58Address: DEV_ROOT }), 0o600);
    const signer = await loadSigner({ kind: 'wallet', wallet: 'w', hotkey: 'h', walletPath: dir });
    expect(signer.address).toBe(DEV_ROOT);
    expect(signer.kind).toBe('wallet');
  });
  it('loads the secretSeed of a wallet file and agrees with the seed loader', async () => {
    const seed = `0x${'11'.repeat(32)}`;
    const fromSeed = await loadSigner({ kind: 'seed', seed });
    const { path } = await walletWith(JSON.stringify({ secretSeed: seed, publicKey: fromSeed.publicKey, accountId: fromSeed.publicKey }), 0o600);
    expect((await loadSigner({ kind: 'file', path })).address).toBe(fromSeed.address);
  });
  it('refuses a key file readable by group or others (CHAIN_INSECURE_KEY_FILE)', async () => {
    const { path } = await walletWith(JSON.stringify({ secretPhrase: DEV_PHRASE }), 0o644);
    await expect(loadSigner({ kind: 'file', path })).rejects.toMatchObject({ code: 'CHAIN_INSECURE_KEY_FILE', context: { mode: '644' } });
    const { path: p2 } = await walletWith(JSON.stringify({ secretPhrase: DEV_PHRASE }), 0o640);
    await expect(loadSigner({ kind: 'file', path: p2 })).rejects.toMatchObject({ code: 'CHAIN_INSECURE_KEY_FILE' });
  });
  it('refuses a file whose secret does not match its ss58Address (CHAIN_KEY_MISMATCH)', async () => {
    const { path } = await walletWith(JSON.stringify({ secretPhrase: DEV_PHRASE, ss58Address: ALICE }), 0o600);
    await expect(loadSigner({ kind: 'file', path })).rejects.toMatchObject({ code: 'CHAIN_KEY_MISMATCH' });
  });
  it('refuses encrypted files and missing files with typed errors', async () => {
    const { path } = await walletWith('$NACL....', 0o600);
    await expect(loadSigner({ kind: 'file', path })).rejects.toMatchObject({ code: 'CHAIN_KEY_FILE_ENCRYPTED' });
    await expect(loadSigner({ kind: 'file', path: `${path}-absent` })).rejects.toMatchObject({ code: 'CHAIN_KEY_FILE_NOT_FOUND' });
  });
  it('never puts a secret in an error message, context or inspection', async () => {
    const secretWords = 'zebra zebra zebra zebra zebra zebra zebra zebra zebra zebra zebra wrongword';
    const errors: unknown[] = [];
    for (const source of [
      { kind: 'mnemonic', mnemonic: secretWords } as const,
      { kind: 'seed', seed: '0xdeadbeefcafe' } as const,
      { kind: 'uri', uri: 'secret words //x' } as const,
    ]) {
      errors.push(
        await loadSigner(source).then(
          () => null,
          (e: unknown) => e,
        ),
      );
    }
    const { path } = await walletWith(JSON.stringify({ secretPhrase: secretWords }), 0o600);
    errors.push(
      await loadSigner({ kind: 'file', path }).then(
        () => null,
        (e: unknown) => e,
      ),
    );
    expect(errors.map((e) => (e as { code?: string }).code)).toEqual(['CHAIN_INVALID_KEY', 'CHAIN_INVALID_KEY', 'CHAIN_INVALID_KEY', 'CHAIN_INVALID_KEY_FILE']);
    for (const error of errors) {
      const text = allText(error);
      expect(text).not.toContain('zebra');
      expect(text).not.toContain('deadbeef');
      expect(text).not.toContain('secret words');
    }
  });
  it('a loaded signer prints no secret', async () => {
    const signer = await loadSigner({ kind: 'mnemonic', mnemonic: DEV_PHRASE });
    const text = `${inspect(signer, { depth: 10, showHidden: true })} ${JSON.stringify(signer)}`;
    expect(text).toContain(DEV_ROOT);
    expect(text).not.toContain('bottom');
  });
  it('refuses a privateKey in the @polkadot form, which btcli never writes (CHAIN_INVALID_KEY_FILE: not a canonical scalar)', async () => {
    await cryptoWaitReady();
    const pair = sr25519PairFromSeed(new Uint8Array(32).fill(7));
    const address = encodeAddress(pair.publicKey, 42);
    const { path } = await walletWith(
      JSON.stringify({ privateKey: u8aToHex(pair.secretKey), publicKey: u8aToHex(pair.publicKey), accountId: u8aToHex(pair.publicKey), ss58Address: address }),
      0o600,
    );
    const error = await loadSigner({ kind: 'file', path }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'CHAIN_INVALID_KEY_FILE', context: { path: 'key.path', value: path }, cause: { code: 'WALLET_INVALID_KEYFILE' } });
    expect(allText(error)).not.toContain(u8aToHex(pair.secretKey).slice(2, 40));
  });
  it("keyType 'ed25519' derives ed25519 keys from a seed or dev URI (for ed25519 devnets); other key types are refused", async () => {
    await cryptoWaitReady();
    const seed = new Uint8Array(32).fill(9);
    const ed = await loadSigner({ kind: 'seed', seed: u8aToHex(seed), keyType: 'ed25519' });
    expect(ed.publicKey).toBe(u8aToHex(ed25519PairFromSeed(seed).publicKey));
    expect(ed.address).not.toBe((await loadSigner({ kind: 'seed', seed: u8aToHex(seed) })).address);
    expect((await loadSigner({ kind: 'uri', uri: '//Alice', keyType: 'ed25519' })).address).toBe('5FA9nQDVg267DEd8m1ZypXLBnvN7SFxYwV7ndqSYGiN9TTpu');
    await expect(loadSigner({ kind: 'uri', uri: '//Alice', keyType: 'ecdsa' as never })).rejects.toMatchObject({
      code: 'CHAIN_INVALID_INPUT',
      context: { path: 'key.keyType', value: 'ecdsa' },
    });
  });
});

describe("loadSigner kind 'wallet' delegates to @subnet/wallet", () => {
  const vectors = join(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..', 'shared'), 'vectors', 'wallets');
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function privkeyWallet(mode: number): Promise<string> {
    dir = tempDir('chain-wallet-');
    await mkdir(join(dir, 'miner', 'hotkeys'), { recursive: true });
    await cp(join(vectors, 'wallets', 'miner', 'hotkeys', 'uri'), join(dir, 'miner', 'hotkeys', 'uri'));
    await chmod(join(dir, 'miner', 'hotkeys', 'uri'), mode);
    return dir;
  }

  it('loads the privateKey-only hotkey btcli writes for --uri and signs for its address', async () => {
    const index = JSON.parse(await readFile(join(vectors, 'index.json'), 'utf8')) as { files: { path: string; expected: { ss58Address: string } }[] };
    const expected = index.files.find((f) => f.path === 'wallets/miner/hotkeys/uri')!.expected.ss58Address;
    const signer = await loadSigner({ kind: 'wallet', wallet: 'miner', hotkey: 'uri', walletPath: await privkeyWallet(0o600) });
    expect(signer.address).toBe(expected);
    const message = new TextEncoder().encode('one key for chain and bundles');
    expect(signatureVerify(message, signer.sign(message), expected).isValid).toBe(true);
  });

  it('passes the wallet error codes through (WALLET_INSECURE_FILE_MODE)', async () => {
    const path = await privkeyWallet(0o644);
    await expect(loadSigner({ kind: 'wallet', wallet: 'miner', hotkey: 'uri', walletPath: path })).rejects.toMatchObject({ code: 'WALLET_INSECURE_FILE_MODE' });
  });
});

describe("loadSigner kind 'file' reads key files as btwallet does (through @subnet/wallet)", () => {
  const vectors = join(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..', 'shared'), 'vectors', 'wallets');
  const dirs: string[] = [];
  afterEach(async () => {
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  interface VectorFile {
    path: string;
    kind: string;
    encrypted: boolean;
    password?: string;
    expected: { ss58Address: string };
  }
  const index = async () => (JSON.parse(await readFile(join(vectors, 'index.json'), 'utf8')) as { files: VectorFile[] }).files;

  /** A private copy of a vector file (git keeps no file modes). */
  async function copy(file: string, content?: string): Promise<string> {
    const dir = tempDir('chain-keyfile-');
    dirs.push(dir);
    const path = join(dir, 'hotkey');
    if (content === undefined) await cp(join(vectors, file), path);
    else await writeFile(path, content);
    await chmod(path, 0o600);
    return path;
  }

  it('loads every plain hotkey form btcli writes (secretPhrase, secretSeed, privateKey-only) to its expected address', async () => {
    const plain = (await index()).filter((f) => f.path.startsWith('wallets/miner/hotkeys/') && f.kind !== 'pub' && !f.encrypted);
    expect(plain.map((f) => f.kind).sort()).toEqual(['phrase', 'privkey', 'seed']);
    for (const f of plain) {
      const signer = await loadSigner({ kind: 'file', path: await copy(f.path) });
      expect(signer.address, f.path).toBe(f.expected.ss58Address);
      expect(signer.kind).toBe('file');
      const message = new TextEncoder().encode(`signed by ${f.path}`);
      expect(signatureVerify(message, signer.sign(message), f.expected.ss58Address).isValid).toBe(true);
    }
  });

  // Decrypting itself (argon2i with 512 MiB, tens of seconds on a loaded machine) is @subnet/wallet's test;
  // here: the file kind asks the wallet loader for the password, from the file it is given.
  it('takes the password of a $NACL hotkey from passwordFile (WALLET_* password codes pass through); without a source it is CHAIN_KEY_FILE_ENCRYPTED', async () => {
    const path = await copy('wallets/miner/hotkeys/locked');
    const passwordFile = join(dirname(path), 'absent-password');
    await expect(loadSigner({ kind: 'file', path, passwordFile })).rejects.toMatchObject({
      code: 'WALLET_PASSWORD_FILE_UNREADABLE',
      context: { value: passwordFile },
    });
    await expect(loadSigner({ kind: 'file', path })).rejects.toMatchObject({
      code: 'CHAIN_KEY_FILE_ENCRYPTED',
      cause: { code: 'WALLET_PASSWORD_UNAVAILABLE' },
    });
  });

  it('refuses a privateKey-only file whose ss58Address is another key (CHAIN_KEY_MISMATCH), and a public-only file (CHAIN_INVALID_KEY_FILE)', async () => {
    const uri = JSON.parse(await readFile(join(vectors, 'wallets/miner/hotkeys/uri'), 'utf8')) as Record<string, string>;
    const path = await copy('', JSON.stringify({ ...uri, ss58Address: ALICE }));
    await expect(loadSigner({ kind: 'file', path })).rejects.toMatchObject({ code: 'CHAIN_KEY_MISMATCH', context: { value: path } });
    const pub = await copy('wallets/miner/hotkeys/uripub.txt');
    await expect(loadSigner({ kind: 'file', path: pub })).rejects.toMatchObject({ code: 'CHAIN_INVALID_KEY_FILE' });
  });
});
