import { isSubnetError } from '@subnet/core';
import type { SubnetError } from '@subnet/core';

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

/** A password and where it came from (for the message of a wrong one; never the password itself). */
interface SourcedPassword {
  readonly password: string;
  /** `password_file`, `env` or `prompt`. */
  readonly source: 'password_file' | 'env' | 'prompt';
  /** The password file's path or the variable's name; absent for the prompt. */
  readonly from?: string;
}

async function passwordFor(path: string, sources: PasswordSources): Promise<SourcedPassword> {
  if (sources.passwordFile !== undefined) {
    return { password: await passwordFromFile(sources.passwordFile), source: 'password_file', from: sources.passwordFile };
  }
  const variable = passwordEnvName(path);
  const fromEnv = (sources.env ?? process.env)[variable];
  if (fromEnv !== undefined) return { password: decodePasswordEnv(fromEnv, variable), source: 'env', from: variable };
  const prompt = sources.prompt === undefined ? ttyPasswordPrompt() : sources.prompt;
  if (prompt !== null && prompt !== undefined) return { password: await prompt(`Enter the password of ${path}: `), source: 'prompt' };
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
 * `WALLET_WRONG_PASSWORD` naming the keyfile and where the password came from, with what to do: an operator
 * with a password file, a `BT_PW_` variable and a terminal cannot otherwise tell which one was read, nor which
 * file it failed to open. The decryption's own sentence (which check failed) is kept after it.
 */
function wrongPasswordFrom(path: string, given: SourcedPassword, error: SubnetError): SubnetError {
  const detail = error.message.replace(/^\[[A-Z_]+\] wrong password for this encrypted keyfile ?/, '');
  const advice =
    given.source === 'password_file'
      ? `the password came from the password file ${given.from ?? ''} (all of it but one trailing newline); put in it the password this keyfile was encrypted with`
      : given.source === 'env'
        ? `the password came from ${given.from ?? 'the BT_PW_ variable'} (btwallet's password variable); set it to the encoding of the password this keyfile was encrypted with, or unset it`
        : 'the password came from the prompt; type the password this keyfile was encrypted with';
  return walletError(
    WALLET_ERROR_CODES.wrongPassword,
    `wrong password for the encrypted keyfile ${path}${detail === '' ? '' : ` ${detail}`}: ${advice}`,
    {
      path: 'keyfile',
      value: path,
      source: given.source,
      ...(given.source === 'env' ? { variable: given.from } : {}),
      ...(given.source === 'password_file' ? { password_file: given.from } : {}),
    },
    error,
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
    const given = await passwordFor(path, sources);
    encryption = head.startsWith('$NACL') ? 'nacl' : 'ansible-vault';
    try {
      plain = encryption === 'nacl' ? await decryptNaclKeyfile(data, given.password) : decryptAnsibleVault(data, given.password);
    } catch (error) {
      if (isSubnetError(error, WALLET_ERROR_CODES.wrongPassword)) throw wrongPasswordFrom(path, given, error);
      throw error;
    }
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
