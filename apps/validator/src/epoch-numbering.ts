import type { Logger } from 'pino';

import type { SubnetError } from '@subnet/core';

import { appError, VALIDATOR_ERROR_CODES } from './errors.js';
import type { Storage } from './storage.js';

/** What {@link settleEpochLength} reads from the chain, and only when it has to. */
export interface EpochNumberingChain {
  /** The head block. */
  head(): Promise<bigint>;
  /** The subnet's tempo. */
  tempo(): Promise<number>;
}

/**
 * The epoch length a start uses (docs/spec.md G.11). Epoch numbers are ⌊block / length⌋ and are stored with every
 * record and epoch row, so the database records the length its numbers were computed with, and a start keeps it:
 *
 * - `chain.epoch_length` unset: the recorded length; none recorded in a new database: 0, and the caller takes the
 *   subnet's tempo at its first metagraph read and records it ({@link Storage.claimEpochLength}).
 * - `chain.epoch_length` set: recorded when none is. When another length is recorded, the new numbering is taken only
 *   if it reuses no epoch number the database holds (⌊head / new⌋ above the highest one, as a shorter length gives):
 *   the recorded length is replaced and `EPOCH_LENGTH_CHANGED` logged. Otherwise the start is refused: records would
 *   be filed under numbers already closed, or mixed with older records of the same number.
 * - Whatever the length, a head more than one epoch below the stored epochs refuses the start
 *   (`VALIDATOR_HEAD_BEHIND_DATABASE`): the database belongs to another chain, or this one was reset.
 * - A database that holds epochs but no length (written by a version that did not record it): the length this start
 *   uses (the configured one, else the tempo) is recorded now, unless it puts the head below the stored epochs. Then
 *   they were numbered by a shorter length (the tempo changed while the older version ran), or on another chain, and
 *   the start is refused.
 *
 * @param storage - the opened storage
 * @param configured - `chain.epoch_length`
 * @param chain - reads the head (when the database holds epochs) and the tempo (only when it holds epochs but no
 *   length, with `chain.epoch_length` unset)
 * @param logger - takes `EPOCH_LENGTH_CHANGED`
 * @returns the epoch length to use, or 0 for "the subnet's tempo, to be recorded at the first metagraph read"
 * @throws SubnetError `VALIDATOR_EPOCH_RENUMBERING` when the length would renumber stored epochs, or the head (or
 *   tempo) to check it against cannot be read; `VALIDATOR_HEAD_BEHIND_DATABASE` when the head is more than one epoch
 *   below the stored epochs
 */
export async function settleEpochLength(storage: Storage, configured: number | undefined, chain: EpochNumberingChain, logger: Logger): Promise<number> {
  const { length: recorded, highestEpoch } = await storage.epochNumbering();
  const headBlock = async (why: string, refuse: (why: string, cause: unknown) => SubnetError): Promise<bigint> => {
    try {
      return await chain.head();
    } catch (error) {
      throw refuse(`the chain head, which says whether ${why}, cannot be read (${(error as Error).message})`, error);
    }
  };
  if (recorded === undefined && highestEpoch !== undefined) {
    const refuse = (length: number | null, why: string, cause?: unknown) =>
      appError(
        VALIDATOR_ERROR_CODES.epochRenumbering,
        `this database holds epochs up to ${highestEpoch} but no record of the epoch length they were numbered by (it was written by an earlier version): ${why}. Set chain.epoch_length to the length that version numbered its epochs by, or point the validator at a new database (it starts without the stored records and the state carried from epoch to epoch)`,
        { path: 'chain.epoch_length', value: configured ?? null, recorded: null, highestEpoch, length },
        cause,
      );
    let length = configured;
    if (length === undefined) {
      try {
        length = Math.max(1, await chain.tempo());
      } catch (error) {
        throw refuse(null, `the subnet's tempo, the length to record with chain.epoch_length unset, cannot be read (${(error as Error).message})`, error);
      }
    }
    const numbering = configured === undefined ? `the subnet's tempo, ${length} blocks,` : `chain.epoch_length ${length}`;
    const block = await headBlock(`${numbering} fits them`, (why, cause) => refuse(length, why, cause));
    const epoch = Number(block / BigInt(length));
    if (epoch < highestEpoch) {
      throw refuse(
        length,
        `${numbering} puts the head (block ${block}) in epoch ${epoch}, below them: they were numbered by a shorter length (the subnet's tempo changed while that version ran?) or on another chain, and new records would be filed under numbers already stored`,
      );
    }
    const claimed = await storage.claimEpochLength(length);
    // Another instance recorded a length between the read and the claim: settle against what it chose.
    return claimed === length ? length : settleEpochLength(storage, configured, chain, logger);
  }
  if (configured === undefined) return recorded === undefined ? 0 : headNotBehind(recorded, highestEpoch, chain);
  const kept = recorded ?? (await storage.claimEpochLength(configured));
  if (kept === configured) return headNotBehind(configured, highestEpoch, chain);
  const refuse = (why: string, cause?: unknown) =>
    appError(
      VALIDATOR_ERROR_CODES.epochRenumbering,
      `chain.epoch_length is ${configured} but this database numbers its epochs by ${kept} blocks (epoch = ⌊block / ${kept}⌋)${highestEpoch === undefined ? '' : ` and holds epochs up to ${highestEpoch}`}: ${why}. Set chain.epoch_length to ${kept} to keep its numbering, or point the validator at a new database to number epochs by ${configured} blocks (it starts without the stored records and the state carried from epoch to epoch)`,
      { path: 'chain.epoch_length', value: configured, recorded: kept, highestEpoch: highestEpoch ?? null },
      cause,
    );
  if (highestEpoch !== undefined) {
    const block = await headBlock('the new numbering reuses any of them', refuse);
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

/**
 * `length`, once the chain head is found no more than one epoch below the highest stored epoch under it. One epoch of
 * slack: a node that lags a few blocks behind the one the last run read may put the head just before a boundary the
 * database has passed. Further below, the database was written against another chain, or this chain was reset (a devnet
 * started again), or the node is far behind (still syncing): new records would be filed under epochs closed already,
 * and those epochs would not be submitted again. A head that cannot be read fails the start with the chain's error.
 */
async function headNotBehind(length: number, highestEpoch: number | undefined, chain: EpochNumberingChain): Promise<number> {
  if (highestEpoch === undefined) return length;
  const block = await chain.head();
  const epoch = Number(block / BigInt(length));
  if (epoch >= highestEpoch - 1) return length;
  throw appError(
    VALIDATOR_ERROR_CODES.headBehindDatabase,
    `the chain head is at block ${block}, epoch ${epoch} of ${length} blocks, but this database holds epochs up to ${highestEpoch}: it was written against another chain, or this chain was reset (a devnet started again?), or the node is far behind (still syncing). New records would be filed under epochs already closed, which are never submitted again. Point database.path (or database.url) at a new database for this chain, or chain.endpoint at the chain the database belongs to, or wait until the node has synced`,
    { path: 'chain.head', value: String(block), headEpoch: epoch, highestEpoch, epochLength: length },
  );
}
