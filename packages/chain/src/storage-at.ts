import type { ApiPromise } from '@polkadot/api';

import { chainError } from './chain-error.js';

type ApiAt = Awaited<ReturnType<ApiPromise['at']>>;

/** A metadata-decorated storage item's query. */
export type StorageQuery = (...args: unknown[]) => Promise<unknown>;

/**
 * Internal: `SubtensorModule.<item>` at a block, as the runtime's metadata decorates it
 * (`at.query.subtensorModule.<item with a lowercase first letter>`).
 *
 * @param at - the API at a block
 * @param item - the storage item as the metadata names it (`WeightCommits`)
 * @param stage - the stage a missing item is reported at
 * @returns the item's query
 * @throws SubnetError `CHAIN_STORAGE_NOT_AVAILABLE` naming the item when the runtime has no such item
 */
export function subtensorStorage(at: ApiAt, item: string, stage: 'read' | 'confirm'): StorageQuery {
  const query = `${item.charAt(0).toLowerCase()}${item.slice(1)}`;
  const fn = (at.query as unknown as Record<string, Record<string, StorageQuery | undefined> | undefined>)['subtensorModule']?.[query];
  if (!fn) throw chainError('StorageNotAvailable', `the runtime has no SubtensorModule.${item}`, { source: 'client', stage, path: 'storage', value: item });
  return fn;
}

/**
 * Internal: the elements of a decoded storage value that is a list or an `Option` of one (none for `None`).
 *
 * @param value - the decoded value
 * @returns its elements
 */
export function optionItems(value: unknown): unknown[] {
  const v = value as { isSome?: boolean; isNone?: boolean; unwrap?: () => unknown };
  if (v.isNone === true) return [];
  return Array.from((v.isSome === true && v.unwrap ? v.unwrap() : value) as Iterable<unknown>);
}
