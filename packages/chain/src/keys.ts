import { stat, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { hexToU8a, isHex, u8aToHex } from '@polkadot/util';
import { cryptoWaitReady, mnemonicValidate, signatureVerify } from '@polkadot/util-crypto';
import { encodeSs58 } from '@subnet/core';
import { loadWalletHotkey } from '@subnet/wallet';

import { chainError } from './chain-error.js';

/** Where a signing key comes from. */
export type KeySource =
  | {
      readonly kind: 'wallet';
      readonly wallet: string;
      readonly hotkey: string;
      /** Wallets directory; default `~/.bittensor/wallets/`. */
      readonly walletPath?: string;
      /** File holding the password of an encrypted hotkey (else btwallet's `BT_PW_<PATH>` variable, else a TTY prompt). */
      readonly passwordFile?: string;
    }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'mnemonic'; readonly mnemonic: string; readonly keyType?: KeyType }
  | { readonly kind: 'seed'; readonly seed: string; readonly keyType?: KeyType }
  | { readonly kind: 'uri'; readonly uri: string; readonly keyType?: KeyType };

/**
 * Signature scheme of a mnemonic, seed or dev URI key: `sr25519` (default; what Bittensor wallets use) or
 * `ed25519` (dev chains and tests: `@subnet/devnet` with `keyType: 'ed25519'`). Wallet and key files are
 * always sr25519.
 */
export type KeyType = 'sr25519' | 'ed25519';

/** A loaded signing key. It holds no secret in any enumerable property: logging it prints the address. */
export interface ChainSigner {
  /** SS58 address (prefix 42) of the hotkey. */
  readonly address: string;
  /** 32-byte public key, 0x-hex. */
  readonly publicKey: `0x${string}`;
  /** How it was loaded (`wallet`, `file`, `mnemonic`, `seed`, `uri`), never the secret itself. */
  readonly kind: KeySource['kind'];
  /** Signs a message with the hotkey (sr25519 or ed25519 as loaded); the secret stays in a closure. */
  sign(message: Uint8Array): Uint8Array;
}

const pairs = new WeakMap<ChainSigner, KeyringPair>();

/**
 * The keyring pair behind a signer (internal: the secret never leaves this package's objects).
 *
 * @param signer - a signer made by {@link loadSigner}
 * @returns its keyring pair
 * @throws SubnetError `CHAIN_INVALID_KEY` when the signer was not made by {@link loadSigner}
 * @example const pair = signerPair(await loadSigner({ kind: 'uri', uri: '//Alice' }))
 */
export function signerPair(signer: ChainSigner): KeyringPair {
  const pair = pairs.get(signer);
  if (!pair) throw chainError('InvalidKey', 'this signer was not created by loadSigner', { path: 'signer', value: signer.address });
  return pair;
}

function makeSigner(pair: KeyringPair, kind: KeySource['kind']): ChainSigner {
  const signer: ChainSigner = Object.freeze({
    address: encodeSs58(pair.publicKey),
    publicKey: u8aToHex(pair.publicKey),
    kind,
    sign: (message: Uint8Array) => pair.sign(message),
  });
  pairs.set(signer, pair);
  return signer;
}

/**
 * The path of a Bittensor wallet hotkey file: `<walletPath>/<wallet>/hotkeys/<hotkey>`.
 *
 * @param wallet - wallet (coldkey) name
 * @param hotkey - hotkey name
 * @param walletPath - wallets directory, default `~/.bittensor/wallets`
 * @returns the file path
 * @example hotkeyFilePath('default', 'default') // '/home/me/.bittensor/wallets/default/hotkeys/default'
 */
export function hotkeyFilePath(wallet: string, hotkey: string, walletPath: string = join(homedir(), '.bittensor', 'wallets')): string {
  for (const [name, value] of [
    ['wallet', wallet],
    ['hotkey', hotkey],
  ] as const) {
    if (value === '' || value.includes('/') || value.includes('\\') || value === '.' || value === '..') {
      throw chainError('InvalidInput', `a ${name} name is a single path segment`, { source: 'client', path: `key.${name}`, value });
    }
  }
  return join(walletPath, wallet, 'hotkeys', hotkey);
}

