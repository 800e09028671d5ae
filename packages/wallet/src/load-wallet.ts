import { lstat } from 'node:fs/promises';
import { dirname } from 'node:path';

import type { KeyringPair } from '@polkadot/keyring/types';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { isSubnetError } from '@subnet/core';
import type { SubnetError } from '@subnet/core';

import { WALLET_ERROR_CODES, walletError } from './errors.js';
import type { WalletErrorContext } from './errors.js';
import type { KeyfileSource } from './keyfile-json.js';
import { hotkeyNames, listNames } from './list-names.js';
import { readKeyfile } from './read-keyfile.js';
import type { KeyfileEncryption, PasswordSources } from './read-keyfile.js';
import { expandHome, WALLET_DEFAULTS, walletFiles } from './wallet-location.js';
import type { WalletLocation } from './wallet-location.js';

/** Options of {@link loadWalletHotkey}: which wallet (btwallet defaults for what is left out) and password sources. */
export interface LoadWalletOptions extends Partial<WalletLocation>, PasswordSources {
  /** The home directory a leading `~` expands to (default `os.homedir()`). */
  readonly home?: string;
}

/** A wallet hotkey ready to sign. Logging it prints the address, never the secret. */
export interface WalletHotkey {
  /** SS58 address (prefix 42). */
  readonly address: string;
  /** 32-byte public key. */
  readonly publicKey: Uint8Array;
  /** The keyfile read. */
  readonly path: string;
  /** Which keyfile field gave the key. */
  readonly source: KeyfileSource;
  readonly encryption: KeyfileEncryption;
  /** The sr25519 keyring pair (its secret is held in a closure, not a property). */
  readonly pair: KeyringPair;
}

/**
 * Loads the hotkey of a btcli wallet: `<path>/<name>/hotkeys/<hotkey>`, plain or encrypted, with the btwallet
 * defaults `default` / `default` / `~/.bittensor/wallets/` for what is not given.
 *
 * @param options - name, hotkey, path and the password sources of an encrypted hotkey
 * @returns the hotkey (address, public key, keyring pair)
 * @throws SubnetError `WALLET_PUBLIC_ONLY` when the hotkey file holds no secret; every code of `readKeyfile`
 * @example
 * const hotkey = await loadWalletHotkey({ name: 'validator', hotkey: 'default' });
 * console.log(hotkey.address);
 */
export async function loadWalletHotkey(options: LoadWalletOptions = {}): Promise<WalletHotkey> {
  await cryptoWaitReady();
  const location: WalletLocation = {
    name: options.name ?? WALLET_DEFAULTS.name,
    hotkey: options.hotkey ?? WALLET_DEFAULTS.hotkey,
    path: options.path ?? WALLET_DEFAULTS.path,
  };
  const path = walletFiles(location, options.home).hotkey;
  let key: Awaited<ReturnType<typeof readKeyfile>>;
  try {
    key = await readKeyfile(path, options);
  } catch (error) {
    if (isSubnetError(error, WALLET_ERROR_CODES.keyfileNotFound)) throw await missingHotkey(location, path, options.home, error);
    throw error;
  }
  if (key.pair === undefined) {
    throw walletError(WALLET_ERROR_CODES.publicOnly, `the hotkey file holds only a public key (${key.address}); it cannot sign`, {
      path: 'keyfile',
      value: path,
    });
  }
  return Object.freeze({ address: key.address, publicKey: key.publicKey, path, source: key.source, encryption: key.encryption, pair: key.pair });
}

/** "a, b, c" (the first ten, then how many more). */
function nameList(names: readonly string[]): string {
  return names.length <= 10 ? names.join(', ') : `${names.slice(0, 10).join(', ')} and ${names.length - 10} more`;
}

/**
 * `WALLET_KEYFILE_NOT_FOUND` for a hotkey file that does not exist, saying which part of the location is wrong (the
 * wallets folder, the wallet name or the hotkey name), what the level above holds and what to do: "cannot read the
 * keyfile (ENOENT)" left an operator to list the folders. A file that exists but cannot be read keeps `error`.
 */
async function missingHotkey(location: WalletLocation, path: string, home: string | undefined, error: SubnetError<WalletErrorContext>): Promise<SubnetError> {
  try {
    await lstat(path);
    return error;
  } catch {
    // absent (or its folder is): say which level is missing below
  }
  const hotkeysDir = dirname(path);
  const walletsDir = expandHome(location.path, home);
  const fail = (missing: 'wallets' | 'wallet' | 'hotkey', available: readonly string[], sentence: string): SubnetError =>
    walletError(WALLET_ERROR_CODES.keyfileNotFound, `no hotkey file at ${path}: ${sentence}`, { path: 'keyfile', value: path, missing, available }, error);
  // A wallet is a folder (or a link to one); its hotkeys are the files of `hotkeys/` but the pub files, as btcli lists them.
  const wallets = await listNames(walletsDir, (entry) => !entry.isFile());
  if (wallets === undefined) {
    return fail(
      'wallets',
      [],
      `the wallets folder ${walletsDir} does not exist; give the folder that holds your wallets (btcli's --wallet.path, default ${WALLET_DEFAULTS.path.replace(/\/$/, '')})`,
    );
  }
  if ((await listNames(dirname(hotkeysDir), () => true)) === undefined) {
    return fail(
      'wallet',
      wallets,
      `${walletsDir} holds no wallet "${location.name}" (${wallets.length === 0 ? 'it holds none' : `it holds ${nameList(wallets)}`}); give the name of the wallet that holds the hotkey (btcli's --wallet.name), or create it with btcli wallet create`,
    );
  }
  const hotkeys = (await hotkeyNames(hotkeysDir)) ?? [];
  return fail(
    'hotkey',
    hotkeys,
    `wallet "${location.name}" has no hotkey "${location.hotkey}" ${hotkeys.length === 0 ? `(${hotkeysDir} holds none); create it with btcli wallet new-hotkey, or give another wallet (btcli's --wallet.name)` : `(${hotkeysDir} holds ${nameList(hotkeys)}); give one of those hotkey names (btcli's --wallet.hotkey), or create it with btcli wallet new-hotkey`}`,
  );
}
