import type { ChainPort, CommitSchedule } from './chain-port.js';
import type { EpochFields, EpochHead, EpochRow, Storage } from './storage.js';
import { timelockRecordFromJson } from './timelock-record-json.js';

/** The HTTP code of a refusal to serve an embargoed epoch's bundle or weights. */
export const BUNDLE_EMBARGOED = 'BUNDLE_EMBARGOED';

/** The HTTP status of the refusal: 425 Too Early (RFC 8470), with `Retry-After`. */
export const EMBARGO_STATUS = 425;

/** Seconds a client is told to wait when the head or the block time is not known yet. */
const UNKNOWN_WAIT_SECONDS = 60;
/** Shortest wait told: once the reveal block is reached, the confirmation takes a pass or two. */
const MIN_WAIT_SECONDS = 5;

/** Why an epoch's weights are not served yet. */
export interface Embargo {
  readonly epoch: number;
  /** The block the chain first tries to reveal the commit at (the predicted reveal block; null when unreadable). */
  readonly revealBlock: bigint | null;
  /** The drand round the commit is encrypted to (null when unreadable). */
  readonly revealRound: bigint | null;
  readonly commitHash: string | null;
  /**
   * `timelock`: the chain reveals the commit (v4); `hash`: this validator reveals it (v2, docs/spec.md G.22); null: not
   * known yet, the epoch's submission is not settled (an earlier `submitting` epoch that holds a later one, G.23).
   */
  readonly scheme: 'timelock' | 'hash' | null;
  /**
   * Set when the epoch has no embargo of its own but an earlier epoch is embargoed (docs/spec.md G.23): that earlier
   * epoch, whose scores and state this epoch's bundle carries; the reveal fields above are that epoch's.
   */
  readonly heldBy?: number;
}

/**
 * Whether an epoch's per-miner weights and scores are embargoed: on a commit-reveal subnet the signed bundle,
 * published at close, holds the u16 weights the chain only reveals about one epoch later; serving them before would
 * undo commit-reveal (anyone could copy them). The embargo holds while the epoch's reveal is `pending` and lifts when
 * an outcome is recorded: for a timelocked (v4) commit revealed, dropped, or overdue (once the reveal round has
 * passed, the commit is public anyway); for a hash (v2) commit revealed by this validator, expired, or its window
 * closed (docs/spec.md G.22). Epochs without a commit are never embargoed.
 *
 * @param row - the epoch row
 * @returns the embargo, or undefined when the epoch's weights may be served
 * @example if (embargoOf(row) !== undefined) reply.code(425)
 */
export function embargoOf(row: Pick<EpochRow, 'epoch' | 'revealStatus' | 'reveal'>): Embargo | undefined {
  if (row.revealStatus !== 'pending') return undefined;
  let revealBlock: bigint | null = null;
  let revealRound: bigint | null = null;
  let commitHash: string | null = null;
  let scheme: 'timelock' | 'hash' = 'timelock';
  try {
    const pending = JSON.parse(row.reveal ?? '') as { due_block?: unknown; commit_hash?: unknown; record?: unknown; scheme?: unknown };
    if (pending.scheme === 'hash') scheme = 'hash';
    if (typeof pending.due_block === 'string' && /^\d+$/.test(pending.due_block)) revealBlock = BigInt(pending.due_block);
    if (typeof pending.commit_hash === 'string') commitHash = pending.commit_hash;
    if (typeof pending.record === 'string') {
      const round = (timelockRecordFromJson(pending.record) as { revealRound?: unknown }).revealRound;
      if (typeof round === 'bigint') revealRound = round;
    }
  } catch {
    // Unreadable: still embargoed (the confirmation records it final, which lifts the embargo).
  }
  return { epoch: row.epoch, revealBlock, revealRound, commitHash, scheme };
}

