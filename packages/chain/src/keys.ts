import { homedir } from 'node:os';
import { join } from 'node:path';

import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { hexToU8a, isHex, u8aToHex } from '@polkadot/util';
import { cryptoWaitReady, mnemonicValidate } from '@polkadot/util-crypto';
import { encodeSs58, isSubnetError } from '@subnet/core';
import { loadWalletHotkey, readKeyfile } from '@subnet/wallet';

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
  | {
      readonly kind: 'file';
      readonly path: string;
      /** File holding the password of an encrypted key file (else btwallet's `BT_PW_<PATH>` variable; never a prompt). */
      readonly passwordFile?: string;
    }
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

/** The key-file codes of kind `file`, from `@subnet/wallet`'s (the password codes pass through as `WALLET_*`). */
const FILE_ERRORS: Readonly<Record<string, string>> = Object.freeze({
  WALLET_KEYFILE_NOT_FOUND: 'KeyFileNotFound',
  WALLET_INSECURE_FILE_MODE: 'InsecureKeyFile',
  WALLET_PASSWORD_UNAVAILABLE: 'KeyFileEncrypted',
  WALLET_UNSUPPORTED_ENCRYPTION: 'KeyFileEncrypted',
  WALLET_INVALID_KEYFILE: 'InvalidKeyFile',
  WALLET_PUBLIC_ONLY: 'InvalidKeyFile',
  WALLET_KEY_MISMATCH: 'KeyMismatch',
});

/**
 * A key file by path, read by `@subnet/wallet` exactly as btwallet reads a hotkey (every plain form btcli writes,
 * the `privateKey`-only one included, and `$NACL`-encrypted files given a password file or btwallet's
 * `BT_PW_<PATH>` variable; never a prompt), with this package's key-file codes.
 */
async function fromFile(path: string, passwordFile: string | undefined): Promise<ChainSigner> {
  let key: Awaited<ReturnType<typeof readKeyfile>>;
  try {
    key = await readKeyfile(path, { prompt: null, ...(passwordFile === undefined ? {} : { passwordFile }) });
  } catch (error) {
    const name = isSubnetError(error) ? FILE_ERRORS[error.code] : undefined;
    if (name === undefined || !isSubnetError(error)) throw error;
    const mode = typeof error.context.mode === 'string' ? { mode: error.context.mode } : {};
    throw chainError(name, error.message, { source: 'client', path: 'key.path', value: path, ...mode, cause: error });
  }
  if (key.pair === undefined) {
    throw chainError('InvalidKeyFile', `the key file holds only a public key (${key.address}); it cannot sign`, {
      source: 'client',
      path: 'key.path',
      value: path,
    });
  }
  return makeSigner(key.pair, 'file');
}

/**
 * Loads a signing key (sr25519; mnemonic, seed and dev URI also take `keyType: 'ed25519'`): a Bittensor wallet
 * hotkey as btcli keeps it (delegated to `@subnet/wallet`: plain or `$NACL`-encrypted keyfiles, passwords from
 * a password file, btwallet's `BT_PW_<PATH>` variable or a TTY prompt), a key file by path (read by
 * `@subnet/wallet` as btwallet reads it: every plain form, `privateKey`-only included; encrypted given a password
 * file or `BT_PW_<PATH>`, never a prompt), a mnemonic, a 32-byte seed or a dev URI (`//Alice`). Key files readable or writable by group or others are
 * refused. No secret ever appears in an error message, its context or the returned object.
 *
 * @param source - where the key comes from
 * @returns the signer (address and public key; the secret stays inside this package)
 * @throws SubnetError kind `wallet`: the `WALLET_*` codes of `@subnet/wallet` (`WALLET_KEYFILE_NOT_FOUND`,
 *   `WALLET_INSECURE_FILE_MODE`, `WALLET_WRONG_PASSWORD`, `WALLET_PASSWORD_UNAVAILABLE`, ...); kind `file`:
 *   `CHAIN_KEY_FILE_NOT_FOUND`, `CHAIN_INSECURE_KEY_FILE`, `CHAIN_KEY_FILE_ENCRYPTED` (encrypted, no password
 *   source), `CHAIN_INVALID_KEY_FILE`, `CHAIN_KEY_MISMATCH` (the `@subnet/wallet` error as `cause`), and the wallet's
 *   password codes (`WALLET_WRONG_PASSWORD`, ...); others `CHAIN_INVALID_KEY`, `CHAIN_INVALID_INPUT`
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
      return fromFile(source.path, source.passwordFile);
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
