import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

import { redactUrl } from '@subnet/core';
import type { Logger } from 'pino';

import type { Fence, Storage } from './storage.js';

/** The leader lease of this instance: only the holder closes epochs and submits. */
export interface LeaderLease {
  /** This instance's holder id (`host-pid-random`). */
  readonly holder: string;
  /** The fence while this instance leads (its lease renewed within the TTL by the local clock), else undefined. */
  current(): Fence | undefined;
  /**
   * The fence most recently held, even when it may have expired: epoch writes are fenced with it, so the
   * storage (not the local clock) decides whether it still holds. Undefined before the first lease.
   */
  last(): Fence | undefined;
  /** Tries to take or renew the lease now; resolves with the fence when this instance leads. */
  renew(): Promise<Fence | undefined>;
  /** Stops renewing; with `release`, gives the lease up so a standby takes over at once. */
  stop(release: boolean): Promise<void>;
}

/** One attempt to take or renew the lease: the fence when this instance holds it, and when the lease expires. */
export interface LeaseAttempt {
  readonly fence: Fence | undefined;
  /** Milliseconds until the lease (this instance's or another's) expires, by the database's clock; 0 when unknown. */
  readonly expiresInMs: number;
}

/** Where the lease is kept: PostgreSQL on a dedicated connection (`postgres-lease.ts`), or the storage itself. */
export interface LeaseStore {
  acquire(holder: string, ttlMs: number): Promise<LeaseAttempt>;
  release(fence: Fence): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link startLeaderLease}. */
export interface LeaseOptions {
  readonly storage: Storage;
  /**
   * Where to take and renew the lease; default: the storage (`acquireLease`, `releaseLease`). On PostgreSQL
   * the service passes a dedicated connection, so a lease attempt never queues behind the pool's other work.
   */
  readonly store?: LeaseStore;
  /** How long a lease runs without renewal (ms). */
  readonly ttlMs: number;
  /** How often to renew or try to take over (ms); a quarter of the TTL or less. */
  readonly intervalMs: number;
  readonly logger: Logger;
  /** Called when this instance becomes leader (`fence`) or stops leading (undefined). */
  readonly onChange?: (fence: Fence | undefined, previous: Fence | undefined) => void;
  /** Holder id; default `host-pid-random`. */
  readonly holder?: string;
}

/**
 * Starts the leader lease loop: every `intervalMs` it renews the lease (leader) or tries to take it over
 * (standby); a standby whose last attempt said the lease expires sooner than that tries again right after
 * the expiry, so a takeover comes one TTL after the old leader's last renewal, not up to an interval
 * later. Attempts run on a timer of their own, never behind the epoch loop. The instance considers itself
 * leader only while its last successful renewal is younger than the TTL minus one interval (by its own
 * clock), so it stops epoch work before a standby can take over; every epoch write it makes is fenced by the token anyway (storage checks it), so even a
 * paused old leader that wakes up cannot write nor submit after a takeover.
 *
 * @param options - storage (or a dedicated lease store), TTL, interval, logger, change listener
 * @returns the lease
 * @example const lease = startLeaderLease({ storage, ttlMs: 1500, intervalMs: 250, logger }); if (lease.current()) closeEpoch(...)
 */
export function startLeaderLease(options: LeaseOptions): LeaderLease {
  const holder = options.holder ?? `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  let fence: Fence | undefined;
  let lastHeld: Fence | undefined;
  let renewedAt = 0;
  let stopped = false;
  let running: Promise<Fence | undefined> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const store: LeaseStore = options.store ?? {
    acquire: async (h, ttl) => ({ fence: await options.storage.acquireLease(h, ttl), expiresInMs: 0 }),
    release: (f) => options.storage.releaseLease(f),
    close: () => Promise.resolve(),
  };
  // The next attempt: a renewal every interval; a standby no later than just after the lease it saw expires.
  const schedule = (delayMs: number): void => {
    if (stopped) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void renew();
    }, delayMs);
    timer.unref();
  };

  const current = (): Fence | undefined => (fence !== undefined && Date.now() - renewedAt < options.ttlMs - options.intervalMs ? fence : undefined);

  const set = (next: Fence | undefined): void => {
    const previous = fence;
    if (previous?.token === next?.token) return;
    fence = next;
    if (next !== undefined) lastHeld = next;
    if (next !== undefined) options.logger.info({ holder, token: next.token }, 'leader lease taken: this instance closes epochs and submits');
    else if (previous !== undefined) options.logger.warn({ holder, token: previous.token }, 'leader lease lost: this instance only ingests');
    options.onChange?.(next, previous);
  };

  const renew = (): Promise<Fence | undefined> => {
    running ??= (async () => {
      const started = Date.now();
      let next = options.intervalMs;
      try {
        const got = await store.acquire(holder, options.ttlMs);
        if (stopped) return undefined;
        if (got.fence !== undefined) renewedAt = started;
        else if (got.expiresInMs > 0) next = Math.min(next, got.expiresInMs + 1);
        set(got.fence);
      } catch (error) {
        options.logger.warn({ error: redactUrl((error as Error).message) }, 'leader lease renewal failed');
        if (current() === undefined) set(undefined);
      }
      schedule(Math.max(1, next));
      return current();
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  schedule(options.intervalMs);

  return {
    holder,
    current,
    last: () => lastHeld,
    renew,
    stop: async (release) => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await running?.catch(() => undefined);
      const held = fence;
      fence = undefined;
      if (release && held !== undefined) await store.release(held).catch(() => undefined);
      await store.close();
    },
  };
}
