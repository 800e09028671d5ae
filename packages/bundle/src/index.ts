// The record schemas and error codes, also served alone by the `@subnet/bundle/records` subpath.
export * from './records.js';
export { CHALLENGE_KINDS, challengeSettingsSchema, epochConfigSchema, parseEpochConfig } from './epoch-config.js';
export type { ChallengeKind, ChallengeSettings, EpochConfig } from './epoch-config.js';
export type { ExcludedRecord, RecordList } from './exclusion.js';
export { RECORD_MAX_DEPTH } from './screen-records.js';
export { computeEpoch } from './compute-epoch.js';
export type { ChallengeOutcome, ComputeEpochInput, EpochComputation, OwnScore } from './compute-epoch.js';
export type { WinnerTie } from './submission-order.js';
export {
  BUNDLE_SCHEMA_VERSION,
  bundleDigest,
  bundleSchema,
  buildBundle,
  recomputeBundle,
  signBundle,
  signedBundleSchema,
  sr25519Verifier,
  SUBMISSION_STATUSES,
  submissionRecordSchema,
  verifyBundle,
} from './bundle.js';
export type { BuildBundleInput, Bundle, BundleSigner, SignatureVerifier, SignedBundle, SubmissionRecord } from './bundle.js';
export { QUERY_OUTCOMES, queryListSchema, queryRecordSchema } from './dispatch-queries.js';
export type { QueryOutcome, QueryRecord } from './dispatch-queries.js';
export { toWire } from './wire.js';
export { bundleTextIn, signedBundleText } from './signed-bundle-text.js';
export type { SignedBundleText } from './signed-bundle-text.js';
export {
  REVEAL_ATTESTATION_DOMAIN,
  REVEAL_STATUSES,
  revealAttestationSchema,
  revealSigningMessage,
  signRevealAttestation,
  verifyRevealAttestation,
  withRevealAttestation,
} from './reveal-attestation.js';
export type { RevealAttestation, RevealBinding, SignedRevealAttestation } from './reveal-attestation.js';
