import { flagArg, millisecondsArg, objectArg, waitArg } from './client-arguments.js';
import type { ClientContext } from './client-context.js';
import type { RevealOutcome } from './client-types.js';
import type { PendingCommit } from './commit-store.js';
import { readMetagraph } from './metagraph.js';
import type { MetagraphSnapshot } from './metagraph-snapshot.js';
import { revealCommit } from './reveal-commit.js';
import { epochAtBlock } from './reveal-window.js';
import { commitRevealWindow, readWeightCommits } from './weight-commits.js';
import type { WeightCommitEntry } from './weight-commits.js';

/** One subnet's (netuid, mecid) metagraph and this hotkey's `WeightCommits` there, read once per pass. */
interface SubnetReads {
  readonly snapshot: MetagraphSnapshot;
  readonly entries: readonly WeightCommitEntry[];
}

/** One subnet's `WeightCommits` of this hotkey at the finalized head, read once per pass when a kept commit needs it. */
interface FinalizedRead {
  readonly block: bigint;
  readonly hashes: ReadonlySet<string>;
}

/**
 * Whether a commit kept with its era's end (`mortalUntil`) and not in `WeightCommits` at the head can no longer be
 * revealed: the finalized head is past the last block the commit could be included in, and the finalized state does
 * not hold it either (the head's state alone could be a branch that is replaced). A commit without a known era end
 * (saved by an earlier version) is never judged gone here; nor is one whose finalized state cannot be read now (a
 * warning, once a pass for the subnet): it stays `unconfirmed`, so the other commits of the pass are still revealed.
 */
async function eraOverWithout(ctx: ClientContext, commit: PendingCommit, head: MetagraphSnapshot, cache: Map<string, FinalizedRead | null>): Promise<boolean> {
  const until = commit.mortalUntil;
  if (until === undefined || head.block <= until) return false;
  const subnet = `${commit.netuid}/${commit.mecid}`;
  let read = cache.get(subnet);
  if (read === undefined) {
    try {
      const hash = (await ctx.connection.request('chain_getFinalizedHead', (api) => api.rpc.chain.getFinalizedHead())).toHex();
      const snapshot = await readMetagraph(ctx.connection, { netuid: commit.netuid, mecid: commit.mecid, at: hash });
      const entries = await readWeightCommits(ctx.connection, snapshot, commit.hotkey);
      read = { block: snapshot.block, hashes: new Set(entries.map((e) => e.hash)) };
    } catch (error) {
      if ((error as { code?: unknown }).code === 'CHAIN_CLIENT_CLOSED') throw error;
      read = null;
      ctx.logger?.warn?.(
        `the finalized state of netuid ${commit.netuid} cannot be read now (${(error as Error).message}); commit ${commit.commitHash}, past its era's last block ${until} at the head, stays unconfirmed until it can`,
        { commitHash: commit.commitHash, code: (error as { code?: unknown }).code },
      );
    }
    cache.set(subnet, read);
  }
  return read !== null && read.block > until && !read.hashes.has(commit.commitHash);
}

/**
 * The client's `revealPending`: for each commit-reveal v2 commit of this signer in the store, reads the chain's
 * `WeightCommits` and reveals the commits whose reveal epoch is the next block's; expired ones are removed. A commit
 * never seen included is `unconfirmed` while it may still land, and `expired` (`onChain: false`, removed) once the
 * finalized chain is past its era's last block without it. With `untilDone`, polls until none is waiting or
 * unconfirmed, or `timeoutMs` passes.
 *
 * Each pass reads a subnet's metagraph and `WeightCommits` once for all its stored commits (a validator may
 * hold several, one per epoch), and again only after a reveal of this pass was included (the head moved and
 * the commits changed), so every commit of a subnet is judged at the same head.
 *
 * @param ctx - the client context
 * @param args - `wait`, `untilDone`, `timeoutMs` (default the inclusion timeout)
 * @returns one outcome per stored commit of this signer (empty without a commit store)
 * @throws SubnetError `CHAIN_INVALID_INPUT` (`wait`, `timeoutMs`), or the codes of reads and reveals
 */
export async function revealPending(
  ctx: ClientContext,
  args: { readonly wait?: 'inBlock' | 'finalized'; readonly untilDone?: boolean; readonly timeoutMs?: number } = {},
): Promise<readonly RevealOutcome[]> {
  objectArg(args, 'args');
  const wait = waitArg(args.wait);
  const untilDone = flagArg(args.untilDone, 'untilDone') ?? false;
  const timeoutMs = millisecondsArg(args.timeoutMs, 'timeoutMs') ?? ctx.timeoutMs;
  const deadline = Date.now() + timeoutMs;
  const store = ctx.commitStore;
  if (!store) return Object.freeze([]);
  const hotkey = ctx.signer.address;
  for (;;) {
    const outcomes: RevealOutcome[] = [];
    const mine = (await store.load()).filter((c) => c.hotkey === hotkey);
    const reads = new Map<string, SubnetReads>();
    const finalizedReads = new Map<string, FinalizedRead | null>();
    for (const commit of mine) {
      const subnet = `${commit.netuid}/${commit.mecid}`;
      let read = reads.get(subnet);
      if (read === undefined) {
        const snapshot = await readMetagraph(ctx.connection, { netuid: commit.netuid, mecid: commit.mecid });
        read = { snapshot, entries: await readWeightCommits(ctx.connection, snapshot, hotkey) };
        reads.set(subnet, read);
      }
      const { snapshot } = read;
      const entry = read.entries.find((e) => e.hash === commit.commitHash);
      const base = { commitHash: commit.commitHash, netuid: commit.netuid, mecid: commit.mecid };
      if (!entry) {
        // Not included as far as the store knows, and not on chain: unconfirmed while it may still land; gone once the
        // finalized chain is past the last block its era allows without holding it (nothing can reveal it then).
        const gone = commit.commitBlock !== null || (await eraOverWithout(ctx, commit, snapshot, finalizedReads));
        outcomes.push(
          Object.freeze(
            gone ? { ...base, status: 'expired' as const, onChain: false, window: null } : { ...base, status: 'unconfirmed' as const, window: null },
          ),
        );
        if (gone) await store.remove(commit.commitHash);
        continue;
      }
      const epochInput = { netuid: snapshot.netuid, tempo: snapshot.hyperparameters.tempo, head: snapshot.block, epoch: snapshot.epoch };
      const target = entry.epoch + snapshot.hyperparameters.revealPeriodEpochs;
      const next = epochAtBlock(epochInput, snapshot.block + 1n);
      const window = commitRevealWindow(snapshot, entry.epoch);
      if (next > target) {
        await store.remove(commit.commitHash);
        outcomes.push(Object.freeze({ ...base, status: 'expired' as const, onChain: true, window }));
      } else if (next < target) {
        outcomes.push(Object.freeze({ ...base, status: 'waiting' as const, window }));
      } else {
        const uid = snapshot.hotkeys.indexOf(hotkey);
        const submission = await revealCommit(ctx, commit, snapshot, uid, wait);
        // The reveal is in a block: the head moved and this subnet's commits changed, so the next commit reads again.
        reads.clear();
        finalizedReads.clear();
        outcomes.push(Object.freeze({ ...base, status: 'revealed' as const, window, submission }));
      }
    }
    const waiting = outcomes.some((o) => o.status === 'waiting' || o.status === 'unconfirmed');
    if (!untilDone || !waiting) return Object.freeze(outcomes);
    if (Date.now() > deadline) return Object.freeze(outcomes);
    await new Promise((resolve) => setTimeout(resolve, ctx.pollMs));
  }
}
