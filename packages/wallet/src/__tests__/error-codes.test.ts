import { expectPublishedCodes } from '@subnet/vitest-config/error-codes';
import { it } from 'vitest';

import { WALLET_ERROR_CODES } from '../index.js';

/**
 * Issue 20 item 6: codes are append-only. This list is written out by hand: a code may be added to it,
 * but a value that changes or disappears fails here, because callers branch on these strings.
 */
const PUBLISHED = {
  invalidName: 'WALLET_INVALID_NAME',
  keyfileNotFound: 'WALLET_KEYFILE_NOT_FOUND',
  insecureFileMode: 'WALLET_INSECURE_FILE_MODE',
  invalidKeyfile: 'WALLET_INVALID_KEYFILE',
  publicOnly: 'WALLET_PUBLIC_ONLY',
  passwordUnavailable: 'WALLET_PASSWORD_UNAVAILABLE',
  invalidPasswordEnv: 'WALLET_INVALID_PASSWORD_ENV',
  passwordFileUnreadable: 'WALLET_PASSWORD_FILE_UNREADABLE',
  wrongPassword: 'WALLET_WRONG_PASSWORD',
  unsupportedEncryption: 'WALLET_UNSUPPORTED_ENCRYPTION',
  keyMismatch: 'WALLET_KEY_MISMATCH',
};

it('codes are append-only: every published wallet code keeps its name and value', () => {
  expectPublishedCodes(WALLET_ERROR_CODES, PUBLISHED);
});
