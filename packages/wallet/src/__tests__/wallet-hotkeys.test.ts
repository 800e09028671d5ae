import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { walletHotkeyAddresses } from '../index.js';
import { copyVectors, walletIndex } from './helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** The address btwallet gives the vector file at `path` (shared/vectors/wallets/index.json). */
const expected = (path: string): string => walletIndex().files.find((f) => f.path === path)!.expected.ss58Address;

describe('walletHotkeyAddresses: the hotkeys of a wallet whose addresses read without a password', () => {
  it("lists btwallet's hotkeys by name with their addresses: from the pub file when there is one, else from the plain hotkey file", async () => {
    const v = copyVectors();
    cleanups.push(v.cleanup);
    const hotkeys = join(v.dir, 'wallets', 'miner', 'hotkeys');
    rmSync(join(hotkeys, 'defaultpub.txt'), { force: true });
    const found = await walletHotkeyAddresses({ name: 'miner', path: join(v.dir, 'wallets') });
    expect(found.map((h) => h.name)).toEqual(['default', 'locked', 'seeded', 'uri']);
    for (const h of found) expect(h.address).toBe(expected(`wallets/miner/hotkeys/${h.name}`));
    expect(found.find((h) => h.name === 'default')?.from).toBe('keyfile');
    // `locked` is encrypted: its address comes from its pub file, and no password was asked for
    expect(found.find((h) => h.name === 'locked')?.from).toBe('pubfile');
  });

  it('leaves out an encrypted hotkey without a pub file, files that are no keyfile and folders; a missing wallet is empty', async () => {
    const v = copyVectors();
    cleanups.push(v.cleanup);
    const hotkeys = join(v.dir, 'wallets', 'miner', 'hotkeys');
    rmSync(join(hotkeys, 'lockedpub.txt'));
    writeFileSync(join(hotkeys, 'notes'), 'not a keyfile');
    mkdirSync(join(hotkeys, 'folder'));
    writeFileSync(join(hotkeys, '.hidden'), '{"ss58Address":"5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"}');
    const found = await walletHotkeyAddresses({ name: 'miner', path: join(v.dir, 'wallets') });
    expect(found.map((h) => h.name)).toEqual(['default', 'seeded', 'uri']);
    expect(await walletHotkeyAddresses({ name: 'nobody', path: join(v.dir, 'wallets') })).toEqual([]);
    expect(await walletHotkeyAddresses({ name: 'miner', path: join(v.dir, 'absent') })).toEqual([]);
  });

  it('refuses a wallet name that is not one path segment, naming the field', async () => {
    await expect(walletHotkeyAddresses({ name: '../x', path: '/tmp' })).rejects.toMatchObject({
      code: 'WALLET_INVALID_NAME',
      context: { path: 'wallet.name' },
    });
  });
});
