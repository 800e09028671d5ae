/** A JSON-RPC error object as a Substrate node returns it. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: string;
}

/** Thrown inside the devnet to answer a request with a JSON-RPC error. */
export class RpcFailure extends Error {
  readonly rpc: JsonRpcErrorObject;
  constructor(rpc: JsonRpcErrorObject) {
    super(`${rpc.code}: ${rpc.message}${rpc.data === undefined ? '' : `: ${rpc.data}`}`);
    this.name = 'RpcFailure';
    this.rpc = rpc;
  }
}

/**
 * The transaction-pool errors a Substrate node returns (`sc-rpc` author errors), for
 * {@link DevnetFaults.rejectNextSubmission} and for the devnet's own pool. `@polkadot/api` shows them as
 * `code: message: data`, e.g. `1010: Invalid Transaction: Custom error: 6`.
 *
 * @example
 * devnet.faults.rejectNextSubmission(POOL_ERRORS.custom(6));
 */
export const POOL_ERRORS = Object.freeze({
  /** 1010 `Invalid Transaction: Custom error: N` (Subtensor's `CustomTransactionError`). */
  custom: (n: number): JsonRpcErrorObject => ({ code: 1010, message: 'Invalid Transaction', data: `Custom error: ${n}` }),
  /** 1010 `Transaction is outdated` (stale nonce). */
  stale: Object.freeze({ code: 1010, message: 'Invalid Transaction', data: 'Transaction is outdated' }),
  /** 1010 `Transaction will be valid in the future` (only used by fault injection: the devnet holds future txs). */
  future: Object.freeze({ code: 1010, message: 'Invalid Transaction', data: 'Transaction will be valid in the future' }),
  /** 1010 `Transaction has a bad signature`. */
  badProof: Object.freeze({ code: 1010, message: 'Invalid Transaction', data: 'Transaction has a bad signature' }),
  /** 1010 `Transaction has an ancient birth block` (mortal era expired). */
  ancientBirthBlock: Object.freeze({ code: 1010, message: 'Invalid Transaction', data: 'Transaction has an ancient birth block' }),
  /** 1010 `Transaction call is not expected` (a call the devnet does not execute). */
  call: Object.freeze({ code: 1010, message: 'Invalid Transaction', data: 'Transaction call is not expected' }),
  /** 1011 unsigned transactions without a validator. */
  noUnsignedValidator: Object.freeze({
    code: 1011,
    message: 'Unknown Transaction Validity',
    data: 'Could not find an unsigned validator for the unsigned transaction',
  }),
  /** 1012 temporarily banned. */
  temporarilyBanned: Object.freeze({ code: 1012, message: 'Transaction is temporarily banned' }),
  /** 1013 the same extrinsic is already in the pool. */
  alreadyImported: Object.freeze({ code: 1013, message: 'Transaction Already Imported', data: 'Transaction is already in the pool' }),
  /** 1014 same signer and nonce already in the pool. */
  priorityTooLow: Object.freeze({
    code: 1014,
    message: 'Priority is too low: (0 vs 0)',
    data: 'The transaction has too low priority to replace another transaction already in the pool.',
  }),
  /** 1001 undecodable extrinsic. */
  badFormat: (detail: string): JsonRpcErrorObject => ({ code: 1001, message: 'Extrinsic has invalid format', data: detail }),
});

/** JSON-RPC 2.0 standard errors. */
export const JSON_RPC_ERRORS = Object.freeze({
  parse: Object.freeze({ code: -32700, message: 'Parse error' }),
  invalidRequest: Object.freeze({ code: -32600, message: 'Invalid request' }),
  methodNotFound: (method: string): JsonRpcErrorObject => ({ code: -32601, message: 'Method not found', data: method }),
  invalidParams: (detail: string): JsonRpcErrorObject => ({ code: -32602, message: 'Invalid params', data: detail }),
  internal: (detail: string): JsonRpcErrorObject => ({ code: -32603, message: 'Internal error', data: detail }),
  /** 4003 the state of that block was discarded (like a pruned node). */
  stateDiscarded: (hash: string): JsonRpcErrorObject => ({ code: 4003, message: `State already discarded for ${hash}` }),
  /** 4001 unknown block. */
  unknownBlock: (hash: string): JsonRpcErrorObject => ({ code: 4001, message: `Unknown block ${hash}` }),
});
