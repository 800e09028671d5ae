/**
 * Every error code `@subnet/devnet` raises, in one place, as literal constants ({@link DEVNET_ERROR_CODES}) and
 * their union ({@link DevnetErrorCode}). Codes are append-only: a code once published keeps its value and meaning
 * (`error-codes.test.ts` lists every value). What a client sends over JSON-RPC gets the chain's own answers, never
 * one of these: they are thrown at the caller of `startDevnet`, the devnet handle and the metadata helpers
 * (`DEVNET_USAGE` is printed by the CLI; the admin methods `devnet_reorganize` and `devnet_replaceNeuron` name
 * their refusal's code in the data of the -32602 answer).
 *
 * Two pairs of codes name one failure each, raised from two places (kept both, since codes are append-only):
 *
 * - `DEVNET_UNKNOWN_STORAGE` and `DEVNET_STORAGE_UNKNOWN`: "the metadata has no storage item `Pallet.Item`".
 *   The first is raised by the metadata helpers `storageEntry` / `storageKey` / `storagePrefix`
 *   (`metadata/storage-key.ts`, `context.path` `'item'`), which look the item up in a registry holding the devnet's
 *   metadata; the second by the running chain's runtime context (`runtime-context.ts`, `context.path` `'storage'`)
 *   when it encodes or decodes a value of an item the served runtime's metadata lacks (a `runtime` option whose
 *   metadata lacks an item the devnet writes, or a devnet bug). `context.value` is `Pallet.Item` in both.
 * - `DEVNET_UNKNOWN_ERROR` and `DEVNET_ERROR_UNKNOWN`: "the metadata has no module error `Pallet.Name`". The first
 *   is raised by the metadata helper `moduleError` (`metadata/events.ts`; an unknown pallet is
 *   `DEVNET_UNKNOWN_PALLET` there), the second by the runtime context's `moduleError` when the chain records a
 *   failed call (`runtime-context.ts`; an unknown pallet is this code too). `context.value` is `Pallet.Name` in both.
 *
 * A new raise site of either failure uses the first code of its pair ({@link DEVNET_ERROR_CODES}`.unknownStorage`,
 * `.unknownError`), the `DEVNET_UNKNOWN_<THING>` form of the other metadata codes; a caller that recognises the
 * failure checks both codes of the pair.
 *
 * @example
 * if (isSubnetError(error, DEVNET_ERROR_CODES.invalidOptions)) report(error.context.path)
 */
