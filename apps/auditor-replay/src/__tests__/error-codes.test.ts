import { expectPublishedCodes } from '@subnet/vitest-config/error-codes';
import { it } from 'vitest';

import { AUDITOR_ERROR_CODES } from '../index.js';

/**
 * Issue 20 item 6: codes are append-only. This list is written out by hand: a code may be added to it,
 * but a value that changes or disappears fails here, because callers branch on these strings.
 */
const PUBLISHED = {
  unreadable: 'AUDITOR_UNREADABLE',
  malformed: 'AUDITOR_MALFORMED_JSON',
  invalidBundle: 'AUDITOR_INVALID_BUNDLE',
  invalidOption: 'AUDITOR_INVALID_OPTION',
  fetchFailed: 'AUDITOR_FETCH_FAILED',
  chainFailed: 'AUDITOR_CHAIN_FAILED',
  chainStatePruned: 'AUDITOR_CHAIN_STATE_PRUNED',
  chainUnknownBlock: 'AUDITOR_CHAIN_UNKNOWN_BLOCK',
  chainTimeout: 'AUDITOR_CHAIN_TIMEOUT',
  chainUnreachable: 'AUDITOR_CHAIN_UNREACHABLE',
  chainStorageMissing: 'AUDITOR_CHAIN_STORAGE_MISSING',
  chainRpcError: 'AUDITOR_CHAIN_RPC_ERROR',
  minerNotFound: 'AUDITOR_MINER_NOT_FOUND',
  internal: 'AUDITOR_INTERNAL',
  bundleEmbargoed: 'AUDITOR_BUNDLE_EMBARGOED',
  invalidListing: 'AUDITOR_INVALID_LISTING',
  wrongEpoch: 'AUDITOR_WRONG_EPOCH',
  wrongValidator: 'AUDITOR_WRONG_VALIDATOR',
  writeFailed: 'AUDITOR_WRITE_FAILED',
  nameConflict: 'AUDITOR_NAME_CONFLICT',
  uidReplaced: 'AUDITOR_UID_REPLACED',
};

it('codes are append-only: every published auditor-replay code keeps its name and value', () => {
  expectPublishedCodes(AUDITOR_ERROR_CODES, PUBLISHED);
});
