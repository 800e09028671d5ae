import { expectCodesInOneFile, expectPublishedCodes } from '@subnet/vitest-config/error-codes';
import { it } from 'vitest';

import { DEVNET_ERROR_CODES } from '../index.js';

/**
 * Issue 20 item 6: codes are append-only. This list is written out by hand: a code may be added to it,
 * but a value that changes or disappears fails here, because callers branch on these strings.
 */
const PUBLISHED = {
  invalidOptions: 'DEVNET_INVALID_OPTIONS',
  metadataInvalid: 'DEVNET_METADATA_INVALID',
  listenFailed: 'DEVNET_LISTEN_FAILED',
  invalidUid: 'DEVNET_INVALID_UID',
  invalidHyperparameter: 'DEVNET_INVALID_HYPERPARAMETER',
  invalidDeferral: 'DEVNET_INVALID_DEFERRAL',
  invalidFault: 'DEVNET_INVALID_FAULT',
  unknownPallet: 'DEVNET_UNKNOWN_PALLET',
  unknownStorage: 'DEVNET_UNKNOWN_STORAGE',
  badStorageKey: 'DEVNET_BAD_STORAGE_KEY',
  unknownEvent: 'DEVNET_UNKNOWN_EVENT',
  unknownError: 'DEVNET_UNKNOWN_ERROR',
  badEventArgs: 'DEVNET_BAD_EVENT_ARGS',
  badEventRecord: 'DEVNET_BAD_EVENT_RECORD',
  runtimeStorageUnknown: 'DEVNET_STORAGE_UNKNOWN',
  runtimeErrorUnknown: 'DEVNET_ERROR_UNKNOWN',
  reorgFinalized: 'DEVNET_REORG_FINALIZED',
  invalidReorg: 'DEVNET_INVALID_REORG',
  usage: 'DEVNET_USAGE',
  invalidReplacement: 'DEVNET_INVALID_REPLACEMENT',
  faultFailed: 'DEVNET_FAULT_FAILED',
  invalidSwap: 'DEVNET_INVALID_SWAP',
};

it('codes are append-only: every published @subnet/devnet code keeps its name and value', () => {
  expectPublishedCodes(DEVNET_ERROR_CODES, PUBLISHED);
});

it('every raise site uses a constant of errors.ts: no other source file writes a DEVNET_ code as a string literal', () => {
  expectCodesInOneFile(new URL('..', import.meta.url), 'DEVNET_', 'errors.ts');
});
