import { isSubnetError, redactUrl } from '@subnet/core';

import { chainError, mapPoolError } from './chain-error.js';
import type { ChainError } from './chain-error.js';

/** Whether an error is the socket going away (as @polkadot/api reports it), not an answer from the node. */
export function isTransportError(error: unknown): boolean {
  return !isSubnetError(error) && /disconnected|not connected|websocket|abnormal closure/i.test(error instanceof Error ? error.message : String(error));
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'unknown error';
}

/** What the request was, for the typed error. */
export interface RequestErrorContext {
  readonly label: string;
  readonly stage: 'read' | 'submit';
  readonly timeoutMs: number;
  readonly endpoints: readonly string[];
}

/**
 * Types whatever a request threw, so no untyped error leaves a public method: a `SubnetError` is kept; a
 * dropped socket is `CHAIN_CONNECTION_LOST`; a transaction-pool rejection its pool code
 * (`CHAIN_RATE_LIMIT_EXCEEDED`, ...); any other JSON-RPC error (`1002: Verification Error ...`,
 * `-32603: Internal error`) is `CHAIN_NODE_REJECTED` with `rpcCode` and `rpcMessage`; anything else
 * `CHAIN_REQUEST_FAILED` with the reason. Messages are redacted (never an endpoint credential); the raw error
 * is never attached, since it may name the endpoint.
 *
 * @param error - what the request threw
 * @param ctx - label, stage, time limit and the (redacted) endpoints
 * @returns the typed error
 * @example throw requestError(new Error('-32603: Internal error'), { label: 'x', stage: 'read', timeoutMs: 1, endpoints: [] }) // CHAIN_NODE_REJECTED
 */
export function requestError(error: unknown, ctx: RequestErrorContext): ChainError {
  if (isSubnetError(error)) return error as ChainError;
  const message = redactUrl(messageOf(error));
  if (isTransportError(error)) {
    return chainError('ConnectionLost', `${ctx.label} failed: the connection dropped and did not come back within ${ctx.timeoutMs} ms`, {
      source: 'client',
      stage: ctx.stage,
      label: ctx.label,
      timeoutMs: ctx.timeoutMs,
      endpoints: ctx.endpoints,
      reason: message,
    });
  }
  const pool = mapPoolError(new Error(message), { stage: ctx.stage, label: ctx.label });
  if (pool !== undefined) return pool;
  const rpc = /^\s*(-?\d+):\s*([\s\S]*)$/.exec(message);
  if (rpc !== null) {
    return chainError('NodeRejected', `${ctx.label}: the node answered with error ${rpc[1]}: ${rpc[2]}`, {
      source: 'client',
      stage: ctx.stage,
      label: ctx.label,
      rpcCode: Number(rpc[1]),
      rpcMessage: message,
    });
  }
  return chainError('RequestFailed', `${ctx.label} failed: ${message}`, { source: 'client', stage: ctx.stage, label: ctx.label, reason: message });
}
