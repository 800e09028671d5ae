import { redactUrl } from '@subnet/core';

import type { ChainNeuron, ChainPort, ChainView } from './chain-port.js';
import { isExemptOwner, stakeBelowThreshold } from './stake-gate.js';
import type { Storage } from './storage.js';

/** One readiness check: whether it passes and, in words, what was seen. */
export interface ReadinessCheck {
  readonly ok: boolean;
  readonly detail: string;
}

/** What `/readyz` answers: ready only when every check passes. */
export interface ReadinessReport {
  readonly ready: boolean;
  readonly checks: {
    readonly chain_head: ReadinessCheck;
    readonly hotkey: ReadinessCheck;
    readonly storage: ReadinessCheck;
  };
}

/** The metagraph reads as `/readyz` reports them (times in ms on the clock of `ReadinessSources.now`). */
export interface MetagraphReads {
  /** When the read the hotkey check judges (the service's last metagraph refresh) ended; absent before the first. */
  readonly judgedAtMs?: number;
  /** The last metagraph read, by any part of the service, when it failed (its message, redacted); absent once one succeeds. */
  readonly failure?: { readonly message: string; readonly atMs: number };
}

/**
 * The chain access with every metagraph read (the refresh's, an epoch close's, the task draw's) reported to `onRead`:
 * `undefined` when it succeeded, else its error. Other members are the chain's own, also when replaced later.
 *
 * @param chain - the chain access the service uses
 * @param onRead - called as each `view()` ends
 * @returns the same chain access, observed
 * @example chain = observeMetagraphReads(chain, (error) => { failure = error })
 */
export function observeMetagraphReads(chain: ChainPort, onRead: (error: Error | undefined) => void): ChainPort {
  const view = (): Promise<ChainView> =>
    chain.view().then(
      (read) => {
        onRead(undefined);
        return read;
      },
      (error: unknown) => {
        onRead(error instanceof Error ? error : new Error(String(error)));
        throw error;
      },
    );
  // A view of the chain access, not a copy or a child of it: members replaced on it later are seen; each other member is
  // called with the chain access itself as `this` (a class whose methods read private fields works); and a frozen one is
  // observed too (the proxy's target is an empty object of its own, so no read-only `view` constrains what it answers).
  return new Proxy({} as ChainPort, {
    get: (_target, key) => {
      if (key === 'view') return view;
      const member: unknown = Reflect.get(chain, key);
      return typeof member === 'function' ? (member as (...args: unknown[]) => unknown).bind(chain) : member;
    },
    has: (_target, key) => Reflect.has(chain, key),
  });
}

/** Record writes as `/readyz` reports them (times in ms on the clock of `ReadinessSources.now`). */
export interface RecordWrites {
  /** When a record write last committed; absent before the first. */
  readonly storedAtMs?: number;
  /** The last record write that failed: its message (redacted) and when; absent before the first failure. */
  readonly failure?: { readonly message: string; readonly atMs: number };
}

/**
 * Keeps what {@link RecordWrites} reports from the write queue's transactions (`createWriteQueue`'s `onWrite`).
 *
 * @param now - the clock (ms)
 * @returns `onWrite` for the queue, and the record writes as they stand
 * @example const writes = recordWriteTracker(Date.now); createWriteQueue(storage, 1000, writes.onWrite)
 */
export function recordWriteTracker(now: () => number): { readonly onWrite: (error: unknown) => void; readonly read: () => RecordWrites } {
  let state: RecordWrites = {};
  return {
    onWrite: (error) => {
      if (error === undefined) state = { ...state, storedAtMs: now() };
      else state = { ...state, failure: { message: redactUrl(error instanceof Error ? error.message : JSON.stringify(error)), atMs: now() } };
    },
    read: () => state,
  };
}

