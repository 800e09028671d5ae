import { checkArray } from './checks.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
import type { Neuron } from './uid-mapping.js';
import { checkMetagraph } from './uid-mapping.js';

/**
 * A validated metagraph, indexed once and reused for every weight computation against it (see
 * {@link indexMetagraph}). Opaque: only this package reads the index behind it.
 */
export interface MetagraphIndex {
  readonly kind: 'metagraph-index';
  /** Number of neurons. */
  readonly size: number;
  /** The largest uid (-1 when empty). */
  readonly maxUid: number;
}

/** What an index holds (internal): uid by hotkey, and the neurons in hotkey order (rank). */
export interface MetagraphTables {
  readonly byHotkey: ReadonlyMap<string, number>;
  /** Hotkey → rank (position in hotkey order). */
  readonly rankOf: ReadonlyMap<string, number>;
  readonly hotkeyAtRank: readonly string[];
  readonly uidAtRank: Int32Array;
  readonly maxUid: number;
}

const indexes = new WeakMap<MetagraphIndex, MetagraphTables>();

/**
 * Validates a metagraph (unique hotkeys, unique u16 uids) once and indexes it by hotkey, so that weight
 * computations against the same metagraph (SPEC C.9) skip both. Hotkeys are plain data: `__proto__` is an
 * ordinary key.
 *
 * @param metagraph - `{ hotkey, uid }[]`
 * @returns an opaque, frozen index to pass as `metagraph` to {@link computeEmitWeights}
 * @throws SubnetError `AGGREGATION_INVALID_INPUT`, `AGGREGATION_DUPLICATE_HOTKEY`, `AGGREGATION_DUPLICATE_UID`
 * @example const index = indexMetagraph(neurons); computeEmitWeights({ scores, metagraph: index, cap: 0.5 })
 */
export function indexMetagraph(metagraph: readonly Neuron[]): MetagraphIndex {
  checkArray(metagraph, 'metagraph');
  const byHotkey = checkMetagraph(metagraph, 'metagraph');
  let maxUid = -1;
  for (const uid of byHotkey.values()) if (uid > maxUid) maxUid = uid;
  // Code-unit order, as every hotkey sum of this package runs (the keys are unique, so the order is total).
  const hotkeyAtRank = [...byHotkey.keys()].sort();
  const rankOf = new Map<string, number>();
  const uidAtRank = new Int32Array(hotkeyAtRank.length);
  hotkeyAtRank.forEach((hotkey, rank) => {
    rankOf.set(hotkey, rank);
    uidAtRank[rank] = byHotkey.get(hotkey) as number;
  });
  const index: MetagraphIndex = Object.freeze({ kind: 'metagraph-index' as const, size: byHotkey.size, maxUid });
  indexes.set(index, { byHotkey, rankOf, hotkeyAtRank, uidAtRank, maxUid });
  return index;
}

/** The tables behind an index, or those of a neuron list indexed now (internal). */
export function resolveMetagraph(metagraph: MetagraphIndex | readonly Neuron[], path: string): MetagraphTables {
  if (Array.isArray(metagraph)) return indexes.get(indexMetagraph(metagraph as readonly Neuron[])) as MetagraphTables;
  const candidate: unknown = metagraph;
  const tables = typeof candidate === 'object' && candidate !== null ? indexes.get(candidate as MetagraphIndex) : undefined;
  if (tables === undefined) fail(AGGREGATION_ERROR_CODES.invalidInput, 'expected a neuron list or an index made by indexMetagraph', path, metagraph);
  return tables;
}
