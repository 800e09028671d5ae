export { TIMELOCK_ERROR_CODES } from './errors.js';
export type { TimelockErrorCode } from './errors.js';
export type { BytesLike } from './bytes.js';
export { identityForRound } from './round.js';
export type { RoundLike } from './round.js';
export { QUICKNET, roundAtTime, timeOfRound } from './beacon.js';
export type { BeaconConfig, BeaconSchedule } from './beacon.js';
export { DRAND_G1_DST } from './curve.js';
export { assertValidPulse, verifyPulse } from './pulse.js';
export type { Pulse, PulseInput, PulseVerdict, PulseVerification } from './pulse.js';
export { beaconKeyFromSeed, publicKeyFromSecret, signRound } from './dev-beacon.js';
export type { BeaconKeyPair } from './dev-beacon.js';
export { CIPHERTEXT_OVERHEAD_BYTES, parseCiphertext, serializeCiphertext, TLE_CIPHER_SUITE } from './ciphertext.js';
export type { ParseCiphertextOptions, TimelockCiphertext } from './ciphertext.js';
export { encryptForRound } from './encrypt.js';
export type { EncryptForRoundInput, EncryptionRandomness } from './encrypt.js';
export { decryptWithSignature } from './decrypt.js';
export { decodeWeightsPayload, encodeWeightsPayload } from './weights-payload.js';
export type { AccountIdLike, DecodeWeightsPayloadOptions, WeightsPayload, WeightsPayloadInput } from './weights-payload.js';
export { encryptWeightsCommit, MAX_COMMIT_BYTES, MAX_COMMIT_UIDS, revealWeightsCommit } from './weights-commit.js';
export type {
  EncryptWeightsCommitInput,
  RevealDropReason,
  RevealOutcome,
  RevealWeightsCommitInput,
  WeightsCommit,
} from './weights-commit.js';
export { DEFAULT_OVERDUE_AFTER_BLOCKS, REVEAL_SECURITY_BLOCKS, revealRoundLegacy, revealRoundStateful } from './reveal-round.js';
export type { LegacyRevealRoundInput, RevealRoundPrediction, StatefulRevealRoundInput } from './reveal-round.js';
