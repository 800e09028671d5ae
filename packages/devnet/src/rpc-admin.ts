import { isSubnetError } from '@subnet/core';

import type { DevnetFaults } from './faults.js';
import type { JsonRpcErrorObject } from './rpc-errors.js';
import { JSON_RPC_ERRORS, POOL_ERRORS, RpcFailure } from './rpc-errors.js';

/** An admin handler: params and the calling connection (opaque). */
export type AdminHandler = (params: readonly unknown[], caller: unknown) => unknown;

/** What the admin namespace needs from the server besides the faults. */
export interface AdminServer {
  /** Closes every connection except the caller's; returns how many were closed. */
  dropConnectionsExcept(caller: unknown): number;
}

/** The devnet's chain controls the admin namespace exposes besides the faults. */
export interface AdminChain {
  /** `devnet.reorganize` (arguments unchecked: it checks them); null while stalled or frozen. */
  reorganize(depth: unknown, branch: unknown, options: unknown): readonly { readonly number: number; readonly hash: string }[] | null;
  /** `devnet.replaceNeuron` (arguments unchecked: it checks them); answers the new holder as hex public keys. */
  replaceNeuron?(
    uid: unknown,
    hotkey: unknown,
    coldkey: unknown,
    options?: unknown,
  ): { readonly uid: number; readonly hotkey: string; readonly coldkey: string };
  /** `devnet.swapHotkey` (arguments unchecked: it checks them); answers the uid and both hotkeys as hex public keys. */
  swapHotkey?(hotkey: unknown, newHotkey: unknown, options?: unknown): { readonly uid: number; readonly hotkey: string; readonly newHotkey: string };
}

/** The pool errors `devnet_faultRejectNextSubmission` accepts by name (the fixed entries of `POOL_ERRORS`). */
const NAMED_POOL_ERRORS: Readonly<Record<string, JsonRpcErrorObject>> = Object.freeze({
  stale: POOL_ERRORS.stale,
  future: POOL_ERRORS.future,
  badProof: POOL_ERRORS.badProof,
  ancientBirthBlock: POOL_ERRORS.ancientBirthBlock,
  call: POOL_ERRORS.call,
  noUnsignedValidator: POOL_ERRORS.noUnsignedValidator,
  temporarilyBanned: POOL_ERRORS.temporarilyBanned,
  alreadyImported: POOL_ERRORS.alreadyImported,
  priorityTooLow: POOL_ERRORS.priorityTooLow,
});

/**
 * The pool error a `devnet_faultRejectNextSubmission` parameter names: an integer N (`1010 Invalid
 * Transaction: Custom error: N`, 0..255), a name of a fixed `POOL_ERRORS` entry (`stale`, `badProof`, ...),
 * or a `{ code, message, data? }` object.
 *
 * @param value - the parameter
 * @returns the JSON-RPC error to answer with
 * @throws RpcFailure -32602 naming the parameter and its value
 * @example
 * poolErrorParam(6); // { code: 1010, message: 'Invalid Transaction', data: 'Custom error: 6' }
 */
export function poolErrorParam(value: unknown): JsonRpcErrorObject {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > 255) {
      throw new RpcFailure(JSON_RPC_ERRORS.invalidParams(`error: a custom error must be an integer 0..255, got ${String(value)}`));
    }
    return POOL_ERRORS.custom(value);
  }
  if (typeof value === 'string') {
    const named = Object.hasOwn(NAMED_POOL_ERRORS, value) ? NAMED_POOL_ERRORS[value] : undefined;
    if (named === undefined) {
      throw new RpcFailure(
        JSON_RPC_ERRORS.invalidParams(`error: unknown pool error name ${JSON.stringify(value)} (one of ${Object.keys(NAMED_POOL_ERRORS).join(', ')})`),
      );
    }
    return named;
  }
  if (typeof value === 'object' && value !== null) return value as JsonRpcErrorObject;
  throw new RpcFailure(
    JSON_RPC_ERRORS.invalidParams(`error: expected a custom error number, a pool error name or { code, message, data? }, got ${JSON.stringify(value)}`),
  );
}

/** Runs a fault method, answering its coded argument errors as -32602 with the message. */
function invalidAsParams<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (isSubnetError(e)) throw new RpcFailure(JSON_RPC_ERRORS.invalidParams(e.message));
    throw e;
  }
}

