import { naclDecrypt } from '@polkadot/util-crypto';
import { argon2i } from 'hash-wasm';

import { WALLET_ERROR_CODES, walletError } from './errors.js';

/** btwallet's constant salt (`btwallet:src/keyfile.rs:25`). */
const NACL_SALT = Uint8Array.from([0x13, 0x71, 0x83, 0xdf, 0xf1, 0x5a, 0x09, 0xbc, 0x9c, 0x90, 0xb5, 0x51, 0x87, 0x39, 0xe9, 0xb1]);
const MAGIC = '$NACL';
const NONCE_BYTES = 24;
const TAG_BYTES = 16;

/**
 * The secretbox key of a `$NACL` keyfile: libsodium `crypto_pwhash` ALG_ARGON2I13 with OPSLIMIT_SENSITIVE and
 * MEMLIMIT_SENSITIVE, i.e. Argon2i v1.3, t = 8, m = 524288 KiB (512 MiB), p = 1, 32 bytes, over the UTF-8
 * password and btwallet's fixed salt (`btwallet:src/keyfile.rs:243-255`). Takes seconds and 512 MiB.
 *
 * @param password - the password, as given (not trimmed)
 * @returns the 32-byte key
 * @example const key = await naclKeyFromPassword('secret')
 */
export async function naclKeyFromPassword(password: string): Promise<Uint8Array> {
  return argon2i({
    password: new TextEncoder().encode(password),
    salt: NACL_SALT,
    iterations: 8,
    memorySize: 524_288,
    parallelism: 1,
    hashLength: 32,
    outputType: 'binary',
  });
}

/**
 * Opens a `$NACL` keyfile: `"$NACL"` || nonce (24) || Poly1305 tag (16) || XSalsa20 ciphertext
 * (`btwallet:src/keyfile.rs:274-301`).
 *
 * @param data - the whole file
 * @param password - the password
 * @returns the plaintext (the keyfile JSON bytes)
 * @throws SubnetError `WALLET_WRONG_PASSWORD` when the tag does not verify; `WALLET_INVALID_KEYFILE` when too short
 * @example const json = await decryptNaclKeyfile(bytes, password)
 */
export async function decryptNaclKeyfile(data: Uint8Array, password: string): Promise<Uint8Array> {
  if (data.length < MAGIC.length + NONCE_BYTES + TAG_BYTES || new TextDecoder().decode(data.subarray(0, MAGIC.length)) !== MAGIC) {
    throw walletError(WALLET_ERROR_CODES.invalidKeyfile, 'a $NACL keyfile is "$NACL", a 24-byte nonce, a 16-byte tag and the ciphertext', {
      path: 'keyfile',
      value: `${data.length} bytes`,
    });
  }
  const nonce = data.subarray(MAGIC.length, MAGIC.length + NONCE_BYTES);
  const sealed = data.subarray(MAGIC.length + NONCE_BYTES);
  const opened = naclDecrypt(sealed, nonce, await naclKeyFromPassword(password));
  if (opened === null) throw walletError(WALLET_ERROR_CODES.wrongPassword, 'wrong password for this encrypted keyfile (the secretbox tag does not verify)');
  return opened;
}
