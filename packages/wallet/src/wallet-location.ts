import { homedir } from 'node:os';
import { sep } from 'node:path';

import { WALLET_ERROR_CODES, walletError } from './errors.js';

/** The btwallet defaults (`btwallet:src/constants.rs:1-3`). */
export const WALLET_DEFAULTS = Object.freeze({ name: 'default', hotkey: 'default', path: '~/.bittensor/wallets/' });

/** Which wallet, as btcli names it: `--wallet.name`, `--wallet.hotkey`, `--wallet.path`. */
export interface WalletLocation {
  readonly name: string;
  readonly hotkey: string;
  /** Wallets directory; a leading `~` is the home directory. */
  readonly path: string;
}

/**
 * Expands a leading `~` (alone or followed by `/`) to the home directory, as btwallet's `shellexpand::tilde` does.
 *
 * @param path - a path
 * @param home - the home directory (default `os.homedir()`)
 * @returns the expanded path
 * @example expandHome('~/.bittensor/wallets') // '/home/me/.bittensor/wallets'
 */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith(`~${sep}`) || path.startsWith('~/')) return home + path.slice(1);
  return path;
}

/** `PathBuf::join` for plain segments: one separator between parts, none added after a trailing one. */
function joinLikeRust(base: string, ...parts: readonly string[]): string {
  let out = base;
  for (const part of parts) out = out === '' || out.endsWith(sep) ? out + part : out + sep + part;
  return out;
}

function segment(value: string, field: string): string {
  if (value === '' || value === '.' || value === '..' || value.includes('/') || value.includes('\\') || value.includes('\0')) {
    throw walletError(WALLET_ERROR_CODES.invalidName, 'a wallet or hotkey name is a single path segment', { path: field, value });
  }
  return value;
}

/**
 * The files of a wallet as btwallet 4 lays them out (`btwallet:src/wallet.rs:287-347`): the path strings are
 * the tilde-expanded joins btwallet builds, so the `BT_PW_` variable names derived from them match.
 *
 * @param location - name, hotkey and wallets directory
 * @param home - the home directory (default `os.homedir()`)
 * @returns `{ hotkey, hotkeyPub, coldkey, coldkeyPub }` file paths
 * @throws SubnetError `WALLET_INVALID_NAME` when a name is not a single path segment
 * @example walletFiles({ name: 'miner', hotkey: 'default', path: '~/.bittensor/wallets' }).hotkey
 */
export function walletFiles(
  location: WalletLocation,
  home?: string,
): { readonly hotkey: string; readonly hotkeyPub: string; readonly coldkey: string; readonly coldkeyPub: string } {
  const name = segment(location.name, 'wallet.name');
  const hotkey = segment(location.hotkey, 'wallet.hotkey');
  const root = joinLikeRust(expandHome(location.path, home), name);
  return Object.freeze({
    hotkey: joinLikeRust(root, 'hotkeys', hotkey),
    hotkeyPub: joinLikeRust(root, 'hotkeys', `${hotkey}pub.txt`),
    coldkey: joinLikeRust(root, 'coldkey'),
    coldkeyPub: joinLikeRust(root, 'coldkeypub.txt'),
  });
}