/** Runs a chain control, answering its coded refusal as -32602 whose data starts with the `DEVNET_*` code. */
function codedAsParams<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (isSubnetError(e)) throw new RpcFailure(JSON_RPC_ERRORS.invalidParams(`${e.code}: ${e.message}`));
    throw e;
  }
}

/**
 * The devnet's admin namespace on its own WebSocket, for a load or chaos test that runs the devnet as a separate
 * process: one `devnet_fault*` method per {@link DevnetFaults} method, plus `devnet_faultStatus`; and
 * `devnet_reorganize(depth, branch?, options?)` (`devnet.reorganize`: answers `[{ number, hash }]` of the new branch, or null
 * while stalled or frozen; a refused reorganisation is -32602 whose `data` starts with its `DEVNET_*` code) and
 * `devnet_replaceNeuron(uid, hotkey, coldkey?, options?)` (`devnet.replaceNeuron`, a null coldkey before options the default;
 * answers `{ uid, hotkey, coldkey }` as hex
 * public keys; a refusal is -32602 whose `data` starts with its code, `DEVNET_INVALID_UID` or
 * `DEVNET_INVALID_REPLACEMENT`) and `devnet_swapHotkey(hotkey, newHotkey, options?)` (`devnet.swapHotkey`, answers
 * `{ uid, hotkey, newHotkey }` as hex public keys; a refusal is -32602 with `DEVNET_INVALID_SWAP`). Answered
 * even while the node is frozen. Not a Substrate RPC; a real node answers these with -32601.
 *
 * @param faults - the devnet's faults
 * @param server - the server's connections
 * @param chain - the chain controls (`reorganize`, `replaceNeuron`, `swapHotkey`), or none
 * @returns the handlers by method name
 * @example
 * // {"jsonrpc":"2.0","id":1,"method":"devnet_faultRejectNextSubmission","params":[6]}
 * const handlers = adminHandlers(devnet.faults, server);
 */
export function adminHandlers(faults: DevnetFaults, server: AdminServer, chain?: AdminChain): Readonly<Record<string, AdminHandler>> {
  const chainHandlers: Record<string, AdminHandler> = {};
  if (chain !== undefined) {
    chainHandlers['devnet_reorganize'] = (params) =>
      codedAsParams(() => chain.reorganize(params[0], params[1], params[2])?.map((b) => ({ number: b.number, hash: b.hash })) ?? null);
    const replace = chain.replaceNeuron?.bind(chain);
    if (replace !== undefined)
      chainHandlers['devnet_replaceNeuron'] = (params) =>
        codedAsParams(() => replace(params[0], params[1], params.length > 3 && params[2] === null ? undefined : params[2], params[3]));
    const swap = chain.swapHotkey?.bind(chain);
    if (swap !== undefined) chainHandlers['devnet_swapHotkey'] = (params) => codedAsParams(() => swap(params[0], params[1], params[2]));
  }
  return Object.freeze({
    ...chainHandlers,
    devnet_faultStatus: () => ({ frozen: faults.frozen, stalled: faults.stalled, held: faults.held }),
    devnet_faultFreeze: () => {
      faults.freeze();
      return true;
    },
    devnet_faultThaw: () => {
      faults.thaw();
      return true;
    },
    devnet_faultStallBlockProduction: () => {
      faults.stallBlockProduction();
      return true;
    },
    devnet_faultResumeBlockProduction: () => {
      faults.resumeBlockProduction();
      return true;
    },
    devnet_faultDropConnections: (_params, caller) => server.dropConnectionsExcept(caller),
    devnet_faultDelayNextExtrinsic: (params) => {
      invalidAsParams(() => {
        faults.delayNextExtrinsic(params[0] as number);
      });
      return true;
    },
    devnet_faultDropNextExtrinsic: () => {
      faults.dropNextExtrinsic();
      return true;
    },
    devnet_faultRejectNextSubmission: (params) => {
      const error = poolErrorParam(params[0]);
      invalidAsParams(() => {
        faults.rejectNextSubmission(error);
      });
      return true;
    },
    devnet_faultReset: () => {
      faults.reset();
      return true;
    },
  });
}
