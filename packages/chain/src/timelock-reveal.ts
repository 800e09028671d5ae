import { chainError } from './chain-error.js';
import { chainUpscale } from './chain-upscale.js';
import type { ChainConnection } from './connection.js';
import { revealStepEpoch } from './epoch-schedule.js';
import { readMetagraph, toBig } from './metagraph.js';
import type { MetagraphSnapshot } from './metagraph-snapshot.js';
import { preflight } from './preflight.js';
import type { TimelockedCommitRecord } from './timelock-commit.js';
import { blockAt, followCommitQueue, storageEntry } from './timelock-reveal-walk.js';
import { checkTimelockedRecord } from './timelocked-record-check.js';

/** Why a timelocked reveal may not have happened (the chain itself reports nothing). */
export type TimelockMissReason =
  | 'version_key_raised'
  | 'stake_lost'
  | 'permit_lost'
  | 'deregistered'
  | 'hotkey_swapped'
  | 'pulse_missing'
  | 'hotkey_mismatch'
  | 'undecryptable'
  | 'other_weights_check'
  | 'expired';

/** A confirmed reveal. */
export interface TimelockedReveal {
  readonly record: TimelockedCommitRecord;
  /** The block whose `on_initialize` revealed the commit. */
  readonly blockNumber: bigint;
  readonly blockHash: string;
  /** The commit epoch (`TimelockedWeightCommits` key). */
  readonly commitEpoch: bigint;
  /** Weights as stored by the chain (max-upscaled), read back at the reveal block. */
  readonly stored: readonly number[];
  readonly finalized: boolean;
}

/** Options of {@link confirmTimelockedReveal}. */
export interface ConfirmRevealOptions {
  /** Poll interval in ms (default 1000). */
  readonly pollMs?: number;
  /** Longest wait in ms. */
  readonly timeoutMs: number;
  /** Also wait until the reveal block is finalized. */
  readonly wait?: 'inBlock' | 'finalized';
}

/**
 * The preflight kind that replays the checks of a timelocked reveal. The chain's reveal step calls
 * `do_set_mechanism_weights` (`coinbase/reveal_commits.rs:181`), i.e. `internal_set_weights`: it never asks whether
 * commit-reveal is on, and it applies the set_weights rate limit (`SettingWeightsTooFast`) exactly when commit-reveal
 * is off at the reveal block (`subnets/weights.rs:804`; both lines at 14bc6f9f9, `:180` / `:804` at ab0cb2e52). So a
 * subnet whose owner turned commit-reveal off after the commit is replayed as a direct set, else as a reveal.
 *
 * @param snapshot - the metagraph read at the block before the reveal block
 * @returns `set` when commit-reveal is off there, else `reveal`
 */
function timelockedRevealCheckKind(snapshot: Pick<MetagraphSnapshot, 'hyperparameters'>): 'set' | 'reveal' {
  return snapshot.hyperparameters.commitRevealEnabled ? 'reveal' : 'set';
}

/**
 * Confirms that the chain revealed a timelocked commit. The chain decrypts commits in `on_initialize` of the
 * reveal epoch and reports only success (`TimelockedWeightsRevealed(netuid_index, who)`); a failed reveal
 * leaves no trace but the commit disappearing from `TimelockedWeightCommits`. So: find the commit's epoch
 * queue, follow it block by block until the commit leaves it (a later check of the same commit on the same
 * connection reads only the blocks produced since the last one), then look at that block's events. Revealed →
 * read back `Weights` there and compare with the chain's max-upscale of the committed values. Not revealed →
 * `CHAIN_TIMELOCK_REVEAL_MISSING` with the likely reasons: `expired` when that block's reveal step worked on a
 * later epoch than the commit's (the queue was deleted unread), else found by replaying the reveal's weights
 * checks on the state before that block; and whether the round's pulse was stored. With `wait: 'finalized'`, a
 * reveal block that a reorganisation replaced before finality reached it is not reported: the confirmation runs
 * again on the finalised branch (within the same timeout). The same holds for "not revealed": it is thrown only once
 * finality reached the block where the commit left its queue unrevealed (`context.finalized: true`); until then the
 * timeout's `CHAIN_TIMELOCK_REVEAL_TIMEOUT` (`context.unfinalizedExit: true`), and a branch that revealed it there
 * is confirmed instead.
 *
 * @param connection - the chain connection
 * @param record - the commit (from `setWeights` or `timelockedCommitRecord`)
 * @param options - polling, timeout, finality
 * @returns the confirmed reveal
 * @throws SubnetError `CHAIN_TIMELOCK_REVEAL_MISSING` (context `likelyReasons`, `checks`, `revealBlock`, `revealEpoch`),
 *   `CHAIN_TIMELOCK_REVEAL_TIMEOUT`, `CHAIN_WEIGHTS_NOT_CONFIRMED` (revealed but Weights differ, or the
 *   commit is not in any queue), `CHAIN_STORAGE_NOT_AVAILABLE`
 * @example const reveal = await confirmTimelockedReveal(conn, submission.timelock, { timeoutMs: 3_600_000 });
 */
