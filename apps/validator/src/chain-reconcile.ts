import { blake2AsHex } from '@polkadot/util-crypto';
import { chainUpscale } from '@subnet/chain';
import type { ChainConnection, U16Mode } from '@subnet/chain';

import type { PendingHashCommit, SubmissionIdentity, SubmissionQuery, SubmissionSearch } from './chain-port.js';
import { landingVerdict } from './landing-verdict.js';
import { recoverTimelockedCommit } from './timelock-recover.js';

/** Options of {@link findWeightSubmission}. */
export interface FindSubmissionOptions extends SubmissionQuery {
  readonly netuid: number;
  /** The signer's SS58 address. */
  readonly hotkey: string;
  /** The mortal era of the submission (blocks); after it, an extrinsic not in a block can never land. */
  readonly eraPeriod: number;
  /** How the chain access turns weights into u16 values (a timelocked commit's values are rebuilt with it); default `sum`. */
  readonly u16Mode?: U16Mode;
  /**
   * The reveal bounds of a commit-reveal v2 commit found in block `block` (docs/spec.md G.22); absent: such a commit is
   * returned without them (its epoch is then not embargoed).
   */
  readonly hashCommitBounds?: (block: bigint, commitHash: string) => Promise<PendingHashCommit>;
}

/**
 * The block after which nobody can reveal a commit-reveal v2 commit made in `commitBlock` when its window was not
 * predicted: the chain accepts the reveal in the epoch `RevealPeriodEpochs` after the commit's (`weights.rs:1255`, expired after it, `:1287`, at
 * 14bc6f9f9), and a chain epoch is at most tempo + 1 blocks, so by `commitBlock + (RevealPeriodEpochs + 1) x (tempo + 1)`;
 * one more epoch is added for an epoch the chain may defer.
 *
 * @param commitBlock - the block that holds the commit
 * @param hp - the subnet's tempo and reveal period
 * @returns the bound
 * @example hashCommitBound(100n, { tempo: 10, revealPeriodEpochs: 1n }) // 133n
 */
export function hashCommitBound(commitBlock: bigint, hp: { readonly tempo: number; readonly revealPeriodEpochs: bigint }): bigint {
  return commitBlock + (hp.revealPeriodEpochs + 2n) * BigInt(hp.tempo + 1);
}

/** What the block scans read of a SCALE value (internal). */
export interface CodecLike {
  toString(): string;
  toU8a(bare?: boolean): Uint8Array;
}
/** What the block scans read of an extrinsic of a block (internal). */
export interface ExtrinsicLike {
  readonly isSigned: boolean;
  readonly signer: { toString(): string };
  readonly nonce: { toBigInt(): bigint };
  readonly method: {
    readonly section: string;
    readonly method: string;
    readonly args: readonly CodecLike[];
    readonly meta: { readonly args: readonly { readonly name: { toString(): string } }[] };
  };
  readonly hash: { toHex(): string };
}
/** What the block scans read of a `System.Events` record (internal). */
export interface EventRecordLike {
  readonly phase: { readonly isApplyExtrinsic: boolean; readonly asApplyExtrinsic: { toNumber(): number } };
  readonly event: { readonly section: string; readonly method: string };
}

/**
 * The extrinsics of a block that `hotkey` signed for a `SubtensorModule` call whose name `call` matches, with their
 * positions in the block (internal; the block scans of reconciliation and of a v2 reveal search).
 */
export function subtensorCallsSignedBy(
  extrinsics: readonly ExtrinsicLike[],
  hotkey: string,
  call: RegExp,
): { readonly ex: ExtrinsicLike; readonly index: number }[] {
  return extrinsics
    .map((ex, index) => ({ ex, index }))
    .filter(({ ex }) => ex.isSigned && ex.signer.toString() === hotkey && ex.method.section === 'subtensorModule' && call.test(ex.method.method));
}

/** An extrinsic's arguments by the chain's snake_case names (`reveal_round`, `version_key`; internal). */
export function callArgs(ex: ExtrinsicLike): Map<string, CodecLike> {
  const args = new Map<string, CodecLike>();
  ex.method.meta.args.forEach((a, i) => {
    const value = ex.method.args[i];
    // @polkadot/api camelCases the metadata's names (`revealRound`); keep the chain's snake_case.
    if (value !== undefined) args.set(snake(a.name.toString()), value);
  });
  return args;
}

