/**
 * Every error code `auditor-replay` raises or reports. Codes are append-only.
 *
 * @example if (isSubnetError(e, AUDITOR_ERROR_CODES.unreadable)) process.exitCode = 2
 */
export const AUDITOR_ERROR_CODES = Object.freeze({
  /** A bundle file or directory cannot be read. */
  unreadable: 'AUDITOR_UNREADABLE',
  /** A bundle file is not JSON. */
  malformed: 'AUDITOR_MALFORMED_JSON',
  /** A document is not a signed audit bundle (names the field path and value). */
  invalidBundle: 'AUDITOR_INVALID_BUNDLE',
  /** A command-line option is invalid. */
  invalidOption: 'AUDITOR_INVALID_OPTION',
  /** The validator API could not be reached or answered with an error. */
  fetchFailed: 'AUDITOR_FETCH_FAILED',
  /** The chain could not be read. */
  chainFailed: 'AUDITOR_CHAIN_FAILED',
});
