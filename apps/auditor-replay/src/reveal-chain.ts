import type { ChainConnection } from '@subnet/chain';
import { chainUpscale } from '@subnet/chain';
import { SubnetError } from '@subnet/core';
import { revealWeightsCommit } from '@subnet/timelock';

import type { BundleAudit, Mismatch } from './audit-bundle.js';
import { chainReadError } from './chain-read-error.js';
import type { ChainWeights } from './chain-weights.js';
import { chainUnknown, compareChainWeights } from './chain-weights.js';
import { AUDITOR_ERROR_CODES } from './errors.js';
import type { RevealAudit, RevealOnChain } from './reveal-audit.js';

/** What to follow: the bundle's commit (block and extrinsic) and the block the attestation names, if any. */
export interface CommitQuery {
  readonly netuid: number;
  readonly hotkey: string;
  /** The submission block of the bundle (decimal). */
  readonly commitBlock: string;
  readonly extrinsicHash: string | null;
  /** The reveal block the attestation names (tried first; the chain decides). */
  readonly hint: string | null;
}

/** What the chain shows for a commit. */
export interface FollowedCommit {
  /** The commit's `TimelockedWeightsCommitted(who, netuid_index, hash, round)` in the named extrinsic; null when absent. */
  readonly commit: { readonly netuidIndex: number; readonly commitHash: string; readonly revealRound: string } | null;
  /** Where the commit left its queue (null when there is no commit). */
  readonly reveal: RevealOnChain | null;
  /**
   * `Weights` at the reveal block of the uid the hotkey held when the reveal ran (null unless revealed); `replaced`
   * when a registration took that uid later in the same block (its weights are gone).
   */
  readonly weights: ChainWeights | null;
}

/** Follows a commit-reveal v4 commit from its block to its reveal. */
export type CommitFollower = (query: CommitQuery) => Promise<FollowedCommit>;

type ApiAt = Awaited<ReturnType<ChainConnection['api']['at']>>;
type Query = Record<
  string,
  Record<string, ((...args: unknown[]) => Promise<unknown>) & { entries?: (...a: unknown[]) => Promise<[{ args: unknown[] }, unknown][]> }>
>;
interface PulseOption {
  readonly isSome: boolean;
  unwrap(): { readonly signature: { toU8a(bare?: boolean): Uint8Array } };
}
interface EventRecord {
  readonly phase: { readonly isApplyExtrinsic: boolean; readonly asApplyExtrinsic: { toNumber(): number } };
  readonly event: { readonly section: string; readonly method: string; readonly data: Iterable<{ toString(): string }> };
}

function items(value: unknown): unknown[] {
  const v = value as { isNone?: boolean; isSome?: boolean; unwrap?: () => unknown };
  if (v.isNone === true) return [];
  return Array.from((v.isSome === true && v.unwrap ? v.unwrap() : value) as Iterable<unknown>);
}

/** The commit bytes of a queue entry `(who, block, commit, round)` when it is the commit: same hotkey, blake2_256 of the bytes equal to the event's hash; else null. */
function commitBytes(item: unknown, hotkey: string, commitHash: string, blake2: (bytes: Uint8Array) => string): Uint8Array | null {
  const [who, , commit] = Array.from(item as Iterable<{ toString(): string; toU8a(bare?: boolean): Uint8Array }>);
  if (who?.toString() !== hotkey || commit === undefined) return null;
  const bytes = commit.toU8a(true);
  return blake2(bytes) === commitHash ? bytes : null;
}

const isCommit = (item: unknown, hotkey: string, commitHash: string, blake2: (bytes: Uint8Array) => string): boolean =>
  commitBytes(item, hotkey, commitHash, blake2) !== null;

/**
 * The follower of commits over a chain connection. For the bundle's commit it reads the named extrinsic's
 * `TimelockedWeightsCommitted` in the commit block (hotkey, `netuid_index`, commit hash, round), finds its queue in
 * `TimelockedWeightCommits(netuid_index, epoch)` at that block, and finds the first block whose state no longer
 * holds it: the attestation's reveal block when the chain agrees (held at R - 1, gone at R), else by bisection up to
 * the head (a commit stays queued from its block until the chain reveals or drops it in one block's `on_initialize`;
 * subtensor `reveal_crv3_commits`). At that block `TimelockedWeightsRevealed(netuid_index, who)` says revealed; then
 * `Weights(netuid_index, uid)` there is read for comparison, for the uid the hotkey held at the start of that block
 * (`Uids` at R - 1: the reveal runs in `on_initialize`, before any extrinsic). When that uid left the hotkey in R by a
 * registration (`Keys` another hotkey, `BlockAtRegistration` = R), its weights were removed after the reveal
 * (`replace_neuron`): the result says `replaced` instead of reading them.
 *
 * @param connection - a `@subnet/chain` connection
 * @param endpoint - the redacted endpoint (for errors)
 * @returns the follower; it throws the coded chain read errors of {@link chainReadError}
 * @example const follow = commitFollower(connection, 'ws://127.0.0.1:9944')
 */
