import { SubnetError, isSubnetError, redactUrl } from '@subnet/core';

import { AUDITOR_ERROR_CODES } from './errors.js';

/** What was being read when a chain request failed. */
export interface ChainReadTarget {
  /** The block number the bundle says its weights were submitted in (decimal). */
  readonly block: string;
  /** The endpoint, already redacted (no credentials, no query). */
  readonly endpoint: string;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') return error.message;
  return String(error);
}

/** The clean one-line text of a node's answer, without URL credentials (`redactUrl`, the one redaction). */
function nodeText(error: unknown): string {
  return redactUrl(messageOf(error)).split('\n')[0]?.slice(0, 300) ?? '';
}

/**
 * Turns a failure of a chain read into a coded auditor error that says what to do. A node that keeps
 * only recent states answers a read at an old block with `State already discarded for 0x…` (Substrate's
 * `UnknownBlock: State already discarded`, JSON-RPC error 4003; @polkadot/api puts the code and text in
 * the message): that is `AUDITOR_CHAIN_STATE_PRUNED`, and only an archive node (`--state-pruning archive`)
 * can answer. `Unknown block` (4001) is `AUDITOR_CHAIN_UNKNOWN_BLOCK`; the chain client's timeouts and lost
 * connections are `AUDITOR_CHAIN_TIMEOUT` and `AUDITOR_CHAIN_UNREACHABLE`; any other answer of the node is
 * `AUDITOR_CHAIN_RPC_ERROR` with the node's text. Errors that are already the auditor's pass through.
 *
 * @param error - what the read threw
 * @param target - the block and the redacted endpoint
 * @returns the coded error (its `cause` is the original)
 * @example throw chainReadError(e, { block: '120', endpoint: 'ws://127.0.0.1:9944' })
 */
export function chainReadError(error: unknown, target: ChainReadTarget): SubnetError {
  if (isSubnetError(error) && error.code.startsWith('AUDITOR_')) return error;
  const context = { path: '--chain', value: target.endpoint, block: target.block };
  const text = nodeText(error);
  if (/state already discarded|state.*(pruned|not available)|\b4003\b/i.test(text)) {
    return new SubnetError(
      AUDITOR_ERROR_CODES.chainStatePruned,
      `the node at ${target.endpoint} has pruned the state of block ${target.block} (it answered "${text}"): reading the weights at the submission block needs an archive endpoint (a node run with --state-pruning archive)`,
      { context, cause: error },
    );
  }
  if (/unknown ?block|\b4001\b|block hash not found/i.test(text)) {
    return new SubnetError(
      AUDITOR_ERROR_CODES.chainUnknownBlock,
      `the node at ${target.endpoint} does not know block ${target.block} (it answered "${text}"): is it the same chain, and synced past that block?`,
      {
        context,
        cause: error,
      },
    );
  }
  if (isSubnetError(error, 'CHAIN_REQUEST_TIMEOUT')) {
    return new SubnetError(
      AUDITOR_ERROR_CODES.chainTimeout,
      `reading block ${target.block} from ${target.endpoint} got no answer in time (${text}): raise --chain-timeout or use a closer node`,
      {
        context,
        cause: error,
      },
    );
  }
  if (
    isSubnetError(error, 'CHAIN_CONNECTION_LOST') ||
    isSubnetError(error, 'CHAIN_CONNECTION_FAILED') ||
    isSubnetError(error, 'CHAIN_CLIENT_CLOSED') ||
    /disconnected|not connected|websocket/i.test(text)
  ) {
    return new SubnetError(
      AUDITOR_ERROR_CODES.chainUnreachable,
      `the connection to ${target.endpoint} was lost while reading block ${target.block} (${text})`,
      { context, cause: error },
    );
  }
  return new SubnetError(AUDITOR_ERROR_CODES.chainRpcError, `the node at ${target.endpoint} failed to answer the weights at block ${target.block}: ${text}`, {
    context,
    cause: error,
  });
}
