import { chainUpscale, connectChain, mechanismStorageIndex } from '@subnet/chain';
import type { ChainConnection } from '@subnet/chain';
import { isSubnetError, redactUrl, SubnetError } from '@subnet/core';

import type { BundleAudit, Mismatch } from './audit-bundle.js';
import { isU16List } from './audit-bundle.js';
import { checkChainEndpoint } from './chain-endpoint.js';
import { chainReadError } from './chain-read-error.js';
import { AUDITOR_ERROR_CODES } from './errors.js';
import type { CommitFollower } from './reveal-chain.js';
import { commitFollower } from './reveal-chain.js';

type ApiAt = Awaited<ReturnType<ChainConnection['api']['at']>>;

/** The weights a validator has on chain: `(uid, weight)` pairs as stored in `SubtensorModule.Weights`. */
export interface ChainWeights {
  readonly block: string;
  readonly validatorUid: number | null;
  readonly pairs: readonly (readonly [number, number])[];
  /**
   * The validator's uid changed hands in `block` after its weights were set there: a registration gave
   * `validatorUid` to `hotkey` (`BlockAtRegistration` = `block`), and Subtensor's `replace_neuron` removed the
   * weights the uid set (docs/spec.md G.6), so the state no longer shows them. With `from`, `pairs` are the weights
   * the chain set there, taken again from the block: `commit`, the reveal done again (the commit decrypted with
   * drand round `round`'s pulse the block began with); `extrinsic`, the arguments of the hotkey's direct
   * `set_weights` call; each max-upscaled as the chain stores them. Without `from`, `pairs` is empty (nothing to
   * compare).
   * Absent otherwise.
   */
  readonly replaced?: { readonly hotkey: string; readonly block: string; readonly from?: 'commit' | 'extrinsic'; readonly round?: string };
}

/**
 * Why the chain check of a bundle is unknown although the chain answered (`chain -`, exit unchanged): the
 * weights can no longer be read there. `AUDITOR_UID_REPLACED`: the validator's uid changed hands in the block its
 * weights were set in, after them.
 */
export interface ChainUnknown {
  readonly code: string;
  readonly message: string;
  /** The validator's uid when its weights were set. */
  readonly uid: number;
  /** The block whose state was read (the reveal block). */
  readonly block: string;
  /** The hotkey that holds the uid in that block's state. */
  readonly holder_hotkey: string;
}

/** Reads the on-chain weights of one validator hotkey at a block. */
export type ChainWeightsReader = (netuid: number, hotkey: string, block: string) => Promise<ChainWeights>;

/**
 * Connects to a chain and returns a reader of `SubtensorModule.Weights` of a validator, at a block (the
 * state after that block): `Uids(netuid, hotkey)` gives the validator's uid, then
 * `Weights(netuid_index, uid)` (mechanism 0) its stored `(uid, u16)` pairs.
 *
 * @param url - ws(s):// endpoint (credentials are never printed)
 * @param timeoutMs - connection and per-request timeout (default 30 000)
 * @returns the reader, the follower of v4 commits to their reveal (`commitFollower`) and a `close` function; the reader throws `AUDITOR_CHAIN_STATE_PRUNED` (the node
 *   pruned that block's state: use an archive endpoint), `AUDITOR_CHAIN_UNKNOWN_BLOCK`, `AUDITOR_CHAIN_TIMEOUT`,
 *   `AUDITOR_CHAIN_UNREACHABLE`, `AUDITOR_CHAIN_STORAGE_MISSING` or `AUDITOR_CHAIN_RPC_ERROR`
 * @throws SubnetError `AUDITOR_INVALID_OPTION` when `url` is neither a ws(s):// URL nor a network name (before any
 *   connection), `AUDITOR_CHAIN_FAILED` when the chain cannot be reached
 * @example const chain = await openChainReader('ws://127.0.0.1:9944'); await chain.read(1, hotkey, '120'); await chain.close()
 */