/**
 * The embargo of an epoch's bundle and weights among the epochs stored (docs/spec.md G.23): its own
 * ({@link embargoOf}), else, while an earlier epoch is embargoed or its submission is not settled (`submitting`: its
 * commit may be in a block), that epoch's (the newest such one), as `heldBy`. A bundle carries the state the close
 * before it carried on (rolling window, decay states, reputations) and weights computed from it: an epoch without a
 * commit of its own (failed, missed, not landed, or one whose reveal was recorded first) served before an earlier
 * commit is revealed would hand out that commit's scores.
 *
 * @param row - the epoch row
 * @param rows - the other epoch rows (heads suffice); only those before `row.epoch` count
 * @returns the embargo, or undefined when the epoch's bundle and weights may be served
 * @example const embargo = embargoAmong(row, [await storage.unsettledBefore(row.epoch)].filter((r) => r !== undefined))
 */
export function embargoAmong(
  row: Pick<EpochRow, 'epoch' | 'status' | 'revealStatus' | 'reveal'>,
  rows: readonly Pick<EpochRow, 'epoch' | 'status' | 'revealStatus' | 'reveal'>[],
): Embargo | undefined {
  const own = embargoOf(row);
  if (own !== undefined) return own;
  let held: Embargo | undefined;
  for (const r of rows) {
    if (r.epoch >= row.epoch || (held !== undefined && r.epoch <= held.epoch)) continue;
    held = embargoOf(r) ?? unsettledOf(r) ?? held;
  }
  return heldBy(row.epoch, held);
}

/**
 * {@link embargoAmong} of every row at once, in one pass from the oldest (each row's `reveal` is read once, not once
 * per later row): for the lists that show every epoch (`GET /v1/epochs`, `GET /v1/weights/latest`, the held files).
 *
 * @param rows - the epoch rows (heads suffice), in any order
 * @returns each embargoed epoch's embargo, by epoch; an epoch absent from it may be served
 * @example const embargoes = embargoesAmong((await headsAndHolder(storage, 100)).deciding)
 */
export function embargoesAmong(rows: readonly Pick<EpochRow, 'epoch' | 'status' | 'revealStatus' | 'reveal'>[]): ReadonlyMap<number, Embargo> {
  const embargoes = new Map<number, Embargo>();
  oldestFirst(rows, (r, own, held) => {
    const embargo = own ?? heldBy(r.epoch, held);
    if (embargo !== undefined) embargoes.set(r.epoch, embargo);
  });
  return embargoes;
}

/**
 * What holds each epoch of a list back from before it (docs/spec.md G.23), in one pass from the oldest: the `heldBy`
 * embargo {@link embargoAmong} gives a row that has no embargo of its own. For a list whose rows are read again one at
 * a time (the pages read each epoch's full row after listing the heads): `embargoOf(row) ?? held.get(row.epoch)` is
 * `embargoAmong(row, rows)` for the row as read again, without walking the earlier rows once per row.
 *
 * @param rows - the epoch rows (heads suffice), in any order, one per epoch
 * @returns each held epoch's embargo (the earlier epoch's, as `heldBy`), by epoch; an epoch absent from it is held by none
 * @example const held = heldEmbargoes(deciding); const embargo = embargoOf(row) ?? held.get(row.epoch)
 */
export function heldEmbargoes(rows: readonly Pick<EpochRow, 'epoch' | 'status' | 'revealStatus' | 'reveal'>[]): ReadonlyMap<number, Embargo> {
  const embargoes = new Map<number, Embargo>();
  oldestFirst(rows, (r, _own, held) => {
    const embargo = heldBy(r.epoch, held);
    if (embargo !== undefined) embargoes.set(r.epoch, embargo);
  });
  return embargoes;
}

/**
 * Visits the rows from the oldest with each row's own embargo and the embargo of the newest earlier row that holds the
 * later ones (its own, or `submitting`): each row's `reveal` is parsed once.
 */
