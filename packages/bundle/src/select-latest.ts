import { compareCodePoints } from '@subnet/core';

import { BUNDLE_ERROR_CODES } from './errors.js';
import { compareHotkeys } from './hotkey-order.js';
import type { Exclusions, RecordList } from './exclusion.js';

/**
 * Latest record wins (internal): per miner hotkey, the record with the highest seq (ties: record id), the
 * result sorted by hotkey; every other record of that miner is excluded as superseded, naming its successor.
 *
 * @param list - the records' list (for exclusions)
 * @param records - usable records (screened: each miner hotkey passed the hotkey schema)
 * @param excluded - where superseded records go
 * @returns the latest record per miner, by hotkey
 */
export function latestPerMiner<R extends { readonly miner_hotkey: string; readonly seq: number; readonly record_id: string }>(
  list: RecordList,
  records: readonly R[],
  excluded: Exclusions,
): R[] {
  const best = new Map<string, R>();
  for (const r of records) {
    const current = best.get(r.miner_hotkey);
    if (current === undefined || r.seq > current.seq || (r.seq === current.seq && compareCodePoints(r.record_id, current.record_id) > 0))
      best.set(r.miner_hotkey, r);
  }
  for (const r of records) {
    const kept = best.get(r.miner_hotkey);
    if (kept !== undefined && kept !== r)
      excluded.add(list, r, BUNDLE_ERROR_CODES.superseded, `a later record of this miner (${kept.record_id}, seq ${kept.seq}) is the one used`);
  }
  // Screened records: their hotkeys passed the hotkey schema (base58 text), so code units order them as code points do.
  return [...best.values()].sort((a, b) => compareHotkeys(a.miner_hotkey, b.miner_hotkey));
}