export async function openChainReader(
  url: string,
  timeoutMs = 30_000,
): Promise<{ read: ChainWeightsReader; follow: CommitFollower; close: () => Promise<void> }> {
  // A value that is no endpoint at all is refused as the option it is, not as a chain that did not answer.
  checkChainEndpoint(url);
  let connection: ChainConnection;
  try {
    connection = await connectChain({ network: url, connectTimeoutMs: timeoutMs, requestTimeoutMs: timeoutMs, staleHeadMs: 0 });
  } catch (cause) {
    // The node's reason leads (`connect ECONNREFUSED 127.0.0.1:9944`), as the validator's start-up says it; the chain
    // package's cause is already redacted, and redacted again here.
    const reason = isSubnetError(cause) && cause.cause instanceof Error ? cause.cause.message : cause instanceof Error ? cause.message : String(cause);
    throw new SubnetError(
      AUDITOR_ERROR_CODES.chainFailed,
      `cannot connect to the chain at ${redactUrl(url)} (${redactUrl(reason)}; tried for ${timeoutMs / 1000} s): check --chain and that the node is running and reachable from here`,
      { context: { path: '--chain', value: redactUrl(url) }, cause },
    );
  }
  const endpoint = redactUrl(url);
  const read: ChainWeightsReader = async (netuid, hotkey, block) => {
    try {
      return await connection.request('weights', (api) => readWeightsAt(api, netuid, hotkey, block, endpoint));
    } catch (error) {
      throw chainReadError(error, { block, endpoint });
    }
  };
  // Commit-reveal v4: a committed bundle is followed to its reveal (reveal-chain.ts).
  return { read, follow: commitFollower(connection, endpoint), close: () => connection.close() };
}

type StorageQuery = Record<string, ((...args: unknown[]) => Promise<{ toJSON(): unknown; toString(): string }>) | undefined>;
interface EventRecord {
  readonly phase: { readonly isApplyExtrinsic: boolean; readonly asApplyExtrinsic: { toNumber(): number } };
  readonly event: { readonly section: string; readonly method: string; readonly data: Iterable<{ toString(): string }> };
}

/**
 * Reads `Uids(netuid, hotkey)` then `Weights(netuid_index, uid)` in the state after `block`. A hotkey without a uid
 * there that set weights in that block and then lost its uid to a registration in it ({@link setThenReplaced}) is
 * `replaced` instead.
 */
async function readWeightsAt(api: ChainConnection['api'], netuid: number, hotkey: string, block: string, endpoint: string): Promise<ChainWeights> {
  const hash = await api.rpc.chain.getBlockHash(BigInt(block));
  if (hash.isEmpty) {
    throw new SubnetError(
      AUDITOR_ERROR_CODES.chainUnknownBlock,
      `the node at ${endpoint} has no block ${block} (its chain is shorter, or it is another chain)`,
      {
        context: { path: '--chain', value: endpoint, block },
      },
    );
  }
  const at = await api.at(hash);
  const query = at.query.subtensorModule as unknown as StorageQuery | undefined;
  const uidsEntry = query?.uids;
  const weightsEntry = query?.weights;
  if (uidsEntry === undefined || weightsEntry === undefined) {
    throw new SubnetError(AUDITOR_ERROR_CODES.chainStorageMissing, 'the chain has no SubtensorModule Uids/Weights storage (is it Subtensor?)', {
      context: { path: '--chain', value: endpoint, block },
    });
  }
  const uid = (await uidsEntry(netuid, hotkey)).toJSON();
  if (typeof uid !== 'number') return Object.freeze((await setThenReplaced(api, at, hash, netuid, hotkey, block)) ?? { block, validatorUid: null, pairs: [] });
  const raw = (await weightsEntry(mechanismStorageIndex(netuid), uid)).toJSON();
  const pairs = (Array.isArray(raw) ? raw : []).map((p) => {
    const [u, w] = p as [unknown, unknown];
    return Object.freeze([Number(u), Number(w)] as const);
  });
  return Object.freeze({ block, validatorUid: uid, pairs: Object.freeze(pairs) });
}

