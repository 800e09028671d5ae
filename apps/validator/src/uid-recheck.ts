import type { ChainPort } from './chain-port.js';
import { appError, VALIDATOR_ERROR_CODES } from './errors.js';

/**
 * Weights on chain are by uid. A uid whose miner is deregistered and whose slot a new hotkey registers into between
 * the metagraph read and the weight extrinsic's block gets the weight meant for the old hotkey: Subtensor masks only
 * weights set at or before the uid's registration block (`epoch/run_epoch.rs:722-728` at 14bc6f9f9, `updated <=
 * registered`; `replace_neuron`, `subnets/uids.rs:54-106`, writes `BlockAtRegistration` = the registration block).
 * So just before sending, the validator reads who holds the uids it is about to weight (docs/spec.md G.7).
 */

/** A uid the computation gave weight to whose hotkey is not the one the computation used. */
export interface UidChange {
  readonly uid: number;
  /** The hotkey of the computation's metagraph. */
  readonly expected: string;
  /** The hotkey holding the uid at the head now (null: no hotkey holds it, the subnet shrank). */
  readonly found: string | null;
}

/** What to do with a computed weight vector once the uids' holders are known. */
export type UidDecision =
  | { readonly action: 'send' }
  | { readonly action: 'recompute'; readonly changes: readonly UidChange[] }
  | { readonly action: 'fail'; readonly changes: readonly UidChange[]; readonly error: { readonly code: string; readonly message: string } };

/**
 * The uids a u16 vector gives a weight above 0: only those can be misdirected (a 0 sent to a new holder gives it
 * nothing), so only those are checked.
 *
 * @param u16 - the vector to send
 * @returns its uids with a weight above 0, in its order
 * @example weightedUids({ uids: [0, 3, 5], weights: [0, 65535, 12] }) // [3, 5]
 */
export function weightedUids(u16: { readonly uids: readonly number[]; readonly weights: readonly number[] }): number[] {
  return u16.uids.filter((_uid, i) => (u16.weights[i] ?? 0) > 0);
}

/**
 * The uids among `uids` whose holder now (`holders[i]` holds `uids[i]`) differs from the computation's metagraph.
 * A uid the metagraph does not list cannot have been weighted from it and is reported with `expected: ''`.
 *
 * @param metagraph - the computation's metagraph (`{ hotkey, uid }`)
 * @param uids - the uids read
 * @param holders - their hotkeys at the head, in the same order (null: none)
 * @returns the changed uids, in `uids` order
 * @example uidChanges([{ hotkey: 'A', uid: 3 }], [3], ['B']) // [{ uid: 3, expected: 'A', found: 'B' }]
 */
export function uidChanges(
  metagraph: readonly { readonly hotkey: string; readonly uid: number }[],
  uids: readonly number[],
  holders: readonly (string | null)[],
): UidChange[] {
  const byUid = new Map(metagraph.map((n) => [n.uid, n.hotkey]));
  const changes: UidChange[] = [];
  uids.forEach((uid, i) => {
    const expected = byUid.get(uid) ?? '';
    const found = holders[i] ?? null;
    if (found !== expected) changes.push({ uid, expected, found });
  });
  return changes;
}

/**
 * The decision (docs/spec.md G.7): no uid changed hands → send; some did on the first computation → recompute the
 * epoch once from a fresh metagraph (the bundle then shows the metagraph used); some did again after that
 * recomputation → send nothing, the epoch fails with `VALIDATOR_UID_CHANGED` (the weights set before stay on chain).
 *
 * @param changes - what {@link uidChanges} found
 * @param recomputed - whether the vector checked is already the recomputation
 * @returns what to do
 * @example decideOnUidChanges([], false) // { action: 'send' }
 */
export function decideOnUidChanges(changes: readonly UidChange[], recomputed: boolean): UidDecision {
  if (changes.length === 0) return { action: 'send' };
  if (!recomputed) return { action: 'recompute', changes };
  const list = describeUidChanges(changes);
  return {
    action: 'fail',
    changes,
    error: {
      code: VALIDATOR_ERROR_CODES.uidChanged,
      message: `uids changed hands again after the epoch was recomputed from a fresh metagraph (${list}): nothing was sent, so no weight goes to a hotkey the epoch did not score`,
    },
  };
}

/**
 * The changed uids in words for an error message: `uid 3 5Grw… -> 5FHn…`, `(none)` for a side no hotkey holds.
 *
 * @param changes - what {@link uidChanges} found
 * @returns one comma-separated list
 * @example describeUidChanges([{ uid: 3, expected: 'A', found: null }]) // 'uid 3 A -> (none)'
 */
export function describeUidChanges(changes: readonly UidChange[]): string {
  return changes.map((c) => `uid ${String(c.uid)} ${c.expected || '(none)'} -> ${c.found ?? '(none)'}`).join(', ');
}

/**
 * The `{ hotkey, uid }` entries of a stored bundle input's metagraph (the claim of an interrupted submission); an entry
 * of another shape is left out, so its uid counts as changed when weighted.
 *
 * @param value - the stored input's `metagraph`
 * @returns its entries
 * @example metagraphOf([{ hotkey: 'A', uid: 3 }, 'junk']) // [{ hotkey: 'A', uid: 3 }]
 */
export function metagraphOf(value: unknown): { hotkey: string; uid: number }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((n: unknown) => {
    if (typeof n !== 'object' || n === null) return [];
    const { hotkey, uid } = n as { hotkey?: unknown; uid?: unknown };
    return typeof hotkey === 'string' && typeof uid === 'number' ? [{ hotkey, uid }] : [];
  });
}

/**
 * Reads who holds the uids `u16` gives weight to (one keyed read of `Keys(netuid, uid)` at the head) and compares
 * them with the computation's metagraph.
 *
 * @param chain - the chain access; one without `uidHolders` (fakes) cannot tell: nothing is reported
 * @param metagraph - the computation's metagraph
 * @param u16 - the vector about to be sent
 * @returns the changed uids (empty when none)
 * @throws whatever the read throws (a `CHAIN_*` error): the caller fails the epoch as a failed preflight
 * @example const changes = await changedUids(chain, input.metagraph, result.u16)
 */
export async function changedUids(
  chain: Pick<ChainPort, 'uidHolders'>,
  metagraph: readonly { readonly hotkey: string; readonly uid: number }[],
  u16: { readonly uids: readonly number[]; readonly weights: readonly number[] },
): Promise<UidChange[]> {
  const uids = weightedUids(u16);
  if (chain.uidHolders === undefined || uids.length === 0) return [];
  const holders = await chain.uidHolders(uids);
  if (holders.length !== uids.length) {
    throw appError(VALIDATOR_ERROR_CODES.chainUnavailable, `the chain answered ${String(holders.length)} uid holders for ${String(uids.length)} uids`, {
      path: 'uidHolders',
      value: holders.length,
    });
  }
  return uidChanges(metagraph, uids, holders);
}