export async function confirmTimelockedReveal(
  connection: ChainConnection,
  record: TimelockedCommitRecord,
  options: ConfirmRevealOptions,
): Promise<TimelockedReveal> {
  checkTimelockedRecord(record);
  const pollMs = options.pollMs ?? 1_000;
  const deadline = Date.now() + options.timeoutMs;
  /** The same confirmation on what the chain is now, within what is left of the timeout (after a reorganisation). */
  const again = (): Promise<TimelockedReveal> => confirmTimelockedReveal(connection, record, { ...options, timeoutMs: Math.max(0, deadline - Date.now()) });
  const base = {
    source: 'client' as const,
    stage: 'confirm' as const,
    commitHash: record.commitHash,
    round: record.revealRound,
    netuid: record.netuid,
    mecid: record.mecid,
  };
  // 1-2. find the commit's epoch queue and follow it until the commit leaves it (incremental across checks)
  const { commitEpoch: epoch, exit: revealAt } = await followCommitQueue(connection, record, { deadline, pollMs, timeoutMs: options.timeoutMs, base });

  // 3. revealed in that block?
  const records = Array.from(
    (await connection.request('System.Events', () => storageEntry(revealAt.at, 'system', 'events')())) as Iterable<{
      phase: { isInitialization: boolean };
      event: { section: string; method: string; data: Iterable<{ toString(): string }> };
    }>,
  );
  const revealed = records.some((r) => {
    if (r.event.section !== 'subtensorModule' || r.event.method !== 'TimelockedWeightsRevealed') return false;
    const [idx, who] = Array.from(r.event.data);
    return Number(idx?.toString()) === record.netuidIndex && who?.toString() === record.hotkey;
  });
  if (revealed) {
    const expected = chainUpscale(record.values);
    const stored = Array.from(
      (await connection.request('Weights', () => storageEntry(revealAt.at, 'subtensorModule', 'weights')(record.netuidIndex, record.uid))) as Iterable<
        Iterable<unknown>
      >,
    ).map((pair) => Array.from(pair).map((x) => Number(toBig(x))));
    const same = stored.length === record.uids.length && stored.every((p, i) => p[0] === record.uids[i] && p[1] === expected[i]);
    if (!same) {
      throw chainError(
        'WeightsNotConfirmed',
        `TimelockedWeightsRevealed was emitted at block ${revealAt.number} but the stored Weights differ from the commit (another commit of this hotkey in the same epoch?)`,
        {
          ...base,
          blockNumber: revealAt.number,
          blockHash: revealAt.hash,
          expected: record.uids.map((u, i) => [u, expected[i]]),
          storedWeights: stored,
        },
      );
    }
    const finalized = options.wait === 'finalized' ? await waitFinalized(connection, revealAt.number, deadline, pollMs) : false;
    if (finalized) {
      // finality reached the number, but a reorganisation may have replaced the block that revealed the commit there
      // before it was finalised: then confirm again on the finalised branch (the walk starts again where it changed)
      if (await replacedBlock(connection, revealAt)) return again();
    }
    return Object.freeze({ record, blockNumber: revealAt.number, blockHash: revealAt.hash, commitEpoch: epoch, stored: expected, finalized });
  }

  // 4. not revealed: why? Replay the weights checks on the state before the block, and look for the pulse.
  const parent = await blockAt(connection, revealAt.number - 1n);
  const snapshot = await readMetagraph(connection, { netuid: record.netuid, mecid: record.mecid, at: parent.hash });
  const check = preflight({
    snapshot,
    hotkey: record.hotkey,
    uids: record.uids,
    values: record.values,
    versionKey: record.versionKey,
    kind: timelockedRevealCheckKind(snapshot),
  });
  const checks = check.errors.map((e) => e.context.chainName);
  const pulses = (parent.at.query as unknown as Record<string, Record<string, ((round: bigint) => Promise<unknown>) | undefined> | undefined>)['drand']?.[
    'pulses'
  ];
  const pulse = pulses ? ((await connection.request('Drand.Pulses', () => pulses(record.revealRound))) as { isSome?: boolean }) : undefined;
  const revealEpoch = revealStepEpoch(snapshot, revealAt.number);
  const expired = epoch < revealEpoch;
  const holder = checks.includes('HotKeyNotRegisteredInSubNet') ? uidHolder(snapshot, record) : null;
  const reasons = missReasons({ expired, pulseStored: pulse?.isSome === true, checks, swapped: holder?.swapped === true });
  if (options.wait === 'finalized') {
    // "not revealed" is as final as the block that says it: until finality reaches that block another branch may
    // reveal the commit there (its pulse is a write_pulse extrinsic one author includes and another may not)
    if (!(await waitFinalized(connection, revealAt.number, deadline, pollMs))) {
      throw chainError(
        'TimelockRevealTimeout',
        `the commit left its queue unrevealed at block ${revealAt.number}, but finality had not reached that block after ${options.timeoutMs} ms: not reported until it does`,
        { ...base, path: 'block', value: revealAt.number, commitEpoch: epoch, predictedRevealBlock: record.prediction?.revealBlock, unfinalizedExit: true },
      );
    }
    if (await replacedBlock(connection, revealAt)) return again();
  }
  throw chainError(
    'TimelockRevealMissing',
    `the chain took the commit out of its queue at block ${revealAt.number} without TimelockedWeightsRevealed: the weights were not set (likely: ${reasons.join(', ')}${
      holder === null || expired ? '' : holderSentence(record, holder)
    })`,
    {
      ...base,
      path: 'reveal',
      value: revealAt.number,
      revealBlock: revealAt.number,
      revealBlockHash: revealAt.hash,
      commitEpoch: epoch,
      revealEpoch,
      likelyReasons: Object.freeze(reasons),
      checks: Object.freeze(checks),
      pulseStored: pulse?.isSome === true,
      ...(holder === null ? {} : { uidHolder: Object.freeze({ uid: record.uid, hotkey: holder.hotkey, registeredAt: holder.registeredAt }) }),
      finalized: options.wait === 'finalized',
      ...(!expired && check.errors[0] ? { cause: check.errors[0] } : {}),
    },
  );
}

