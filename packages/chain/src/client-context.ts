import type { ApiPromise } from '@polkadot/api';
import type { SubmittableExtrinsic } from '@polkadot/api/types';

import { chainError } from './chain-error.js';
import type { CommitStore } from './commit-store.js';
import type { ChainConnection, ChainLogger } from './connection.js';
import type { ChainSigner } from './keys.js';
import { preflight } from './preflight.js';
import type { PreflightInput, PreflightResult } from './preflight.js';
import { submitExtrinsic } from './submit-extrinsic.js';
import type { Inclusion, SignedExtrinsic } from './submit-extrinsic.js';
import type { TimelockOptions } from './timelock-context.js';
import type { U16Mode } from './u16-conversion.js';
import type { ChainClientOptions } from './client-types.js';

/**
 * What every method of the chain client shares: the connection, the signer, the policies with their
 * defaults applied, and the two steps every submission path takes (the preflight, the submission).
 * Built once by {@link clientContext}; the methods are plain functions of it.
 */
export interface ClientContext {
  readonly connection: ChainConnection;
  readonly signer: ChainSigner;
  readonly commitStore: CommitStore | undefined;
  readonly eraPeriod: number;
  /** Longest wait for inclusion / finalization (ms). */
  readonly timeoutMs: number;
  readonly pollMs: number;
  readonly mode: U16Mode;
  readonly logger: ChainLogger | undefined;
  readonly timelock: TimelockOptions | undefined;
  /** Runs the local replica of the chain's checks with the client's `stakeCheck`, logging its warnings. */
  checked(input: Omit<PreflightInput, 'stakeCheck'>): PreflightResult;
  /** Signs, submits and follows one extrinsic until `wait`; `onSigned` runs between signing and sending. */
  submit(
    label: string,
    build: (api: ApiPromise) => SubmittableExtrinsic<'promise'>,
    wait: 'inBlock' | 'finalized',
    onSigned?: (signed: SignedExtrinsic) => Promise<void>,
  ): Promise<Inclusion>;
}

/**
 * Checks the options of {@link ChainClientOptions} that do not need the connection (so bad input is refused
 * before a socket is opened) and applies their defaults.
 *
 * @param options - the client's options
 * @returns the settings, with the defaults applied
 * @throws SubnetError `CHAIN_INVALID_INPUT` (`options`, `signer`, `stakeCheck`, `u16Mode`, `eraPeriod`,
 *   `inclusionTimeoutMs`, `pollMs`)
 */
export function clientSettings(
  options: ChainClientOptions,
): Omit<ClientContext, 'connection' | 'checked' | 'submit'> & { readonly stakeCheck: 'error' | 'warn' } {
  const given: unknown = options;
  if (typeof given !== 'object' || given === null) throw invalid('options', given, 'the options are an object');
  const signer: unknown = options.signer;
  if (typeof signer !== 'object' || signer === null || typeof (signer as { address?: unknown }).address !== 'string') {
    throw invalid('signer', signer === null || typeof signer !== 'object' ? signer : '[object]', 'signer is a ChainSigner from loadSigner');
  }
  const stakeCheck: unknown = options.stakeCheck ?? 'error';
  if (stakeCheck !== 'error' && stakeCheck !== 'warn') throw invalid('stakeCheck', stakeCheck, "stakeCheck is 'error' or 'warn'");
  const mode: unknown = options.u16Mode ?? 'sum';
  if (mode !== 'sum' && mode !== 'max') throw invalid('u16Mode', mode, "u16Mode is 'sum' or 'max'");
  return {
    signer: options.signer,
    commitStore: options.commitStore,
    eraPeriod: positiveInteger(options.eraPeriod ?? 64, 'eraPeriod'),
    timeoutMs: positiveInteger(options.inclusionTimeoutMs ?? 180_000, 'inclusionTimeoutMs'),
    pollMs: nonNegativeInteger(options.pollMs ?? 1_000, 'pollMs'),
    mode,
    logger: options.logger,
    timelock: options.timelock,
    stakeCheck,
  };
}

function invalid(path: string, value: unknown, summary: string): Error {
  return chainError('InvalidInput', summary, { source: 'client', path, value });
}

function positiveInteger(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw invalid(path, value, `${path} is a positive integer`);
  return value;
}

function nonNegativeInteger(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalid(path, value, `${path} is a non-negative integer`);
  return value;
}

/**
 * Builds the shared context of the client's methods.
 *
 * @param connection - the open connection
 * @param settings - from {@link clientSettings}
 * @returns the context
 */
export function clientContext(connection: ChainConnection, settings: ReturnType<typeof clientSettings>): ClientContext {
  const { stakeCheck, signer, eraPeriod, timeoutMs, pollMs, logger } = settings;
  return {
    ...settings,
    connection,
    checked(input) {
      const result = preflight({ ...input, stakeCheck });
      for (const w of result.warnings) logger?.warn?.(`preflight warning (stakeCheck: warn): ${w.message}`, { code: w.code, context: w.context });
      return result;
    },
    submit: (label, build, wait, onSigned) =>
      submitExtrinsic(connection, signer, build, { wait, eraPeriod, timeoutMs, pollMs, label, logger, ...(onSigned === undefined ? {} : { onSigned }) }),
  };
}

/**
 * The commit store, required once a subnet has commit-reveal v2 on (the salt must survive a restart).
 *
 * @param ctx - the client context
 * @param netuid - the subnet, for the message
 * @returns the store
 * @throws SubnetError `CHAIN_INVALID_INPUT` (`commitStore`) when the client has none
 */
export function requireCommitStore(ctx: ClientContext, netuid: number): CommitStore {
  if (!ctx.commitStore) {
    throw chainError('InvalidInput', `netuid ${netuid} has commit-reveal enabled: pass a durable commitStore so the salt survives a restart`, {
      source: 'client',
      path: 'commitStore',
      value: undefined,
    });
  }
  return ctx.commitStore;
}
