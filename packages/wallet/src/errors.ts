import { SubnetError } from '@subnet/core';

/**
 * Every error code `@subnet/wallet` raises. Codes are append-only. No message or context ever holds a
 * password, mnemonic, seed or private key.
 *
 * @example if (isSubnetError(e, WALLET_ERROR_CODES.wrongPassword)) askAgain()
 */
export const WALLET_ERROR_CODES = Object.freeze({
  /** A wallet or hotkey name is not a single path segment (`context.path` names the field). */
  invalidName: 'WALLET_INVALID_NAME',
  /** The keyfile does not exist, cannot be read or is not a regular file (`context.value` is its path). */
  keyfileNotFound: 'WALLET_KEYFILE_NOT_FOUND',
  /** A keyfile holding a secret is readable or writable by group or others (`context.mode`, octal). */
  insecureFileMode: 'WALLET_INSECURE_FILE_MODE',
  /** The keyfile is not what btwallet writes: not UTF-8 JSON of strings, bad hex, an invalid mnemonic, ... */
  invalidKeyfile: 'WALLET_INVALID_KEYFILE',
  /** The keyfile holds only a public key (a `*pub.txt`), so it cannot sign. */
  publicOnly: 'WALLET_PUBLIC_ONLY',
  /** The keyfile is encrypted and no password source is available (no `BT_PW_` variable, no password file, no TTY). */
  passwordUnavailable: 'WALLET_PASSWORD_UNAVAILABLE',
  /** The `BT_PW_...` variable is not the base64 btwallet writes (`context.variable` names it). */
  invalidPasswordEnv: 'WALLET_INVALID_PASSWORD_ENV',
  /** The password file cannot be read, is not a regular file or is larger than 64 KiB. */
  passwordFileUnreadable: 'WALLET_PASSWORD_FILE_UNREADABLE',
  /** Decryption failed: the password is wrong (or the file was altered; NaCl cannot tell the two apart). */
  wrongPassword: 'WALLET_WRONG_PASSWORD',
  /** An encryption btwallet 4 cannot open either (the legacy Fernet `gAAAAA` form). */
  unsupportedEncryption: 'WALLET_UNSUPPORTED_ENCRYPTION',
  /** The keyfile's `ss58Address` is not the address its secret derives. */
  keyMismatch: 'WALLET_KEY_MISMATCH',
});

/** A code of {@link WALLET_ERROR_CODES}. */
export type WalletErrorCode = (typeof WALLET_ERROR_CODES)[keyof typeof WALLET_ERROR_CODES];

/** Context of every wallet error: the field or file concerned, never a secret. */
export interface WalletErrorContext {
  readonly path?: string;
  readonly value?: unknown;
  /** Octal mode bits of an insecure file. */
  readonly mode?: string;
  /** Name of the password environment variable concerned (never its value). */
  readonly variable?: string;
  readonly [key: string]: unknown;
}

/** Builds a wallet error (internal). */
export function walletError(code: WalletErrorCode, summary: string, context: WalletErrorContext = {}, cause?: unknown): SubnetError<WalletErrorContext> {
  return new SubnetError<WalletErrorContext>(code, summary, { context, cause });
}
