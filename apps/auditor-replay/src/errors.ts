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
  /**
   * The command line is wrong: an option's value (out of range, a `fetch` range too large), an unknown option or command, a missing argument or
   * option; or `readPublishedBundles`' `last` is not a whole number of at least 1.
   */
  invalidOption: 'AUDITOR_INVALID_OPTION',
  /** The validator API could not be reached or answered with an error. */
  fetchFailed: 'AUDITOR_FETCH_FAILED',
  /** The chain could not be read. */
  chainFailed: 'AUDITOR_CHAIN_FAILED',
  /** The node no longer has the state of the submission block (pruned): an archive endpoint is needed. */
  chainStatePruned: 'AUDITOR_CHAIN_STATE_PRUNED',
  /** The node does not know the submission block (beyond its head, or another chain). */
  chainUnknownBlock: 'AUDITOR_CHAIN_UNKNOWN_BLOCK',
  /** A chain request got no answer in time. */
  chainTimeout: 'AUDITOR_CHAIN_TIMEOUT',
  /** The chain connection dropped and did not come back. */
  chainUnreachable: 'AUDITOR_CHAIN_UNREACHABLE',
  /** The runtime has no `SubtensorModule.Uids` / `Weights` storage. */
  chainStorageMissing: 'AUDITOR_CHAIN_STORAGE_MISSING',
  /** The node answered a request with an error this auditor does not classify further (the node's text is kept). */
  chainRpcError: 'AUDITOR_CHAIN_RPC_ERROR',
  /** No bundle of that miner hotkey in the bundles given (`miner-check explain`, the miner page). */
  minerNotFound: 'AUDITOR_MINER_NOT_FOUND',
  /** An unexpected failure inside the auditor (a bug): reported with its message, never a stack trace. */
  internal: 'AUDITOR_INTERNAL',
  /**
   * The validator withholds the bundle until the chain reveals the epoch's commit-reveal v4 weights (HTTP 425
   * `BUNDLE_EMBARGOED`): not a failure; the message says when to try again.
   */
  bundleEmbargoed: 'AUDITOR_BUNDLE_EMBARGOED',
  /** A validator's epoch list (`GET /v1/epochs`) is not `{ epochs: [...] }`, or an entry of it names no readable epoch. */
  invalidListing: 'AUDITOR_INVALID_LISTING',
  /**
   * A validator answered the bundle of another epoch than the one asked for (`fetch`), or a file named `epoch-<n>.json`
   * holds the bundle of another epoch (`verify`, docs/spec.md G.15).
   */
  wrongEpoch: 'AUDITOR_WRONG_EPOCH',
  /**
   * `--validator-hotkey`: the bundle names another validator than the one audited (`verify`, `miner-check explain`:
   * and is signed by it; `fetch`: the answer's `bundle.validator_hotkey`, refused unsaved).
   */
  wrongValidator: 'AUDITOR_WRONG_VALIDATOR',
  /**
   * `fetch`: the output folder or a bundle file cannot be written (EACCES, ENOSPC, EROFS, EISDIR, ENOTDIR...): a
   * local disk error, not the validator's, so the run stops at once (path and OS code in the message); files already
   * in the folder are kept as they are.
   */
  writeFailed: 'AUDITOR_WRITE_FAILED',
  /**
   * `fetch`: an epoch's answer was not saved because both of its file names in the output folder (`epoch-<n>.json`
   * and `epoch-<n>.<sha256>.json`) already hold other bytes. A conflict in the auditor's own folder, not a
   * network failure; the message names both paths. The epoch fails; the run goes on.
   */
  nameConflict: 'AUDITOR_NAME_CONFLICT',
  /**
   * `verify --chain`: the validator's uid was given to another hotkey in the block its weights were set in, after
   * them, so the chain no longer shows them (`replace_neuron` removes a replaced uid's weights). Not a failure: the
   * chain check is unknown (`chain -`), the message names the uid, the block and the new holder.
   */
  uidReplaced: 'AUDITOR_UID_REPLACED',
});
