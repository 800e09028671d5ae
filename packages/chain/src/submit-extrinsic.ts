import type { ApiPromise } from '@polkadot/api';
import type { SubmittableExtrinsic } from '@polkadot/api/types';

import { chainError, mapModuleError, mapPoolError } from './chain-error.js';
import type { ChainError } from './chain-error.js';
import type { ChainConnection, ChainLogger } from './connection.js';
import { requestError } from './request-error.js';
import type { ChainSigner } from './keys.js';
import { signerPair } from './keys.js';

/** How long to wait and for what. */
export interface SubmitOptions {
  /** `inBlock` (default) or `finalized`. */
  readonly wait: 'inBlock' | 'finalized';
  /** Mortal era length in blocks (default 64). */
  readonly eraPeriod: number;
  /** Longest wait for inclusion (and finalization) in ms. */
  readonly timeoutMs: number;
  /** Poll interval in ms while waiting. */
  readonly pollMs: number;
  /** What is being submitted, for errors and logs (`set_mechanism_weights`). */
  readonly label: string;
  readonly logger?: ChainLogger;
  /**
   * Called once the extrinsic is signed and before its bytes are sent (again after a `Stale` re-sign): what the
   * caller must keep before the extrinsic can land, with the last block it can land in. When it throws, nothing is
   * sent and the error is the call's.
   */
  readonly onSigned?: (signed: SignedExtrinsic) => Promise<void>;
}

/** A signed extrinsic not sent yet (see {@link SubmitOptions.onSigned}). */
export interface SignedExtrinsic {
  readonly extrinsicHash: string;
  readonly nonce: bigint;
  /** The first block of its mortal era. */
  readonly birthBlock: bigint;
  /** The last block it can be included in (its era's last). */
  readonly mortalUntil: bigint;
}

/** One event emitted by the included extrinsic. */
export interface ExtrinsicEvent {
  readonly section: string;
  readonly method: string;
  /** Event data as JSON-friendly values (bigints as decimal strings where large). */
  readonly data: readonly unknown[];
}

