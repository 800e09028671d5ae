import { hexToU8a, stringToU8a, u8aToHex } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';
import { SubnetError } from '@subnet/core';

import { announceBlock } from './announce-block.js';
import type { BlockRecord, PoolEntry, TxStatus } from './chain-types.js';
import type { ChainStore } from './chain-store.js';
import { bestBlock } from './chain-store.js';
import { DEVNET_ERROR_CODES } from './errors.js';
import type { BuiltBlock } from './produce-block.js';
import { buildBlock } from './produce-block.js';
import { RpcFailure } from './rpc-errors.js';
import { submitExtrinsic } from './submit-extrinsic.js';
import { timestampInherent } from './timestamp-inherent.js';
import { removeFromPool } from './transaction-pool.js';
import { validateExtrinsic } from './validate-extrinsic.js';

/** One block of a replacement branch. */
export interface BranchBlock {
  /** Signed extrinsics (0x hex) the block includes, in this order, after the timestamp inherent. */
  readonly extrinsics: readonly string[];
  /** Whether the block carries its drand pulses (`write_pulse`); without them the next block with pulses catches up. */
  readonly pulses: boolean;
}

/**
 * What becomes of the transactions of the replaced blocks that the branch leaves out: `requeue` (default) returns
 * them to the pool, as a Substrate full node's pool does on a new best block (`handle_enactment` resubmits the signed
 * extrinsics of the retracted blocks' bodies, `single_state_txpool.rs`); `drop` forgets them (their watchers hear
 * `dropped`), as happens on a real chain when no pool resubmits them: a light client's pool (`resubmit: false`), a
 * best block more than 20 blocks from the pool's last one (`SKIP_MAINTENANCE_THRESHOLD`, `enactment_state.rs`), a
 * retracted body the node cannot read, or a node restarted in between.
 */
export type RetractedTransactions = 'requeue' | 'drop';

/** Options of a reorganisation. */
export interface ReorganizeOptions {
  /** What becomes of the replaced blocks' transactions the branch leaves out (default `requeue`). */
  readonly retracted?: RetractedTransactions;
}

type Watcher = (status: TxStatus) => void;

function invalidReorg(path: string, value: unknown, message: string): SubnetError {
  return new SubnetError(DEVNET_ERROR_CODES.invalidReorg, message, { context: { path, value } });
}

function txHash(hex: string): string {
  return u8aToHex(blake2AsU8a(hexToU8a(hex), 256));
}

/**
 * Builds the branch on a scratch copy of the store, so a branch that cannot be built leaves the chain as it was.
 */
function buildBranch(store: ChainStore, forkNumber: number, branch: readonly BranchBlock[]): { built: BuiltBlock[]; scratch: ChainStore } {
  const scratch: ChainStore = {
    ...store,
    blocks: store.blocks.slice(0, forkNumber + 1),
    byHash: new Map(),
    pool: [],
    poolByHash: new Map(),
    finalizeWatch: new Map(),
    listeners: new Set(),
    hashCache: new Map([...store.hashCache].filter(([n]) => n <= forkNumber)),
    drops: [],
    retracted: [],
    pendingChanges: [],
    pendingExtrinsicChanges: [],
    pendingFinalChanges: [],
  };
  // an `Other` digest log naming the branch: blocks of two branches differ even with the same contents, as blocks of
  // two authors do on chain (their BABE pre-runtime digests and seals)
  const mark = store.ctx.registry.createType('DigestItem', { Other: u8aToHex(stringToU8a(`subnet-devnet branch ${store.reorganizations + 1}`)) }).toHex();
  const built: BuiltBlock[] = [];
  branch.forEach((spec, i) => {
    const number = forkNumber + 1 + i;
    spec.extrinsics.forEach((hex, j) => {
      let entry: PoolEntry;
      try {
        entry = { ...validateExtrinsic(scratch, hex), watchers: new Set(), arrival: scratch.arrivals, lost: false };
      } catch (e) {
        if (!(e instanceof RpcFailure)) throw e;
        const detail = e.rpc.data === undefined ? '' : `: ${e.rpc.data}`;
        throw invalidReorg(
          `branch[${i}].extrinsics[${j}]`,
          hex,
          `the extrinsic is not valid at branch block ${number} (${e.rpc.code} ${e.rpc.message}${detail})`,
        );
      }
      scratch.arrivals += 1;
      scratch.pool.push(entry);
      scratch.poolByHash.set(entry.hash, entry);
    });
    const b = buildBlock(scratch, { pulses: spec.pulses, digestLogs: [mark] });
    const left = scratch.pool.findIndex((p) => !b.included.includes(p));
    if (left >= 0) {
      throw invalidReorg(
        `branch[${i}].extrinsics[${left}]`,
        spec.extrinsics[left],
        `the extrinsic cannot be included in branch block ${number} (a nonce gap, its era, the runtime's pool guard or the block's extrinsic limit)`,
      );
    }
    scratch.pool.length = 0;
    scratch.poolByHash.clear();
    built.push(b);
  });
  return { built, scratch };
}

