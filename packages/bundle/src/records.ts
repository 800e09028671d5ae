/**
 * `@subnet/bundle/records`: the wire schemas of the records an epoch reads (what a validator's ingest routes accept
 * and a bundle's `inputs` hold), without the bundle's signing, so a program that only checks records (a miner's own
 * tooling, `miner-check term`) loads neither `@polkadot/*` nor the epoch pipeline. The same schemas as the package
 * root exports, built into the subpath's own file (so not the same objects: compare results, not schema identity).
 */
export { BUNDLE_ERROR_CODES } from './errors.js';
export type { BundleErrorCode } from './errors.js';
export {
  bountyInputSchema,
  decayStateEntrySchema,
  epochInputsSchema,
  neuronEntrySchema,
  parseEpochInputs,
  peerScoreSchema,
  sssaSubmissionSchema,
  stakeEntrySchema,
  taskRecordSchema,
  termResultSchema,
  termResultsSchema,
  termTaskResultSchema,
  workflowRunSchema,
} from './epoch-inputs.js';
export type { BountyInputRecord, EpochInputs, PeerScoreRecord, SssaSubmissionRecord, TaskRecord, TermResultRecord, WorkflowRunRecord } from './epoch-inputs.js';