/** Whether the block's events say its extrinsic at `index` succeeded (`System.ExtrinsicSuccess`; internal). */
export function extrinsicSucceeded(events: readonly EventRecordLike[], index: number): boolean {
  return events.some(
    (e) => e.phase.isApplyExtrinsic && e.phase.asApplyExtrinsic.toNumber() === index && e.event.section === 'system' && e.event.method === 'ExtrinsicSuccess',
  );
}

const WEIGHT_CALL = /^(set|commit).*weights$/i;
/** Timelocked (commit-reveal v4) commit calls: `commit_timelocked_weights`, `commit_timelocked_mechanism_weights`, `commit_crv3_mechanism_weights`. */
const TIMELOCKED_CALL = /^SubtensorModule\.commit_(timelocked|crv3)_/;
/** Commit-reveal v2 (hash) commit calls: `commit_weights`, `commit_mechanism_weights`. */
const HASH_COMMIT_CALL = /^SubtensorModule\.commit_(mechanism_)?weights$/;
/** Calls whose weights land in `Weights` at once (mechanism 0: the storage index is the netuid). */
const SET_CALLS = new Set(['SubtensorModule.set_weights', 'SubtensorModule.set_mechanism_weights']);
/** Blocks added to the era: the extrinsic's era starts at the head it was signed at, a little after the claim. */
const SIGNING_MARGIN = 16;

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * Looks on the chain for a weight submission interrupted by a crash, or seen in a block that was not final yet:
 * scans the final blocks after the claim (`fromBlock + 1` up to the finalised head, at most the era plus a margin)
 * for a successful `SubtensorModule` weight extrinsic (`set_*weights`, `commit_*weights`) signed by the hotkey (with
 * `options.commitHash`, only the commit-reveal v2 commit carrying that hash: another is a later epoch's; with
 * `options.identity`, only the `set_weights` or timelocked commit carrying it, docs/spec.md G.45), then
 * reads `LastUpdate` of the hotkey's uid and, for `set_weights`/`set_mechanism_weights` (mechanism 0), the `Weights`
 * row back (compared with the chain's upscaling of what was sent). Only a final block counts as landed: a block of
 * the unfinalised head may still be replaced by a reorganisation, the extrinsic then landing in another block or
 * dropped (docs/spec.md G.8). Not found and the era is over: `not_landed` (on the finalised chain, or on the best
 * chain while finality lags: `finalizedTo`); not found yet, or only in a block finality has not reached: `pending`
 * ({@link landingVerdict}).
 *
 * @param connection - the chain connection
 * @param options - netuid, hotkey, the claim head, what was sent, the era
 * @returns what the chain says
 * @throws SubnetError `CHAIN_*` when the chain cannot be read
 * @example await findWeightSubmission(connection, { netuid: 1, hotkey, fromBlock: 120n, uids, weights, eraPeriod: 64 })
 */
export async function findWeightSubmission(connection: ChainConnection, options: FindSubmissionOptions): Promise<SubmissionSearch> {
  // One request per read, each with its own time limit: a long scan never trips the per-request timeout.
  const head = await connection.request('reconcile: head', async (api) => (await api.rpc.chain.getHeader()).number.toBigInt());
  const finalized = await connection.request('reconcile: finalized head', finalizedNumber);
  const last = options.fromBlock + BigInt(options.eraPeriod + SIGNING_MARGIN);
  const finalTo = [head, finalized, last].reduce((a, b) => (b < a ? b : a));
  // `LastUpdate` names the block of a landed `set_weights`: look there first, then scan in order.
  const hinted = (await connection.request('reconcile: LastUpdate', (api) => readLastUpdate(api, options))) ?? 0n;
  const order: bigint[] = hinted > options.fromBlock && hinted <= finalTo ? [hinted] : [];
  for (let n = options.fromBlock + 1n; n <= finalTo; n++) if (n !== hinted) order.push(n);
  for (const n of order) {
    const landed = await connection.request('reconcile: block', (api) => findInBlock(api, options, n));
    if (landed === undefined) continue;
    const evidence = await connection.request('reconcile: read back', (api) => readBack(api, options, landed.call));
    // A timelocked commit: rebuild its record, so its reveal is confirmed like a commit that returned normally.
    const timelock = TIMELOCKED_CALL.test(landed.call)
      ? await recoverTimelockedCommit(
          connection,
          { args: landed.args, nonce: landed.nonce, extrinsicHash: landed.extrinsicHash },
          { hotkey: options.hotkey, uids: options.uids, weights: options.weights, mode: options.u16Mode ?? 'sum', block: n, ...landed.hashes },
        )
      : undefined;
    // A hash commit: the validator reveals it from its commit store; its epoch is embargoed until then (G.22).
    const commitHash = landed.args.get('commit_hash')?.toString();
    const hashCommit =
      HASH_COMMIT_CALL.test(landed.call) && commitHash !== undefined && options.hashCommitBounds !== undefined
        ? await options.hashCommitBounds(n, commitHash)
        : undefined;
    return {
      status: 'landed',
      block: n,
      extrinsicHash: landed.extrinsicHash,
      call: landed.call,
      ...evidence,
      ...(timelock === undefined ? {} : { timelock }),
      ...(hashCommit === undefined ? {} : { hashCommit }),
    };
  }
  // The best chain is past the last block it could be in while finality is not: does a block finality has not reached hold it?
  let bestHit: bigint | null | undefined;
  if (head >= last && finalized < last) {
    bestHit = null;
    // the block `LastUpdate` names first: while finality stalls this runs every tick, so a set_weights costs one block
    const first = (finalTo > options.fromBlock ? finalTo : options.fromBlock) + 1n;
    const unfinal: bigint[] = hinted >= first && hinted <= last ? [hinted] : [];
    for (let n = first; n <= last; n++) if (n !== hinted) unfinal.push(n);
    for (const n of unfinal) {
      if ((await connection.request('reconcile: block', (api) => findInBlock(api, options, n))) === undefined) continue;
      bestHit = n;
      break;
    }
  }
  return landingVerdict({ head, finalized, lastBlock: last, ...(bestHit === undefined ? {} : { bestHit }) });
}

/** A successful weight extrinsic of ours in a block. */
interface LandedExtrinsic {
  readonly extrinsicHash: string;
  readonly call: string;
  /** Call arguments by their snake_case metadata name. */
  readonly args: ReadonlyMap<string, CodecLike>;
  readonly nonce: bigint;
  readonly hashes: { readonly blockHash: string; readonly parentHash: string };
}

/**
 * The number of the finalised head (GRANDPA's, behind the best block).
 *
 * @param api - the connection's api
 * @returns its block number
 * @example await connection.request('finalized head', finalizedNumber)
 */
export async function finalizedNumber(api: ChainConnection['api']): Promise<bigint> {
  return (await api.rpc.chain.getHeader(await api.rpc.chain.getFinalizedHead())).number.toBigInt();
}

async function findInBlock(api: ChainConnection['api'], options: FindSubmissionOptions, n: bigint): Promise<LandedExtrinsic | undefined> {
  const hash = await api.rpc.chain.getBlockHash(n);
  const block = await api.rpc.chain.getBlock(hash);
  const hashes = { blockHash: hash.toHex(), parentHash: block.block.header.parentHash.toHex() };
  const extrinsics = block.block.extrinsics as unknown as readonly ExtrinsicLike[];
  const ours = subtensorCallsSignedBy(extrinsics, options.hotkey, WEIGHT_CALL);
  if (ours.length === 0) return undefined;
  const systemEvents = (await api.at(hash)).query.system?.events;
  if (systemEvents === undefined) return undefined;
  const events = (await systemEvents()) as unknown as readonly EventRecordLike[];
  for (const { ex, index } of ours) {
    if (extrinsicSucceeded(events, index)) {
      const args = callArgs(ex);
      const call = `SubtensorModule.${snake(ex.method.method)}`;
      // The epoch kept its v2 commit's hash: only that commit is its submission (another is a later epoch's).
      if (options.commitHash !== undefined && !(HASH_COMMIT_CALL.test(call) && args.get('commit_hash')?.toString() === options.commitHash)) continue;
      // So with what named its set_weights or timelocked commit before sending (docs/spec.md G.45).
      if (options.identity !== undefined && !carriesIdentity(ex.hash.toHex(), call, args, options.netuid, options.identity)) continue;
      return { extrinsicHash: ex.hash.toHex(), call, args, nonce: ex.nonce.toBigInt(), hashes };
    }
  }
  return undefined;
}

/** A u16 list argument (`dests`, `weights`) as numbers; undefined when absent or not a list of integers. */
export function u16List(codec: CodecLike | undefined): number[] | undefined {
  if (codec === undefined) return undefined;
  const value = JSON.parse(codec.toString()) as unknown;
  return Array.isArray(value) && value.every((x) => Number.isInteger(x)) ? (value as number[]) : undefined;
}

function sameList(a: readonly number[] | undefined, b: readonly number[]): boolean {
  return a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Whether a successful weight extrinsic of the hotkey is the one the epoch kept before sending it (docs/spec.md G.45):
 * the kept extrinsic hash (the signed bytes, nonce included: the next epoch's extrinsic with an equal vector has
 * another), and a `set_weights`/`set_mechanism_weights` on the netuid with the same `dests`, `weights` and `version_key`
 * (dispatches.rs:86, :165 at 14bc6f9f9); a timelocked commit on the netuid whose `commit` hashes (blake2_256, as the
 * chain's `TimelockedWeightsCommitted` does, weights.rs:364) to the kept hash, with the kept `reveal_round`
 * (dispatches.rs:504, :2021, :2124).
 */
function carriesIdentity(extrinsicHash: string, call: string, args: ReadonlyMap<string, CodecLike>, netuid: number, identity: SubmissionIdentity): boolean {
  if (extrinsicHash.toLowerCase() !== identity.extrinsicHash.toLowerCase() || args.get('netuid')?.toString() !== String(netuid)) return false;
  if (identity.kind === 'set') {
    return (
      SET_CALLS.has(call) &&
      sameList(u16List(args.get('dests')), identity.uids) &&
      sameList(u16List(args.get('weights')), identity.values) &&
      args.get('version_key')?.toString() === identity.versionKey.toString()
    );
  }
  const commit = args.get('commit');
  return (
    TIMELOCKED_CALL.test(call) &&
    commit !== undefined &&
    blake2AsHex(commit.toU8a(true), 256) === identity.commitHash &&
    args.get('reveal_round')?.toString() === identity.revealRound.toString()
  );
}

async function ownUid(api: ChainConnection['api'], options: FindSubmissionOptions): Promise<number | undefined> {
  const uidOption = (await api.query.subtensorModule?.uids?.(options.netuid, options.hotkey)) as unknown as
    { isSome: boolean; unwrap(): { toNumber(): number } } | undefined;
  return uidOption?.isSome === true ? uidOption.unwrap().toNumber() : undefined;
}

async function readLastUpdate(api: ChainConnection['api'], options: FindSubmissionOptions): Promise<bigint | null> {
  const uid = await ownUid(api, options);
  if (uid === undefined) return null;
  const lastUpdates = (await api.query.subtensorModule?.lastUpdate?.(options.netuid)) as unknown as readonly { toBigInt(): bigint }[] | undefined;
  return lastUpdates?.[uid]?.toBigInt() ?? null;
}

async function readBack(
  api: ChainConnection['api'],
  options: FindSubmissionOptions,
  call: string,
): Promise<{ lastUpdate: bigint | null; weightsMatch: boolean | null }> {
  const lastUpdate = await readLastUpdate(api, options);
  const uid = await ownUid(api, options);
  const weightsQuery = api.query.subtensorModule?.weights;
  if (!SET_CALLS.has(call) || uid === undefined || weightsQuery === undefined) return { lastUpdate, weightsMatch: null };
  const stored = (await weightsQuery(options.netuid, uid)) as unknown as readonly [{ toNumber(): number }, { toNumber(): number }][];
  const expected = chainUpscale(options.weights);
  const want = new Map<number, number>();
  options.uids.forEach((u, i) => {
    const v = expected[i] ?? 0;
    if (v > 0) want.set(u, v);
  });
  const got = new Map(stored.map(([u, v]) => [u.toNumber(), v.toNumber()]));
  const weightsMatch = got.size === want.size && [...want].every(([u, v]) => got.get(u) === v);
  return { lastUpdate, weightsMatch };
}
