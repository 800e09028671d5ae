import type { SubnetError } from '@subnet/core';

import { appError, VALIDATOR_ERROR_CODES } from './errors.js';
import type { Fence } from './storage.js';

/**
 * Takes or renews the one leader lease in one statement (PostgreSQL placeholders; SQLite numbers them):
 * `$1` holder, `$2` the new expiry (ms), `$3` now (ms). Renewal by the holder keeps the token; a takeover
 * after expiry adds one; nothing is returned when another holder's lease is still running.
 */
export const LEASE_ACQUIRE_SQL = `INSERT INTO leader_lease (name, holder, token, expires_at_ms) VALUES ('leader', $1, 1, $2)
  ON CONFLICT (name) DO UPDATE SET
    token = CASE WHEN leader_lease.holder = excluded.holder THEN leader_lease.token ELSE leader_lease.token + 1 END,
    holder = excluded.holder,
    expires_at_ms = excluded.expires_at_ms
  WHERE leader_lease.holder = excluded.holder OR leader_lease.expires_at_ms < $3
  RETURNING token`;

/**
 * The error of a fenced write refused because another instance took the lease over.
 *
 * @param fence - the fence that no longer holds
 * @returns the coded error
 * @example throw leaseLost(fence)
 */
export function leaseLost(fence: Fence): SubnetError {
  return appError(VALIDATOR_ERROR_CODES.leaseLost, `the leader lease (token ${fence.token}) was taken over by another instance; this write is refused`, {
    token: fence.token,
  });
}
