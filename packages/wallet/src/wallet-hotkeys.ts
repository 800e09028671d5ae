import { dirname } from 'node:path';

import { cryptoWaitReady } from '@polkadot/util-crypto';

import { parseKeyfileJson } from './keyfile-json.js';
import { hotkeyNames } from './list-names.js';
import { MAX_KEY_FILE_BYTES, readRegularFile } from './read-regular-file.js';
import { WALLET_DEFAULTS, walletFiles } from './wallet-location.js';

/** A hotkey of a wallet and its address, read without a password. */
export interface WalletHotkeyAddress {
  /** The hotkey name (btcli's `--wallet.hotkey`). */
  readonly name: string;
  /** SS58 address, prefix 42. */
  readonly address: string;
  /** Where the address came from: the hotkey's pub file, or the plain hotkey file itself. */
  readonly from: 'pubfile' | 'keyfile';
}

/** The key of a small plain keyfile, or undefined when it cannot be read as one (absent, encrypted, not a keyfile). */
async function plainAddress(path: string): Promise<string | undefined> {
  const got = await readRegularFile(path, MAX_KEY_FILE_BYTES);
  if ('kind' in got) return undefined;
  try {
    return parseKeyfileJson(got.data).address;
  } catch {
    // encrypted ($NACL, $ANSIBLE_VAULT, Fernet) or not a keyfile: no address without a password
    return undefined;
  }
}

/**
 * The hotkeys of a btcli wallet whose addresses can be read without a password: each file of
 * `<path>/<name>/hotkeys/` but the pub files (as btcli lists them), its address from `<hotkey>pub.txt` when that file
 * reads, else from the hotkey file when it is plain JSON (btwallet writes `ss58Address` into both,
 * `btwallet:src/wallet.rs:320-347`). An encrypted hotkey without a pub file is left out, and so is anything that is
 * not a keyfile; nothing is decrypted and no password is asked for. Used to say which hotkey of the wallet is
 * registered when the one configured is not (after a hotkey swap, `btcli wallet swap-hotkey` keeps both in the wallet).
 *
 * @param location - wallet name and wallets folder (btwallet defaults for what is left out)
 * @param home - the home directory a leading `~` expands to (default `os.homedir()`)
 * @returns the hotkeys by name, sorted; empty when the wallet or its `hotkeys` folder cannot be listed
 * @throws SubnetError `WALLET_INVALID_NAME` when the wallet name is not a single path segment
 * @example for (const h of await walletHotkeyAddresses({ name: 'validator' })) console.log(h.name, h.address)
 */
export async function walletHotkeyAddresses(
  location: { readonly name?: string; readonly path?: string } = {},
  home?: string,
): Promise<readonly WalletHotkeyAddress[]> {
  await cryptoWaitReady();
  const files = walletFiles({ name: location.name ?? WALLET_DEFAULTS.name, hotkey: WALLET_DEFAULTS.hotkey, path: location.path ?? WALLET_DEFAULTS.path }, home);
  const names = await hotkeyNames(dirname(files.hotkey));
  if (names === undefined) return [];
  const found: WalletHotkeyAddress[] = [];
  for (const name of names) {
    const { hotkey, hotkeyPub } = walletFiles({ name: location.name ?? WALLET_DEFAULTS.name, hotkey: name, path: location.path ?? WALLET_DEFAULTS.path }, home);
    const fromPub = await plainAddress(hotkeyPub);
    if (fromPub !== undefined) {
      found.push(Object.freeze({ name, address: fromPub, from: 'pubfile' as const }));
      continue;
    }
    const fromKey = await plainAddress(hotkey);
    if (fromKey !== undefined) found.push(Object.freeze({ name, address: fromKey, from: 'keyfile' as const }));
  }
  return Object.freeze(found);
}
