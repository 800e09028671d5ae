import { expectPublishedCodes, sourceText } from '@subnet/vitest-config/error-codes';
import { expect, it } from 'vitest';

import { VALIDATOR_ERROR_CODES } from '../errors.js';
import { INGEST_ERROR_CODES } from '../ingest-checks.js';

/**
 * Issue 20 item 6: codes are append-only. This list is written out by hand: a code may be added to it,
 * but a value that changes or disappears fails here, because callers branch on these strings.
 */
const PUBLISHED = {
  invalidConfig: 'VALIDATOR_INVALID_CONFIG',
  configFile: 'VALIDATOR_CONFIG_FILE',
  storage: 'VALIDATOR_STORAGE',
  chainUnavailable: 'VALIDATOR_CHAIN_UNAVAILABLE',
  alreadySubmitted: 'VALIDATOR_ALREADY_SUBMITTED',
  submissionUnknown: 'VALIDATOR_SUBMISSION_UNKNOWN',
  preflightFailed: 'VALIDATOR_PREFLIGHT_FAILED',
  epochMissed: 'VALIDATOR_EPOCH_MISSED',
  submissionNotLanded: 'VALIDATOR_SUBMISSION_NOT_LANDED',
  leaseLost: 'VALIDATOR_LEASE_LOST',
  epochClosed: 'VALIDATOR_EPOCH_CLOSED',
  revealOverdue: 'VALIDATOR_REVEAL_OVERDUE',
  revealRecordUnreadable: 'VALIDATOR_REVEAL_RECORD_UNREADABLE',
  taskFileTooLarge: 'VALIDATOR_TASK_FILE_TOO_LARGE',
  usage: 'VALIDATOR_USAGE',
  uidChanged: 'VALIDATOR_UID_CHANGED',
  epochRenumbering: 'VALIDATOR_EPOCH_RENUMBERING',
  headBehindDatabase: 'VALIDATOR_HEAD_BEHIND_DATABASE',
  databaseMismatch: 'VALIDATOR_DATABASE_MISMATCH',
  uidReplaced: 'VALIDATOR_UID_REPLACED',
};

it('codes are append-only: every published validator code keeps its name and value', () => {
  expectPublishedCodes(VALIDATOR_ERROR_CODES, PUBLISHED);
});

const INGEST_PUBLISHED = {
  unknownTask: 'UNKNOWN_TASK',
  notInGroup: 'NOT_IN_GROUP',
  duplicateSssa: 'DUPLICATE_SSSA',
  taskEpochOver: 'TASK_EPOCH_OVER',
  taskAlreadyRegistered: 'TASK_ALREADY_REGISTERED',
  tasksNotReady: 'TASKS_NOT_READY',
  selfSignedPeerScores: 'SELF_SIGNED_PEER_SCORES',
  unsafeNumber: 'UNSAFE_NUMBER',
  peerScoresExceedMetagraph: 'PEER_SCORES_EXCEED_METAGRAPH',
  taskEpochNotStarted: 'TASK_EPOCH_NOT_STARTED',
  wrongSs58Prefix: 'WRONG_SS58_PREFIX',
};

it('codes are append-only: every published ingest (HTTP) code keeps its name and value', () => {
  expectPublishedCodes(INGEST_ERROR_CODES, INGEST_PUBLISHED);
});

/**
 * The codes the HTTP API answers with (`{ error: { code } }`) and the epoch status code of an unexpected
 * failure are string literals in the source, not constants: each published one must still be written
 * somewhere in `src/` (a rename or removal fails here). Add new ones to the end of this list.
 */
const LITERAL_PUBLISHED = [
  'BAD_REQUEST',
  'BAD_SIGNATURE',
  'BODY_TOO_LARGE',
  'BUNDLE_NOT_FOUND',
  'HEADERS_TOO_LARGE',
  'INVALID_EPOCH',
  'INVALID_RECORD',
  'MALFORMED_JSON',
  'MALFORMED_SIGNATURE',
  'MINER_NOT_REGISTERED',
  'NONCE_REPLAYED',
  'NOT_A_VALIDATOR',
  'NOT_FOUND',
  'NOT_READY',
  'NOT_REGISTERED',
  'NO_WEIGHTS',
  'RATE_LIMITED',
  'RECORD_CONFLICT',
  'REQUEST_TIMEOUT',
  'STALE_TIMESTAMP',
  'STORAGE_UNAVAILABLE',
  'UNSUPPORTED_MEDIA_TYPE',
  'WRONG_EPOCH',
  'VALIDATOR_UNEXPECTED',
  'MIN_VALIDATORS_ABOVE_VALIDATOR_COUNT',
  'ALPHA_SUM_BELOW_ONE',
  'CAP_CANNOT_HOLD',
  'EPOCH_LENGTH_NOT_TEMPO',
  'BURN_UID_NOT_IN_METAGRAPH',
  'BURN_UID_NOT_OWNER',
  'MIN_ALLOWED_WEIGHTS_ABOVE_ONE',
  'WRONG_SS58_PREFIX',
  'CHUNK_EXTENSIONS_TOO_LARGE',
];

it('codes are append-only: every published HTTP and status code literal is still raised by the source', () => {
  const text = sourceText(new URL('..', import.meta.url));
  const missing = LITERAL_PUBLISHED.filter((code) => !text.includes(`'${code}'`));
  expect(missing).toEqual([]);
  expect(new Set(LITERAL_PUBLISHED).size).toBe(LITERAL_PUBLISHED.length);
});
