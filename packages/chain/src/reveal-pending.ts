import { flagArg, millisecondsArg, objectArg, waitArg } from './client-arguments.js';
import type { ClientContext } from './client-context.js';
import type { RevealOutcome } from './client-types.js';
import { readMetagraph } from './metagraph.js';
import { revealCommit } from './reveal-commit.js';
import { epochAtBlock } from './reveal-window.js';
import { commitRevealWindow, readWeightCommits } from './weight-commits.js';

/**
 * The client's `revealPending`: for each commit-reveal v2 commit of this signer in the store, reads the chain's
 * `WeightCommits` and reveals the commits whose reveal epoch is the next block's; expired ones are removed.
 * With `untilDone`, polls until none is waiting or `timeoutMs` passes.
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
    for (const commit of mine) {
      const snapshot = await readMetagraph(ctx.connection, { netuid: commit.netuid, mecid: commit.mecid });
      const entry = (await readWeightCommits(ctx.connection, snapshot, hotkey)).find((e) => e.hash === commit.commitHash);
      const base = { commitHash: commit.commitHash, netuid: commit.netuid, mecid: commit.mecid };
      if (!entry) {
        outcomes.push(
          Object.freeze(
            commit.commitBlock === null
              ? { ...base, status: 'unconfirmed' as const, window: null }
              : { ...base, status: 'expired' as const, onChain: false, window: null },
          ),
        );
        if (commit.commitBlock !== null) await store.remove(commit.commitHash);
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
        outcomes.push(Object.freeze({ ...base, status: 'revealed' as const, window, submission }));
      }
    }
    const waiting = outcomes.some((o) => o.status === 'waiting' || o.status === 'unconfirmed');
    if (!untilDone || !waiting) return Object.freeze(outcomes);
    if (Date.now() > deadline) return Object.freeze(outcomes);
    await new Promise((resolve) => setTimeout(resolve, ctx.pollMs));
  }
}