/**
 * Whether a hotkey that has no uid at `block` set weights in that block and then lost its uid to a registration in it
 * (docs/spec.md G.6): it held uid U at `block - 1`, `Keys(netuid, U)` at `block` is another hotkey with
 * `BlockAtRegistration` = `block` (`replace_neuron` removed U's weights), and an extrinsic of the block signed by the
 * hotkey emitted `WeightsSet(netuid_index, U)`, which a `set_weights` sent after the registration cannot (the chain
 * refuses an unregistered hotkey). Anything less (a `set_weights` that failed or never came) is null: no uid.
 */
async function setThenReplaced(
  api: ChainConnection['api'],
  at: ApiAt,
  hash: Parameters<ChainConnection['api']['rpc']['chain']['getBlock']>[0],
  netuid: number,
  hotkey: string,
  block: string,
): Promise<ChainWeights | null> {
  const n = BigInt(block);
  if (n === 0n) return null;
  const before = await api.at(await api.rpc.chain.getBlockHash(n - 1n));
  const uid = (await (before.query.subtensorModule as unknown as StorageQuery).uids?.(netuid, hotkey))?.toJSON();
  if (typeof uid !== 'number') return null;
  const query = at.query.subtensorModule as unknown as StorageQuery;
  const holder = (await query.keys?.(netuid, uid))?.toString();
  const registered = (await query.blockAtRegistration?.(netuid, uid))?.toString();
  if (holder === undefined || holder === hotkey || registered !== block) return null;
  const index = String(mechanismStorageIndex(netuid));
  const extrinsics = (await api.rpc.chain.getBlock(hash)).block.extrinsics;
  const events = Array.from((await (at.query.system as unknown as StorageQuery).events?.()) as unknown as Iterable<EventRecord>);
  const set = events.find((r) => {
    if (r.event.section !== 'subtensorModule' || r.event.method !== 'WeightsSet' || !r.phase.isApplyExtrinsic) return false;
    const [i, who] = Array.from(r.event.data).map((d) => d.toString());
    const ex = extrinsics[r.phase.asApplyExtrinsic.toNumber()];
    return i === index && who === String(uid) && ex !== undefined && ex.isSigned && ex.signer.toString() === hotkey;
  });
  if (set === undefined) return null;
  const replaced = { hotkey: holder, block };
  // The state has lost them, but a direct call's arguments are what the chain stored, max-upscaled
  // (`weights.rs:832-848`); any other call that emitted the event (a batch) stays unknown.
  const call = extrinsics[set.phase.asApplyExtrinsic.toNumber()]?.method;
  const args = call?.args.map((a) => a.toJSON()) ?? [];
  const name = `${call?.section}.${call?.method}`;
  const [dests, values] = name === 'subtensorModule.setWeights' ? args.slice(1, 3) : name === 'subtensorModule.setMechanismWeights' ? args.slice(2, 4) : [];
  if (!isU16List(dests) || !isU16List(values) || dests.length !== values.length) return { block, validatorUid: uid, pairs: [], replaced };
  const upscaled = chainUpscale(values);
  return { block, validatorUid: uid, pairs: dests.map((u, i) => [u, upscaled[i] ?? 0] as const), replaced: { ...replaced, from: 'extrinsic' } };
}

/**
 * Compares a bundle's u16 vector with the weights on chain. The chain does not store the submitted values:
 * it max-upscales them (`chainUpscale` of `@subnet/chain`, Subtensor's `vec_u16_max_upscale_to_u16`), so the
 * expected value of each uid is the upscaled bundle value. A uid absent on one side counts as weight 0.
 *
 * @param audit - the bundle's audit (its `weights`, `epoch`, `netuid`, `validator_hotkey`)
 * @param netuid - the subnet asked for with `--netuid`
 * @param chain - what the chain holds after the submission block
 * @returns the mismatches (stage `chain.weights`, `chain.netuid` or `chain.validator`), empty when equal
 * @example compareChainWeights(audit, 1, await chain.read(1, hotkey, block)).length // 0
 */
