/**
 * Every error code `miner-check` raises or reports, in one place, as literal constants
 * ({@link MINER_CHECK_ERROR_CODES}) and their union ({@link MinerCheckErrorCode}). Codes are append-only: a code
 * once published keeps its value and meaning (`error-codes.test.ts` lists every value). Each is printed on stderr
 * (text) or in `error.code` (`--json`); all but `MINER_CHECK_INTERNAL` exit 2.
 *
 * @example if (isSubnetError(e, MINER_CHECK_ERROR_CODES.invalidArgument)) report(e.context.path)
 */
export const MINER_CHECK_ERROR_CODES = Object.freeze({
  /** An input file is missing or cannot be read (`context.path` names the flag). */
  unreadableInput: 'MINER_CHECK_UNREADABLE_INPUT',
  /** An input is not JSON (bytes that are not UTF-8, `NaN` and `Infinity` included). */
  malformedJson: 'MINER_CHECK_MALFORMED_JSON',
  /** A flag's value is out of range or not of its kind, or two inputs read standard input (`context.path` names the flag). */
  invalidArgument: 'MINER_CHECK_INVALID_ARGUMENT',
  /** An input fails its schema or holds a number the validator refuses (`context.path` names the field). */
  invalidInput: 'MINER_CHECK_INVALID_INPUT',
  /** `explain`: no verified bundle scores the hotkey. */
  minerNotFound: 'MINER_CHECK_MINER_NOT_FOUND',
  /**
   * The command line itself is wrong, as the parser reads it: an unknown command or option, a required option or
   * argument missing, a value outside an option's choices (`context.path` names the option when there is one).
   */
  usage: 'MINER_CHECK_USAGE',
  /** A failure that is a bug, not the input (exit 1). */
  internal: 'MINER_CHECK_INTERNAL',
  /**
   * `explain --epoch`: no verified bundle is of that epoch (`context.path` is `--epoch`); the message leads with it and
   * names the epochs the verified bundles cover.
   */
  epochNotFound: 'MINER_CHECK_EPOCH_NOT_FOUND',
});

/** A code of {@link MINER_CHECK_ERROR_CODES}. */
export type MinerCheckErrorCode = (typeof MINER_CHECK_ERROR_CODES)[keyof typeof MINER_CHECK_ERROR_CODES];
