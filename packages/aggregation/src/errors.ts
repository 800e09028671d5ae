import { SubnetError } from '@subnet/core';

/**
 * Every error code this package raises. Codes are append-only: callers branch on them with
 * `isSubnetError(error, AGGREGATION_ERROR_CODES.duplicateEvaluation)`.
 *
 * @example
 * if (isSubnetError(e, AGGREGATION_ERROR_CODES.unknownValidator)) console.log(e.context.path);
 */
export const AGGREGATION_ERROR_CODES = Object.freeze({
  /** A value has the wrong type or is out of range (NaN, Infinity, negative, score outside [0, 1], ...). */
  invalidInput: 'AGGREGATION_INVALID_INPUT',
  /** A second evaluation by the same validator of the same miner in the same epoch (SPEC C.2). */
  duplicateEvaluation: 'AGGREGATION_DUPLICATE_EVALUATION',
  /** An evaluation from a validator that is not in the epoch's validator set (stakes). */
  unknownValidator: 'AGGREGATION_UNKNOWN_VALIDATOR',
  /** The same hotkey twice where each must be unique (stakes, metagraph, weights, bounty records). */
  duplicateHotkey: 'AGGREGATION_DUPLICATE_HOTKEY',
  /** The same uid twice (metagraph, u16 input). */
  duplicateUid: 'AGGREGATION_DUPLICATE_UID',
  /** The same task id twice in one pass-rate computation. */
  duplicateTask: 'AGGREGATION_DUPLICATE_TASK',
  /** More distinct tasks reported than the benchmark has. */
  tooManyTasks: 'AGGREGATION_TOO_MANY_TASKS',
  /** Evaluations of more than one epoch, or of another epoch than the one computed. */
  epochMismatch: 'AGGREGATION_EPOCH_MISMATCH',
  /** A decay step for an epoch earlier than the epoch of the recorded top score. */
  epochBeforeTop: 'AGGREGATION_EPOCH_BEFORE_TOP',
  /** Two challenges with the same id. */
  duplicateChallenge: 'AGGREGATION_DUPLICATE_CHALLENGE',
  /** An alpha without a challenge, or a challenge without an alpha. */
  unknownChallenge: 'AGGREGATION_UNKNOWN_CHALLENGE',
  /** Challenge allocations sum to more than 1 (SPEC C.7). */
  alphaSumExceedsOne: 'AGGREGATION_ALPHA_SUM_EXCEEDS_ONE',
  /** Miner weights handed to a stage sum to more than 1. */
  weightsExceedOne: 'AGGREGATION_WEIGHTS_EXCEED_ONE',
} as const);

/** One of the {@link AGGREGATION_ERROR_CODES}. */
export type AggregationErrorCode = (typeof AGGREGATION_ERROR_CODES)[keyof typeof AGGREGATION_ERROR_CODES];

/** Throws a coded error naming `path` and `value` (internal). */
export function fail(code: AggregationErrorCode, summary: string, path: string, value: unknown): never {
  throw new SubnetError(code, summary, { context: { path, value } });
}
