import type { Logger } from 'pino';

import { appError, VALIDATOR_ERROR_CODES } from './errors.js';
import type { Storage } from './storage.js';

/**
 * The epoch length a start uses (docs/spec.md G.11). Epoch numbers are ⌊block / length⌋ and are stored with every
 * record and epoch row, so the database records the length its numbers were computed with, and a start keeps it:
 *
 * - `chain.epoch_length` unset: the recorded length; none recorded (a new database, or one written before the length
 *   was recorded): 0, and the caller takes the subnet's tempo at its first metagraph read and records it
 *   ({@link Storage.claimEpochLength}).
 * - `chain.epoch_length` set: recorded when none is. When another length is recorded, the new numbering is taken only
 *   if it reuses no epoch number the database holds (⌊head / new⌋ above the highest one, as a shorter length gives):
 *   the recorded length is replaced and `EPOCH_LENGTH_CHANGED` logged. Otherwise the start is refused: records would
 *   be filed under numbers already closed, or mixed with older records of the same number.
 *
 * @param storage - the opened storage
 * @param configured - `chain.epoch_length`
 * @param head - reads the chain head (only when the configured length differs from the recorded one)
 * @param logger - takes `EPOCH_LENGTH_CHANGED`
 * @returns the epoch length to use, or 0 for "the subnet's tempo, to be recorded at the first metagraph read"
 * @throws SubnetError `VALIDATOR_EPOCH_RENUMBERING` when the configured length would renumber stored epochs, or
 *   the head to check it against cannot be read
 */
export async function settleEpochLength(storage: Storage, configured: number | undefined, head: () => Promise<bigint>, logger: Logger): Promise<number> {
  const { length: recorded, highestEpoch } = await storage.epochNumbering();
  if (configured === undefined) return recorded ?? 0;
  const kept = recorded ?? (await storage.claimEpochLength(configured));
  if (kept === configured) return configured;
  const refuse = (why: string, cause?: unknown) =>
    appError(
      VALIDATOR_ERROR_CODES.epochRenumbering,
      `chain.epoch_length is ${configured} but this database numbers its epochs by ${kept} blocks (epoch = ⌊block / ${kept}⌋)${highestEpoch === undefined ? '' : ` and holds epochs up to ${highestEpoch}`}: ${why}. Set chain.epoch_length to ${kept} to keep its numbering, or point the validator at a new database to number epochs by ${configured} blocks (it starts without the stored records and the state carried from epoch to epoch)`,
      { path: 'chain.epoch_length', value: configured, recorded: kept, highestEpoch: highestEpoch ?? null },
      cause,
    );
  if (highestEpoch !== undefined) {
    let block: bigint;
    try {
      block = await head();
    } catch (error) {
      throw refuse(`the chain head, which says whether the new numbering reuses any of them, cannot be read (${(error as Error).message})`, error);
    }
    const epoch = Number(block / BigInt(configured));
    if (epoch <= highestEpoch) {
      throw refuse(
        `at block ${block} the new numbering is at epoch ${epoch} and would file new records under numbers already stored (it passes epoch ${highestEpoch} at block ${(BigInt(highestEpoch) + 1n) * BigInt(configured)})`,
      );
    }
  }
  if (!(await storage.replaceEpochLength(kept, configured))) {
    // Another instance on the same database changed it between the read and this write: start again to see what it chose.
    throw refuse('another instance changed the recorded length while this one started');
  }
  logger.warn(
    { code: 'EPOCH_LENGTH_CHANGED', epoch_length: configured, previous_epoch_length: kept, highest_epoch: highestEpoch ?? null },
    `epochs are now numbered by chain.epoch_length ${configured} blocks instead of ${kept}${highestEpoch === undefined ? '' : `: the new numbers start above the stored epochs (up to ${highestEpoch}), whose open records are closed as after downtime`}`,
  );
  return configured;
}