/** Who held the commit's uid when the chain's reveal step ran, when it was no longer the commit's signer. */
interface UidHolder {
  /** The hotkey in `Keys(netuid, uid)`. */
  readonly hotkey: string;
  /** Its `BlockAtRegistration(netuid, uid)`. */
  readonly registeredAt: bigint;
  /** The uid kept a registration older than the commit: its neuron was moved to another hotkey, not re-registered. */
  readonly swapped: boolean;
}

/**
 * The holder of the commit's uid in the state the reveal step started from (`snapshot`, the block before the reveal
 * block), when it is another hotkey than the commit's signer; null otherwise. Subtensor's `swap_hotkey` moves a
 * neuron to a new hotkey with its `BlockAtRegistration` (`swap/swap_hotkey.rs:467-480` at 14bc6f9f9) but does not move
 * a timelocked commit (only the v2 `WeightCommits`, `:501-512`; a timelocked commit is queued by epoch with its signer
 * inside), and the reveal step sets the weights as that signer (`coinbase/reveal_commits.rs:181`), which then holds no
 * uid. A registration that took the uid (`replace_neuron`) writes its own block as `BlockAtRegistration`
 * (`subnets/uids.rs:87-89`), so a registration block before the commit block means a swap. (One registered, committed
 * and swapped in a single block reads as a registration: that block is the commit block.)
 */
