import { expectPublishedCodes } from '@subnet/vitest-config/error-codes';
import { it } from 'vitest';

import { BUNDLE_ERROR_CODES } from '../index.js';

/**
 * Issue 20 item 6: codes are append-only. This list is written out by hand: a code may be added to it,
 * but a value that changes or disappears fails here, because callers (and auditors reading `excluded`
 * lists of old bundles) branch on these strings.
 */
const PUBLISHED = {
  invalidConfig: 'BUNDLE_INVALID_CONFIG',
  invalidInput: 'BUNDLE_INVALID_INPUT',
  invalidBundle: 'BUNDLE_INVALID_BUNDLE',
  digestMismatch: 'BUNDLE_DIGEST_MISMATCH',
  badSignature: 'BUNDLE_BAD_SIGNATURE',
  signerMismatch: 'BUNDLE_SIGNER_MISMATCH',
  invalidRecord: 'BUNDLE_INVALID_RECORD',
  duplicateRecord: 'BUNDLE_DUPLICATE_RECORD',
  challengeNotConfigured: 'BUNDLE_CHALLENGE_NOT_CONFIGURED',
  ownPeerScore: 'BUNDLE_OWN_PEER_SCORE',
  peerNotAValidator: 'BUNDLE_PEER_NOT_A_VALIDATOR',
  duplicatePeerScore: 'BUNDLE_DUPLICATE_PEER_SCORE',
  unknownTask: 'BUNDLE_UNKNOWN_TASK',
  notInGroup: 'BUNDLE_NOT_IN_GROUP',
  duplicateSssa: 'BUNDLE_DUPLICATE_SSSA',
  superseded: 'BUNDLE_RECORD_SUPERSEDED',
  revealInvalid: 'BUNDLE_REVEAL_INVALID',
  revealDigestMismatch: 'BUNDLE_REVEAL_DIGEST_MISMATCH',
  revealBadSignature: 'BUNDLE_REVEAL_BAD_SIGNATURE',
};

it('codes are append-only: every published bundle code keeps its name and value', () => {
  expectPublishedCodes(BUNDLE_ERROR_CODES, PUBLISHED);
});
