import type { TimelockedCommitRecord } from '@subnet/chain';

import { appError, VALIDATOR_ERROR_CODES } from './errors.js';

/** Tag of a bigint in the stored JSON (the record carries block numbers, rounds and the nonce as bigints). */
const BIG = '$bigint';

/**
 * Serializes a timelocked commit record for the epoch row (`reveal` column), bigints tagged.
 *
 * @param record - the commit record from `setWeights`
 * @returns JSON text
 * @example const text = timelockRecordToJson(submission.timelock.record)
 */
export function timelockRecordToJson(record: TimelockedCommitRecord): string {
  return JSON.stringify(record, (_key, value: unknown) => (typeof value === 'bigint' ? { [BIG]: value.toString() } : value));
}

/**
 * Reads back a record written by {@link timelockRecordToJson}.
 *
 * @param text - JSON text
 * @returns the record (checked again by `confirmTimelockedReveal` before use)
 * @throws SubnetError `VALIDATOR_STORAGE` when the text is not such JSON
 * @example const record = timelockRecordFromJson(row.reveal)
 */
export function timelockRecordFromJson(text: string): TimelockedCommitRecord {
  try {
    return JSON.parse(text, (_key, value: unknown) => {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const keys = Object.keys(value);
        const tagged = (value as Record<string, unknown>)[BIG];
        if (keys.length === 1 && keys[0] === BIG && typeof tagged === 'string' && /^-?\d+$/.test(tagged)) return BigInt(tagged);
      }
      return value;
    }) as TimelockedCommitRecord;
  } catch (error) {
    throw appError(VALIDATOR_ERROR_CODES.storage, `stored timelocked commit record is not JSON: ${(error as Error).message}`, { field: 'reveal' }, error);
  }
}
