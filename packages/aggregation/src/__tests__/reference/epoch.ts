/**
 * SPEC C end to end (reference only): per challenge in id order, aggregate (or bounty) → leave out hotkeys
 * the metagraph does not list → normalise → cap → decay; allocate by α; map hotkeys to uids; u16. Returns what production must agree with.
 */
import type { RefAggregationOptions, RefEvaluation, RefMiner, RefStake } from './aggregate.js';
import { referenceAggregate } from './aggregate.js';
import { referenceAllocate } from './allocate.js';
import type { RefBountyRecord } from './bounty.js';
import { referenceBounty } from './bounty.js';
import { referenceCap } from './cap.js';
import type { RefDecayOptions, RefDecayState } from './decay.js';
import { referenceDecay } from './decay.js';
import { byCodePoint, reject } from './errors.js';
import type { RefStrategy, RefWeights } from './normalise.js';
import { referenceNormalise } from './normalise.js';
import { referenceMap } from './uid-mapping.js';
import { referenceU16 } from './u16.js';

export interface RefEpochInput {
  readonly config: RefAggregationOptions & {
    readonly normalisation: { readonly strategy: RefStrategy; readonly temperature?: number };
    readonly weightCap: number;
    readonly burnUid: number;
    readonly decay: RefDecayOptions;
    readonly u16Mode: 'sum' | 'max';
  };
  readonly epoch: number;
  readonly challenges: readonly {
    readonly id: string;
    readonly kind: 'evaluations' | 'bounty';
    readonly alpha: number;
    readonly decay: boolean;
    readonly weightCap?: number;
    readonly evaluations?: readonly RefEvaluation[];
    readonly submissions?: readonly { readonly hotkey: string; readonly submittedAt: number }[];
    readonly decayState?: RefDecayState | null;
    readonly records?: readonly RefBountyRecord[];
  }[];
  readonly stakes: readonly RefStake[];
  readonly metagraph: readonly { readonly hotkey: string; readonly uid: number }[];
}

export interface RefEpochResult {
  readonly uids: readonly number[];
  readonly weights: readonly number[];
  readonly decayStates: readonly { readonly challengeId: string; readonly state: RefDecayState | null }[];
  /** Per challenge id: the aggregation (evaluations challenges). */
  readonly aggregations: ReadonlyMap<string, readonly RefMiner[]>;
  /** Per challenge id: its miner weights after cap and decay. */
  readonly challengeWeights: ReadonlyMap<string, RefWeights>;
  /** Weight per uid before u16. */
  readonly uidWeights: ReadonlyMap<number, number>;
  /** True when some cap bound (then the doubles downstream are compared within a tolerance). */
  readonly capBound: boolean;
}

export function referenceEpoch(input: RefEpochInput): RefEpochResult {
  const { config } = input;
  const ids = input.challenges.map((c) => c.id).sort(byCodePoint);
  if (new Set(ids).size !== ids.length) reject('AGGREGATION_DUPLICATE_CHALLENGE', 'challenge twice');
  const aggregations = new Map<string, readonly RefMiner[]>();
  const challengeWeights = new Map<string, RefWeights>();
  const decayStates: { challengeId: string; state: RefDecayState | null }[] = [];
  let capBound = false;
  const allocation: { id: string; alpha: number; weights: RefWeights }[] = [];
  // SPEC C.9: a hotkey the epoch's metagraph does not list takes no part in its challenge's weights.
  const registered = new Set(input.metagraph.map((n) => n.hotkey));
  for (const c of [...input.challenges].sort((a, b) => byCodePoint(a.id, b.id))) {
    const cap = c.weightCap ?? config.weightCap;
    let weights: RefWeights;
    if (c.kind === 'bounty') {
      if (c.decay) reject('AGGREGATION_INVALID_INPUT', 'bounty with decay');
      weights = referenceBounty((c.records ?? []).filter((r) => registered.has(r.hotkey)));
      const capped = referenceCap(weights, cap);
      capBound ||= capped.capped.length > 0;
      weights = capped.weights;
    } else {
      const miners = referenceAggregate(c.evaluations ?? [], input.stakes, config, input.epoch);
      aggregations.set(c.id, miners);
      const at = new Map((c.submissions ?? []).map((s) => [s.hotkey, s.submittedAt] as const));
      const scores = miners.flatMap((m) =>
        m.score === null || !registered.has(m.hotkey)
          ? []
          : [{ hotkey: m.hotkey, score: m.score, ...(at.has(m.hotkey) ? { submittedAt: at.get(m.hotkey)! } : {}) }],
      );
      const normalised = referenceNormalise(scores, config.normalisation.strategy, config.normalisation.temperature ?? 1);
      const capped = referenceCap(normalised, cap);
      capBound ||= capped.capped.length > 0;
      weights = capped.weights;
      if (c.decay) {
        // docs/spec.md G.9: only winner_takes_all ranks by submission, so only it passes them to decay.
        const ranked = config.normalisation.strategy === 'winner_takes_all' ? scores : scores.map((s) => ({ hotkey: s.hotkey, score: s.score }));
        const d = referenceDecay(c.decayState ?? null, input.epoch, ranked, config.decay);
        decayStates.push({ challengeId: c.id, state: d.state });
        weights = weights.map((w) => ({ hotkey: w.hotkey, weight: w.weight * (1 - d.burn) }));
      }
    }
    challengeWeights.set(c.id, weights);
    allocation.push({ id: c.id, alpha: c.alpha, weights });
  }
  const allocated = referenceAllocate(allocation);
  const uidWeights = referenceMap(allocated.weights, allocated.burn, input.metagraph, config.burnUid);
  const u16 = referenceU16(uidWeights, config.u16Mode);
  return { ...u16, decayStates, aggregations, challengeWeights, uidWeights, capBound };
}
