import { parseEpochInput } from '@subnet/aggregation';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';

import type { EvaluationRow } from '../epoch-weights-input.js';
import { mergeEvaluations, parseEpochWeightsInput } from '../epoch-weights-input.js';
import { keys } from './helpers.js';

let hotkeys: string[] = [];
beforeAll(async () => {
  const k = await keys();
  hotkeys = [k.validator.address, k.peer.address, ...k.miners.map((m) => m.address)];
});

/** The order the aggregation input is written in: by miner hotkey, then validator hotkey (UTF-16 order of SS58 text). */
const byMinerThenValidator = (a: EvaluationRow, b: EvaluationRow): number =>
  a.miner_hotkey < b.miner_hotkey
    ? -1
    : a.miner_hotkey > b.miner_hotkey
      ? 1
      : a.validator_hotkey < b.validator_hotkey
        ? -1
        : a.validator_hotkey > b.validator_hotkey
          ? 1
          : 0;

const outcome = (run: () => unknown): { value: unknown } | { code: string; path: unknown; message: string } => {
  try {
    return { value: run() };
  } catch (error) {
    const e = error as { code: string; message: string; context?: { path?: unknown } };
    return { code: e.code, path: e.context?.path, message: e.message };
  }
};

describe('parseEpochWeightsInput', () => {
  // Hotkeys: indexes into the valid ones, or text the schema refuses (not SS58, a prototype key, empty), or no string.
  const hotkey = fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0, max: 5 }).map((i) => () => hotkeys[i]) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>('5Not-a-hotkey', '__proto__', '', 7, null).map((v) => () => v) },
  );
  const score = fc.oneof(
    { weight: 8, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(-0, 0, 1, Number.NaN, -1e-300, 1.0000000000000002, '0.5', null, Number.POSITIVE_INFINITY) },
  );
  const row = fc.record({ validator_hotkey: hotkey, miner_hotkey: hotkey, score });
  const rows = fc.tuple(fc.array(row, { maxLength: 12 }), fc.boolean());
  const decayState = fc.constantFrom<unknown>(null, { top_score: 0.5, top_epoch: 1, top_hotkey: 'bad' }, { top_score: 2, top_epoch: 1 });
  const config = fc.constantFrom<unknown>(
    { min_validators: 1, min_stake_fraction: 0 },
    {},
    { min_validators: 0 },
    { normalisation: { strategy: 'softmax', temperature: 2 } },
  );

  it('gives what parseEpochInput gives for the whole wire input: the same value, or the same code, path and message', () => {
    fc.assert(
      fc.property(rows, rows, decayState, config, ([ownRaw, sortOwn], [peersRaw, sortPeers], state, pipeline) => {
        const materialise = (list: typeof ownRaw, sort: boolean): EvaluationRow[] => {
          const out = list.map((r) => ({ validator_hotkey: r.validator_hotkey(), miner_hotkey: r.miner_hotkey(), score: r.score }) as unknown as EvaluationRow);
          // Sorted lists take the merge, unsorted ones the sort (typeof guards: the order is only defined for text).
          return out.every((r) => typeof r.miner_hotkey === 'string' && typeof r.validator_hotkey === 'string') && sort ? out.sort(byMinerThenValidator) : out;
        };
        const own = materialise(ownRaw, sortOwn);
        const peers = materialise(peersRaw, sortPeers);
        const challenges = [
          { id: 'term', kind: 'evaluations', alpha: 0.5, decay: true, evaluations: [], decay_state: state },
          { id: 'bounty', kind: 'bounty', alpha: 0.2, records: [] },
        ];
        const metagraph = hotkeys.map((hotkey, uid) => ({ hotkey, uid }));
        const stakes = [{ validator_hotkey: hotkeys[0], stake: '5' }];
        const merged = mergeEvaluations(own, peers);
        const actual = outcome(() => parseEpochWeightsInput({ config: pipeline, epoch: 4, challenges, stakes, metagraph, rows: new Map([[0, merged]]) }));
        // The reference: the whole input on the wire, rows sorted by a stable sort, through the aggregation's parser.
        const wire = [...own, ...peers]
          .sort((a, b) => (typeof a.miner_hotkey === 'string' && typeof b.miner_hotkey === 'string' ? byMinerThenValidator(a, b) : 0))
          .map((r) => ({ validator_hotkey: r.validator_hotkey, miner_hotkey: r.miner_hotkey, epoch: 4, score: r.score }));
        const expected = outcome(() =>
          parseEpochInput({ config: pipeline, epoch: 4, challenges: [{ ...challenges[0], evaluations: wire }, challenges[1]], stakes, metagraph }),
        );
        if (own.concat(peers).every((r) => typeof r.miner_hotkey === 'string' && typeof r.validator_hotkey === 'string')) {
          expect(actual).toStrictEqual(expected);
          if ('value' in expected) {
            // -0 stays -0 (toStrictEqual treats it as 0).
            const scores = (v: unknown) =>
              (v as { challenges: { evaluations?: { score: number }[] }[] }).challenges[0]!.evaluations!.map((e) => Object.is(e.score, -0));
            expect(scores((actual as { value: unknown }).value)).toEqual(scores(expected.value));
          }
        } else {
          // A row without text hotkeys has no defined order: only the verdict must agree (it is refused either way).
          expect('code' in actual).toBe(true);
          expect('code' in expected).toBe(true);
        }
      }),
      { numRuns: 600 },
    );
  });

  it('merges two sorted lists exactly as a stable sort of own then peers orders them (own first on a tie)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })), { maxLength: 15 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })), { maxLength: 15 }),
        fc.boolean(),
        (a, b, sorted) => {
          const make = (list: [number, number][], tag: string) =>
            list.map(([v, m], i) => ({ validator_hotkey: hotkeys[v] as string, miner_hotkey: hotkeys[m] as string, score: 0, tag: `${tag}${i}` }));
          const own = make(a, 'o');
          const peers = make(b, 'p');
          if (sorted) {
            own.sort(byMinerThenValidator);
            peers.sort(byMinerThenValidator);
          }
          const expected = [...own, ...peers].sort(byMinerThenValidator).map((r) => r.tag);
          expect(mergeEvaluations(own, peers).map((r) => (r as (typeof own)[number]).tag)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