function oldestFirst(
  rows: readonly Pick<EpochRow, 'epoch' | 'status' | 'revealStatus' | 'reveal'>[],
  visit: (row: Pick<EpochRow, 'epoch'>, own: Embargo | undefined, held: Embargo | undefined) => void,
): void {
  let held: Embargo | undefined;
  for (const r of [...rows].sort((a, b) => a.epoch - b.epoch)) {
    const own = embargoOf(r);
    visit(r, own, held);
    held = own ?? unsettledOf(r) ?? held;
  }
}

/**
 * The newest `limit` epoch heads, newest first, and the rows that decide their embargoes (docs/spec.md G.23): those
 * heads and, when an epoch older than all of them still holds them (its reveal pending, or still submitting), that
 * epoch's head, however old it is (found by index, so a list is never served past an embargo it cannot see).
 *
 * @param storage - the storage
 * @param limit - how many heads to list
 * @returns `heads` to list and `deciding`, what {@link embargoesAmong}, {@link heldEmbargoes} or {@link embargoAmong} needs for them
 * @throws SubnetError `VALIDATOR_STORAGE` when storage fails
 * @example const { heads, deciding } = await headsAndHolder(storage, 100); const embargoes = embargoesAmong(deciding)
 */
export async function headsAndHolder(
  storage: Pick<Storage, 'listEpochHeads' | 'unsettledBefore'>,
  limit: number,
): Promise<{ readonly heads: readonly EpochHead[]; readonly deciding: readonly EpochHead[] }> {
  const heads = await storage.listEpochHeads(limit);
  const oldest = heads.at(-1);
  const holder = oldest === undefined ? undefined : await storage.unsettledBefore(oldest.epoch);
  return { heads, deciding: holder === undefined ? heads : [...heads, holder] };
}

/** An epoch still `submitting` holds the later ones (its commit may be in a block): an embargo with nothing known yet. */
function unsettledOf(r: Pick<EpochRow, 'epoch' | 'status'>): Embargo | undefined {
  return r.status === 'submitting' ? { epoch: r.epoch, revealBlock: null, revealRound: null, commitHash: null, scheme: null } : undefined;
}

/** The embargo of `epoch` held by an earlier epoch's `held`, if any. */
function heldBy(epoch: number, held: Embargo | undefined): Embargo | undefined {
  return held === undefined ? undefined : { ...held, epoch, heldBy: held.epoch };
}

/** Estimates when a block arrives, from the heads seen. */
export interface BlockClock {
  /** Records a head read at `atMs`. */
  observe(block: bigint, atMs: number): void;
  /** Seconds until `block` at the observed block rate; undefined before two different heads were seen. */
  secondsUntil(block: bigint, nowMs: number): number | undefined;
}

/**
 * Creates a {@link BlockClock}: the block rate is measured between the first head seen and the newest one (a
 * long baseline, so a stall shows as a slower rate).
 *
 * @returns the clock
 * @example const clock = blockClock(); clock.observe(head, Date.now()); clock.secondsUntil(due, Date.now())
 */
export function blockClock(): BlockClock {
  let first: { block: bigint; atMs: number } | undefined;
  let last: { block: bigint; atMs: number } | undefined;
  return {
    observe: (block, atMs) => {
      // A head below the first one seen (a reorganisation, an endpoint that lags) starts the measure again: as a base
      // with a later time than the heads above it, it would give a negative rate.
      if (first === undefined || block < first.block) {
        first = { block, atMs };
        last = { block, atMs };
      } else if (last === undefined || block > last.block) last = { block, atMs };
    },
    secondsUntil: (block, nowMs) => {
      if (first === undefined || last === undefined || last.block <= first.block) return undefined;
      const msPerBlock = (last.atMs - first.atMs) / Number(last.block - first.block);
      const due = last.atMs + Number(block - last.block) * msPerBlock;
      return Math.max(0, (due - nowMs) / 1000);
    },
  };
}