/** A successfully included extrinsic. */
export interface Inclusion {
  readonly extrinsicHash: string;
  readonly blockHash: string;
  readonly blockNumber: bigint;
  readonly extrinsicIndex: number;
  readonly nonce: bigint;
  readonly finalized: boolean;
  readonly events: readonly ExtrinsicEvent[];
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every earlier task for the same signing key (in this process) has settled, so two
 * submissions never race for one nonce.
 *
 * @param key - the signer's address
 * @param task - the work
 * @returns the task's result
 * @example await serialiseBySigner(signer.address, () => submit())
 */
export function serialiseBySigner<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.then(task, task);
  const settled = next.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return next;
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

interface EventRecordLike {
  readonly phase: { readonly isApplyExtrinsic: boolean; readonly asApplyExtrinsic: { toNumber(): number } };
  readonly event: { readonly section: string; readonly method: string; readonly data: readonly unknown[] };
}

interface FoundAt {
  readonly blockHash: string;
  readonly blockNumber: bigint;
  readonly index: number;
}

async function findInBlocks(connection: ChainConnection, hash: string, from: bigint, to: bigint): Promise<{ found: FoundAt | null; scannedTo: bigint }> {
  let scannedTo = from - 1n;
  for (let n = from; n <= to; n += 1n) {
    const blockHash = await connection.request('chain_getBlockHash', (api) => api.rpc.chain.getBlockHash(n));
    const signed = await connection.request('chain_getBlock', (api) => api.rpc.chain.getBlock(blockHash));
    const index = signed.block.extrinsics.findIndex((ex) => ex.hash.toHex() === hash);
    if (index >= 0) return { found: { blockHash: blockHash.toHex(), blockNumber: n, index }, scannedTo: n };
    scannedTo = n;
  }
  return { found: null, scannedTo };
}

function eventData(data: unknown): unknown[] {
  const list = Array.from(data as Iterable<{ toJSON(): unknown; toString(): string }>);
  return list.map((d) => {
    const json = d.toJSON();
    return typeof json === 'number' && !Number.isSafeInteger(json) ? d.toString() : json;
  });
}

async function outcome(
  connection: ChainConnection,
  at: FoundAt,
  extra: Record<string, unknown>,
): Promise<{ events: ExtrinsicEvent[]; error: ChainError | null }> {
  const api: ApiPromise = connection.api;
  const decorated = await connection.request('state_getStorage(System.Events)', (a) => a.at(at.blockHash));
  const systemEvents = (decorated.query as unknown as Record<string, Record<string, (() => Promise<unknown>) | undefined> | undefined>)['system']?.['events'];
  if (!systemEvents)
    throw chainError('StorageNotAvailable', 'the runtime has no System.Events', {
      source: 'client',
      stage: 'confirm',
      path: 'storage',
      value: 'System.Events',
    });
  const records = Array.from((await connection.request('System.Events', () => systemEvents())) as Iterable<EventRecordLike>);
  const events: ExtrinsicEvent[] = [];
  let error: ChainError | null = null;
  for (const record of records) {
    if (!record.phase.isApplyExtrinsic || record.phase.asApplyExtrinsic.toNumber() !== at.index) continue;
    const { section, method, data } = record.event;
    events.push(Object.freeze({ section, method, data: Object.freeze(eventData(data)) }));
    if (section === 'system' && method === 'ExtrinsicFailed') {
      const dispatchError = data[0] as {
        isModule: boolean;
        asModule: Parameters<ApiPromise['registry']['findMetaError']>[0];
        type: string;
        toString(): string;
      };
      if (dispatchError.isModule) {
        const meta = api.registry.findMetaError(dispatchError.asModule);
        error = mapModuleError(meta.section, meta.name, { stage: 'inclusion', ...extra });
      } else {
        error = chainError(dispatchError.type, `the extrinsic failed in the block (${dispatchError.toString()})`, {
          source: 'module',
          stage: 'inclusion',
          ...extra,
        });
      }
    }
  }
  return { events, error };
}

/**
 * Signs with a fresh nonce (`system_accountNextIndex`) and a mortal era, submits once, then follows the
 * chain block by block until the extrinsic is found (and finalized on request). The signed bytes are
 * never sent twice: if the connection drops after submission, the blocks are scanned after the reconnect;
 * if the era ends with the extrinsic in no block it is reported dropped; if the wait ends first the
 * outcome is reported unknown. A pool rejection `Stale` (nonce used meanwhile) is retried once with a
 * fresh nonce, since the rejected extrinsic cannot land. Calls for one signer are serialised. `onSigned` runs
 * between signing and sending, so a caller can keep what the extrinsic's landing depends on with its era's end.
 *
 * @param connection - the chain connection
 * @param signer - the signing key
 * @param build - builds the call from the metadata-decorated api
 * @param options - wait, era and timing
 * @returns the inclusion (block, index, events)
 * @throws SubnetError: pool errors (`CHAIN_RATE_LIMIT_EXCEEDED`, `CHAIN_STALE`, ...), module errors
 *   (`CHAIN_SETTING_WEIGHTS_TOO_FAST`, ...), `CHAIN_INCLUSION_TIMEOUT`, `CHAIN_EXTRINSIC_DROPPED`,
 *   `CHAIN_HEAD_STALE` (before signing, when the watchdog saw no new block for `staleHeadMs`)
 * @example const inc = await submitExtrinsic(conn, signer, (api) => api.tx.system.remark('0x'), opts);
 */
export function submitExtrinsic(
  connection: ChainConnection,
  signer: ChainSigner,
  build: (api: ApiPromise) => SubmittableExtrinsic<'promise'>,
  options: SubmitOptions,
): Promise<Inclusion> {
  return serialiseBySigner(signer.address, async () => {
    const pair = signerPair(signer);
    if (connection.headStale()) {
      // nothing is signed against a chain that does not move: the era and nonce would be guesses
      throw chainError('HeadStale', `no new block for ${connection.headAgeMs()} ms or more on any endpoint; ${options.label} was not signed`, {
        source: 'client',
        stage: 'submit',
        call: options.label,
        endpoints: connection.endpoints,
      });
    }
    for (let attempt = 0; ; attempt += 1) {
      const header = await connection.request('chain_getHeader', (api) => api.rpc.chain.getHeader());
      const head = header.number.toBigInt();
      const nonce = (await connection.request('system_accountNextIndex', (api) => api.rpc.system.accountNextIndex(signer.address))).toBigInt();
      const api = connection.api;
      const era = api.registry.createType('ExtrinsicEra', { current: header.number.toNumber(), period: options.eraPeriod });
      const tx = build(api);
      await connection.request('sign', () => tx.signAsync(pair, { nonce, era, blockHash: header.hash }));
      const hash = tx.hash.toHex();
      const birth = era.asMortalEra.birth(header.number.toNumber());
      const mortalUntil = BigInt(era.asMortalEra.death(header.number.toNumber())) - 1n;
      const context = { extrinsicHash: hash, nonce, call: options.label, mortalUntil, birthBlock: BigInt(birth) };
      await options.onSigned?.(Object.freeze({ extrinsicHash: hash, nonce, birthBlock: BigInt(birth), mortalUntil }));
      options.logger?.info?.('submitting extrinsic', { call: options.label, hash, nonce: nonce.toString(), head: head.toString() });
      let submitted = false;
      try {
        await connection.request('author_submitExtrinsic', (a) => a.rpc.author.submitExtrinsic(tx), undefined, false);
        submitted = true;
      } catch (error) {
        // connection.request types everything: a pool rejection, a node rejection (1001, 1002, -32603, ...)
        // keeps its code and message and is final; only a dropped socket or a timeout leaves the outcome open
        const typed = requestError(error, { label: 'author_submitExtrinsic', stage: 'submit', timeoutMs: options.timeoutMs, endpoints: connection.endpoints });
        if (typed.context.source === 'pool') {
          const pool = mapPoolError(new Error(typed.context.rpcMessage ?? typed.message), { stage: 'submit', ...context }) ?? typed;
          if (pool.context.chainName === 'Stale' && attempt === 0) {
            options.logger?.warn?.('nonce was stale; refetching it once', { hash });
            continue;
          }
          throw pool;
        }
        if (typed.code !== 'CHAIN_CONNECTION_LOST' && typed.code !== 'CHAIN_REQUEST_TIMEOUT') {
          throw chainError(typed.context.chainName, typed.message.replace(/^[A-Za-z]+: /, ''), { ...typed.context, stage: 'submit', ...context });
        }
        // Transport failure: the node may or may not have the extrinsic. Never resend the bytes: look for them.
        options.logger?.warn?.('submission outcome unknown; following the chain', { hash });
      }
      return track(connection, hash, head + 1n, mortalUntil, nonce, submitted, context, options);
    }
  });
}

async function track(
  connection: ChainConnection,
  hash: string,
  firstBlock: bigint,
  mortalUntil: bigint,
  nonce: bigint,
  submitted: boolean,
  context: Record<string, unknown>,
  options: SubmitOptions,
): Promise<Inclusion> {
  const deadline = Date.now() + options.timeoutMs;
  let next = firstBlock;
  let found: FoundAt | null = null;
  let lastError: unknown;
  while (found === null) {
    if (Date.now() > deadline) {
      throw chainError(
        'InclusionTimeout',
        `${options.label} ${hash} not seen in a block within ${options.timeoutMs} ms (submission ${submitted ? 'accepted by the pool' : 'unconfirmed'}); outcome unknown until block ${mortalUntil}`,
        {
          source: 'client',
          stage: 'inclusion',
          ...context,
          scannedUpTo: next - 1n,
          cause: lastError,
        },
      );
    }
    try {
      const best = (await connection.request('chain_getHeader', (api) => api.rpc.chain.getHeader())).number.toBigInt();
      if (best >= next) {
        // no block after its era's last can hold it: the scan stops there
        const result = await findInBlocks(connection, hash, next, best < mortalUntil ? best : mortalUntil);
        found = result.found;
        next = result.scannedTo + 1n;
        if (found === null && next > mortalUntil) {
          throw chainError('ExtrinsicDropped', `${options.label} ${hash} is in no block up to the end of its era (block ${mortalUntil}); it can never land`, {
            source: 'client',
            stage: 'inclusion',
            ...context,
          });
        }
      }
    } catch (error) {
      if ((error as { code?: unknown }).code === 'CHAIN_EXTRINSIC_DROPPED' || (error as { code?: unknown }).code === 'CHAIN_CLIENT_CLOSED') throw error;
      lastError = error;
    }
    if (found === null) await sleep(options.pollMs);
  }
  let finalized = false;
  if (options.wait === 'finalized') {
    let replaced = false;
    while (!finalized && !replaced) {
      if (Date.now() > deadline) {
        throw chainError('InclusionTimeout', `${options.label} ${hash} is in block ${found.blockNumber} but not finalized within ${options.timeoutMs} ms`, {
          source: 'client',
          stage: 'inclusion',
          ...context,
          blockHash: found.blockHash,
          blockNumber: found.blockNumber,
        });
      }
      try {
        const fin = await connection.request('chain_getFinalizedHead', (api) => api.rpc.chain.getFinalizedHead());
        const finNumber = (await connection.request('chain_getHeader', (api) => api.rpc.chain.getHeader(fin))).number.toBigInt();
        const foundNumber = found.blockNumber;
        if (finNumber >= foundNumber) {
          const canonical = (await connection.request('chain_getBlockHash', (api) => api.rpc.chain.getBlockHash(foundNumber))).toHex();
          if (canonical === found.blockHash) finalized = true;
          else replaced = true;
        }
      } catch (error) {
        if ((error as { code?: unknown }).code === 'CHAIN_CLIENT_CLOSED') throw error;
      }
      if (!finalized && !replaced) await sleep(options.pollMs);
    }
    // The block was reorganised away: look again on the new branch from the first block it could be in (the branch
    // may hold it at a lower number than the replaced block did). Outside the polling's catch, so that an extrinsic
    // the reorganisation dropped is reported `CHAIN_EXTRINSIC_DROPPED` at its era's end, not swallowed until the wait ends.
    if (replaced) return track(connection, hash, firstBlock, mortalUntil, nonce, submitted, context, options);
  }
  const result = await outcome(connection, found, { ...context, blockHash: found.blockHash, blockNumber: found.blockNumber });
  if (result.error) throw result.error;
  return Object.freeze({
    extrinsicHash: hash,
    blockHash: found.blockHash,
    blockNumber: found.blockNumber,
    extrinsicIndex: found.index,
    nonce,
    finalized,
    events: Object.freeze(result.events),
  });
}
