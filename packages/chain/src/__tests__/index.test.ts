import { describe, expect, it } from 'vitest';

import * as mod from '../index.js';

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(mod).sort()).toEqual([
      'CHAIN_ERRORS', 'GLOBAL_MAX_SUBNET_COUNT', 'MODULE_ERROR_NAMES', 'NETWORKS', 'POOL_CUSTOM_ERRORS', 'POOL_STANDARD_ERROR_NAMES', 'SUBTENSOR_SIGNED_EXTENSIONS',
      'chainError', 'chainErrorCode', 'chainUpscale', 'commitPreimage', 'commitStoreFileSchema', 'connectChain', 'convertToU16', 'createChainClient',
      'epochAtBlock', 'fileCommitStore', 'hotkeyFilePath', 'loadSigner', 'mapModuleError', 'mapPoolError', 'mechanismStorageIndex', 'memoryCommitStore',
      'nextAllowedBlockFor', 'pendingCommitSchema', 'preflight', 'readMetagraph', 'redactUrl', 'resolveEndpoints', 'resolveWeights', 'revealWindow',
      'serialiseBySigner', 'submitExtrinsic', 'weightCommitHash', 'withTimeout',
    ]);
  });
});
