/**
 * Epoch seals (HA on PostgreSQL). Several instances ingest; each assigns a record to the epoch its own view
 * of the chain head says is current, and those views differ by up to one chain poll. Without a seal, a
 * standby that has not seen the new head yet acknowledges records into an epoch the leader has already
 * read for its close: acknowledged, then never scored. The leader therefore seals the epoch before reading
 * its records: under an exclusive advisory lock on the epoch it stores a seal row; every insert takes the
 * same lock shared for the epochs of its batch and refuses new records of a sealed epoch. The lock makes
 * the seal wait for inserts in flight, and inserts after it see the seal: the records a close reads are all
 * its epoch will ever have, and a refused record was never acknowledged (the client sends it again and it
 * lands in the next epoch).
 */

/** The first key of the two-key advisory lock of an epoch (the second is the epoch). */
export const EPOCH_SEAL_LOCK = 727_273;

/** The record kind of a seal row (never returned by reads). */
export const EPOCH_SEAL_KIND = 'epoch_seal';

/**
 * The record id of an epoch's seal row.
 *
 * @param epoch - the epoch
 * @returns `seal-<epoch>`
 * @example sealId(41) // 'seal-41'
 */
export function sealId(epoch: number): string {
  return `seal-${epoch}`;
}