/**
 * Reorganises the unfinalised head: the last `depth` blocks are replaced by a branch built on their parent, one
 * block per `branch` entry (at least `depth`, so the new best is as high as the old one: block numbers repeat with
 * other hashes). Each branch block runs as a produced block does (`on_initialize`, the timestamp inherent) with only
 * the extrinsics its entry names, and its drand pulses unless they are left out. Then, as a node switching to a
 * better branch: the branch's blocks are announced in order (new heads, `inBlock` to watchers, finality moving on),
 * watchers of transactions in the replaced blocks hear `retracted`, and those transactions the branch does not include
 * return to the pool when they are still valid there (else their watchers hear `invalid`), or, with
 * `options.retracted: 'drop'`, are forgotten (their watchers hear `dropped`). The replaced blocks stay
 * readable by hash until finality reaches their number. Queued hyperparameter and stake changes stay queued for the
 * next produced block; changes applied in the replaced blocks are gone with them. Timelock drops of the replaced
 * blocks are forgotten, the branch's recorded.
 *
 * @param store - the chain store
 * @param depth - how many blocks to replace (1..best - finalized)
 * @param branch - the new blocks, oldest first
 * @param options - what becomes of the replaced transactions the branch leaves out (`retracted`, default `requeue`)
 * @returns the branch's blocks
 * @throws SubnetError `DEVNET_REORG_FINALIZED` (the blocks replaced would include a finalised one),
 *   `DEVNET_INVALID_REORG` (a branch shorter than `depth`, or an extrinsic it cannot include); nothing changes then
 * @example
 * const blocks = reorganizeChain(store, 2, [{ extrinsics: [], pulses: false }, { extrinsics: [], pulses: true }]);
 */
export function reorganizeChain(store: ChainStore, depth: number, branch: readonly BranchBlock[], options: ReorganizeOptions = {}): BlockRecord[] {
  const best = bestBlock(store);
  const forkNumber = best.number - depth;
  if (forkNumber < store.finalizedNumber) {
    throw new SubnetError(
      DEVNET_ERROR_CODES.reorgFinalized,
      `a reorganisation of depth ${depth} would replace block ${forkNumber + 1}, but blocks up to ${store.finalizedNumber} are finalized (best ${best.number})`,
      { context: { path: 'depth', value: depth, best: best.number, finalized: store.finalizedNumber } },
    );
  }
  if (branch.length < depth) {
    throw invalidReorg('branch', branch.length, `the branch has ${branch.length} blocks; it replaces ${depth}, so it needs at least ${depth}`);
  }
  const { built, scratch } = buildBranch(store, forkNumber, branch);
  store.reorganizations += 1;

  // switch: the old blocks become a displaced branch, the new ones canonical
  const replaced = store.blocks.splice(forkNumber + 1);
  store.retracted.push(...replaced);
  for (const { block } of built) {
    store.blocks.push(block);
    store.byHash.set(block.hash, block);
    store.hashCache.set(block.number, block.hash);
  }
  const keptDrops = store.drops.filter((d) => d.block <= BigInt(forkNumber));
  store.drops.splice(0, store.drops.length, ...keptDrops, ...scratch.drops);
  if (store.drops.length > 10_000) store.drops.splice(0, store.drops.length - 10_000);
  store.arrivals = scratch.arrivals;

  // transactions of the replaced blocks: their watchers hear `retracted`
  const watchersOf = new Map<string, Set<Watcher>>();
  const replacedTxs: { hash: string; hex: string }[] = [];
  for (const b of replaced) {
    const byTx = store.finalizeWatch.get(b.hash);
    store.finalizeWatch.delete(b.hash);
    if (byTx !== undefined) {
      for (const [tx, watchers] of byTx) {
        for (const w of watchers) w({ retracted: b.hash });
        watchersOf.set(tx, new Set([...(watchersOf.get(tx) ?? []), ...watchers]));
      }
    }
    const inherent = timestampInherent(store.ctx, store.timestampCallIndex, b.state.timestamp);
    for (const hex of b.extrinsics) if (hex !== inherent) replacedTxs.push({ hash: txHash(hex), hex });
  }

  // announce the branch; an extrinsic it includes keeps the watchers of its pooled or replaced copy
  const enacted = new Set<string>();
  for (const { block, included, invalid } of built) {
    for (const p of included) {
      enacted.add(p.hash);
      const pooled = store.poolByHash.get(p.hash);
      if (pooled !== undefined) {
        for (const w of pooled.watchers) p.watchers.add(w);
        removeFromPool(store, pooled);
      }
      for (const w of watchersOf.get(p.hash) ?? []) p.watchers.add(w);
      watchersOf.delete(p.hash);
    }
    announceBlock(store, block, included, [...invalid]);
  }

  // the replaced transactions the branch left out return to the pool, validated against the new best (or are dropped)
  for (const tx of replacedTxs) {
    if (enacted.has(tx.hash) || store.poolByHash.has(tx.hash)) continue;
    const watchers = watchersOf.get(tx.hash) ?? new Set<Watcher>();
    if (options.retracted === 'drop') {
      for (const w of watchers) w('dropped');
      continue;
    }
    try {
      submitExtrinsic(store, tx.hex);
      const entry = store.poolByHash.get(tx.hash);
      if (entry !== undefined) for (const w of watchers) entry.watchers.add(w);
    } catch (e) {
      if (!(e instanceof RpcFailure)) throw e;
      for (const w of watchers) w('invalid');
    }
  }
  return built.map((b) => b.block);
}

