import { parseEpochInput } from '@subnet/aggregation';
import type { ChallengeInput, EpochInput, Evaluation } from '@subnet/aggregation';
import { isHotkey } from '@subnet/core';
import type { Hotkey } from '@subnet/core';

import { compareHotkeys } from './hotkey-order.js';

/** One evaluation of a challenge before it goes on the wire: who scored which miner, and the score (internal). */
export interface EvaluationRow {
  readonly validator_hotkey: string;
  readonly miner_hotkey: string;
  readonly score: number;
}

function byMinerThenValidator(a: EvaluationRow, b: EvaluationRow): number {
  return compareHotkeys(a.miner_hotkey, b.miner_hotkey) || compareHotkeys(a.validator_hotkey, b.validator_hotkey);
}

function isSorted(list: readonly EvaluationRow[]): boolean {
  for (let i = 1; i < list.length; i += 1) if (byMinerThenValidator(list[i - 1] as EvaluationRow, list[i] as EvaluationRow) > 0) return false;
  return true;
}

/**
 * A challenge's own and peer evaluations in one list by (miner, validator), exactly the stable sort of
 * `[...own, ...peers]` (internal): both lists usually come sorted already, and then they are merged
 * (an own row first on a tie, as the stable sort keeps it); otherwise they are sorted.
 *
 * @param own - this validator's rows
 * @param peers - the peers' rows
 * @returns the rows by miner hotkey, then validator hotkey
 */
export function mergeEvaluations(own: readonly EvaluationRow[], peers: readonly EvaluationRow[]): EvaluationRow[] {
  if (!isSorted(own) || !isSorted(peers)) return [...own, ...peers].sort(byMinerThenValidator);
  const out = new Array<EvaluationRow>(own.length + peers.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < own.length && j < peers.length) {
    const a = own[i] as EvaluationRow;
    const b = peers[j] as EvaluationRow;
    if (byMinerThenValidator(a, b) <= 0) {
      out[k++] = a;
      i += 1;
    } else {
      out[k++] = b;
      j += 1;
    }
  }
  while (i < own.length) out[k++] = own[i++] as EvaluationRow;
  while (j < peers.length) out[k++] = peers[j++] as EvaluationRow;
  return out;
}

/** How many accepted validator hotkeys {@link typedEvaluations} remembers per list (a linear scan). */
const KNOWN_VALIDATORS = 8;

/**
 * The typed evaluations `parseEpochInput` would give for `rows` on the wire, or undefined when it might
 * refuse them (a hotkey it does not accept, a score outside [0, 1] or not a number, one validator's
 * second evaluation of a miner, which the sort puts next to its first).
 */
function typedEvaluations(rows: readonly EvaluationRow[], epoch: number): Evaluation[] | undefined {
  const out = new Array<Evaluation>(rows.length);
  let previous: EvaluationRow | undefined;
  // Hotkeys already accepted in this list: the previous row's miner (rows come by miner) and the few
  // validators; equal text is accepted without asking isHotkey again.
  const validators: string[] = [];
  for (let i = 0; i < rows.length; i += 1) {
    const r = rows[i] as EvaluationRow;
    const { validator_hotkey, miner_hotkey, score } = r;
    if (typeof score !== 'number' || !(score >= 0 && score <= 1)) return undefined;
    if (!(previous !== undefined && previous.miner_hotkey === miner_hotkey) && !isHotkey(miner_hotkey)) return undefined;
    if (!validators.includes(validator_hotkey)) {
      if (!isHotkey(validator_hotkey)) return undefined;
      if (validators.length < KNOWN_VALIDATORS) validators.push(validator_hotkey);
    }
    if (previous !== undefined && previous.miner_hotkey === miner_hotkey && previous.validator_hotkey === validator_hotkey) return undefined;
    previous = r;
    // Both hotkeys were accepted above (by isHotkey, or as the same text as one it accepted).
    out[i] = { validatorHotkey: validator_hotkey as Hotkey, minerHotkey: miner_hotkey as Hotkey, epoch, score };
  }
  return out;
}

/** The wire form of `rows` (what `parseEpochInput` reads). */
function wireEvaluations(rows: readonly EvaluationRow[], epoch: number): Record<string, unknown>[] {
  return rows.map((r) => ({ validator_hotkey: r.validator_hotkey, miner_hotkey: r.miner_hotkey, epoch, score: r.score }));
}

/** What computeEpoch hands to the aggregation: the wire input, with each evaluation challenge's rows aside. */
export interface EpochWeightsWire {
  readonly config: unknown;
  /** A safe integer >= 0 (the caller validated it). */
  readonly epoch: number;
  /** The challenges on the wire; an evaluation challenge's `evaluations` is `[]` and its rows are in `rows`. */
  readonly challenges: readonly Record<string, unknown>[];
  readonly stakes: unknown;
  /** Entries that passed the `{ hotkey, uid }` schema of the metagraph (`neuronEntrySchema`). */
  readonly metagraph: readonly { readonly hotkey: string; readonly uid: number }[];
  /** Per challenge index, the evaluation rows by (miner, validator) ({@link mergeEvaluations}). */
  readonly rows: ReadonlyMap<number, readonly EvaluationRow[]>;
}

/**
 * `parseEpochInput` of the whole wire input (internal), without reading the long lists twice: the
 * evaluations and the metagraph were made or validated by the caller, so when every row is one the
 * schema accepts, the rest is parsed with those lists empty and the typed lists are put in their place,
 * which is the value the schema gives for the whole. Otherwise the whole input goes to `parseEpochInput`,
 * which gives the same value or its coded error naming the field. `epoch-weights-input.test.ts` pins the
 * two against each other on valid and hostile rows.
 *
 * @param wire - the input, rows aside
 * @returns the typed input of `computeEpochWeights`
 * @throws SubnetError `AGGREGATION_INVALID_INPUT` naming the first bad field
 */
export function parseEpochWeightsInput(wire: EpochWeightsWire): EpochInput {
  const typed = new Map<number, Evaluation[]>();
  let accepted = true;
  for (const [index, rows] of wire.rows) {
    const list = typedEvaluations(rows, wire.epoch);
    if (list === undefined) {
      accepted = false;
      break;
    }
    typed.set(index, list);
  }
  if (!accepted) {
    const challenges = wire.challenges.map((c, i) => {
      const rows = wire.rows.get(i);
      return rows === undefined ? c : { ...c, evaluations: wireEvaluations(rows, wire.epoch) };
    });
    return parseEpochInput({ config: wire.config, epoch: wire.epoch, challenges, stakes: wire.stakes, metagraph: wire.metagraph });
  }
  const slim = parseEpochInput({ config: wire.config, epoch: wire.epoch, challenges: wire.challenges, stakes: wire.stakes, metagraph: [] });
  return {
    ...slim,
    challenges: slim.challenges.map((c, i): ChallengeInput => {
      const list = typed.get(i);
      return list === undefined ? c : { ...c, evaluations: list };
    }),
    metagraph: wire.metagraph.map((n) => ({ hotkey: n.hotkey as Evaluation['minerHotkey'], uid: n.uid })),
  };
}
