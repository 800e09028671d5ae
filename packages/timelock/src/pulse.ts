import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';

import type { BeaconConfig } from './beacon.js';
import { beaconPublicKeyPoint } from './beacon.js';
import type { BytesLike } from './bytes.js';
import { equalBytes, toBytes } from './bytes.js';
import { decodeG1, hashToG1 } from './curve.js';
import { timelockError } from './errors.js';
import type { RoundLike } from './round.js';
import { identityForRound, toRound } from './round.js';

/** A beacon pulse as given by a caller (from drand, `Drand.Pulses`, or a dev beacon). */
export interface PulseInput {
  /** The round, 1..u64::MAX. */
  readonly round: RoundLike;
  /** The 48-byte compressed G1 signature over `sha256(round as u64 BE)`. */
  readonly signature: BytesLike;
  /** `sha256(signature)`, 32 bytes; checked when given. */
  readonly randomness?: BytesLike;
}

/** A normalised pulse: what {@link signRound} returns and {@link assertValidPulse} hands back. */
export interface Pulse {
  readonly round: bigint;
  readonly signature: Uint8Array;
  readonly randomness: Uint8Array;
}

/** Why a pulse was rejected, or `ok`. */
export type PulseVerdict = 'ok' | 'malformed_signature' | 'signature_mismatch' | 'randomness_mismatch';

/** The result of {@link verifyPulse}. */
export interface PulseVerification {
  /** True only when the verdict is `ok`. */
  readonly valid: boolean;
  /** `ok`, or the first check that failed. */
  readonly verdict: PulseVerdict;
  readonly round: bigint;
  /** `sha256(round as u64 BE)`: the message drand signed. */
  readonly message: Uint8Array;
  /** `sha256(signature)`: the randomness the pulse must carry. */
  readonly expectedRandomness: Uint8Array;
}

/**
 * Verifies a pulse the way Subtensor's `QuicknetVerifier` does: the signature decodes to a G1 point in the
 * subgroup, `e(sig, g2) == e(H(m), pk)` with `m = sha256(round as u64 BE)` and `H` = hash-to-G1 with the
 * drand DST, and (when given) `randomness == sha256(signature)`. A signature that does not decode is
 * `malformed_signature` (the chain fails the whole `write_pulse` with `PulseVerificationError`); one that
 * decodes but does not verify is `signature_mismatch` (the chain skips it silently).
 *
 * @param pulse - round, signature and optional randomness
 * @param beacon - the beacon whose public key signed it
 * @returns a frozen verdict with the signed message and the expected randomness
 * @throws SubnetError `TIMELOCK_INVALID_INPUT` (bad round or non-bytes fields), `TIMELOCK_INVALID_BEACON` (bad public key)
 * @example verifyPulse({ round: 1000n, signature: 'b44679b9...' }, QUICKNET).valid // true
 */
export function verifyPulse(pulse: PulseInput, beacon: Pick<BeaconConfig, 'publicKey'>): PulseVerification {
  if (typeof pulse !== 'object' || (pulse as unknown) === null) {
    throw timelockError('TIMELOCK_INVALID_INPUT', 'expected a pulse object', { path: 'pulse', value: pulse });
  }
  const round = toRound(pulse.round, 'pulse.round');
  const publicKey = beaconPublicKeyPoint(beacon);
  const signature = toBytes(pulse.signature, 'pulse.signature', 'TIMELOCK_INVALID_INPUT');
  const randomness = pulse.randomness === undefined ? undefined : toBytes(pulse.randomness, 'pulse.randomness', 'TIMELOCK_INVALID_INPUT');
  const message = identityForRound(round);
  const expectedRandomness = sha256(signature);
  const result = (verdict: PulseVerdict): PulseVerification => Object.freeze({ valid: verdict === 'ok', verdict, round, message, expectedRandomness });

  if (signature.length !== 48) return result('malformed_signature');
  let point;
  try {
    point = decodeG1(signature, 'TIMELOCK_INVALID_PULSE', 'pulse.signature');
  } catch {
    return result('malformed_signature');
  }
  if (!bls12_381.shortSignatures.verify(point, hashToG1(message), publicKey)) return result('signature_mismatch');
  if (randomness !== undefined && !equalBytes(randomness, expectedRandomness)) return result('randomness_mismatch');
  return result('ok');
}

/**
 * Like {@link verifyPulse}, but throws unless the pulse is valid, and returns it normalised.
 *
 * @param pulse - round, signature and optional randomness
 * @param beacon - the beacon whose public key signed it
 * @returns the frozen pulse with bigint round, signature bytes and randomness = sha256(signature)
 * @throws SubnetError `TIMELOCK_INVALID_PULSE` (context `verdict`), plus the codes of {@link verifyPulse}
 * @example const pulse = assertValidPulse(fromChain, QUICKNET)
 */
export function assertValidPulse(pulse: PulseInput, beacon: Pick<BeaconConfig, 'publicKey'>): Pulse {
  const verification = verifyPulse(pulse, beacon);
  if (!verification.valid) {
    throw timelockError('TIMELOCK_INVALID_PULSE', `pulse for round ${verification.round} is invalid: ${verification.verdict}`, {
      path: verification.verdict === 'randomness_mismatch' ? 'pulse.randomness' : 'pulse.signature',
      value: verification.verdict,
      verdict: verification.verdict,
      round: verification.round,
    });
  }
  return Object.freeze({
    round: verification.round,
    signature: toBytes(pulse.signature, 'pulse.signature', 'TIMELOCK_INVALID_INPUT'),
    randomness: verification.expectedRandomness,
  });
}
