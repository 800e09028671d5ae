import type { ChainPort, RevealCheck } from './chain-port.js';
import type { ValidatorMetrics } from './metrics.js';
import type { EpochRow, Fence, Storage } from './storage.js';

/** How many of the newest epoch rows are scanned for pending reveals (a reveal is due about one epoch after its commit). */
export const REVEAL_SCAN_EPOCHS = 64;

/** The `reveal` column of an epoch whose timelocked commit waits for confirmation. */
interface PendingRevealJson {
  readonly commit_hash: string;
  readonly due_block: string;
  readonly record: string;
}

/** What one pass did with one pending epoch. */
export interface RevealConfirmation {
  readonly epoch: number;
  /** `waiting`: the due block is not reached; `pending`: the chain still holds the commit; `error`: the check failed (retried). */
  readonly status: RevealCheck['status'] | 'waiting' | 'error';
}

/** Dependencies of {@link confirmPendingReveals}. */
export interface RevealConfirmDeps {
  readonly storage: Storage;
  readonly chain: ChainPort;
  readonly metrics: ValidatorMetrics;
  readonly logger: { info(obj: unknown, msg: string): void; warn(obj: unknown, msg: string): void };
  /** The lease (HA): outcomes are written only while it holds. */
  readonly fence?: () => Fence | undefined;
}

/**
 * The `reveal_status` and `reveal` fields of an epoch right after its timelocked commit landed.
 *
 * @param timelock - the commit from {@link ChainPort.setWeights}
 * @returns the epoch row fields
 * @example await storage.updateEpoch(epoch, { status: 'submitted', ...pendingRevealFields(landed.timelock) })
 */
export function pendingRevealFields(timelock: NonNullable<Awaited<ReturnType<ChainPort['setWeights']>>['timelock']>): {
  revealStatus: string;
  reveal: string;
} {
  const json: PendingRevealJson = { commit_hash: timelock.commitHash, due_block: timelock.dueBlock.toString(), record: timelock.record };
  return { revealStatus: 'pending', reveal: JSON.stringify(json) };
}

function outcomeJson(pending: PendingRevealJson, check: Exclude<RevealCheck, { status: 'pending' }>, head: bigint): string {
  const base = { commit_hash: pending.commit_hash, due_block: pending.due_block, checked_at_head: head.toString() };
  if (check.status === 'revealed') return JSON.stringify({ ...base, block: check.block.toString(), block_hash: check.blockHash });
  if (check.status === 'not_revealed') {
    return JSON.stringify({
      ...base,
      code: check.code,
      reason: check.reason,
      reasons: check.reasons,
      message: check.message,
      block: check.block === null ? null : check.block.toString(),
    });
  }
  return JSON.stringify({ ...base, code: check.code, message: check.message });
}

function parsePending(row: EpochRow): PendingRevealJson | undefined {
  try {
    const value = JSON.parse(row.reveal ?? '') as Partial<PendingRevealJson>;
    if (typeof value.record === 'string' && typeof value.due_block === 'string' && /^\d+$/.test(value.due_block) && typeof value.commit_hash === 'string') {
      return value as PendingRevealJson;
    }
  } catch {
    // reported below
  }
  return undefined;
}

/**
 * One confirmation pass: for every recent epoch whose timelocked commit is `pending` and whose due block (the
 * predicted reveal block) the head has reached, asks the chain whether it revealed the commit and records the
 * outcome on the epoch row (`reveal_status`, `reveal`), in `validator_reveal_confirmations_total{outcome,reason}`
 * and, for a drop, as a warning. A commit still queued, or a failed check, stays `pending` for the next pass.
 *
 * @param deps - storage, chain, metrics, logger, lease
 * @returns what happened to each pending epoch, oldest first
 * @example await confirmPendingReveals({ storage, chain, metrics, logger })
 */
export async function confirmPendingReveals(deps: RevealConfirmDeps): Promise<readonly RevealConfirmation[]> {
  const { storage, chain, metrics, logger } = deps;
  if (chain.confirmReveal === undefined) return [];
  const rows = (await storage.listEpochs(REVEAL_SCAN_EPOCHS)).filter((r) => r.revealStatus === 'pending').sort((a, b) => a.epoch - b.epoch);
  if (rows.length === 0) return [];
  const head = await chain.head();
  const done: RevealConfirmation[] = [];
  for (const row of rows) {
    const pending = parsePending(row);
    if (pending === undefined) {
      logger.warn({ epoch: row.epoch }, 'pending timelocked reveal has an unreadable record; not confirming it');
      done.push({ epoch: row.epoch, status: 'error' });
      continue;
    }
    if (head < BigInt(pending.due_block)) {
      done.push({ epoch: row.epoch, status: 'waiting' });
      continue;
    }
    let check: RevealCheck;
    try {
      check = await chain.confirmReveal(pending.record);
    } catch (error) {
      metrics.chainErrors.inc();
      logger.warn({ epoch: row.epoch, error: (error as Error).message }, 'timelocked reveal confirmation failed; retrying next tick');
      done.push({ epoch: row.epoch, status: 'error' });
      continue;
    }
    if (check.status === 'pending') {
      done.push({ epoch: row.epoch, status: 'pending' });
      continue;
    }
    await storage.updateEpoch(row.epoch, { revealStatus: check.status, reveal: outcomeJson(pending, check, head) }, deps.fence?.());
    const reason = check.status === 'not_revealed' ? check.reason : check.status === 'unconfirmed' ? check.code : '';
    metrics.revealConfirmations.inc({ outcome: check.status, reason });
    if (check.status === 'revealed') {
      logger.info({ epoch: row.epoch, commitHash: pending.commit_hash, block: check.block.toString() }, 'timelocked weights revealed by the chain');
    } else {
      logger.warn(
        { epoch: row.epoch, commitHash: pending.commit_hash, outcome: check.status, code: check.code, reason, message: check.message },
        'the chain did not reveal the timelocked weights: they were not set',
      );
    }
    done.push({ epoch: row.epoch, status: check.status });
  }
  return done;
}

/** Runs {@link confirmPendingReveals} in the background, one pass at a time (a pass may follow the chain for a while). */
export interface RevealConfirmer {
  /** Starts a pass unless one is running. */
  tick(): void;
  /** Resolves when no pass is running. */
  idle(): Promise<void>;
}

/**
 * Creates the background runner of confirmation passes (the head tick must not wait for the chain's reveal).
 *
 * @param deps - as {@link confirmPendingReveals}
 * @returns the runner
 * @example const confirmer = revealConfirmer(deps); confirmer.tick()
 */
export function revealConfirmer(deps: RevealConfirmDeps): RevealConfirmer {
  let running: Promise<void> | undefined;
  return {
    tick: () => {
      if (running !== undefined) return;
      running = confirmPendingReveals(deps)
        .then(() => undefined)
        .catch((error: unknown) => {
          deps.logger.warn({ error: (error as Error).message }, 'timelocked reveal confirmation pass failed; retrying next tick');
        })
        .finally(() => {
          running = undefined;
        });
    },
    idle: async () => {
      await running;
    },
  };
}
