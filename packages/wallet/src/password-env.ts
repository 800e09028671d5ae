import { sep } from 'node:path';

import { WALLET_ERROR_CODES, walletError } from './errors.js';

/**
 * The name of btwallet's per-keyfile password variable: `BT_PW_` + the keyfile path with the path separator
 * and every `.` replaced by `_`, upper-cased (`btwallet:src/keyfile.rs:489-495`).
 *
 * @param keyfilePath - the keyfile path as btwallet holds it (tilde-expanded)
 * @returns the variable name
 * @example passwordEnvName('/home/user/.bittensor/wallets/miner/hotkeys/locked') // 'BT_PW__HOME_USER__BITTENSOR_WALLETS_MINER_HOTKEYS_LOCKED'
 */
export function passwordEnvName(keyfilePath: string): string {
  return `BT_PW_${keyfilePath.split(sep).join('_').split('.').join('_').toUpperCase()}`;
}

function xorWithName(data: Uint8Array, name: string): Uint8Array {
  const key = new TextEncoder().encode(name);
  return data.map((byte, i) => byte ^ (key[i % key.length] ?? 0));
}

/**
 * Encodes a password as btwallet stores it in its `BT_PW_` variable: standard base64 of the UTF-8 password
 * XORed with the variable's own name (obfuscation, not encryption; `btwallet:src/keyfile.rs:380-389`).
 *
 * @param password - the password
 * @param variable - the variable name ({@link passwordEnvName})
 * @returns the value to export
 * @example process.env[name] = encodePasswordEnv('secret', name)
 */
export function encodePasswordEnv(password: string, variable: string): string {
  return Buffer.from(xorWithName(new TextEncoder().encode(password), variable)).toString('base64');
}

/**
 * Decodes a `BT_PW_` value as btwallet does (`btwallet:src/keyfile.rs:229-240, 391-399`). btwallet turns a
 * non-UTF-8 result into the empty password silently; this refuses it instead.
 *
 * @param value - the variable's value
 * @param variable - its name
 * @returns the password
 * @throws SubnetError `WALLET_INVALID_PASSWORD_ENV` when the value is not canonical padded base64 or does not decode to UTF-8
 * @example decodePasswordEnv(process.env[name]!, name)
 */
export function decodePasswordEnv(value: string, variable: string): string {
  // btwallet decodes with base64's STANDARD engine: padding required and canonical, no trailing bits set
  // (`QR==` is refused where Node would read it as `QQ==`). Re-encoding must give the value back.
  const bytes = Buffer.from(value, 'base64');
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value) || bytes.toString('base64') !== value) {
    throw walletError(WALLET_ERROR_CODES.invalidPasswordEnv, `${variable} is not standard padded base64 as btwallet writes it`, { variable });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(xorWithName(bytes, variable));
  } catch (cause) {
    throw walletError(
      WALLET_ERROR_CODES.invalidPasswordEnv,
      `${variable} does not decode to a UTF-8 password (was it encoded for another keyfile path?)`,
      { variable },
      cause,
    );
  }
}