export function commitFollower(connection: ChainConnection, endpoint: string): CommitFollower {
  // The runtime's hasher: blake2_256, as `TimelockedWeightsCommitted` hashes the commit bytes.
  const blake2 = (bytes: Uint8Array): string => connection.api.registry.hash(bytes).toHex();
  const hashAt = async (n: bigint): Promise<string> => {
    const hash = await connection.request('chain_getBlockHash', (api) => api.rpc.chain.getBlockHash(n));
    if (hash.isEmpty) {
      throw new SubnetError(AUDITOR_ERROR_CODES.chainUnknownBlock, `the node at ${endpoint} has no block ${n} (its chain is shorter, or it is another chain)`, {
        context: { path: '--chain', value: endpoint, block: n.toString() },
      });
    }
    return hash.toHex();
  };
  const at = async (n: bigint): Promise<{ at: ApiAt; hash: string }> => {
    const hash = await hashAt(n);
    return { at: await connection.request('api.at', (api) => api.at(hash)), hash };
  };
  const query = (a: ApiAt, pallet: string, item: string) => {
    const fn = (a.query as unknown as Query)[pallet]?.[item];
    if (fn === undefined) {
      throw new SubnetError(AUDITOR_ERROR_CODES.chainStorageMissing, `the chain has no ${pallet}.${item} storage (is it Subtensor with commit-reveal v4?)`, {
        context: { path: '--chain', value: endpoint },
      });
    }
    return fn;
  };
  const events = async (a: ApiAt): Promise<EventRecord[]> =>
    Array.from((await connection.request('System.Events', () => query(a, 'system', 'events')())) as Iterable<EventRecord>);

  const follow = async (q: CommitQuery): Promise<FollowedCommit> => {
    const n = BigInt(q.commitBlock);
    const block = await at(n);
    // 1. the commit event of the named extrinsic (any extrinsic of the hotkey's when the bundle names none)
    const signed = await connection.request('chain_getBlock', (api) => api.rpc.chain.getBlock(block.hash));
    const index = q.extrinsicHash === null ? null : signed.block.extrinsics.findIndex((ex) => ex.hash.toHex() === q.extrinsicHash);
    if (index === -1) return { commit: null, reveal: null, weights: null };
    const committed = (await events(block.at)).find((r) => {
      if (r.event.section !== 'subtensorModule' || r.event.method !== 'TimelockedWeightsCommitted') return false;
      if (index !== null && !(r.phase.isApplyExtrinsic && r.phase.asApplyExtrinsic.toNumber() === index)) return false;
      return Array.from(r.event.data)[0]?.toString() === q.hotkey;
    });
    if (committed === undefined) return { commit: null, reveal: null, weights: null };
    const [, idx, hash, round] = Array.from(committed.event.data).map((d) => d.toString());
    const commit = { netuidIndex: Number(idx), commitHash: String(hash), revealRound: String(round) };
    // 2. its queue
    const queues = query(block.at, 'subtensorModule', 'timelockedWeightCommits');
    if (queues.entries === undefined)
      throw new SubnetError(AUDITOR_ERROR_CODES.chainStorageMissing, 'cannot list SubtensorModule.TimelockedWeightCommits', {
        context: { path: '--chain', value: endpoint },
      });
    const list = queues.entries;
    const all = await connection.request('TimelockedWeightCommits.entries', () => list(commit.netuidIndex));
    // The queue entry holding the commit, and the commit's bytes (the reveal is done again from them when needed).
    let key: unknown;
    let sealed: Uint8Array | null = null;
    for (const [storageKey, value] of all) {
      for (const item of items(value)) sealed ??= commitBytes(item, q.hotkey, commit.commitHash, blake2);
      if (sealed !== null) {
        key = storageKey.args[1];
        break;
      }
    }
    if (sealed === null || key === undefined) return { commit: null, reveal: null, weights: null };
    const held = async (b: bigint): Promise<boolean> => {
      const state = await at(b);
      const queue = await connection.request('TimelockedWeightCommits', () =>
        query(state.at, 'subtensorModule', 'timelockedWeightCommits')(commit.netuidIndex, key),
      );
      return items(queue).some((item) => isCommit(item, q.hotkey, commit.commitHash, blake2));
    };
    // 3. the first block without it: the attestation's, when the chain agrees; else bisection up to the head
    const head = (await connection.request('chain_getHeader', (api) => api.rpc.chain.getHeader())).number.toBigInt();
    let gone: bigint | null = null;
    const hint = q.hint === null ? null : BigInt(q.hint);
    if (hint !== null && hint > n && hint <= head && (await held(hint - 1n)) && !(await held(hint))) gone = hint;
    if (gone === null) {
      if (await held(head)) return { commit, reveal: { outcome: 'queued', block: null, blockHash: null, head: head.toString() }, weights: null };
      let lo = n; // held
      let hi = head; // not held
      while (hi - lo > 1n) {
        const mid = (lo + hi) / 2n;
        if (await held(mid)) lo = mid;
        else hi = mid;
      }
      gone = hi;
    }
    // 4. revealed there?
    const reveal = await at(gone);
    const revealed = (await events(reveal.at)).some((r) => {
      if (r.event.section !== 'subtensorModule' || r.event.method !== 'TimelockedWeightsRevealed') return false;
      const [i, who] = Array.from(r.event.data).map((d) => d.toString());
      return Number(i) === commit.netuidIndex && who === q.hotkey;
    });
    const onChain: RevealOnChain = { outcome: revealed ? 'revealed' : 'dropped', block: gone.toString(), blockHash: reveal.hash, head: head.toString() };
    if (!revealed) return { commit, reveal: onChain, weights: null };
    // 5. the uid the reveal set: the hotkey's at the start of the block (the reveal step runs in on_initialize,
    // before any extrinsic; a registration or a hotkey swap among them can move the uid in the block's own state)
    const parent = await at(gone - 1n);
    const uidIn = async (a: ApiAt): Promise<unknown> =>
      ((await connection.request('Uids', () => query(a, 'subtensorModule', 'uids')(q.netuid, q.hotkey))) as { toJSON(): unknown }).toJSON();
    const before = await uidIn(parent.at);
    const after = await uidIn(reveal.at);
    const revealBlock = gone.toString();
    const validatorUid = typeof before === 'number' ? before : after;
    if (typeof validatorUid !== 'number') return { commit, reveal: onChain, weights: { block: revealBlock, validatorUid: null, pairs: [] } };
    if (after !== validatorUid) {
      // The uid left the hotkey in the reveal block. A registration into it (BlockAtRegistration = the block)
      // removed the weights the reveal had just set (replace_neuron); a hotkey swap keeps them under the uid.
      const holder = String(await connection.request('Keys', () => query(reveal.at, 'subtensorModule', 'keys')(q.netuid, validatorUid)));
      const registered = String(
        await connection.request('BlockAtRegistration', () => query(reveal.at, 'subtensorModule', 'blockAtRegistration')(q.netuid, validatorUid)),
      );
      if (holder !== q.hotkey && registered === revealBlock) {
        // The state has lost them, but the reveal can be done again as the chain did it: the commit decrypted with
        // the round's pulse the block began with (docs/spec.md G.6). Without the pulse the check stays unknown.
        const pulse = (parent.at.query as unknown as Query)['drand']?.['pulses'];
        const stored = pulse === undefined ? null : ((await connection.request('Drand.Pulses', () => pulse(BigInt(commit.revealRound)))) as PulseOption);
        const opened =
          stored?.isSome === true ? revealWeightsCommit({ commit: sealed, signature: stored.unwrap().signature.toU8a(true), signer: q.hotkey }) : null;
        const replaced = { hotkey: holder, block: registered };
        if (opened?.status !== 'revealed') return { commit, reveal: onChain, weights: { block: revealBlock, validatorUid, pairs: [], replaced } };
        const upscaled = chainUpscale(opened.values);
        const pairs = opened.uids.map((u, i) => [u, upscaled[i] ?? 0] as const);
        return {
          commit,
          reveal: onChain,
          weights: { block: revealBlock, validatorUid, pairs, replaced: { ...replaced, from: 'commit', round: commit.revealRound } },
        };
      }
    }
    const raw = (
      (await connection.request('Weights', () => query(reveal.at, 'subtensorModule', 'weights')(commit.netuidIndex, validatorUid))) as { toJSON(): unknown }
    ).toJSON();
    const pairs = (Array.isArray(raw) ? raw : []).map((p) => {
      const [u, w] = p as [unknown, unknown];
      return [Number(u), Number(w)] as const;
    });
    return { commit, reveal: onChain, weights: { block: revealBlock, validatorUid, pairs } };
  };
  return async (q) => {
    try {
      return await follow(q);
    } catch (error) {
      throw chainReadError(error, { block: q.commitBlock, endpoint });
    }
  };
}