/**
 * The seconds to put in `Retry-After` for an embargo: until the reveal block (at the observed block rate), at
 * least {@link MIN_WAIT_SECONDS}; {@link UNKNOWN_WAIT_SECONDS} when the reveal block or the rate is unknown.
 *
 * @param embargo - the embargo
 * @param secondsUntil - seconds until a block (undefined when unknown)
 * @returns whole seconds
 * @example retryAfterSeconds(embargo, (b) => clock.secondsUntil(b, Date.now()))
 */
export function retryAfterSeconds(embargo: Embargo, secondsUntil: (block: bigint) => number | undefined): number {
  const seconds = embargo.revealBlock === null ? undefined : secondsUntil(embargo.revealBlock);
  return seconds === undefined ? UNKNOWN_WAIT_SECONDS : Math.max(MIN_WAIT_SECONDS, Math.ceil(seconds));
}

/** The refusal's sentence: what the weights wait for (the chain's reveal, this validator's, or an unknown submission's). */
function embargoMessage(embargo: Embargo, retryAfter: number): string {
  if (embargo.heldBy !== undefined) {
    const { heldBy, ...earlier } = embargo;
    return `epoch ${embargo.epoch}'s bundle is held while an earlier epoch is embargoed: it carries the scores and state of epoch ${heldBy}, and ${embargoMessage({ ...earlier, epoch: heldBy }, retryAfter)}`;
  }
  // An earlier epoch still `submitting` (G.23): its commit, if it made one, may be in a block already.
  if (embargo.scheme === null)
    return `epoch ${embargo.epoch}'s submission is not settled yet (a commit of its weights may be in a block); retry after ${retryAfter} s`;
  const at = embargo.revealBlock === null ? 'its reveal block' : `block ${embargo.revealBlock}`;
  const version = embargo.scheme === 'hash' ? 'v2' : 'v4';
  // An unknown submission (unknownSubmissionEmbargo): a commit may have landed; served once its latest reveal is overdue.
  if (embargo.commitHash === null)
    return `epoch ${embargo.epoch}'s submission outcome is unknown and its weights may be committed with commit-reveal ${version}, revealed by ${at} at the latest; they are served once that reveal is overdue; retry after ${retryAfter} s`;
  if (embargo.scheme === 'hash')
    return `epoch ${embargo.epoch}'s weights are committed with commit-reveal v2 and this validator reveals them from ${at}; they are served once the reveal is recorded; retry after ${retryAfter} s`;
  const round = embargo.revealRound === null ? '' : ` (drand round ${embargo.revealRound})`;
  return `epoch ${embargo.epoch}'s weights are committed with commit-reveal v4 and the chain reveals them at ${at}${round}; they are served once the reveal is confirmed; retry after ${retryAfter} s`;
}

/**
 * The JSON error body of a refusal: code, message, the epoch, the reveal block and round, and the wait.
 *
 * @param embargo - the embargo
 * @param retryAfter - seconds (as in the `Retry-After` header)
 * @returns `{ error: { code: 'BUNDLE_EMBARGOED', ... } }`
 * @example reply.code(425).header('retry-after', String(s)).send(embargoError(embargo, s))
 */
export function embargoError(embargo: Embargo, retryAfter: number): { error: Record<string, unknown> } {
  return {
    error: {
      code: BUNDLE_EMBARGOED,
      message: embargoMessage(embargo, retryAfter),
      epoch: embargo.epoch,
      ...embargoFields(embargo),
      retry_after_seconds: retryAfter,
    },
  };
}

/**
 * The embargo as shown in an epoch summary (`GET /v1/epochs`): reveal block and round as decimal strings, who
 * reveals (`timelock`: the chain; `hash`: this validator, docs/spec.md G.22), and, for an epoch held by an earlier
 * epoch's embargo, that epoch (`held_by`, G.23).
 *
 * @param embargo - the embargo
 * @returns wire fields
 * @example { ...summary, embargo: embargoFields(embargo) }
 */