function uidHolder(snapshot: Pick<MetagraphSnapshot, 'n' | 'hotkeys' | 'blockAtRegistration'>, record: TimelockedCommitRecord): UidHolder | null {
  if (record.uid >= snapshot.n) return null;
  const hotkey = snapshot.hotkeys[record.uid];
  const registeredAt = snapshot.blockAtRegistration[record.uid];
  if (hotkey === undefined || registeredAt === undefined || hotkey === record.hotkey) return null;
  return { hotkey, registeredAt, swapped: registeredAt < record.commitBlock };
}

/** What happened to the signer's uid, in words: the cause and what to do (inside the message's "likely" parentheses). */
function holderSentence(record: TimelockedCommitRecord, holder: UidHolder): string {
  return holder.swapped
    ? `: uid ${record.uid} moved from ${record.hotkey} to ${holder.hotkey} by a hotkey swap after the commit (block ${record.commitBlock}), ` +
        `and the chain reveals a timelocked commit as the hotkey that signed it, which held no uid then; set weights from ${holder.hotkey}`
    : `: uid ${record.uid} was given to ${holder.hotkey} by a registration in block ${holder.registeredAt}; register again to set weights`;
}

/**
 * The likely reasons of a commit that left its queue unrevealed, first one first. `expired`: the block's reveal step
 * worked on a later epoch than the commit's, so it deleted the queue unread (`coinbase/reveal_commits.rs:53-58` at
 * 14bc6f9f9): the reveal epoch passed while the round's pulse was missing (then `pulse_missing` follows), or it was
 * skipped (`RevealPeriodEpochs` lowered, or on the legacy runtime a tempo change moved the epoch index); the weights
 * checks were never run, so they are not named. Otherwise the commit was decrypted or re-queued in its own reveal
 * epoch: the pulse and the replayed weights checks (`hotkey_swapped` instead of `deregistered` when a hotkey swap moved
 * the signer's uid, {@link uidHolder}); `hotkey_mismatch` / `undecryptable` only when nothing else explains it.
 */
function missReasons(found: {
  readonly expired: boolean;
  readonly pulseStored: boolean;
  readonly checks: readonly string[];
  readonly swapped: boolean;
}): TimelockMissReason[] {
  const reasons: TimelockMissReason[] = [];
  if (found.expired) {
    reasons.push('expired');
    if (!found.pulseStored) reasons.push('pulse_missing');
    return reasons;
  }
  if (!found.pulseStored) reasons.push('pulse_missing');
  for (const name of found.checks) {
    if (name === 'IncorrectWeightVersionKey') reasons.push('version_key_raised');
    else if (name === 'NotEnoughStakeToSetWeights') reasons.push('stake_lost');
    else if (name === 'NeuronNoValidatorPermit') reasons.push('permit_lost');
    else if (name === 'HotKeyNotRegisteredInSubNet') reasons.push(found.swapped ? 'hotkey_swapped' : 'deregistered');
    else if (!reasons.includes('other_weights_check')) reasons.push('other_weights_check');
  }
  if (reasons.length === 0) reasons.push('hotkey_mismatch', 'undecryptable');
  return reasons;
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/** Whether the chain's block at `block.number` is no longer `block` (a reorganisation replaced it). */
async function replacedBlock(connection: ChainConnection, block: { readonly number: bigint; readonly hash: string }): Promise<boolean> {
  const hash = await connection.request('chain_getBlockHash', (api) => api.rpc.chain.getBlockHash(block.number));
  return hash.toHex() !== block.hash;
}

async function waitFinalized(connection: ChainConnection, number: bigint, deadline: number, pollMs: number): Promise<boolean> {
  for (;;) {
    const fin = await connection.request('chain_getFinalizedHead', (api) => api.rpc.chain.getFinalizedHead());
    const finNumber = (await connection.request('chain_getHeader', (api) => api.rpc.chain.getHeader(fin))).number.toBigInt();
    if (finNumber >= number) return true;
    if (Date.now() > deadline) return false;
    await sleep(pollMs);
  }
}
