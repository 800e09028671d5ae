import { decryptAnsibleVault } from './ansible-vault.js';
import { WALLET_ERROR_CODES, walletError } from './errors.js';
import { parseKeyfileJson } from './keyfile-json.js';
import type { ParsedKeyfile } from './keyfile-json.js';
import { decryptNaclKeyfile } from './nacl-keyfile.js';
import { decodePasswordEnv, passwordEnvName } from './password-env.js';
import { MAX_KEY_FILE_BYTES, readRegularFile } from './read-regular-file.js';
import { ttyPasswordPrompt } from './tty-prompt.js';
import type { PasswordPrompt } from './tty-prompt.js';

/** Where the password of an encrypted keyfile may come from, tried in this order. */
export interface PasswordSources {
  /** A file holding the password (container secrets); one trailing newline is ignored. Tried first. */
  readonly passwordFile?: string;
  /** The environment holding btwallet's `BT_PW_<PATH>` variable (default `process.env`). Tried second. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The prompt, tried last (default: a no-echo prompt on the TTY when stdin is one; `null` for none). */
  readonly prompt?: PasswordPrompt | null;
}

/** How a keyfile was stored. */
export type KeyfileEncryption = 'none' | 'nacl' | 'ansible-vault';

/** A keyfile read from disk. */
export interface LoadedKeyfile extends ParsedKeyfile {
  /** The file read. */
  readonly path: string;
  readonly encryption: KeyfileEncryption;
}

function insecure(mode: number): boolean {
  return process.platform !== 'win32' && (mode & 0o077) !== 0;
}

function requirePrivateMode(path: string, mode: number): void {
  if (!insecure(mode)) return;
  const octal = (mode & 0o777).toString(8);
  throw walletError(WALLET_ERROR_CODES.insecureFileMode, `the keyfile is readable or writable by group or others (mode ${octal}); run chmod 600 on it`, {
    path: 'keyfile',
    value: path,
    mode: octal,
  });
}

async function passwordFromFile(file: string): Promise<string> {
  const got = await readRegularFile(file, MAX_KEY_FILE_BYTES);
  if ('kind' in got) {
    const why =
      got.kind === 'unreadable'
        ? got.code
        : got.kind === 'not-regular'
          ? `not a regular file (${got.type})`
          : `${got.size} bytes, more than ${MAX_KEY_FILE_BYTES}`;
    throw walletError(WALLET_ERROR_CODES.passwordFileUnreadable, `cannot read the password file (${why})`, {
      path: 'wallet.password_file',
      value: file,
    });
  }
  return new TextDecoder().decode(got.data).replace(/\r?\n$/, '');
}

async function passwordFor(path: string, sources: PasswordSources): Promise<string> {
  if (sources.passwordFile !== undefined) return passwordFromFile(sources.passwordFile);
  const variable = passwordEnvName(path);
  const fromEnv = (sources.env ?? process.env)[variable];
  if (fromEnv !== undefined) return decodePasswordEnv(fromEnv, variable);
  const prompt = sources.prompt === undefined ? ttyPasswordPrompt() : sources.prompt;
  if (prompt !== null && prompt !== undefined) return prompt(`Enter the password of ${path}: `);
  throw walletError(
    WALLET_ERROR_CODES.passwordUnavailable,
    `the keyfile is encrypted and no password source is available: set wallet.password_file, export ${variable}, or run on a terminal`,
    {
      path: 'keyfile',
      value: path,
      variable,
    },
  );
}

/**
 * Reads one keyfile as btwallet 4 does: plain JSON, or encrypted `$NACL` (the only form btwallet writes) or
 * legacy `$ANSIBLE_VAULT`, decrypted with a password from the password file, else btwallet's `BT_PW_<PATH>`
 * variable, else a TTY prompt. A file holding a secret (and any encrypted file) must not be readable or
 * writable by group or others; public-only files (`*pub.txt`) may be. Only regular files of at most 64 KiB
 * are read (a FIFO or device is refused without blocking). The password is never logged.
 *
 * @param path - the keyfile path (tilde already expanded)
 * @param sources - where an encrypted file's password may come from
 * @returns the parsed key, with the path and how it was stored
 * @throws SubnetError `WALLET_KEYFILE_NOT_FOUND`, `WALLET_INSECURE_FILE_MODE`, `WALLET_PASSWORD_UNAVAILABLE`,
 *   `WALLET_PASSWORD_FILE_UNREADABLE`, `WALLET_INVALID_PASSWORD_ENV`, `WALLET_WRONG_PASSWORD`,
 *   `WALLET_UNSUPPORTED_ENCRYPTION`, `WALLET_INVALID_KEYFILE`, `WALLET_KEY_MISMATCH`
 * @example const key = await readKeyfile('/home/me/.bittensor/wallets/miner/hotkeys/default')
 */
export async function readKeyfile(path: string, sources: PasswordSources = {}): Promise<LoadedKeyfile> {
  const got = await readRegularFile(path, MAX_KEY_FILE_BYTES);
  if ('kind' in got) {
    if (got.kind === 'too-large')
      throw walletError(
        WALLET_ERROR_CODES.invalidKeyfile,
        `the keyfile has ${got.size} bytes, more than the ${MAX_KEY_FILE_BYTES} any keyfile btwallet writes can have`,
        { path: 'keyfile', value: path },
      );
    const why = got.kind === 'unreadable' ? got.code : `not a regular file (${got.type})`;
    throw walletError(WALLET_ERROR_CODES.keyfileNotFound, `cannot read the keyfile (${why})`, { path: 'keyfile', value: path });
  }
  const { data, mode } = got;
  // The raw bytes decide, as btwallet's `starts_with` checks decide (`btwallet:src/keyfile.rs:166-191`): a byte order
  // mark in front is not skipped.
  const head = Buffer.from(data.subarray(0, 14)).toString('latin1');
  let encryption: KeyfileEncryption = 'none';
  let plain = data;
  if (head.startsWith('$NACL') || head.startsWith('$ANSIBLE_VAULT')) {
    requirePrivateMode(path, mode);
    const password = await passwordFor(path, sources);
    encryption = head.startsWith('$NACL') ? 'nacl' : 'ansible-vault';
    plain = encryption === 'nacl' ? await decryptNaclKeyfile(data, password) : decryptAnsibleVault(data, password);
  } else if (head.startsWith('gAAAAA')) {
    throw walletError(
      WALLET_ERROR_CODES.unsupportedEncryption,
      'the keyfile uses the legacy Fernet encryption, which btwallet 4 cannot decrypt either; regenerate the key with btcli',
      { path: 'keyfile', value: path },
    );
  }
  const parsed = parseKeyfileJson(plain);
  if (parsed.pair !== undefined) requirePrivateMode(path, mode);
  return Object.freeze({ ...parsed, path, encryption });
}
