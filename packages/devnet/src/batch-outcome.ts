import type { ChainState } from './chain-state.js';
import type { DevnetEvent, DispatchOutcome } from './devnet-call.js';

/**
 * The tail of `do_batch_set_weights` / `do_batch_commit_weights` (ab0cb2e52 `subnets/weights.rs:197, 1071`;
 * main `:199, 1069`): the items ran in order (their own events first); then, if any failed,
 * `BatchCompletedWithErrors` once followed by one `BatchWeightItemFailed` per failure (with the item's netuid
 * first on the stateful runtime, main `macros/events.rs:288`); always `BatchWeightsCompleted(netuids, who)`.
 */
export function batchOutcome(
  state: ChainState,
  who: string,
  netuids: readonly number[],
  items: readonly { netuid: number; outcome: DispatchOutcome }[],
): DispatchOutcome {
  const events: DevnetEvent[] = items.flatMap((i) => (i.outcome.ok ? i.outcome.events : []));
  const failures = items.filter((i) => !i.outcome.ok);
  if (failures.length > 0) events.push({ pallet: 'SubtensorModule', name: 'BatchCompletedWithErrors', fields: [] });
  for (const f of failures) {
    const error = { moduleError: f.outcome.ok ? '' : f.outcome.error };
    events.push({ pallet: 'SubtensorModule', name: 'BatchWeightItemFailed', fields: state.runtime === 'stateful' ? [f.netuid, error] : [error] });
  }
  events.push({ pallet: 'SubtensorModule', name: 'BatchWeightsCompleted', fields: [netuids, who] });
  return { ok: true, events };
}