export const DEVNET_ERROR_CODES = Object.freeze({
  /** `startDevnet` / `parseDevnetOptions`: an option out of range (`context.path` names the field). */
  invalidOptions: 'DEVNET_INVALID_OPTIONS',
  /** `startDevnet`: the `runtime` option's metadata cannot be decoded. */
  metadataInvalid: 'DEVNET_METADATA_INVALID',
  /** `startDevnet`: the port cannot be bound on 127.0.0.1. */
  listenFailed: 'DEVNET_LISTEN_FAILED',
  /** `setStake`, `setValidatorPermit`, `replaceNeuron`: no neuron has that uid. */
  invalidUid: 'DEVNET_INVALID_UID',
  /** `setHyperparameter`: an unknown name, or a value of the wrong kind. */
  invalidHyperparameter: 'DEVNET_INVALID_HYPERPARAMETER',
  /** `deferEpochs`: a count that is not a non-negative integer, or the legacy runtime (which has no cap). */
  invalidDeferral: 'DEVNET_INVALID_DEFERRAL',
  /** `faults.delayNextExtrinsic` / `faults.rejectNextSubmission`: a malformed delay or pool error. */
  invalidFault: 'DEVNET_INVALID_FAULT',
  /** A metadata helper: the metadata has no pallet of that name. */
  unknownPallet: 'DEVNET_UNKNOWN_PALLET',
  /**
   * The metadata helpers (`storageEntry`, `storageKey`, `storagePrefix`): the metadata has no storage item
   * `Pallet.Item`. The same failure as {@link DEVNET_ERROR_CODES}`.runtimeStorageUnknown`; new raise sites use this code.
   */
  unknownStorage: 'DEVNET_UNKNOWN_STORAGE',
  /** `storageKey`: the keys given do not fit the storage item (wrong number or kind). */
  badStorageKey: 'DEVNET_BAD_STORAGE_KEY',
  /** `encodeEvent`: the metadata has no event `Pallet.Name`. */
  unknownEvent: 'DEVNET_UNKNOWN_EVENT',
  /**
   * The metadata helper `moduleError`: the metadata has no module error `Pallet.Name`. The same failure as
   * {@link DEVNET_ERROR_CODES}`.runtimeErrorUnknown`; new raise sites use this code.
   */
  unknownError: 'DEVNET_UNKNOWN_ERROR',
  /** `encodeEvent`: not one value per field of the event. */
  badEventArgs: 'DEVNET_BAD_EVENT_ARGS',
  /** `encodeEventRecords`: an extrinsic index that is not a u32, or a topic that is not 32 bytes. */
  badEventRecord: 'DEVNET_BAD_EVENT_RECORD',
  /**
   * The runtime context (encoding or decoding a storage value): the served metadata has no storage item
   * `Pallet.Item`. The same failure as {@link DEVNET_ERROR_CODES}`.unknownStorage`, raised from the running chain.
   */
  runtimeStorageUnknown: 'DEVNET_STORAGE_UNKNOWN',
  /**
   * The runtime context (recording a failed call): the served metadata has no module error `Pallet.Name` (nor,
   * here, the pallet). The same failure as {@link DEVNET_ERROR_CODES}`.unknownError`, raised from the running chain.
   */
  runtimeErrorUnknown: 'DEVNET_ERROR_UNKNOWN',
  /** `reorganize`: the blocks it would replace include a finalised one (`context`: `depth`, `best`, `finalized`). */
  reorgFinalized: 'DEVNET_REORG_FINALIZED',
  /** `reorganize`: a malformed depth or branch, a branch shorter than the depth, or an extrinsic the branch cannot include. */
  invalidReorg: 'DEVNET_INVALID_REORG',
  /**
   * The `subnet-devnet` CLI (and `subnet-devnet fault`): the command line is wrong (an unknown option or action, a
   * missing or malformed value, no fault action); the CLI prints it and exits 2.
   */
  usage: 'DEVNET_USAGE',
  /**
   * `replaceNeuron` (and the admin method `devnet_replaceNeuron`): a new hotkey or coldkey that is no account, a
   * hotkey already registered on the subnet (or queued), the subnet owner hotkey's uid (which `replace_neuron` never
   * replaces), or a uid already queued for the next block (`context.path`: `hotkey`, `coldkey` or `uid`).
   */
  invalidReplacement: 'DEVNET_INVALID_REPLACEMENT',
  /**
   * `subnet-devnet fault`: the admin request failed (no devnet answered at `--url`, no answer in time, or the devnet's
   * JSON-RPC error, quoted); the CLI prints it with its code and exits 1.
   */
  faultFailed: 'DEVNET_FAULT_FAILED',
  /**
   * `swapHotkey` (and the admin method `devnet_swapHotkey`): a hotkey that is no account or not registered on the
   * subnet, a new hotkey that is no account, the old one, or already registered (or queued), a uid already queued
   * for the next block, or options other than `{ afterExtrinsics?: boolean }` (`context.path`: `hotkey`, `newHotkey`,
   * `options` or `options.afterExtrinsics`).
   */
  invalidSwap: 'DEVNET_INVALID_SWAP',
});

/** A code of {@link DEVNET_ERROR_CODES}. */
export type DevnetErrorCode = (typeof DEVNET_ERROR_CODES)[keyof typeof DEVNET_ERROR_CODES];
