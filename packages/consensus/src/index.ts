export { CONSENSUS_ERROR_CODES } from './errors.js';
export type { ConsensusErrorCode } from './errors.js';
export { normaliseEvidenceRef } from './evidence-ref.js';
export { canonicalFindingKey, findingKeyPreimage } from './finding-key.js';
export { majorityThreshold, MIN_GROUP_SIZE } from './majority.js';
export { SEVERITIES, sssaFindingSchema, sssaSchema, VERDICTS } from './sssa-schema.js';
export { parseSssa } from './parse-sssa.js';
export type { ParseSssaOptions } from './parse-sssa.js';
export type { Severity, Sssa, SssaDependency, SssaFinding, SssaPolicyRule, Verdict } from './sssa-schema.js';
export { computeConsensus } from './compute-consensus.js';
export { CONSENSUS_WEIGHTS } from './score-group.js';
export { computeTaskConsensus } from './compute-task-consensus.js';
export type { TaskConsensusInput } from './compute-task-consensus.js';
export type {
  ConsensusComponents,
  ConsensusExplanation,
  ConsensusGroup,
  ConsensusInput,
  ConsensusMemberInput,
  ConsensusResult,
  CveKey,
  DependencyKey,
  ExcludedMember,
  FindingKeyPreimage,
  MemberConsensus,
  PolicyRuleKey,
  Role,
  TaskConsensusResult,
} from './consensus-types.js';
export { DEFAULT_EMISSION_TABLES, emission } from './emission.js';
export { lookupFactor } from './lookup-factor.js';
export type { FactorTable } from './lookup-factor.js';
export type { EmissionFactors, EmissionFactorValues, EmissionResult, EmissionTables } from './emission.js';
export { verificationSeed } from './draw-stream.js';
export { DEFAULT_ELIGIBILITY_FILTERS, selectVerificationGroup } from './select-verification-group.js';
export type {
  EligibilityFilters,
  ExcludedCandidate,
  SelectedMember,
  SelectionCandidate,
  SelectionInput,
  VerificationGroup,
} from './select-verification-group.js';
export { DEFAULT_REPUTATION_SETTINGS, parseReputationTable, reputationTableSchema, updateReputations } from './reputation.js';
export type {
  ReputationEntry,
  ReputationMemberOutcome,
  ReputationObservation,
  ReputationSettings,
  ReputationTable,
  ReputationTaskOutcome,
  ReputationUpdate,
  ReputationUpdateInput,
} from './reputation.js';
export { assignTask, memberRole, taskIdSchema, taskTypeSchema } from './task-assignment.js';
export type { AssignedMember, AssignmentCandidate, TaskAssignment, TaskAssignmentInput } from './task-assignment.js';
