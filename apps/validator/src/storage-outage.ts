import { isSubnetError } from '@subnet/core';
import type { Logger } from 'pino';

import { VALIDATOR_ERROR_CODES } from './errors.js';

/** Tracks whether storage is reachable, so that an outage is logged once, not on every tick. */
export interface StorageOutage {
  /** Reports a failure; true when it was a storage failure (logged once per outage). */
  failed(error: unknown): boolean;
  /** Reports that storage answered; logs the recovery once after an outage. */
  answered(): void;
  /** True while an outage is going on. */
  down(): boolean;
}

/**
 * Creates the outage tracker of the epoch loop: the first `VALIDATOR_STORAGE` failure logs one warning,
 * later ones while it lasts are silent, and the first success after it logs one "reachable again".
 *
 * @param logger - where the two lines go
 * @param describe - turns the error into a loggable text (already redacted)
 * @returns the tracker
 * @example const outage = storageOutage(logger, (e) => String(e)); if (!outage.failed(error)) logger.error(...)
 */
export function storageOutage(logger: Logger, describe: (error: unknown) => string): StorageOutage {
  let since: number | undefined;
  return {
    failed: (error) => {
      if (!isSubnetError(error, VALIDATOR_ERROR_CODES.storage)) return false;
      if (since === undefined) {
        since = Date.now();
        logger.warn({ error: describe(error) }, 'storage unreachable: epoch work waits until it answers (ingest answers 503 STORAGE_UNAVAILABLE)');
      }
      return true;
    },
    answered: () => {
      if (since === undefined) return;
      logger.info({ downMs: Date.now() - since }, 'storage reachable again: epoch work resumes');
      since = undefined;
    },
    down: () => since !== undefined,
  };
}