export function embargoFields(embargo: Embargo): {
  reveal_block: string | null;
  reveal_round: string | null;
  commit_hash: string | null;
  scheme: Embargo['scheme'];
  held_by?: number;
} {
  return {
    reveal_block: embargo.revealBlock?.toString() ?? null,
    reveal_round: embargo.revealRound?.toString() ?? null,
    commit_hash: embargo.commitHash,
    scheme: embargo.scheme,
    ...(embargo.heldBy === undefined ? {} : { held_by: embargo.heldBy }),
  };
}

/**
 * The latest block at which a commit whose landing is unknown may be revealed, given the head H
 * at which it is known that nothing more was sent: an extrinsic signed at or before H lands by
 * `L = H + landingBlocks` (its mortal era plus margin) or never, and a commit at block b is revealed (by the chain
 * from its timelock, or by this validator from its commit store) in the chain epoch `revealPeriodEpochs` after b's, by `b + (revealPeriodEpochs + 1) x (tempo + 1)` (a chain epoch
 * is at most tempo + 1 blocks). So `H + landingBlocks + (revealPeriodEpochs + 1) x (tempo + 1)`.
 *
 * @param head - a head at or after the submission was signed
 * @param schedule - the subnet's commit-reveal schedule
 * @returns the bound (the embargo's due block; it lifts at this plus the confirmer's overdue margin)
 * @example unknownRevealBound(100n, { scheme: 'timelock', tempo: 10, revealPeriodEpochs: 1n, landingBlocks: 80n }) // 202n
 */
export function unknownRevealBound(head: bigint, schedule: CommitSchedule): bigint {
  return head + schedule.landingBlocks + (schedule.revealPeriodEpochs + 1n) * BigInt(schedule.tempo + 1);
}

/**
 * The reveal fields of an epoch whose submission reconciliation records `unknown` (VALIDATOR_SUBMISSION_UNKNOWN):
 * on a commit-reveal subnet the commit may have landed, so the epoch is embargoed like a pending reveal with no
 * record (`reveal_status` `pending`, `reveal` `{ commit_hash: null, record: null, due_block, unknown_submission }`,
 * with `scheme: 'hash'` on a commit-reveal v2 subnet, docs/spec.md G.22)
 * until the head is the confirmer's overdue margin past {@link unknownRevealBound} (reveal-confirm.ts then
 * records it `unconfirmed`, `VALIDATOR_REVEAL_OVERDUE`, reason `submission_unknown`, and the embargo lifts).
 * Nothing on a subnet without commit-reveal, or with a chain access that cannot tell or cannot confirm reveals.
 *
 * @param chain - the chain access (its head and {@link ChainPort.commitSchedule})
 * @returns the epoch row fields, or undefined when no embargo applies
 * @throws SubnetError `CHAIN_*` when the chain cannot be read (the caller retries)
 * @example await storage.updateEpoch(epoch, { status: 'unknown', ...(await unknownSubmissionEmbargo(chain)) })
 */
export async function unknownSubmissionEmbargo(chain: ChainPort): Promise<Pick<EpochFields, 'revealStatus' | 'reveal'> | undefined> {
  // Only the reveal confirmation lifts it: a chain access without one could never publish the epoch.
  if (chain.confirmReveal === undefined) return undefined;
  const schedule = (await chain.commitSchedule?.()) ?? null;
  if (schedule === null) return undefined;
  const head = await chain.head();
  const due = unknownRevealBound(head, schedule);
  return {
    revealStatus: 'pending',
    reveal: JSON.stringify({
      ...(schedule.scheme === 'hash' ? { scheme: 'hash' } : {}),
      commit_hash: null,
      record: null,
      due_block: due.toString(),
      unknown_submission: {
        head: head.toString(),
        landing_blocks: schedule.landingBlocks.toString(),
        tempo: schedule.tempo,
        reveal_period_epochs: schedule.revealPeriodEpochs.toString(),
      },
    }),
  };
}
