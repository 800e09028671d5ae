import { SubnetError } from '@subnet/core';

import type { JsonRpcErrorObject } from './rpc-errors.js';
import type { SubmissionInterceptor } from './rpc-server.js';

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
  /** Holds the next submission for `ms` milliseconds before the pool sees it (and before the RPC answers). */
  delayNextExtrinsic(ms: number): void;
  /** The next submission is answered normally (hash / `ready`) but silently never included. */
  dropNextExtrinsic(): void;
  /** The next submission is answered with this JSON-RPC error (see `POOL_ERRORS`). */
  rejectNextSubmission(error: JsonRpcErrorObject): void;
  /** Clears every pending one-shot fault and resumes block production. */
  reset(): void;
}

type OneShot = { kind: 'delay'; ms: number } | { kind: 'drop' } | { kind: 'reject'; error: JsonRpcErrorObject };

/** Internal: the faults object plus the submission interceptor and the stall flag. */
export interface FaultController {
  readonly faults: DevnetFaults;
  readonly interceptor: SubmissionInterceptor;
}

/**
 * Creates the fault controller. One-shot submission faults apply in the order they were queued, one per
 * submission.
 *
 * @param dropConnections - closes all connections, returns the count
 * @returns the controller
 * @example
 * const { faults, interceptor } = createFaults(() => server.dropConnections());
 */
export function createFaults(dropConnections: () => number): FaultController {
  const queue: OneShot[] = [];
  let stalled = false;
  const faults: DevnetFaults = {
    dropConnections,
    stallBlockProduction() {
      stalled = true;
    },
    resumeBlockProduction() {
      stalled = false;
    },
    get stalled() {
      return stalled;
    },
    delayNextExtrinsic(ms) {
      if (!Number.isInteger(ms) || ms < 0) {
        throw new SubnetError('DEVNET_INVALID_FAULT', 'delay must be a non-negative integer of milliseconds', {
          context: { path: 'ms', value: ms },
        });
      }
      queue.push({ kind: 'delay', ms });
    },
    dropNextExtrinsic() {
      queue.push({ kind: 'drop' });
    },
    rejectNextSubmission(error) {
      if (!Number.isInteger(error.code) || typeof error.message !== 'string') {
        throw new SubnetError('DEVNET_INVALID_FAULT', 'a pool error needs an integer code and a message', {
          context: { path: 'error', value: error },
        });
      }
      queue.push({ kind: 'reject', error });
    },
    reset() {
      queue.length = 0;
      stalled = false;
    },
  };
  const interceptor: SubmissionInterceptor = {
    async intercept() {
      const next = queue.shift();
      if (next === undefined) return {};
      if (next.kind === 'delay') {
        await new Promise((r) => setTimeout(r, next.ms));
        return {};
      }
      if (next.kind === 'drop') return { lost: true };
      return { reject: next.error };
    },
  };
  return { faults, interceptor };
}
