import { isSubnetError, SubnetError } from '@subnet/core';

import { CHAIN_ERRORS, chainErrorCode, POOL_CUSTOM_ERRORS } from './error-codes.js';
import type { ChainErrorContext } from './error-codes.js';

export type { ChainErrorContext } from './error-codes.js';

/** A {@link SubnetError} carrying a {@link ChainErrorContext}. */
export type ChainError = SubnetError<ChainErrorContext>;

/**
 * Builds the typed error for a chain (or client) error name.
 *
 * @param chainName - the chain's name (`SettingWeightsTooFast`) or a client name (`InclusionTimeout`)
 * @param summary - what happened, in words (never a secret)
 * @param extra - more context (stage, path, value, block, ...); `cause` is split off
 * @returns the error, with code `CHAIN_<UPPER_SNAKE(chainName)>`; unknown module names give
 *   `CHAIN_UNKNOWN_MODULE_ERROR` with the name kept in `context.chainName`
 * @example throw chainError('SettingWeightsTooFast', 'rate limited', { stage: 'preflight' })
 */
export function chainError(chainName: string, summary: string, extra: Partial<ChainErrorContext> & { readonly cause?: unknown } = {}): ChainError {
  const { cause, ...rest } = extra;
  const known = CHAIN_ERRORS.get(chainErrorCode(chainName));
  const info = known ?? CHAIN_ERRORS.get('CHAIN_UNKNOWN_MODULE_ERROR');
  const code = known ? known.code : 'CHAIN_UNKNOWN_MODULE_ERROR';
  const context: ChainErrorContext = {
    source: known?.source ?? 'module',
    retryable: info?.retryable ?? false,
    advice: info?.advice ?? '',
    ...rest,
    chainName,
  };
  return new SubnetError<ChainErrorContext>(code, `${chainName}: ${summary}`, { context, cause });
}

/**
 * Maps an `ExtrinsicFailed` module error to its typed error.
 *
 * @param section - the pallet name from the metadata (`SubtensorModule`)
 * @param name - the error variant name (`SettingWeightsTooFast`)
 * @param extra - context to add (block hash, extrinsic hash, ...)
 * @returns `CHAIN_<UPPER_SNAKE(name)>` for every `SubtensorModule` error, else `CHAIN_UNKNOWN_MODULE_ERROR` (another
 *   pallet's error, `context.chainName` = `Pallet.Name`)
 * @example mapModuleError('SubtensorModule', 'DuplicateUids').code // 'CHAIN_DUPLICATE_UIDS'
 */
export function mapModuleError(section: string, name: string, extra: Partial<ChainErrorContext> = {}): ChainError {
  // only SubtensorModule's names are this package's codes: another pallet's error of the same name is not one
  const subtensor = section.toLowerCase() === 'subtensormodule';
  return chainError(subtensor ? name : `${section}.${name}`, `the chain rejected the extrinsic in the block (${section}.${name})`, {
    source: 'module',
    section,
    ...extra,
  });
}

const STANDARD_PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/outdated/i, 'Stale'],
  [/valid in the future/i, 'Future'],
  [/ancient birth block/i, 'AncientBirthBlock'],
  [/priority is too low/i, 'TooLowPriority'],
  [/temporarily banned/i, 'TemporarilyBanned'],
  [/already imported/i, 'AlreadyImported'],
  [/bad signature|bad proof/i, 'BadProof'],
  [/exhausts the resources/i, 'ExhaustsResources'],
  [/inability to pay/i, 'Payment'],
];

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return '';
}

/**
 * Recognises a transaction-pool rejection in an RPC error (`1010: Invalid Transaction: Custom error: 6`,
 * `1010: Invalid Transaction: Transaction is outdated`, `1014: Priority is too low`, ...).
 *
 * @param error - what `author_submitExtrinsic` threw
 * @param extra - context to add
 * @returns the typed error (`CHAIN_RATE_LIMIT_EXCEEDED`, `CHAIN_STALE`, `CHAIN_TOO_LOW_PRIORITY`, ...), or
 *   `undefined` when the error is not a pool rejection
 * @example mapPoolError(new Error('1010: Invalid Transaction: Custom error: 6'))?.code // 'CHAIN_RATE_LIMIT_EXCEEDED'
 */
export function mapPoolError(error: unknown, extra: Partial<ChainErrorContext> = {}): ChainError | undefined {
  if (isSubnetError(error)) return undefined;
  const message = messageOf(error);
  const rpc = /\b(101[0-4])\b/.exec(message);
  const rpcCode = rpc ? Number(rpc[1]) : undefined;
  const custom = /Custom error:\s*(\d+)/i.exec(message);
  if (custom) {
    const n = Number(custom[1]);
    const row = POOL_CUSTOM_ERRORS.get(n);
    const name = row?.chainName ?? 'InvalidTransaction';
    return chainError(name, `the transaction pool rejected the extrinsic (Custom error: ${n})`, {
      source: 'pool',
      customError: n,
      moduleErrors: row?.moduleErrors ?? [],
      rpcCode: rpcCode ?? 1010,
      rpcMessage: message,
      ...extra,
      cause: error,
    });
  }
  for (const [pattern, name] of STANDARD_PATTERNS) {
    if (pattern.test(message)) {
      return chainError(name, 'the transaction pool rejected the extrinsic', {
        source: 'pool',
        ...(rpcCode === undefined ? {} : { rpcCode }),
        rpcMessage: message,
        ...extra,
        cause: error,
      });
    }
  }
  if (rpcCode !== undefined) {
    return chainError('InvalidTransaction', 'the transaction pool rejected the extrinsic', {
      source: 'pool',
      rpcCode,
      rpcMessage: message,
      ...extra,
      cause: error,
    });
  }
  return undefined;
}