/** What the readiness probe reads from the running service. */
export interface ReadinessSources {
  readonly storage: Storage;
  readonly hotkey: string;
  readonly netuid: number;
  readonly dryRun: boolean;
  /**
   * The head block last read and when (ms) it last changed; undefined before the first read. `readAtMs`: when a head
   * read last succeeded; `failure`: why the last read failed and when, while it is the last read.
   */
  head():
    | {
        readonly block: bigint;
        readonly changedAtMs: number;
        readonly lastReadOk: boolean;
        readonly readAtMs?: number;
        readonly failure?: { readonly message: string; readonly atMs: number };
      }
    | undefined;
  /** Why the head is behind the epoch the service files records under (the chain went back), or undefined. */
  headBehind?(): string | undefined;
  /** The metagraph entry of this validator's hotkey (undefined when not registered), or null before the first read. */
  self(): ChainNeuron | undefined | null;
  /** When the metagraph was last read, and why the last read failed when one failed after it; absent: not said. */
  metagraphReads?(): MetagraphReads;
  /**
   * Why the hotkey is not registered, when the service knows: where its uid went when it left the metagraph while the
   * service ran, or the other hotkey of its wallet that is registered (hotkey-departure.ts).
   */
  departure?(): string | undefined;
  /** The last metagraph read's stake rule (`StakeThreshold`, the owner's exemption); absent: the stake is not judged. */
  stakeRule?(): Pick<ChainView, 'stakeThreshold' | 'ownerStakeExempt' | 'ownerHotkey'> | undefined;
  /** The head is stale when it has not changed for this long (ms). */
  readonly staleHeadMs: number;
  /** Storage must answer within this (ms). */
  readonly storageTimeoutMs: number;
  /** The record writes (the write queue's transactions); absent: not said. */
  recordWrites?(): RecordWrites;
  now(): number;
}

async function storageCheck(sources: ReadinessSources): Promise<ReadinessCheck> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ReadinessCheck>((resolve) => {
    timer = setTimeout(() => {
      resolve({ ok: false, detail: `storage did not answer within ${sources.storageTimeoutMs} ms` });
    }, sources.storageTimeoutMs);
  });
  // A primary-key read: cheap on any table size, and it needs a working connection.
  const probe = sources.storage.getEpoch(-1).then(
    (): ReadinessCheck => ({ ok: true, detail: `${sources.storage.dialect} answers` }),
    (error: unknown): ReadinessCheck => ({ ok: false, detail: `storage unreachable: ${redactUrl(error instanceof Error ? error.message : String(error))}` }),
  );
  let read: ReadinessCheck;
  try {
    read = await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
  // The probe reads: a full disk or a read-only file still answers it while every record write fails. That is said,
  // without failing the check (docs/spec.md G.36): ingest already answers such writes 503 with Retry-After, which a
  // miner retries, and an instance taken out of its load balancer would get no write to show it recovered.
  const writes = sources.recordWrites?.();
  const failure = writes?.failure;
  if (failure === undefined || (writes?.storedAtMs !== undefined && writes.storedAtMs >= failure.atMs)) return read;
  const since =
    writes?.storedAtMs === undefined
      ? 'no record write has succeeded since the start'
      : `the last that succeeded was ${secondsSince(sources, writes.storedAtMs)} s ago`;
  return {
    ok: read.ok,
    detail: `${read.detail}; the last record write failed ${secondsSince(sources, failure.atMs)} s ago: ${failure.message} (ingest answers 503 STORAGE_UNAVAILABLE; ${since})`,
  };
}

/** Whole seconds from `atMs` to now on the sources' clock, as the checks' details give ages (never negative). */
function secondsSince(sources: ReadinessSources, atMs: number): number {
  return Math.max(0, Math.round((sources.now() - atMs) / 1000));
}

