import type { Extrinsic } from '@polkadot/types/interfaces';
import { compactToU8a, hexToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { blake2AsU8a, decodeAddress, signatureVerify } from '@polkadot/util-crypto';

import type { ChainState } from './chain-state.js';
import { cloneState } from './chain-state.js';
import { decodeDevnetCall } from './decode-call.js';
import type { JsonRpcErrorObject } from './rpc-errors.js';
import { POOL_ERRORS, RpcFailure } from './rpc-errors.js';
import type { RuntimeContext } from './runtime-context.js';
import type { StorageMap } from './storage-layout.js';
import { materializeStorage } from './storage-layout.js';
import type { DevnetCall, DevnetEvent } from './weights-rules.js';
import { dispatchCall } from './weights-rules.js';
import { poolGuard } from './pool-guard.js';
import { initializeBlock } from './block-initialize.js';
import type { DevnetBeacon } from './drand-beacon.js';
import type { TimelockDrop } from './timelock-reveal.js';

/** A produced block. */
export interface BlockRecord {
  readonly number: number;
  readonly hash: string;
  readonly parentHash: string;
  readonly stateRoot: string;
  readonly extrinsicsRoot: string;
  /** Extrinsics as 0x hex, in block order (the timestamp inherent first). */
  readonly extrinsics: readonly string[];
  /** State after the block. */
  readonly state: ChainState;
  /** Storage after the block; `null` once pruned. */
  storage: StorageMap | null;
}

/** Transaction status as `author_extrinsicUpdate` sends it. */
export type TxStatus =
  | 'future'
  | 'ready'
  | 'dropped'
  | 'invalid'
  | { readonly inBlock: string }
  | { readonly finalized: string }
  | { readonly retracted: string }
  | { readonly usurped: string };

interface PoolEntry {
  readonly hash: string;
  readonly hex: string;
  readonly signer: string;
  readonly nonce: number;
  readonly call: DevnetCall;
  readonly mortal: { readonly period: number; readonly phase: number } | null;
  readonly birth: number;
  readonly arrival: number;
  readonly watchers: Set<(status: TxStatus) => void>;
  /** Accepted on the wire but never pooled (fault injection). */
  readonly lost: boolean;
}

/** Options of {@link createChain}. */
export interface ChainOptions {
  readonly slotDuration: number;
  readonly genesisTimestamp: bigint;
  readonly finalityLag: number;
  readonly maxBlockExtrinsics: number;
  readonly stateHistory: number;
  /** The devnet's drand beacon (publishes pulses each block), or null. */
  readonly beacon?: DevnetBeacon | null;
}

/** Listener of chain events. */
export interface ChainListener {
  newBest?(block: BlockRecord): void;
  finalized?(block: BlockRecord): void;
}

/** A pending runtime change applied at the start of the next block (like a sudo call). */
export type StateChange = (state: ChainState) => void;

/** The chain engine: blocks, pool, validation, production. */
export interface Chain {
  readonly ctx: RuntimeContext;
  readonly genesisHash: string;
  best(): BlockRecord;
  finalized(): BlockRecord;
  blockByHash(hash: string): BlockRecord | undefined;
  blockByNumber(n: number): BlockRecord | undefined;
  /** Resolves an optional `at` hash to a block; throws an RPC failure for unknown blocks. */
  resolve(at: unknown): BlockRecord;
  storageOf(block: BlockRecord): StorageMap;
  submit(hex: string, watcher?: (status: TxStatus) => void, options?: { lost?: boolean }): string;
  unwatch(hash: string, watcher: (status: TxStatus) => void): void;
  pendingExtrinsics(): string[];
  accountNextIndex(address: string): number;
  produceBlock(): BlockRecord;
  queueChange(change: StateChange): void;
  addListener(listener: ChainListener): () => void;
  /** Number of extrinsics in the pool. */
  poolSize(): number;
  /** Timelocked commits the reveal step dropped silently, oldest first. */
  timelockDrops(): readonly TimelockDrop[];
}

const ZERO_HASH = `0x${'00'.repeat(32)}`;

function mortalBirth(period: number, phase: number, current: number): number {
  return Math.floor((Math.max(current, phase) - phase) / period) * period + phase;
}

function stateRootOf(storage: StorageMap): string {
  const keys = [...storage.keys()].sort();
  const parts: Uint8Array[] = [compactToU8a(keys.length)];
  for (const k of keys) {
    const kb = hexToU8a(k);
    const vb = hexToU8a(storage.get(k));
    parts.push(compactToU8a(kb.length), kb, compactToU8a(vb.length), vb);
  }
  return u8aToHex(blake2AsU8a(u8aConcat(...parts), 256));
}

function extrinsicsRootOf(extrinsics: readonly string[]): string {
  const parts: Uint8Array[] = [compactToU8a(extrinsics.length)];
  for (const e of extrinsics) parts.push(hexToU8a(e));
  return u8aToHex(blake2AsU8a(u8aConcat(...parts), 256));
}

/**
 * Creates the chain engine from a genesis state. Block hash = blake2_256 of the SCALE header; the state root
 * is blake2_256 of the sorted key/value list (no trie); the extrinsics root is blake2_256 of the SCALE
 * `Vec<Extrinsic>`.
 *
 * @param ctx - runtime context
 * @param genesis - state of block 0
 * @param options - timing and limits
 * @returns the chain
 * @example
 * const chain = createChain(ctx, genesisState, { slotDuration: 12000, ... });
 */
export function createChain(ctx: RuntimeContext, genesis: ChainState, options: ChainOptions): Chain {
  const { registry } = ctx;
  const blocks: BlockRecord[] = [];
  const byHash = new Map<string, BlockRecord>();
  const pool: PoolEntry[] = [];
  const poolByHash = new Map<string, PoolEntry>();
  const finalizeWatch = new Map<string, Set<(status: TxStatus) => void>>();
  const listeners = new Set<ChainListener>();
  let pendingChanges: StateChange[] = [];
  let finalizedNumber = 0;
  let arrivals = 0;
  const hashCache = new Map<number, string>();
  const drops: TimelockDrop[] = [];

  const specVersion = ctx.runtime.runtimeVersion.specVersion;
  const transactionVersion = ctx.runtime.runtimeVersion.transactionVersion;

  function seal(state: ChainState, extrinsics: readonly string[]): BlockRecord {
    const recent = new Map<number, string>();
    const from = Math.max(0, state.number - 256);
    for (let n = from; n < state.number; n += 1) {
      const h = hashCache.get(n);
      if (h !== undefined) recent.set(n, h);
    }
    const storage = materializeStorage(state, ctx, recent);
    const stateRoot = stateRootOf(storage);
    const extrinsicsRoot = extrinsicsRootOf(extrinsics);
    const header = registry.createType('Header', {
      parentHash: state.parentHash,
      number: state.number,
      stateRoot,
      extrinsicsRoot,
      digest: { logs: [] },
    });
    const hash = u8aToHex(blake2AsU8a(header.toU8a(), 256));
    const block: BlockRecord = {
      number: state.number,
      hash,
      parentHash: state.parentHash,
      stateRoot,
      extrinsicsRoot,
      extrinsics,
      state,
      storage,
    };
    blocks.push(block);
    byHash.set(hash, block);
    hashCache.set(state.number, hash);
    const prune = blocks[state.number - options.stateHistory];
    if (prune !== undefined) prune.storage = null;
    return block;
  }

  const genesisBlock = seal(cloneState(genesis), []);
  const genesisHash = genesisBlock.hash;

  function best(): BlockRecord {
    const b = blocks[blocks.length - 1];
    if (b === undefined) throw new Error('no blocks');
    return b;
  }

  function nonceOf(state: ChainState, who: string): number {
    return state.nonces.get(who) ?? 0;
  }

  function hashAt(n: number): string {
    return hashCache.get(n) ?? ZERO_HASH;
  }

  function fail(rpc: JsonRpcErrorObject): never {
    throw new RpcFailure(rpc);
  }

  /** Full pool validation of an extrinsic against the best block (as `validate_transaction` at best + 1). */
  function validate(hex: string): Omit<PoolEntry, 'watchers' | 'arrival' | 'lost'> {
    let ext: Extrinsic;
    let bytes: Uint8Array;
    try {
      bytes = hexToU8a(hex);
      ext = registry.createType('Extrinsic', bytes);
      if (ext.toU8a().length !== bytes.length) throw new Error('trailing bytes');
    } catch (e) {
      return fail(POOL_ERRORS.badFormat(e instanceof Error ? e.message : String(e)));
    }
    if (!ext.isSigned) return fail(POOL_ERRORS.noUnsignedValidator);
    const head = best();
    const current = head.number + 1;
    const signer = u8aToHex(decodeAddress(ext.signer.toString()));
    const era = ext.era;
    let mortal: { period: number; phase: number } | null = null;
    let birth = 0;
    let birthHash = genesisHash;
    if (era.isMortalEra) {
      const m = era.asMortalEra;
      mortal = { period: m.period.toNumber(), phase: m.phase.toNumber() };
      birth = mortalBirth(mortal.period, mortal.phase, current);
      if (birth > current) return fail(POOL_ERRORS.ancientBirthBlock);
      birthHash = hashAt(birth);
    }
    const sig = ext.signature;
    const mode = ext.mode.toNumber();
    const payloadFor = (blockHash: string): Uint8Array => {
      const payload = registry.createType(
        'ExtrinsicPayload',
        {
          method: ext.method.toHex(),
          era: ext.era,
          nonce: ext.nonce,
          tip: ext.tip,
          mode,
          metadataHash: null,
          specVersion,
          transactionVersion,
          genesisHash,
          blockHash,
        },
        { version: ext.version & 0x7f },
      );
      const u8a = payload.toU8a({ method: true });
      return u8a.length > 256 ? blake2AsU8a(u8a, 256) : u8a;
    };
    const verifies = (blockHash: string): boolean => mode === 0 && signatureVerify(payloadFor(blockHash), sig.toU8a(), hexToU8a(signer)).isValid;
    if (!verifies(birthHash)) {
      if (mortal !== null) {
        for (let b = birth - mortal.period; b >= 0 && b >= birth - 64 * mortal.period; b -= mortal.period) {
          if (hashCache.has(b) && verifies(hashAt(b))) return fail(POOL_ERRORS.ancientBirthBlock);
        }
      }
      return fail(POOL_ERRORS.badProof);
    }
    const call = decodeDevnetCall(ext.method);
    if (call === null) return fail(POOL_ERRORS.call);
    // `commit: BoundedVec<u8, ConstU32<5000>>`: a longer commit does not decode on chain
    if (call.kind === 'commit_timelocked_weights' && (call.commit.length - 2) / 2 > 5000)
      return fail(POOL_ERRORS.badFormat('commit exceeds BoundedVec<u8, 5000>'));
    const nonce = ext.nonce.toNumber();
    if (nonce < nonceOf(head.state, signer)) return fail(POOL_ERRORS.stale);
    const hash = u8aToHex(blake2AsU8a(bytes, 256));
    if (poolByHash.has(hash)) return fail(POOL_ERRORS.alreadyImported);
    if (pool.some((p) => p.signer === signer && p.nonce === nonce)) return fail(POOL_ERRORS.priorityTooLow);
    const custom = poolGuard(head.state, BigInt(current), signer, call);
    if (custom !== null) return fail(POOL_ERRORS.custom(custom));
    return { hash, hex, signer, nonce, call, mortal, birth };
  }

  function readyNonce(signer: string): number {
    let n = nonceOf(best().state, signer);
    const mine = new Set(pool.filter((p) => p.signer === signer).map((p) => p.nonce));
    while (mine.has(n)) n += 1;
    return n;
  }

  function notify(entry: PoolEntry, status: TxStatus): void {
    for (const w of [...entry.watchers]) w(status);
  }

  function removeFromPool(entry: PoolEntry): void {
    const i = pool.indexOf(entry);
    if (i >= 0) pool.splice(i, 1);
    poolByHash.delete(entry.hash);
  }

  function submit(hex: string, watcher?: (status: TxStatus) => void, opts?: { lost?: boolean }): string {
    const v = validate(hex);
    const entry: PoolEntry = { ...v, watchers: new Set(), arrival: arrivals, lost: opts?.lost === true };
    arrivals += 1;
    if (watcher !== undefined) entry.watchers.add(watcher);
    if (entry.lost) {
      // accepted on the wire, never reaches the pool (a transaction lost in the network)
      queueMicrotask(() => {
        notify(entry, 'ready');
      });
      return entry.hash;
    }
    pool.push(entry);
    poolByHash.set(entry.hash, entry);
    const ready = entry.nonce <= readyNonceBefore(entry);
    queueMicrotask(() => {
      notify(entry, ready ? 'ready' : 'future');
    });
    return entry.hash;
  }

  function readyNonceBefore(entry: PoolEntry): number {
    let n = nonceOf(best().state, entry.signer);
    const mine = new Set(pool.filter((p) => p.signer === entry.signer && p !== entry).map((p) => p.nonce));
    while (mine.has(n)) n += 1;
    return n;
  }

  function encodeEventRecord(phase: number | 'init', ev: DevnetEvent): Uint8Array | undefined {
    const fields = ev.fields.map((f) => {
      if (typeof f === 'object' && f !== null && 'moduleError' in f) {
        const { index, error } = ctx.moduleError('SubtensorModule', (f as { moduleError: string }).moduleError);
        return { Module: { index, error: [error, 0, 0, 0] } };
      }
      return f;
    });
    const body = ctx.encodeEvent(ev.pallet, ev.name, fields);
    if (body === undefined) return undefined;
    const phaseBytes = phase === 'init' ? new Uint8Array([2]) : u8aConcat(new Uint8Array([0]), registry.createType('u32', phase).toU8a());
    return u8aConcat(phaseBytes, body, new Uint8Array([0]));
  }

  function dispatchInfo(mandatory: boolean): unknown {
    return {
      weight: { refTime: mandatory ? 5_000_000 : 100_000_000, proofSize: 0 },
      class: mandatory ? 'Mandatory' : 'Normal',
      paysFee: mandatory ? 'Yes' : 'No',
    };
  }

  const timestampCallIndex = ctx.callIndex('Timestamp', 'set');
  function timestampInherent(now: bigint): string | undefined {
    if (timestampCallIndex === undefined) return undefined;
    const call = registry.createType('Call', { callIndex: timestampCallIndex, args: { now } });
    return registry.createType('Extrinsic', call).toHex();
  }

  function produceBlock(): BlockRecord {
    const parent = best();
    const state = cloneState(parent.state);
    state.number = parent.number + 1;
    state.parentHash = parent.hash;
    state.timestamp = options.genesisTimestamp + BigInt(state.number) * BigInt(options.slotDuration);
    state.events = [];
    const now = BigInt(state.number);
    const changes = pendingChanges;
    pendingChanges = [];
    for (const change of changes) change(state);
    const init = initializeBlock(state, now, options.beacon ?? null);
    drops.push(...init.drops);
    if (drops.length > 10_000) drops.splice(0, drops.length - 10_000);

    const extrinsics: string[] = [];
    const events: Uint8Array[] = [];
    for (const ev of init.events) {
      const e = encodeEventRecord('init', ev);
      if (e !== undefined) events.push(e);
    }
    const inherent = timestampInherent(state.timestamp);
    if (inherent !== undefined) {
      extrinsics.push(inherent);
      const e = encodeEventRecord(0, { pallet: 'System', name: 'ExtrinsicSuccess', fields: [dispatchInfo(true)] });
      if (e !== undefined) events.push(e);
    }

    // pick ready transactions: per signer in nonce order, across signers by arrival
    const included: PoolEntry[] = [];
    const invalid: PoolEntry[] = [];
    const bySigner = new Map<string, PoolEntry[]>();
    for (const p of pool) {
      const list = bySigner.get(p.signer) ?? [];
      list.push(p);
      bySigner.set(p.signer, list);
    }
    for (const list of bySigner.values()) list.sort((a, b) => a.nonce - b.nonce);
    const heads = new Map<string, number>();
    for (;;) {
      if (extrinsics.length >= options.maxBlockExtrinsics) break;
      let pick: PoolEntry | undefined;
      for (const [signer, list] of bySigner) {
        const i = heads.get(signer) ?? 0;
        const cand = list[i];
        if (cand === undefined) continue;
        if (cand.nonce !== nonceOf(state, signer)) continue;
        if (pick === undefined || cand.arrival < pick.arrival) pick = cand;
      }
      if (pick === undefined) break;
      heads.set(pick.signer, (heads.get(pick.signer) ?? 0) + 1);
      // pre-dispatch: era still the one signed, then the Subtensor guards against the block's state
      if (pick.mortal !== null && mortalBirth(pick.mortal.period, pick.mortal.phase, state.number) !== pick.birth) {
        invalid.push(pick);
        continue;
      }
      if (poolGuard(state, now, pick.signer, pick.call) !== null) {
        invalid.push(pick);
        continue;
      }
      const index = extrinsics.length;
      extrinsics.push(pick.hex);
      state.nonces.set(pick.signer, pick.nonce + 1);
      const isBatch = pick.call.kind.startsWith('batch_');
      const snapshot = isBatch ? cloneState(state) : null;
      const outcome = dispatchCall(state, now, pick.signer, pick.call);
      if (!outcome.ok && snapshot !== null) {
        state.subnets = snapshot.subnets;
      }
      if (outcome.ok) {
        for (const ev of outcome.events) {
          const e = encodeEventRecord(index, ev);
          if (e !== undefined) events.push(e);
        }
        const e = encodeEventRecord(index, { pallet: 'System', name: 'ExtrinsicSuccess', fields: [dispatchInfo(false)] });
        if (e !== undefined) events.push(e);
      } else {
        const { index: pallet, error } = ctx.moduleError('SubtensorModule', outcome.error);
        const e = encodeEventRecord(index, {
          pallet: 'System',
          name: 'ExtrinsicFailed',
          fields: [{ Module: { index: pallet, error: [error, 0, 0, 0] } }, dispatchInfo(false)],
        });
        if (e !== undefined) events.push(e);
      }
      included.push(pick);
    }
    state.events = events;
    const block = seal(state, extrinsics);

    for (const p of [...included, ...invalid]) removeFromPool(p);
    // revalidate the rest of the pool: stale nonces and expired eras become invalid
    for (const p of [...pool]) {
      const expired = p.mortal !== null && mortalBirth(p.mortal.period, p.mortal.phase, block.number + 1) !== p.birth;
      if (p.nonce < nonceOf(state, p.signer) || expired) {
        removeFromPool(p);
        invalid.push(p);
      }
    }
    for (const p of included) {
      notify(p, { inBlock: block.hash });
      finalizeWatch.set(block.hash, new Set([...(finalizeWatch.get(block.hash) ?? []), ...p.watchers]));
    }
    for (const p of invalid) notify(p, 'invalid');
    for (const l of listeners) l.newBest?.(block);
    const target = Math.max(0, block.number - options.finalityLag);
    while (finalizedNumber < target) {
      finalizedNumber += 1;
      const fb = blocks[finalizedNumber];
      if (fb === undefined) break;
      const watchers = finalizeWatch.get(fb.hash);
      finalizeWatch.delete(fb.hash);
      if (watchers !== undefined) for (const w of watchers) w({ finalized: fb.hash });
      for (const l of listeners) l.finalized?.(fb);
    }
    return block;
  }

  return {
    ctx,
    genesisHash,
    best,
    finalized: () => blocks[finalizedNumber] ?? genesisBlock,
    blockByHash: (hash) => byHash.get(hash.toLowerCase()),
    blockByNumber: (n) => blocks[n],
    resolve(at) {
      if (at === undefined || at === null) return best();
      if (typeof at !== 'string') throw new RpcFailure({ code: -32602, message: 'Invalid params', data: 'block hash must be a hex string' });
      const b = byHash.get(at.toLowerCase());
      if (b === undefined) throw new RpcFailure({ code: 4001, message: `Unknown block ${at}` });
      return b;
    },
    storageOf(block) {
      if (block.storage === null) throw new RpcFailure({ code: 4003, message: `State already discarded for ${block.hash}` });
      return block.storage;
    },
    submit,
    unwatch(hash, watcher) {
      poolByHash.get(hash)?.watchers.delete(watcher);
      for (const set of finalizeWatch.values()) set.delete(watcher);
    },
    pendingExtrinsics: () => pool.map((p) => p.hex),
    accountNextIndex(address) {
      let who: string;
      try {
        who = u8aToHex(decodeAddress(address));
      } catch {
        throw new RpcFailure({ code: -32602, message: 'Invalid params', data: `invalid address ${address}` });
      }
      return readyNonce(who);
    },
    produceBlock,
    queueChange(change) {
      pendingChanges.push(change);
    },
    addListener(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    poolSize: () => pool.length,
    timelockDrops: () => [...drops],
  };
}
