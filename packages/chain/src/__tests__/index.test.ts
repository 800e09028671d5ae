import { describe, expect, it } from 'vitest';

import * as mod from '../index.js';

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(mod).sort()).toEqual(
      [
        'CHAIN_ERRORS',
        'GLOBAL_MAX_SUBNET_COUNT',
        'MODULE_ERROR_NAMES',
        'NETWORKS',
        'POOL_CUSTOM_ERRORS',
        'POOL_STANDARD_ERROR_NAMES',
        'SUBTENSOR_SIGNED_EXTENSIONS',
        'TIMELOCK_COMMIT_REVEAL_VERSION',
        'chainError',
        'chainErrorCode',
        'chainUpscale',
        'commitPreimage',
        'commitStoreFileSchema',
        'confirmTimelockedReveal',
        'connectChain',
        'convertToU16',
        'createChainClient',
        'epochAtBlock',
        'fileCommitStore',
        'hotkeyFilePath',
        'loadSigner',
        'mapModuleError',
        'mapPoolError',
        'mechanismStorageIndex',
        'memoryCommitStore',
        'nextAllowedBlockFor',
        'pendingCommitSchema',
        'predictRevealRound',
        'preflight',
        'prepareTimelockedCommit',
        'readMetagraph',
        'readTimelockContext',
        'redactUrl',
        'resolveEndpoints',
        'resolveWeights',
        'revealWindow',
        'serialiseBySigner',
        'submitExtrinsic',
        'timelockedCommitCall',
        'timelockedCommitRecord',
        'weightCommitHash',
        'withTimeout',
        // issue 15: runtime epochs, legacy reveal round, stake weight
        'epochRuntime',
        'legacyEpochIndex',
        'legacyShouldRunEpoch',
        'predictLegacyRevealRound',
        'stakeWeight',
        'v2CommitEpoch',
        // docs/spec.md G.33: the owner exemption read from the runtime version
        'exemptsSubnetOwner',
        // issue 15 item 9: the codes as literal constants
        'CHAIN_ERROR_CODES',
        // a commit's wire form, for a store shared through a database (the validator's HA, docs/spec.md G.22)
        'pendingCommitFromJson',
        'pendingCommitToJson',
        // docs/spec.md G.32: how long a silent commit store lock stands before it counts as abandoned
        'COMMIT_STORE_LOCK_STALE_AFTER_MS',
      ].sort(),
    );
  });
});
