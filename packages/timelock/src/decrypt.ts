import { gcm } from '@noble/ciphers/aes.js';

import type { BytesLike } from './bytes.js';
import { toBytes, xorBytes } from './bytes.js';
import type { ParseCiphertextOptions, TimelockCiphertext } from './ciphertext.js';
import { parseCiphertext, serializeCiphertext } from './ciphertext.js';
import { decodeG1, decodeG2, G2_BASE, h2, h3, h4, pairing } from './curve.js';
import { timelockError } from './errors.js';

/**
 * Opens a timelock ciphertext with the beacon signature of its round, exactly as tle rev 5416406 `tld`:
 * `sigma = V xor sha256(ark(e(sig, U)))`, `esk = W xor sha256(sigma)`, then the Fujisaki-Okamoto check
 * `Fr(sha256(sigma || esk)) * G2 == U` (fails for a wrong round, a wrong key or a tampered U/V/W), then
 * AES-256-GCM with key esk (fails for a tampered body, tag or nonce).
 *
 * @param ciphertext - commit bytes (Uint8Array or hex) or an already parsed ciphertext
 * @param signature - the round's 48-byte compressed G1 signature (Uint8Array or hex)
 * @param options - `chainCompatible` parses as the chain does (see {@link parseCiphertext})
 * @returns the plaintext
 * @throws SubnetError `TIMELOCK_INVALID_CIPHERTEXT` (unparseable), `TIMELOCK_INVALID_PULSE` (signature not a
 *   G1 point), `TIMELOCK_DECRYPTION_FAILED` (context `stage`: `ibe` for the FO check, `aes` for the tag)
 * @example decryptWithSignature(commit, pulse.signature) // the SCALE payload
 */
export function decryptWithSignature(ciphertext: BytesLike | TimelockCiphertext, signature: BytesLike, options: ParseCiphertextOptions = {}): Uint8Array {
  const parsed =
    typeof ciphertext === 'string' || ciphertext instanceof Uint8Array
      ? parseCiphertext(ciphertext, options)
      : parseCiphertext(serializeCiphertext(ciphertext), options);
  const signatureBytes = toBytes(signature, 'signature', 'TIMELOCK_INVALID_PULSE', 48);
  const sig = decodeG1(signatureBytes, 'TIMELOCK_INVALID_PULSE', 'signature');
  const u = decodeG2(parsed.u, 'TIMELOCK_INVALID_CIPHERTEXT', 'ciphertext.u');

  const sigma = xorBytes(parsed.v, h2(pairing(sig, u)));
  const esk = xorBytes(parsed.w, h4(sigma));
  const r = h3(sigma, esk);
  if (r === 0n || !G2_BASE.multiply(r).equals(u)) {
    throw timelockError('TIMELOCK_DECRYPTION_FAILED', 'the signature does not open this ciphertext (wrong round or key, or tampered U/V/W)', {
      path: 'signature',
      value: 'fujisaki-okamoto check failed',
      stage: 'ibe',
    });
  }
  try {
    return gcm(esk, parsed.nonce).decrypt(parsed.aesCiphertext);
  } catch (cause) {
    throw timelockError(
      'TIMELOCK_DECRYPTION_FAILED',
      'the AES-GCM tag does not verify (tampered body, tag or nonce)',
      { path: 'ciphertext.body', value: 'aes-gcm tag mismatch', stage: 'aes' },
      cause,
    );
  }
}
