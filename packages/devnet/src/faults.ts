import { SubnetError } from '@subnet/core';

import type { JsonRpcErrorObject } from './rpc-errors.js';
import type { SubmissionInterceptor } from './submission-interceptor.js';
import { DEVNET_ERROR_CODES } from './errors.js';
import { MAX_TIMER_MS } from './timer-limit.js';

/** Fault injection on a running devnet (for testing clients' error paths). */
export interface DevnetFaults {
  /** Closes every open WebSocket connection now; returns how many were closed. Clients may reconnect. */
  dropConnections(): number;
  /** Stops block production (timer and `produceBlock`) until {@link DevnetFaults.resumeBlockProduction}. */
  stallBlockProduction(): void;
  /** Resumes block production. */
  resumeBlockProduction(): void;
  /** Whether block production is stalled. */
  readonly stalled: boolean;
  /**
   * Freezes the node: sockets stay open but nothing is answered or notified (requests are held, in order) and
   * no block is produced, until {@link DevnetFaults.thaw}; the admin RPC (`devnet_fault*`) still answers.
   */
  freeze(): void;
  /** Ends a freeze: held notifications are sent, held requests are answered in order, production resumes. */
  thaw(): void;
  /** Whether the node is frozen. */
  readonly frozen: boolean;
  /** Holds the next submission for `ms` milliseconds before the pool sees it (and before the RPC answers). */
  delayNextExtrinsic(ms: number): void;
  /**
   * How many submissions a delay holds right now (arrived, not yet in the pool): a test can wait for it to turn 1,
   * then produce blocks the held extrinsic misses.
   */
  readonly held: number;
  /** The next submission is answered normally (hash / `ready`) but silently never included. */
  dropNextExtrinsic(): void;
  /** The next submission is answered with this JSON-RPC error (see `POOL_ERRORS`). */
  rejectNextSubmission(error: JsonRpcErrorObject): void;
  /** Clears every pending one-shot fault, thaws the node and resumes block production. */
  reset(): void;
}

type OneShot = { kind: 'delay'; ms: number } | { kind: 'drop' } | { kind: 'reject'; error: JsonRpcErrorObject };

/** Internal: the faults object plus the submission interceptor. */
export interface FaultController {
  readonly faults: DevnetFaults;
  readonly interceptor: SubmissionInterceptor;
}

/** What the faults act on: the RPC server's connections and its freeze gate. */
export interface FaultTargets {
  /** Closes every connection, returns the count. */
  dropConnections(): number;
  /** Holds (true) or releases (false) every answer and notification. */
  setFrozen(frozen: boolean): void;
}

/**
 * Creates the fault controller. One-shot submission faults apply in the order they were queued, one per
 * submission.
 *
 * @param targets - the server's connections and freeze gate
 * @returns the controller
 * @throws `DEVNET_INVALID_FAULT` (from the returned methods) for a negative delay or a malformed pool error
 * @example
 * const { faults, interceptor } = createFaults({ dropConnections: () => server.dropConnections(), setFrozen: (f) => server.setFrozen(f) });
 */
export function createFaults(targets: FaultTargets): FaultController {
  const queue: OneShot[] = [];
  let held = 0;
  let stalled = false;
  let frozen = false;
  const setFrozen = (value: boolean): void => {
    frozen = value;
    targets.setFrozen(value);
  };
  const faults: DevnetFaults = {
    dropConnections: () => targets.dropConnections(),
    stallBlockProduction() {
      stalled = true;
    },
    resumeBlockProduction() {
      stalled = false;
    },
    get stalled() {
      return stalled;
    },
    freeze() {
      setFrozen(true);
    },
    thaw() {
      setFrozen(false);
    },
    get frozen() {
      return frozen;
    },
    delayNextExtrinsic(ms) {
      if (!Number.isInteger(ms) || ms < 0 || ms > MAX_TIMER_MS) {
        throw new SubnetError(DEVNET_ERROR_CODES.invalidFault, `delay must be an integer of milliseconds from 0 to ${MAX_TIMER_MS}`, {
          context: { path: 'ms', value: ms },
        });
      }
      queue.push({ kind: 'delay', ms });
    },
    get held() {
      return held;
    },
    dropNextExtrinsic() {
      queue.push({ kind: 'drop' });
    },
    rejectNextSubmission(error) {
      const untyped: unknown = error;
      if (
        typeof untyped !== 'object' ||
        untyped === null ||
        !Number.isInteger(error.code) ||
        typeof error.message !== 'string' ||
        (error.data !== undefined && typeof error.data !== 'string')
      ) {
        throw new SubnetError(DEVNET_ERROR_CODES.invalidFault, 'a pool error needs an integer code, a message and an optional data string', {
          context: { path: 'error', value: error },
        });
      }
      queue.push({ kind: 'reject', error: error.data === undefined ? { code: error.code, message: error.message } : { ...error } });
    },
    reset() {
      queue.length = 0;
      stalled = false;
      if (frozen) setFrozen(false);
    },
  };
  const interceptor: SubmissionInterceptor = {
    async intercept() {
      const next = queue.shift();
      if (next === undefined) return {};
      if (next.kind === 'delay') {
        held++;
        try {
          await new Promise((r) => setTimeout(r, next.ms));
        } finally {
          held--;
        }
        return {};
      }
      if (next.kind === 'drop') return { lost: true };
      return { reject: next.error };
    },
  };
  return { faults, interceptor };
}
