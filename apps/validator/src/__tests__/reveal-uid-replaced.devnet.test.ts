/**
 * docs/spec.md G.19 on a real devnet (@subnet/devnet over WebSocket JSON-RPC, the validator's real chain access,
 * commit-reveal v4 with its own drand beacon): the chain reveals the validator's timelocked commit in block R, and a
 * registration (`devnet.replaceNeuron`, Subtensor's `replace_neuron`) takes the validator's uid later in R, which
 * removes the weights the reveal set. The confirmation must say that (`uid_replaced`, `VALIDATOR_UID_REPLACED`, the
 * block, uid and new hotkey first), not `unconfirmed` (the chain's state contradicting the commit). The same for a
 * direct `set_weights` whose uid a registration takes later in its block: `VALIDATOR_UID_REPLACED`, not
 * `CHAIN_WEIGHTS_NOT_CONFIRMED`. And a hotkey swap between the commit and its reveal (`devnet.swapHotkey`, Subtensor's
 * `swap_hotkey`, which moves the uid but not the timelocked commit): `not_revealed` with the reason `hotkey_swapped`
 * and the uid's new hotkey, not `deregistered`.
 */
import { Keyring } from '@polkadot/keyring';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { connectChain, loadSigner } from '@subnet/chain';
import { devHotkeyUri, startDevnet } from '@subnet/devnet';
import { expect, it } from 'vitest';

import type { PendingReveal } from '../chain-port.js';
import { hotkeyDeparture } from '../hotkey-departure.js';
import { createMetrics } from '../metrics.js';
import { confirmPendingReveals } from '../reveal-confirm.js';
import { timelockRecordFromJson } from '../timelock-record-json.js';
import { devnetChainPort, storageWithPendingReveal } from './commit-reveal-devnet.js';
import { useCleanups } from './helpers.js';

const cleanups = useCleanups();

/** Produces a block whenever the pool holds an extrinsic, until `work` settles (the devnet makes blocks only when asked). */
async function includingUntil<T>(devnet: { produceBlock(): Promise<unknown>; poolSize(): number }, work: Promise<T>): Promise<T> {
  const state = { done: false };
  const settled = work.finally(() => {
    state.done = true;
  });
  while (!state.done) {
    if (devnet.poolSize() > 0) await devnet.produceBlock();
    await new Promise((r) => setTimeout(r, 10));
  }
  return settled;
}

it('a reveal whose uid a registration takes later in the reveal block is recorded uid_replaced with VALIDATOR_UID_REPLACED, naming the block, uid and new hotkey first, not unconfirmed (docs/spec.md G.19)', async () => {
  await cryptoWaitReady();
  const newHotkey = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri('//reveal-uid-replaced').address;
  // blocks made by the test, final at once
  const devnet = await startDevnet({
    neurons: 6,
    validators: 2,
    tempo: 10,
    weightsSetRateLimit: 0n,
    commitReveal: true,
    beacon: { period: 12 },
  });
  cleanups.push(() => devnet.stop());
  // The validator at uid 1 (uid 0 holds the subnet owner hotkey, which replace_neuron never replaces).
  const chain = await devnetChainPort(devnet, cleanups, {
    revealCheckTimeoutMs: 5_000,
    signer: await loadSigner({ kind: 'uri', uri: devHotkeyUri(devnet.options.seed, 1) }),
  });
  const landed = await includingUntil(devnet, chain.setWeights([3, 4], [30_000, 40_000]));
  const timelock = landed.timelock as PendingReveal;
  expect(timelock).toBeDefined();
  // The chain reveals the commit in the first block from its due block that begins with the round's drand pulse
  // stored (the reveal step, in on_initialize, reads the state the block starts from).
  const reader = await connectChain({ network: devnet.url });
  cleanups.push(() => reader.close());
  const round = timelockRecordFromJson(timelock.record).revealRound;
  const pulseStored = (): Promise<boolean> =>
    reader.request('pulse', async (api) => ((await api.query['drand']!['pulses']!(round)) as unknown as { isSome: boolean }).isSome);
  while (!((await pulseStored()) && BigInt(devnet.bestNumber() + 1) >= timelock.dueBlock)) await devnet.produceBlock();
  const revealBlock = devnet.bestNumber() + 1;
  // The registration is applied in the next block, after its on_initialize (the reveal).
  devnet.replaceNeuron(1, newHotkey);
  await devnet.produceBlock();

  await devnet.produceBlock();
  const check = await chain.confirmReveal!(timelock.record);
  expect(check).toMatchObject({ status: 'uid_replaced', block: BigInt(revealBlock), uid: 1, newHotkey });

  // The confirmation pass records it as its own outcome, counts it and warns with the cause first.
  const storage = await storageWithPendingReveal(cleanups, 5, timelock);
  const metrics = createMetrics();
  const warns: { obj: Record<string, unknown>; msg: string }[] = [];
  const logger = { info: () => undefined, warn: (obj: unknown, msg: string) => warns.push({ obj: obj as Record<string, unknown>, msg }) };
  expect(await confirmPendingReveals({ storage, chain, metrics, logger })).toEqual([{ epoch: 5, status: 'uid_replaced' }]);
  const row = await storage.getEpoch(5);
  expect(row?.revealStatus).toBe('uid_replaced');
  expect(JSON.parse(row?.reveal ?? '{}')).toMatchObject({
    code: 'VALIDATOR_UID_REPLACED',
    reason: 'uid_replaced',
    block: String(revealBlock),
    uid: 1,
    new_hotkey: newHotkey,
  });
  const counted = (await metrics.revealConfirmations.get()).values.map((v) => ({ ...v.labels, value: v.value }));
  expect(counted).toEqual([{ outcome: 'uid_replaced', reason: 'VALIDATOR_UID_REPLACED', value: 1 }]);
  expect(warns).toHaveLength(1);
  expect(warns[0]?.obj).toMatchObject({ epoch: 5, outcome: 'uid_replaced', code: 'VALIDATOR_UID_REPLACED', block: String(revealBlock), uid: 1, newHotkey });
  expect(warns[0]?.msg).toMatch(
    new RegExp(`^uid 1 was given to ${newHotkey} by a registration in block ${revealBlock}: this validator was deregistered there`),
  );
  expect(warns[0]?.msg).not.toMatch(/unconfirmed|not set/);
}, 120_000);

