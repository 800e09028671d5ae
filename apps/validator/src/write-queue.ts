import { appError, VALIDATOR_ERROR_CODES } from './errors.js';
import type { InsertOutcome, NewRecord, Storage } from './storage.js';

/** Group commit in front of the storage: concurrent inserts share one durable transaction. */
export interface WriteQueue {
  /**
   * Queues a record; resolves once its transaction has committed. A new record of an epoch sealed for its
   * close is rejected with `VALIDATOR_EPOCH_CLOSED` (nothing stored: the client sends it again).
   */
  submit(record: NewRecord): Promise<Exclude<InsertOutcome, { status: 'epoch_closed' }>>;
  /** Resolves when every record queued so far has committed (or failed). */
  drain(): Promise<void>;
  /** Records waiting or being written. */
  pending(): number;
}

interface Item {
  readonly record: NewRecord;
  readonly resolve: (outcome: Exclude<InsertOutcome, { status: 'epoch_closed' }>) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Creates a write queue: records submitted while a transaction is being written go into the next one, so
 * throughput grows with concurrency while every acknowledged record is committed (fsynced) first.
 *
 * @param storage - the storage
 * @param maxBatch - most records per transaction (default 1000)
 * @param onWrite - told how each transaction ended: `undefined` when it committed, else its error (`/readyz` says why
 *   record writes fail, readiness.ts)
 * @returns the queue
 * @example const outcome = await queue.submit({ kind: 'bounty', recordId, epoch, body, digest })
 */
export function createWriteQueue(storage: Storage, maxBatch = 1000, onWrite?: (error: unknown) => void): WriteQueue {
  let queue: Item[] = [];
  let flushing = false;
  let waiters: (() => void)[] = [];

  const schedule = (): void => {
    if (flushing) return;
    if (queue.length === 0) {
      const w = waiters;
      waiters = [];
      for (const resolve of w) resolve();
      return;
    }
    flushing = true;
    setImmediate(() => void flush());
  };

  const flush = async (): Promise<void> => {
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    try {
      const outcomes = await storage.insertRecords(batch.map((item) => item.record));
      onWrite?.(undefined);
      batch.forEach((item, i) => {
        const outcome = outcomes[i];
        if (outcome === undefined) item.reject(new Error('storage returned fewer outcomes than records'));
        else if (outcome.status === 'epoch_closed') {
          item.reject(
            appError(
              VALIDATOR_ERROR_CODES.epochClosed,
              `epoch ${item.record.epoch} was already closed by the leader; record ${item.record.recordId} was not stored: send it again`,
              { path: 'epoch', value: item.record.epoch },
            ),
          );
        } else item.resolve(outcome);
      });
    } catch (error) {
      onWrite?.(error);
      for (const item of batch) item.reject(error);
    } finally {
      flushing = false;
      schedule();
    }
  };

  return {
    submit: (record) =>
      new Promise<Exclude<InsertOutcome, { status: 'epoch_closed' }>>((resolve, reject) => {
        queue.push({ record, resolve, reject });
        schedule();
      }),
    drain: () =>
      new Promise<void>((resolve) => {
        if (queue.length === 0 && !flushing) resolve();
        else waiters.push(resolve);
      }),
    pending: () => queue.length + (flushing ? 1 : 0),
  };
}
