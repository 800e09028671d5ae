import { SubnetError } from '@subnet/core';

/**
 * Every error code the validator app raises. Codes are append-only.
 *
 * @example if (isSubnetError(e, VALIDATOR_ERROR_CODES.invalidConfig)) process.exitCode = 2
 */
export const VALIDATOR_ERROR_CODES = Object.freeze({
  /** A configuration value is invalid (the message names it). */
  invalidConfig: 'VALIDATOR_INVALID_CONFIG',
  /** The configuration file cannot be read or parsed. */
  configFile: 'VALIDATOR_CONFIG_FILE',
  /** The storage failed (open, migrate, write). */
  storage: 'VALIDATOR_STORAGE',
  /** The chain is not reachable or not usable. */
  chainUnavailable: 'VALIDATOR_CHAIN_UNAVAILABLE',
  /** An epoch's submission state says it must not be submitted (again). */
  alreadySubmitted: 'VALIDATOR_ALREADY_SUBMITTED',
  /** The submission of an epoch was interrupted: whether it landed is unknown, it is never retried. */
  submissionUnknown: 'VALIDATOR_SUBMISSION_UNKNOWN',
  /** Preflight found a check the chain would fail. */
  preflightFailed: 'VALIDATOR_PREFLIGHT_FAILED',
  /** An ended epoch was closed too late to submit (the validator was down across two epoch boundaries). */
  epochMissed: 'VALIDATOR_EPOCH_MISSED',
  /** An interrupted submission was checked against the chain: it did not land. */
  submissionNotLanded: 'VALIDATOR_SUBMISSION_NOT_LANDED',
  /** This instance no longer holds the leader lease (another took over): its epoch write was refused. */
  leaseLost: 'VALIDATOR_LEASE_LOST',
  /** A new record for an epoch the leader already sealed for its close (HA): not stored; send it again. */
  epochClosed: 'VALIDATOR_EPOCH_CLOSED',
  /**
   * A timelocked commit's reveal could not be confirmed by the time the chain must have revealed or dropped it
   * (still queued as far as the validator could see, or every check failed): recorded `unconfirmed`, final.
   */
  revealOverdue: 'VALIDATOR_REVEAL_OVERDUE',
  /** A timelocked commit's stored record cannot be read back: its reveal can never be checked; recorded `unconfirmed`, final. */
  revealRecordUnreadable: 'VALIDATOR_REVEAL_RECORD_UNREADABLE',
  /** A task file of a folder task source is larger than the limit, or grew past it while read: not used. */
  taskFileTooLarge: 'VALIDATOR_TASK_FILE_TOO_LARGE',
  /**
   * `subnet-validator`: the command line is wrong (an unknown command or option, a required option or its value
   * missing, a value out of range, `init` over an existing file without `--force`): exit code 2.
   */
  usage: 'VALIDATOR_USAGE',
  /**
   * Uids the epoch gave weight to changed hands (another hotkey registered into them) after its metagraph was read,
   * and again after the epoch was recomputed from a fresh one: nothing was sent (docs/spec.md G.7).
   */
  uidChanged: 'VALIDATOR_UID_CHANGED',
  /**
   * `chain.epoch_length` differs from the length the database numbers its epochs by, and the new numbering would reuse
   * epoch numbers it holds (or the chain head to check it cannot be read): not started (docs/spec.md G.11).
   */
  epochRenumbering: 'VALIDATOR_EPOCH_RENUMBERING',
  /**
   * The chain head is more than one epoch below the highest epoch the database holds: the database belongs to another
   * chain, the chain was reset (a devnet started again) or the node is far behind: not started (docs/spec.md G.11).
   */
  headBehindDatabase: 'VALIDATOR_HEAD_BEHIND_DATABASE',
  /** The database belongs to another netuid, or another chain (genesis hash): not started (docs/spec.md G.12). */
  databaseMismatch: 'VALIDATOR_DATABASE_MISMATCH',
  /**
   * Not a failure of the validator's submission: the chain set its weights (revealed its timelocked commit, or took its
   * `set_weights`), and a registration later in the same block gave the validator's uid to another hotkey, which
   * removed them. The validator is deregistered: a reveal is recorded `uid_replaced`, a direct `set_weights` fails the
   * epoch with this code (docs/spec.md G.19).
   */
  uidReplaced: 'VALIDATOR_UID_REPLACED',
});

/** Raises an app error (internal). */
export function appError(code: string, summary: string, context: Record<string, unknown> = {}, cause?: unknown): SubnetError {
  return new SubnetError(code, summary, { context, cause });
}
