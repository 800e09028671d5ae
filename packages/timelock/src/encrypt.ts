import { gcm } from '@noble/ciphers/aes.js';
import { randomBytes } from '@noble/hashes/utils.js';

import type { BeaconConfig } from './beacon.js';
import { beaconPublicKeyPoint } from './beacon.js';
import type { BytesLike } from './bytes.js';
import { toBytes, xorBytes } from './bytes.js';
import { serializeCiphertext, TLE_CIPHER_SUITE } from './ciphertext.js';
import { G2_BASE, h2, h3, h4, hashToG1, pairing } from './curve.js';
import { timelockError } from './errors.js';
import type { RoundLike } from './round.js';
import { identityForRound, toRound } from './round.js';

/**
 * The three random values of one encryption. Injected only to reproduce vectors; by default they are
 * drawn from `crypto.getRandomValues`. Never reuse them: equal randomness for two messages leaks both.
 */
export interface EncryptionRandomness {
  /** The 32-byte message key: both the IBE plaintext and the AES-256-GCM key. */
  readonly esk: BytesLike;
  /** The 32-byte Fujisaki-Okamoto seed sigma (tle derives it as sha256 of a random scalar). */
  readonly sigma: BytesLike;
  /** The 12-byte AES-GCM nonce. */
  readonly nonce: BytesLike;
}

/** Input of {@link encryptForRound}. */
export interface EncryptForRoundInput {
  /** The plaintext (any length; the chain limits the whole commit to 5000 bytes). */
  readonly message: Uint8Array;
  /** The drand round whose signature will open the ciphertext. */
  readonly round: RoundLike;
  /** The beacon; only its public key is used. */
  readonly beacon: Pick<BeaconConfig, 'publicKey'>;
  /** Fixed randomness for reproducible output; omit in production. */
  readonly randomness?: EncryptionRandomness;
}

/**
 * Timelock-encrypts a message to a future drand round, byte-compatible with tle rev 5416406 `tle` and
 * therefore with Subtensor's reveal: Boneh-Franklin FullIdent over BLS12-381 (identity in G1, key in G2)
 * wrapping a 32-byte AES-256-GCM key.
 *
 * 1. `Q_id = hash_to_G1(sha256(round as u64 BE))`, `r = Fr(sha256(sigma || esk))`, `U = r * G2`;
 * 2. `V = sigma xor sha256(ark(e(Q_id, r * P_pub)))`, `W = esk xor sha256(sigma)`;
 * 3. body = AES-256-GCM(key esk, nonce, no AAD) of the message.
 *
 * @param input - message, round, beacon and optional fixed randomness
 * @returns the commit bytes (244 + message length)
 * @throws SubnetError `TIMELOCK_INVALID_INPUT` (message, round, randomness lengths), `TIMELOCK_INVALID_BEACON`
 * @example const commit = encryptForRound({ message: payload, round: 5_000_000n, beacon: QUICKNET })
 */
export function encryptForRound(input: EncryptForRoundInput): Uint8Array {
  if (typeof input !== 'object' || (input as unknown) === null) {
    throw timelockError('TIMELOCK_INVALID_INPUT', 'expected an input object', { path: 'input', value: input });
  }
  if (!(input.message instanceof Uint8Array)) {
    throw timelockError('TIMELOCK_INVALID_INPUT', 'expected the message as a Uint8Array', { path: 'message', value: input.message });
  }
  const round = toRound(input.round);
  const publicKey = beaconPublicKeyPoint(input.beacon);
  const fixed = input.randomness;
  const esk = fixed === undefined ? randomBytes(32) : toBytes(fixed.esk, 'randomness.esk', 'TIMELOCK_INVALID_INPUT', 32);
  const sigma = fixed === undefined ? randomBytes(32) : toBytes(fixed.sigma, 'randomness.sigma', 'TIMELOCK_INVALID_INPUT', 32);
  const nonce = fixed === undefined ? randomBytes(12) : toBytes(fixed.nonce, 'randomness.nonce', 'TIMELOCK_INVALID_INPUT', 12);

  const r = h3(sigma, esk);
  if (r === 0n) {
    throw timelockError('TIMELOCK_INVALID_INPUT', 'the randomness hashes to the zero scalar', { path: 'randomness', value: '[withheld]' });
  }
  const u = G2_BASE.multiply(r);
  const gId = pairing(hashToG1(identityForRound(round)), publicKey.multiply(r));
  const v = xorBytes(sigma, h2(gId));
  const w = xorBytes(esk, h4(sigma));
  const aesCiphertext = gcm(esk, nonce).encrypt(input.message);
  return serializeCiphertext({
    u: u.toBytes(true),
    v,
    w,
    aesCiphertext,
    nonce,
    cipherSuite: new TextEncoder().encode(TLE_CIPHER_SUITE),
  });
}
