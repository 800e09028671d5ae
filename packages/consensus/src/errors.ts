/**
 * The error codes this package raises, all carried by `SubnetError` from `@subnet/core`. Recognise them
 * with `isSubnetError(error, CONSENSUS_ERROR_CODES.invalidSssa)`. Codes are append-only.
 *
 * - `invalidSssa`: an SSSA document fails {@link sssaSchema} (the path names the field, e.g.
 *   `members[2].sssa.findings[0].evidence_ref`).
 * - `invalidEvidenceRef`: {@link normaliseEvidenceRef} got a reference it cannot normalise (line range with
 *   a > b, or an empty path).
 * - `invalidFinding`: {@link canonicalFindingKey} got a finding that cannot be keyed.
 * - `invalidGroup`: {@link computeConsensus} got a malformed group (bad uid, hotkey or role, duplicate uid
 *   or hotkey).
 * - `invalidFactor`: {@link emission} got a factor that is not finite and >= 0, or a bad role table.
 * - `emissionOverflow`: the emission product of valid factors is not a finite number.
 * - `invalidSelection`: {@link selectVerificationGroup} got malformed input (bad block hash, duplicate
 *   candidate, a candidate without a reputation, ...).
 * - `invalidArgument`: an exported helper got an argument outside its domain (`majorityThreshold(-1)`,
 *   `verificationSeed('0x12', ...)`, a table lookup with a non-string key, ...).
 * - `duplicateMember`: {@link computeTaskConsensus} got a second document from one uid or hotkey for a task
 *   (the first in input order is scored, the later ones are excluded with this code).
 *
 * @example
 * import { isSubnetError } from '@subnet/core';
 * try { parseSssa(doc) } catch (e) { if (isSubnetError(e, CONSENSUS_ERROR_CODES.invalidSssa)) console.log(e.context.path) }
 */
export const CONSENSUS_ERROR_CODES = Object.freeze({
  invalidSssa: 'CONSENSUS_INVALID_SSSA',
  invalidEvidenceRef: 'CONSENSUS_INVALID_EVIDENCE_REF',
  invalidFinding: 'CONSENSUS_INVALID_FINDING',
  invalidGroup: 'CONSENSUS_INVALID_GROUP',
  invalidFactor: 'CONSENSUS_INVALID_FACTOR',
  emissionOverflow: 'CONSENSUS_EMISSION_OVERFLOW',
  invalidSelection: 'CONSENSUS_INVALID_SELECTION',
  invalidArgument: 'CONSENSUS_INVALID_ARGUMENT',
  duplicateMember: 'CONSENSUS_DUPLICATE_MEMBER',
} as const);

/**
 * One of the codes of {@link CONSENSUS_ERROR_CODES}.
 *
 * @example const code: ConsensusErrorCode = CONSENSUS_ERROR_CODES.invalidSssa;
 */
export type ConsensusErrorCode = (typeof CONSENSUS_ERROR_CODES)[keyof typeof CONSENSUS_ERROR_CODES];
