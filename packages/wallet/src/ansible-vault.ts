import { createDecipheriv, createHmac, pbkdf2Sync, timingSafeEqual } from 'node:crypto';

import { WALLET_ERROR_CODES, walletError } from './errors.js';

const HEADER = '$ANSIBLE_VAULT;1.1;AES256';

function invalid(summary: string): never {
  throw walletError(WALLET_ERROR_CODES.invalidKeyfile, summary, { path: 'keyfile' });
}

function hexBytes(text: string): Buffer {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) invalid('an ansible-vault body is hex');
  return Buffer.from(text, 'hex');
}

/** Rust's `lines()`: split at `\n`, drop one `\r` before it, no empty line after a final `\n`. */
function rustLines(text: string): string[] {
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/**
 * Opens a legacy `$ANSIBLE_VAULT;1.1;AES256` keyfile, which btwallet 4 still reads (`btwallet:src/keyfile.rs:344-349`,
 * crate ansible-vault 0.2.1): PBKDF2-HMAC-SHA256(password, salt, 10000, 80) gives the AES key, HMAC key and
 * CTR IV; the HMAC-SHA256 of the ciphertext is checked before AES-256-CTR and PKCS#7 unpadding. Parsed as the
 * crate parses it: the first line exactly the header (CRLF allowed), the other lines trimmed and joined into hex of
 * `hex(salt)\nhex(hmac)\nhex(ciphertext)`, whose first three lines are used and any further ones ignored.
 *
 * @param data - the whole file
 * @param password - the password
 * @returns the plaintext
 * @throws SubnetError `WALLET_WRONG_PASSWORD` when the HMAC does not verify; `WALLET_INVALID_KEYFILE` for a malformed vault
 * @example const json = decryptAnsibleVault(bytes, password)
 */
export function decryptAnsibleVault(data: Uint8Array, password: string): Uint8Array {
  const lines = rustLines(new TextDecoder('utf-8', { ignoreBOM: true }).decode(data));
  if (lines[0] !== HEADER) invalid(`an ansible-vault keyfile starts with the line ${HEADER}`);
  const inner = rustLines(
    hexBytes(
      lines
        .slice(1)
        .map((l) => l.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, ''))
        .join(''),
    ).toString('latin1'),
  );
  if (inner.length < 3) invalid('an ansible-vault body holds salt, hmac and ciphertext');
  const [salt, mac, ciphertext] = inner.slice(0, 3).map((part) => hexBytes(part)) as [Buffer, Buffer, Buffer];
  const keys = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, 10_000, 80, 'sha256');
  const expected = createHmac('sha256', keys.subarray(32, 64)).update(ciphertext).digest();
  if (expected.length !== mac.length || !timingSafeEqual(expected, mac)) {
    throw walletError(WALLET_ERROR_CODES.wrongPassword, 'wrong password for this encrypted keyfile (the ansible-vault HMAC does not verify)');
  }
  const decipher = createDecipheriv('aes-256-ctr', keys.subarray(0, 32), keys.subarray(64, 80));
  const padded = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  const pad = padded.at(-1) ?? 0;
  if (pad < 1 || pad > 16 || pad > padded.length || !padded.subarray(padded.length - pad).every((b) => b === pad))
    invalid('the ansible-vault plaintext has no valid PKCS#7 padding');
  return new Uint8Array(padded.subarray(0, padded.length - pad));
}
