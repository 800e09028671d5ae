/**
 * The devnet's weights rules, one concept per file; re-exported here by name for the package's own users.
 */
export type { DevnetCall, DevnetEvent, DispatchOutcome } from './devnet-call.js';
export { CUSTOM_ERROR } from './custom-error.js';
export { maxUpscaleToU16 } from './max-upscale.js';
export { weightCommitHash } from './weight-commit-hash.js';
export { minStakeOk, neuronOf, rateLimitOk } from './weights-preconditions.js';
export { setWeights } from './set-weights.js';
export { dispatchCall } from './dispatch-call.js';