function headCheck(sources: ReadinessSources): ReadinessCheck {
  const head = sources.head();
  if (head === undefined) return { ok: false, detail: 'the chain head has not been read yet' };
  const seconds = (atMs: number): number => secondsSince(sources, atMs);
  if (!head.lastReadOk) {
    const why = head.failure === undefined ? '' : ` ${seconds(head.failure.atMs)} s ago: ${head.failure.message}`;
    const read = head.readAtMs === undefined ? '' : `, read ${seconds(head.readAtMs)} s ago`;
    return { ok: false, detail: `the last chain head read failed${why} (last head ${head.block}${read})` };
  }
  const behind = sources.headBehind?.();
  if (behind !== undefined) return { ok: false, detail: behind };
  const age = sources.now() - head.changedAtMs;
  if (age > sources.staleHeadMs)
    return { ok: false, detail: `the chain head ${head.block} has not changed for ${Math.round(age / 1000)} s (stale after ${sources.staleHeadMs / 1000} s)` };
  return { ok: true, detail: `head ${head.block}, changed ${Math.round(age / 1000)} s ago` };
}

/**
 * The hotkey check, with the cause of a failed metagraph read: before any read succeeded, why the last one failed; after,
 * that the check judges an older read (its pass or failure stays that read's: one failed read per epoch boundary would
 * otherwise take a validator whose hotkey is fine out of service for a whole epoch).
 */
function hotkeyCheck(sources: ReadinessSources): ReadinessCheck {
  const reads = sources.metagraphReads?.() ?? {};
  const seconds = (atMs: number): number => secondsSince(sources, atMs);
  const failed = reads.failure === undefined ? undefined : { ...reads.failure, s: seconds(reads.failure.atMs) };
  const check = judgeHotkey(sources);
  if (failed === undefined) return check;
  if (sources.self() === null) return { ok: false, detail: `${check.detail}: the last read failed ${failed.s} s ago: ${failed.message}` };
  const from = reads.judgedAtMs === undefined ? '' : `, so this is from the read ${seconds(reads.judgedAtMs)} s ago`;
  return { ok: check.ok, detail: `${check.detail} (the last metagraph read failed ${failed.s} s ago: ${failed.message}${from})` };
}

function judgeHotkey(sources: ReadinessSources): ReadinessCheck {
  const self = sources.self();
  if (self === null) return { ok: false, detail: 'the metagraph has not been read yet' };
  if (sources.dryRun)
    return {
      ok: true,
      detail:
        self === undefined
          ? `dry run: hotkey ${sources.hotkey} is not registered on netuid ${sources.netuid} (not needed)`
          : `dry run: hotkey is uid ${self.uid}`,
    };
  if (self === undefined) {
    const cause = sources.departure?.();
    return { ok: false, detail: `hotkey ${sources.hotkey} is not registered on netuid ${sources.netuid}${cause === undefined ? '' : `: ${cause}`}` };
  }
  const rule = sources.stakeRule?.();
  const low = rule === undefined ? null : stakeBelowThreshold(rule, self);
  if (low !== null) return { ok: false, detail: low.sentence };
  if (!self.validatorPermit) {
    if (rule !== undefined && isExemptOwner(rule, self))
      return { ok: true, detail: `hotkey is uid ${self.uid}, the subnet owner's: the chain takes its weights without a validator permit` };
    return { ok: false, detail: `hotkey ${sources.hotkey} (uid ${self.uid}) has no validator permit on netuid ${sources.netuid}` };
  }
  return { ok: true, detail: `hotkey is uid ${self.uid} with a validator permit` };
}

/**
 * Runs the readiness checks: the chain head is fresh (read successfully, and changed within
 * `staleHeadMs`), the hotkey is registered on the netuid with a stake weight at the subnet's `StakeThreshold`
 * and a validator permit (the owner hotkey needs neither on a runtime that exempts it; any registration state
 * passes in a dry run), and storage answers a primary-key read within `storageTimeoutMs`.
 *
 * @param sources - what the running service knows
 * @returns the report (`ready` and each check with its detail)
 * @example const report = await checkReadiness(sources); reply.code(report.ready ? 200 : 503).send(report)
 */
export async function checkReadiness(sources: ReadinessSources): Promise<ReadinessReport> {
  const storage = await storageCheck(sources);
  const checks = { chain_head: headCheck(sources), hotkey: hotkeyCheck(sources), storage };
  return { ready: checks.chain_head.ok && checks.hotkey.ok && checks.storage.ok, checks };
}