/** A branch block as a caller gives it: both fields optional (no extrinsics, pulses included). */
export interface DevnetBranchBlock {
  readonly extrinsics?: readonly string[];
  readonly pulses?: boolean;
}

/** The most blocks one reorganisation builds. */
export const MAX_BRANCH_BLOCKS = 4096;

const HEX = /^0x(?:[0-9a-fA-F]{2})+$/;

/**
 * Checks a reorganisation's arguments as a caller gives them (the Node API or `devnet_reorganize`): `depth` a
 * positive integer, `branch` absent (then `depth` blocks with no extrinsics and their pulses) or a list of at most
 * {@link MAX_BRANCH_BLOCKS} objects with only `extrinsics` (0x hex strings) and `pulses` (boolean); `options` absent or
 * an object with only `retracted` (`requeue` or `drop`).
 *
 * @param depth - how many blocks to replace
 * @param branch - the new blocks, or undefined
 * @param options - `{ retracted?: 'requeue' | 'drop' }`, or undefined
 * @returns the branch with defaults filled in
 * @throws SubnetError `DEVNET_INVALID_REORG` naming the field and its value
 * @example
 * parseReorganization(2, [{ pulses: false }, {}]);
 */
export function parseReorganization(depth: unknown, branch: unknown, options?: unknown): { depth: number; branch: BranchBlock[]; options: ReorganizeOptions } {
  const parsedOptions = parseReorganizeOptions(options);
  if (typeof depth !== 'number' || !Number.isSafeInteger(depth) || depth < 1) {
    throw invalidReorg('depth', depth, 'the depth of a reorganisation is a positive integer (the number of blocks replaced)');
  }
  if (branch === undefined || branch === null) {
    return { depth, branch: Array.from({ length: depth }, () => ({ extrinsics: [], pulses: true })), options: parsedOptions };
  }
  if (!Array.isArray(branch)) throw invalidReorg('branch', branch, 'the branch is a list of blocks');
  if (branch.length > MAX_BRANCH_BLOCKS) throw invalidReorg('branch', branch.length, `a branch has at most ${MAX_BRANCH_BLOCKS} blocks`);
  const out: BranchBlock[] = [];
  (branch as unknown[]).forEach((b, i) => {
    if (typeof b !== 'object' || b === null || Array.isArray(b)) throw invalidReorg(`branch[${i}]`, b, 'a branch block is an object { extrinsics?, pulses? }');
    for (const key of Object.keys(b)) {
      if (key !== 'extrinsics' && key !== 'pulses') throw invalidReorg(`branch[${i}].${key}`, key, `unknown field ${JSON.stringify(key)} of a branch block`);
    }
    const { extrinsics, pulses } = b as { extrinsics?: unknown; pulses?: unknown };
    if (pulses !== undefined && typeof pulses !== 'boolean') throw invalidReorg(`branch[${i}].pulses`, pulses, 'pulses is a boolean');
    if (extrinsics !== undefined && !Array.isArray(extrinsics))
      throw invalidReorg(`branch[${i}].extrinsics`, extrinsics, 'extrinsics is a list of 0x hex strings');
    const list = (extrinsics ?? []) as unknown[];
    list.forEach((x, j) => {
      if (typeof x !== 'string' || !HEX.test(x)) throw invalidReorg(`branch[${i}].extrinsics[${j}]`, x, 'an extrinsic is a 0x hex string');
    });
    out.push({ extrinsics: list as string[], pulses: pulses ?? true });
  });
  return { depth, branch: out, options: parsedOptions };
}

function parseReorganizeOptions(options: unknown): ReorganizeOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options))
    throw invalidReorg('options', options, 'the options of a reorganisation are an object { retracted? }');
  for (const key of Object.keys(options)) {
    if (key !== 'retracted') throw invalidReorg(`options.${key}`, key, `unknown option ${JSON.stringify(key)} of a reorganisation`);
  }
  const { retracted } = options as { retracted?: unknown };
  if (retracted === undefined) return {};
  if (retracted !== 'requeue' && retracted !== 'drop') throw invalidReorg('options.retracted', retracted, "retracted is 'requeue' or 'drop'");
  return { retracted };
}