it('a direct set_weights whose uid a registration takes later in its block fails with VALIDATOR_UID_REPLACED naming the block, uid and new hotkey first, not CHAIN_WEIGHTS_NOT_CONFIRMED (docs/spec.md G.19)', async () => {
  await cryptoWaitReady();
  const newHotkey = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri('//set-uid-replaced').address;
  const devnet = await startDevnet({ neurons: 6, validators: 2, tempo: 10, weightsSetRateLimit: 0n });
  cleanups.push(() => devnet.stop());
  const chain = await devnetChainPort(devnet, cleanups, { signer: await loadSigner({ kind: 'uri', uri: devHotkeyUri(devnet.options.seed, 1) }) });
  const sent = chain.setWeights([3, 4], [30_000, 40_000]);
  sent.catch(() => undefined);
  while (devnet.poolSize() === 0) await new Promise((r) => setTimeout(r, 10));
  // the registration lands in the same block, after the set_weights
  devnet.replaceNeuron(1, newHotkey, undefined, { afterExtrinsics: true });
  const block = (await devnet.produceBlock())?.number;
  const error = (await sent.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code?: string; message?: string; context?: Record<string, unknown> } | undefined;
  expect(error?.code).toBe('VALIDATOR_UID_REPLACED');
  expect(error?.message).toMatch(
    new RegExp(
      `^\\[VALIDATOR_UID_REPLACED\\] uid 1 was given to ${newHotkey} by a registration in block ${String(block)}: this validator was deregistered there`,
    ),
  );
  expect(error?.context).toMatchObject({
    path: 'uid',
    value: 1,
    block: BigInt(block ?? -1),
    newHotkey,
    extrinsicHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
  });
}, 120_000);

it('a hotkey swap between the commit and its reveal is recorded not_revealed with reason hotkey_swapped, naming the new hotkey: the chain reveals the commit as its signer, which holds no uid', async () => {
  await cryptoWaitReady();
  const newHotkey = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri('//reveal-hotkey-swapped').address;
  const devnet = await startDevnet({ neurons: 6, validators: 2, tempo: 10, weightsSetRateLimit: 0n, commitReveal: true, beacon: { period: 12 } });
  cleanups.push(() => devnet.stop());
  const signer = await loadSigner({ kind: 'uri', uri: devHotkeyUri(devnet.options.seed, 1) });
  const chain = await devnetChainPort(devnet, cleanups, { revealCheckTimeoutMs: 5_000, signer });
  const landed = await includingUntil(devnet, chain.setWeights([3, 4], [30_000, 40_000]));
  const timelock = landed.timelock as PendingReveal;
  const self = (await chain.view()).neurons.find((n) => n.hotkey === signer.address)!;
  expect(typeof self.registeredAt).toBe('bigint');
  // The operator moves the validator's neuron to a new hotkey before the reveal.
  devnet.swapHotkey(signer.address, newHotkey);
  while (BigInt(devnet.bestNumber()) < timelock.dueBlock + 4n) await devnet.produceBlock();
  // The metagraph the service reads next says where the uid went: the same registration block, so a swap.
  const after = await chain.view();
  expect(after.neurons[1]).toMatchObject({ hotkey: newHotkey, registeredAt: self.registeredAt });
  expect(hotkeyDeparture(self, after, 1)).toMatchObject({ code: 'HOTKEY_SWAPPED', numbers: { uid: 1, newHotkey } });

  const storage = await storageWithPendingReveal(cleanups, 5, timelock);
  const metrics = createMetrics();
  const warns: { obj: Record<string, unknown>; msg: string }[] = [];
  const logger = { info: () => undefined, warn: (obj: unknown, msg: string) => warns.push({ obj: obj as Record<string, unknown>, msg }) };
  expect(await confirmPendingReveals({ storage, chain, metrics, logger })).toEqual([{ epoch: 5, status: 'not_revealed' }]);
  const row = await storage.getEpoch(5);
  expect(row?.revealStatus).toBe('not_revealed');
  const reveal = JSON.parse(row?.reveal ?? '{}') as { code?: string; reason?: string; reasons?: string[]; message?: string };
  expect(reveal).toMatchObject({ code: 'CHAIN_TIMELOCK_REVEAL_MISSING', reason: 'hotkey_swapped', reasons: ['hotkey_swapped'] });
  expect(reveal.message).toContain(`(likely: hotkey_swapped: uid 1 moved from ${signer.address} to ${newHotkey} by a hotkey swap after the commit`);
  expect(reveal.message).toContain(`; set weights from ${newHotkey})`);
  const counted = (await metrics.revealConfirmations.get()).values.map((v) => ({ ...v.labels, value: v.value }));
  expect(counted).toEqual([{ outcome: 'not_revealed', reason: 'hotkey_swapped', value: 1 }]);
  expect(warns.map((w) => w.obj)).toMatchObject([{ epoch: 5, outcome: 'not_revealed', reason: 'hotkey_swapped', message: reveal.message }]);
  expect(warns[0]?.msg).toBe(`epoch 5's timelocked weights were not revealed (hotkey_swapped): ${reveal.message}`);
}, 120_000);