function keyring(type: KeyType = 'sr25519'): Keyring {
  return new Keyring({ type, ss58Format: 42 });
}

function keyTypeOf(value: unknown): KeyType {
  if (value === undefined || value === 'sr25519') return 'sr25519';
  if (value === 'ed25519') return 'ed25519';
  throw chainError('InvalidInput', "keyType is 'sr25519' or 'ed25519'", { source: 'client', path: 'key.keyType', value });
}

function fromMnemonic(mnemonic: string, kind: KeySource['kind'], type: KeyType = 'sr25519'): ChainSigner {
  const words = mnemonic.trim().split(/\s+/).length;
  if (!mnemonicValidate(mnemonic.trim())) {
    throw chainError('InvalidKey', `the mnemonic is not a valid BIP39 phrase (${words} words; its content is not shown)`, {
      source: 'client',
      path: 'key.mnemonic',
    });
  }
  return makeSigner(keyring(type).addFromMnemonic(mnemonic.trim()), kind);
}

function fromSeed(seed: string, kind: KeySource['kind'], path: string, type: KeyType = 'sr25519'): ChainSigner {
  if (!isHex(seed) || seed.length !== 66) {
    throw chainError('InvalidKey', 'a seed is 32 bytes of 0x-prefixed hex (its content is not shown)', {
      source: 'client',
      path,
    });
  }
  return makeSigner(keyring(type).addFromSeed(hexToU8a(seed)), kind);
}

function fromUri(uri: string, type: KeyType): ChainSigner {
  if (!/^\/\/[A-Za-z0-9_/]+$/.test(uri)) {
    throw chainError('InvalidKey', 'a dev URI is a derivation path such as //Alice (its content is not shown)', {
      source: 'client',
      path: 'key.uri',
    });
  }
  return makeSigner(keyring(type).addFromUri(uri), 'uri');
}

