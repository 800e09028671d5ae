import { expect, it } from 'vitest';

import * as wallet from '../index.js';

it('exports exactly the public API (every change here is an API change)', () => {
  expect(Object.keys(wallet).sort()).toEqual([
    'WALLET_DEFAULTS',
    'WALLET_ERROR_CODES',
    'btwalletPrivateKeyToPolkadot',
    'decodePasswordEnv',
    'decryptAnsibleVault',
    'decryptNaclKeyfile',
    'encodePasswordEnv',
    'expandHome',
    'loadWalletHotkey',
    'naclKeyFromPassword',
    'parseKeyfileJson',
    'passwordEnvName',
    'readKeyfile',
    'ttyPasswordPrompt',
    'walletFiles',
    'walletHotkeyAddresses',
  ]);
});
