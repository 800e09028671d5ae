import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { expandHome, WALLET_DEFAULTS, walletFiles } from '../wallet-location.js';

describe('btcli wallet layout (btwallet:src/wallet.rs:287-347)', () => {
  it('defaults to name default, hotkey default, path ~/.bittensor/wallets/', () => {
    expect(WALLET_DEFAULTS).toEqual({ name: 'default', hotkey: 'default', path: '~/.bittensor/wallets/' });
  });

  it('hotkeys/<hotkey>, hotkeys/<hotkey>pub.txt, coldkey, coldkeypub.txt under <path>/<name>, ~ expanded, no doubled separator', () => {
    const files = walletFiles({ name: 'miner', hotkey: 'hk', path: '~/.bittensor/wallets/' }, '/home/user');
    expect(files).toEqual({
      hotkey: '/home/user/.bittensor/wallets/miner/hotkeys/hk',
      hotkeyPub: '/home/user/.bittensor/wallets/miner/hotkeys/hkpub.txt',
      coldkey: '/home/user/.bittensor/wallets/miner/coldkey',
      coldkeyPub: '/home/user/.bittensor/wallets/miner/coldkeypub.txt',
    });
    expect(walletFiles({ name: 'm', hotkey: 'h', path: '/w' }).hotkey).toBe(join('/w', 'm', 'hotkeys', 'h'));
  });

  it('expands only a leading ~', () => {
    expect(expandHome('~', '/h')).toBe('/h');
    expect(expandHome('/a/~/b', '/h')).toBe('/a/~/b');
  });
});