function field(data: Record<string, unknown>, name: string): string | undefined {
  const value = data[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

async function fromFile(path: string, kind: 'wallet' | 'file'): Promise<ChainSigner> {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw chainError('KeyFileNotFound', `cannot read the key file (${typeof code === 'string' ? code : 'error'})`, {
      source: 'client',
      path: 'key.path',
      value: path,
    });
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw chainError('InsecureKeyFile', `the key file is readable or writable by group or others (mode ${(mode & 0o777).toString(8)}); run chmod 600 on it`, {
      source: 'client',
      path: 'key.path',
      value: path,
      mode: (mode & 0o777).toString(8),
    });
  }
  const text = (await readFile(path)).toString('utf8');
  if (text.startsWith('$NACL') || text.startsWith('$ANSIBLE_VAULT') || text.startsWith('gAAAAA')) {
    throw chainError('KeyFileEncrypted', 'the key file is encrypted; this client reads unencrypted hotkey files only', {
      source: 'client',
      path: 'key.path',
      value: path,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw chainError('InvalidKeyFile', 'the key file is not a JSON object as the Bittensor wallet writes it', {
      source: 'client',
      path: 'key.path',
      value: path,
    });
  }
  const record = data as Record<string, unknown>;
  const phrase = field(record, 'secretPhrase');
  const seed = field(record, 'secretSeed');
  const privateKey = field(record, 'privateKey');
  const publicKey = field(record, 'publicKey') ?? field(record, 'accountId');
  const ss58 = field(record, 'ss58Address');
  let signer: ChainSigner;
  if (phrase !== undefined) signer = fromMnemonic(phrase, kind);
  else if (seed !== undefined) signer = fromSeed(seed, kind, 'keyFile.secretSeed');
  else if (
    privateKey !== undefined &&
    publicKey !== undefined &&
    isHex(privateKey) &&
    privateKey.length === 130 &&
    isHex(publicKey) &&
    publicKey.length === 66
  ) {
    const pair = keyring().createFromPair({ publicKey: hexToU8a(publicKey), secretKey: hexToU8a(privateKey) }, {}, 'sr25519');
    const probe = new TextEncoder().encode('subnet-chain key check');
    if (!signatureVerify(probe, pair.sign(probe), pair.publicKey).isValid) {
      throw chainError('KeyMismatch', 'the key file privateKey does not sign for its publicKey', { source: 'client', path: 'key.path', value: path });
    }
    signer = makeSigner(pair, kind);
  } else {
    throw chainError('InvalidKeyFile', 'the key file has no secretPhrase, secretSeed or privateKey+publicKey (a public-only key cannot sign)', {
      source: 'client',
      path: 'key.path',
      value: path,
    });
  }
  if (ss58 !== undefined && ss58 !== signer.address) {
    throw chainError('KeyMismatch', `the key file secret derives ${signer.address}, but its ss58Address is ${ss58}`, {
      source: 'client',
      path: 'keyFile.ss58Address',
      value: ss58,
    });
  }
  if (publicKey !== undefined && publicKey.toLowerCase() !== signer.publicKey) {
    throw chainError('KeyMismatch', `the key file secret derives ${signer.publicKey}, but its publicKey is ${publicKey}`, {
      source: 'client',
      path: 'keyFile.publicKey',
      value: publicKey,
    });
  }
  return signer;
}

/**
 * Loads a signing key (sr25519; mnemonic, seed and dev URI also take `keyType: 'ed25519'`): a Bittensor wallet
 * hotkey as btcli keeps it (delegated to `@subnet/wallet`: plain or `$NACL`-encrypted keyfiles, passwords from
 * a password file, btwallet's `BT_PW_<PATH>` variable or a TTY prompt), an unencrypted key file by path, a
 * mnemonic, a 32-byte seed or a dev URI (`//Alice`). Key files readable or writable by group or others are
 * refused. No secret ever appears in an error message, its context or the returned object.
 *
 * @param source - where the key comes from
 * @returns the signer (address and public key; the secret stays inside this package)
 * @throws SubnetError kind `wallet`: the `WALLET_*` codes of `@subnet/wallet` (`WALLET_KEYFILE_NOT_FOUND`,
 *   `WALLET_INSECURE_FILE_MODE`, `WALLET_WRONG_PASSWORD`, `WALLET_PASSWORD_UNAVAILABLE`, ...); kind `file`:
 *   `CHAIN_KEY_FILE_NOT_FOUND`, `CHAIN_INSECURE_KEY_FILE`, `CHAIN_KEY_FILE_ENCRYPTED`, `CHAIN_INVALID_KEY_FILE`,
 *   `CHAIN_KEY_MISMATCH`; others `CHAIN_INVALID_KEY`, `CHAIN_INVALID_INPUT`
 * @example
 * const signer = await loadSigner({ kind: 'wallet', wallet: 'validator', hotkey: 'default' });
 * console.log(signer.address);
 */
export async function loadSigner(source: KeySource): Promise<ChainSigner> {
  await cryptoWaitReady();
  switch (source.kind) {
    case 'wallet': {
      const hotkey = await loadWalletHotkey({
        name: source.wallet,
        hotkey: source.hotkey,
        ...(source.walletPath === undefined ? {} : { path: source.walletPath }),
        ...(source.passwordFile === undefined ? {} : { passwordFile: source.passwordFile }),
      });
      return makeSigner(hotkey.pair, 'wallet');
    }
    case 'file':
      return fromFile(source.path, 'file');
    case 'mnemonic':
      return fromMnemonic(source.mnemonic, 'mnemonic', keyTypeOf(source.keyType));
    case 'seed':
      return fromSeed(source.seed, 'seed', 'key.seed', keyTypeOf(source.keyType));
    case 'uri':
      return fromUri(source.uri, keyTypeOf(source.keyType));
    default:
      throw chainError('InvalidInput', 'unknown key source kind', { source: 'client', path: 'key.kind', value: (source as { kind?: unknown }).kind });
  }
}
