import type { KeyringPair } from '@polkadot/keyring/types';
import { cryptoWaitReady } from '@polkadot/util-crypto';

import { WALLET_ERROR_CODES, walletError } from './errors.js';
import type { KeyfileSource } from './keyfile-json.js';
import { readKeyfile } from './read-keyfile.js';
import type { KeyfileEncryption, PasswordSources } from './read-keyfile.js';
import { WALLET_DEFAULTS, walletFiles } from './wallet-location.js';
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
  const key = await readKeyfile(path, options);
  if (key.pair === undefined) {
    throw walletError(WALLET_ERROR_CODES.publicOnly, `the hotkey file holds only a public key (${key.address}); it cannot sign`, {
      path: 'keyfile',
      value: path,
    });
  }
  return Object.freeze({ address: key.address, publicKey: key.publicKey, path, source: key.source, encryption: key.encryption, pair: key.pair });
}