export function compareChainWeights(audit: BundleAudit, netuid: number, chain: ChainWeights): readonly Mismatch[] {
  const epoch = audit.epoch;
  const out: Mismatch[] = [];
  if (audit.netuid !== netuid)
    out.push({ epoch, stage: 'chain.netuid', miner: null, field: '', path: 'bundle.netuid', kind: 'value', expected: netuid, claimed: audit.netuid });
  if (chain.validatorUid === null) {
    out.push({
      epoch,
      stage: 'chain.validator',
      miner: null,
      field: '',
      path: 'bundle.validator_hotkey',
      kind: 'value',
      expected: `a uid on subnet ${netuid} at block ${chain.block}`,
      claimed: audit.validator_hotkey,
    });
    return Object.freeze(out);
  }
  // The uid changed hands after the weights were set: they are gone from the state, nothing can be compared
  // (chainUnknown), unless the reveal was done again from the commit.
  const replaced = chain.replaced;
  if (replaced !== undefined && replaced.from === undefined) return Object.freeze(out);
  const field =
    replaced === undefined
      ? `Weights[${netuid}][${chain.validatorUid}]`
      : replaced.from === 'commit'
        ? `Weights[${netuid}][${chain.validatorUid}] from the commit (drand round ${replaced.round ?? '?'})`
        : `Weights[${netuid}][${chain.validatorUid}] from the set_weights call`;
  const weights = audit.weights ?? [];
  const upscaled = chainUpscale(weights.map((w) => w.weight));
  const expected = new Map<number, number>();
  weights.forEach((w, i) => expected.set(w.uid, upscaled[i] ?? 0));
  const onChain = new Map<number, number>(chain.pairs.map(([u, w]) => [u, w]));
  const hotkeys = new Map<number, string | null>(weights.map((w) => [w.uid, w.hotkey]));
  const uids = [...new Set([...expected.keys(), ...onChain.keys()])].sort((a, b) => a - b);
  for (const uid of uids) {
    const e = expected.get(uid) ?? 0;
    const c = onChain.get(uid) ?? 0;
    if (e !== c) {
      out.push({
        epoch,
        stage: 'chain.weights',
        miner: { hotkey: hotkeys.get(uid) ?? null, uid },
        field,
        path: 'bundle.result.u16',
        kind: 'value',
        expected: e,
        claimed: c,
      });
    }
  }
  return Object.freeze(out);
}

/**
 * The unknown chain check of weights the chain no longer shows (docs/spec.md G.6): null when `chain` can be
 * compared. The validator's uid was given to another hotkey in the block its weights were set in, after them;
 * Subtensor's `replace_neuron` removes the weights the replaced uid set (`clear_neuron`, `subnets/uids.rs:33`).
 *
 * @param chain - what the chain shows ({@link ChainWeights})
 * @param netuid - the subnet
 * @returns `AUDITOR_UID_REPLACED` with the uid, block and new holder in words and fields, or null
 * @example chainUnknown({ block: '57', validatorUid: 1, pairs: [], replaced: { hotkey: '5H…', block: '57' } }, 1)?.code // 'AUDITOR_UID_REPLACED'
 */
export function chainUnknown(chain: ChainWeights, netuid: number): ChainUnknown | null {
  if (chain.replaced === undefined || chain.replaced.from !== undefined || chain.validatorUid === null) return null;
  const { hotkey, block } = chain.replaced;
  const uid = chain.validatorUid;
  return Object.freeze({
    code: AUDITOR_ERROR_CODES.uidReplaced,
    message:
      `the weights cannot be compared: uid ${uid} on subnet ${netuid} was given to ${hotkey} by a registration in block ${block}, after the ` +
      `validator's weights were set in that block, and a registration removes the weights of the uid it replaces (Weights[${netuid}][${uid}] ` +
      `is no longer the validator's at block ${chain.block})`,
    uid,
    block: chain.block,
    holder_hotkey: hotkey,
  });
}
