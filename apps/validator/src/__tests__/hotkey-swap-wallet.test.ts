/**
 * docs/spec.md G.21 with a btcli wallet: after `btcli wallet swap-hotkey` both hotkeys stay in the wallet, so the
 * validator names the one that now holds its uid: when the hotkey leaves the metagraph while it runs
 * (HOTKEY_SWAPPED), and at a start with the old hotkey still configured (HOTKEY_NOT_REGISTERED). The wallet is a copy
 * of btwallet's own files (shared/vectors/wallets): `old` signs, `new` is the hotkey the uid moved to.
 */
import { chmodSync, copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { SubnetError } from '@subnet/core';
import { afterEach, beforeEach, expect, it } from 'vitest';

import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
import type { FakeChain } from './helpers.js';
import { captureLog, fakeChain, keys, tempDir, testConfig } from './helpers.js';

const VECTORS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..', 'shared', 'vectors', 'wallets');
const vector = (path: string): string =>
  (JSON.parse(readFileSync(join(VECTORS, 'index.json'), 'utf8')) as { files: { path: string; expected: { ss58Address: string } }[] }).files.find(
    (f) => f.path === path,
  )!.expected.ss58Address;
const OLD = vector('wallets/miner/hotkeys/uri');
const NEW = vector('wallets/miner/hotkeys/seeded');

let dir: string;
let cleanup: () => void;
let service: ValidatorService | undefined;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  const hotkeys = join(dir, 'wallets', 'vali', 'hotkeys');
  mkdirSync(hotkeys, { recursive: true });
  for (const [from, to] of [
    ['uri', 'old'],
    ['seeded', 'new'],
  ] as const) {
    copyFileSync(join(VECTORS, 'wallets', 'miner', 'hotkeys', from), join(hotkeys, to));
    chmodSync(join(hotkeys, to), 0o600);
  }
});
afterEach(async () => {
  await service?.stop();
  service = undefined;
  cleanup();
});

/** The fake chain with the wallet's `old` hotkey as the validator's uid 0, registered at block 3. */
async function chainWithOldHotkey(): Promise<FakeChain> {
  const chain = fakeChain(await keys());
  (chain as { hotkey: string }).hotkey = OLD; // the port's signer: the wallet's `old` hotkey
  chain.neurons[0] = { ...chain.neurons[0]!, hotkey: OLD, registeredAt: 3n };
  return chain;
}

const config = () => testConfig(dir, { validator: {}, wallet: { name: 'vali', hotkey: 'old', path: join(dir, 'wallets') } });

it('a swap while running: HOTKEY_SWAPPED names the wallet hotkey that holds the uid now (--wallet.hotkey new)', async () => {
  const chain = await chainWithOldHotkey();
  const { logger, lines } = captureLog('warn');
  service = await startValidator({ config: config(), chain, logger, autoTick: false });
  expect(lines.filter((l) => String(l.code).startsWith('HOTKEY_'))).toEqual([]);
  chain.neurons[0] = { ...chain.neurons[0]!, hotkey: NEW };
  chain.headBlock += 10n; // next epoch: the metagraph is read again
  await service.tick();
  const said = lines.filter((l) => l.code === 'HOTKEY_SWAPPED');
  expect(said).toHaveLength(1);
  expect(said[0]).toMatchObject({ hotkey: OLD, uid: 0, newHotkey: NEW, registeredAt: '3' });
  expect(said[0]?.msg).toContain(
    `a hotkey swap moved uid 0 to ${NEW} (registered since block 3). The chain refuses this validator's weights (HotKeyNotRegisteredInSubNet) and /readyz answers 503: ` +
      `restart the validator with --wallet.hotkey new (wallet.hotkey in the configuration: that hotkey of wallet "vali")`,
  );
  // The next close: the chain refuses the preflight with its own words ("not registered"); the line says the cause.
  chain.preflightError = new SubnetError('CHAIN_HOT_KEY_NOT_REGISTERED_IN_SUB_NET', `hotkey ${OLD} is not registered on netuid 1`);
  chain.headBlock += 10n;
  await service.tick();
  const refused = lines.filter((l) => l.cause !== undefined);
  expect(refused).toHaveLength(1);
  expect(refused[0]?.msg).toBe(
    `preflight failed, not submitting: the hotkey is not registered: a hotkey swap moved uid 0 to ${NEW} (registered since block 3)`,
  );
  expect(refused[0]).toMatchObject({ error: { code: 'CHAIN_HOT_KEY_NOT_REGISTERED_IN_SUB_NET' } });
});

it('a start with the old hotkey after the swap: HOTKEY_NOT_REGISTERED names the hotkey of the same wallet that is registered', async () => {
  const chain = await chainWithOldHotkey();
  chain.neurons[0] = { ...chain.neurons[0]!, hotkey: NEW };
  const { logger, lines } = captureLog('warn');
  service = await startValidator({ config: config(), chain, logger, autoTick: false });
  const said = lines.filter((l) => l.code === 'HOTKEY_NOT_REGISTERED');
  expect(said).toHaveLength(1);
  expect(said[0]).toMatchObject({ hotkey: OLD, walletHotkey: 'new', walletHotkeyUid: 0 });
  const ready = (await (await fetch(`${service.url}/readyz`)).json()) as { checks: { hotkey: { ok: boolean; detail: string } } };
  expect(ready.checks.hotkey).toEqual({
    ok: false,
    detail: `hotkey ${OLD} is not registered on netuid 1: hotkey "new" of wallet "vali" (${NEW}) is uid 0 on netuid 1: run with --wallet.hotkey new (wallet.hotkey in the configuration)`,
  });
  expect(said[0]?.msg).toMatch(
    new RegExp(
      `^hotkey ${OLD} is not registered on netuid 1 \\(\\d+ neurons\\): .*; hotkey "new" of wallet "vali" \\(${NEW}\\) is uid 0 on netuid 1: run with --wallet.hotkey new \\(wallet.hotkey in the configuration\\), or register this one$`,
    ),
  );
});

it('a key from a URI is no wallet: the warning keeps its general advice', async () => {
  const chain = await chainWithOldHotkey();
  chain.neurons[0] = { ...chain.neurons[0]!, hotkey: NEW };
  const { logger, lines } = captureLog('warn');
  const uriKey = testConfig(dir, { wallet: { name: 'vali', hotkey: 'old', path: join(dir, 'wallets') } }); // validator.hotkey_uri //Alice
  (chain as { hotkey: string }).hotkey = (await keys()).validator.address;
  service = await startValidator({ config: uriKey, chain, logger, autoTick: false });
  const said = lines.filter((l) => l.code === 'HOTKEY_NOT_REGISTERED');
  expect(said[0]?.msg).toContain('register it on the subnet, or check the wallet');
  expect(said[0]).not.toHaveProperty('walletHotkey');
});
