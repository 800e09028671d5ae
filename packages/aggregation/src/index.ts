export { aggregateEvaluations } from './aggregate.js';
export type {
  AggregationOptions,
  AggregationResult,
  Evaluation,
  ExcludedEvaluation,
  MinerAggregation,
  UnscoredReason,
  UsedEvaluation,
  ValidatorStake,
} from './aggregate.js';
export { allocateChallenges } from './allocate.js';
export type { AllocationResult, ChallengeWeights } from './allocate.js';
export {
  bountyWeights,
  MAX_VALID_ISSUES,
  MAX_VALID_ISSUES_MESSAGE,
  POINTS_FOR_FULL_WEIGHT,
  POINTS_PER_VALID_ISSUE,
  STAR_BONUS_MAX,
  STAR_BONUS_MIN_VALID_ISSUES,
  STAR_BONUS_PER_REPO,
} from './bounty.js';
export type { BountyMinerExplanation, BountyRecord, BountyResult } from './bounty.js';
export { decayBurn, decayStep, IMPROVEMENT_TOLERANCE, MIN_EXPONENTIAL_RHO } from './decay.js';
export type { DecayOptions, DecayState, DecayStepResult } from './decay.js';
export { computeEmitWeights } from './emit-weights.js';
export type { EmitWeightsInput, EmitWeightsResult, ParallelScores } from './emit-weights.js';
export { computeEpochWeights } from './epoch-weights.js';
export type { ChallengeExplanation, EpochWeightsResult, MinerChallengeStages, MinerExplanation } from './epoch-weights.js';
export { computeEpochWeightsWire } from './epoch-weights-wire.js';
export type { EpochWeightsWire, Wire } from './epoch-weights-wire.js';
export { formatEpochExplanation } from './format.js';
export { AGGREGATION_ERROR_CODES } from './errors.js';
export type { AggregationErrorCode } from './errors.js';
export { indexMetagraph } from './metagraph-index.js';
export type { MetagraphIndex } from './metagraph-index.js';
export { compareTiedMiners, normaliseScores } from './normalise.js';
export type { MinerScore, NormalisationOptions, NormalisationResult, NormalisationStrategy, TieRank } from './normalise.js';
export type { HotkeyWeight } from './order.js';
export { detectOutliers, MEAN_AD_FACTOR, MIN_EVALUATIONS_FOR_OUTLIERS, MODIFIED_Z_CONSTANT } from './outliers.js';
export type { OutlierBasis, OutlierOptions, OutlierResult } from './outliers.js';
export { passRate } from './pass-rate.js';
export type { PassRateResult, TaskResult } from './pass-rate.js';
export {
  bountyRecordSchema,
  challengeConfigSchema,
  challengeInputSchema,
  decayConfigSchema,
  decayStateSchema,
  DEFAULT_PIPELINE_CONFIG,
  epochInputSchema,
  evaluationSchema,
  evaluationsSchema,
  neuronSchema,
  normalisationConfigSchema,
  outlierConfigSchema,
  parseEpochInput,
  pipelineConfigSchema,
  stakeAmountSchema,
  stakeSchema,
  stakesSchema,
  submissionSchema,
} from './schemas.js';
export type { ChallengeConfig, ChallengeInput, EpochInput, PipelineConfig } from './schemas.js';
export { roundHalfEven, toU16, U16_MAX } from './u16.js';
export type { U16Mode, U16Result, UidWeightVector } from './u16.js';
export { mapHotkeysToUids } from './uid-mapping.js';
export type { Neuron, UidMappingResult, UidWeight } from './uid-mapping.js';
export { applyWeightCap, SUM_TOLERANCE } from './weight-cap.js';
export type { WeightCapOptions, WeightCapResult } from './weight-cap.js';
