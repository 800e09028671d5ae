import { describe, expect, it } from 'vitest';

import * as mod from '../index.js';

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(mod).sort()).toEqual([
      'CUSTOM_ERROR',
      'DEVNET_ERROR_CODES',
      'DEVNET_SIGNED_EXTENSIONS',
      'POOL_ERRORS',
      'RUNTIME_VERSION',
      'SS58_PREFIX',
      'STATEFUL_RUNTIME_VERSION',
      'beaconSeed',
      'buildMetadata',
      'createDevnetRegistry',
      'defaultDevnetRuntime',
      'deriveDevAccounts',
      'devHotkeyUri',
      'devnetOptionsSchema',
      'maxUpscaleToU16',
      'parseDevnetOptions',
      'runtimeVersionOf',
      'startDevnet',
      'weightCommitHash',
    ]);
  });
});