/**
 * Judges a committed bundle against the chain: the commit must be in the named extrinsic; once the chain revealed
 * it, `Weights` at the reveal block must equal the chain's upscaling of the bundle's u16 vector; and the reveal
 * attestation (when verified) must not contradict the chain: `revealed` only for a reveal, `not_revealed` only for a
 * drop (`unconfirmed` claims neither), at the same block and block hash. A commit still queued, or dropped without a
 * verified attestation, has nothing to compare: the chain check stays unknown (null). So does a reveal whose uid a
 * registration took later in the reveal block (`weights.replaced`): the weights are gone from the chain, the audit
 * says why in `chain_unknown` (`AUDITOR_UID_REPLACED`), and the attestation is still checked.
 *
 * @param audit - the bundle's audit (with `reveal` when it carries an attestation)
 * @param netuid - `--netuid`
 * @param followed - what the chain shows ({@link CommitFollower})
 * @returns the audit with the chain check, its mismatches and `reveal.chain`
 * @example judgeReveal(audit, 1, await follow({ ... }))
 */
export function judgeReveal(audit: BundleAudit, netuid: number, followed: FollowedCommit): BundleAudit {
  const epoch = audit.epoch;
  const found: Mismatch[] = [];
  const attestation = audit.reveal?.verified === true ? audit.reveal.attestation : null;
  const claim = (field: string, expected: unknown, claimed: unknown): void => {
    found.push({ epoch, stage: 'chain.reveal', miner: null, field, path: `reveal.${field}`, kind: 'value', expected, claimed });
  };
  if (followed.commit === null || followed.reveal === null) {
    found.push({
      epoch,
      stage: 'chain.commit',
      miner: null,
      field: '',
      path: 'bundle.submission',
      kind: 'value',
      expected: `a TimelockedWeightsCommitted by ${audit.validator_hotkey ?? '?'} in the submission's extrinsic of block ${audit.submission_block ?? '?'}, queued for its reveal`,
      claimed: audit.submission_block,
    });
  } else {
    const c = followed.reveal;
    if (c.outcome === 'revealed' && followed.weights !== null) found.push(...compareChainWeights(audit, netuid, followed.weights));
    if (attestation !== null) {
      // `unconfirmed` claims neither a reveal nor a drop (the validator could not tell, or saw other weights
      // stored): it agrees with any chain outcome, and the weights are still compared when the chain revealed.
      const agrees =
        attestation.status === 'unconfirmed' ||
        (c.outcome === 'revealed' ? attestation.status === 'revealed' : c.outcome === 'dropped' && attestation.status === 'not_revealed');
      if (!agrees) claim('status', c.outcome === 'queued' ? `no outcome yet (still queued at head ${c.head})` : c.outcome, attestation.status);
      if (c.block !== null && attestation.reveal_block !== null && attestation.reveal_block !== c.block)
        claim('reveal_block', c.block, attestation.reveal_block);
      if (c.blockHash !== null && attestation.reveal_block_hash !== null && attestation.reveal_block_hash !== c.blockHash)
        claim('reveal_block_hash', c.blockHash, attestation.reveal_block_hash);
      if (attestation.commit_hash !== null && attestation.commit_hash !== followed.commit.commitHash)
        claim('commit_hash', followed.commit.commitHash, attestation.commit_hash);
    }
  }
  const unknown = followed.reveal?.outcome === 'revealed' && followed.weights !== null ? chainUnknown(followed.weights, netuid) : null;
  const known =
    found.length > 0 || (followed.reveal?.outcome === 'revealed' && unknown === null) || (attestation !== null && followed.reveal?.outcome === 'dropped');
  const reveal: RevealAudit =
    audit.reveal === undefined ? { verified: false, attestation: null, error: null, chain: followed.reveal } : { ...audit.reveal, chain: followed.reveal };
  return {
    ...audit,
    status: audit.status === 'invalid' ? 'invalid' : audit.status === 'ok' && found.length === 0 ? 'ok' : 'mismatch',
    checks: { ...audit.checks, chain: known ? found.length === 0 : null },
    mismatches: [...audit.mismatches, ...found],
    reveal,
    ...(unknown === null ? {} : { chain_unknown: unknown }),
  };
}
