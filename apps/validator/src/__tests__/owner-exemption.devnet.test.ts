/**
 * docs/spec.md G.33: the validator's stake gate, readiness and preflight judge the subnet owner's hotkey by the
 * runtime version read with the metagraph, as the chain does: on Subtensor's own line the owner needs no stake or
 * permit from spec 397 (opentensor/subtensor e7f05a051), while the epochs stay legacy until 423. Against the devnet's
 * legacy runtime at spec 393 (finney) and 400, and its stateful runtime, with the owner (uid 3) holding neither stake
 * nor a permit; the weights go to the chain through the validator's own chain access.
 */
import { loadSigner } from '@subnet/chain';
import { devHotkeyUri, startDevnet } from '@subnet/devnet';
import { describe, expect, it } from 'vitest';

import { checkReadiness } from '../readiness.js';
import { isExemptOwner, stakeBelowThreshold } from '../stake-gate.js';
import type { Storage } from '../storage.js';
import { devnetChainPort } from './commit-reveal-devnet.js';
import { useCleanups } from './helpers.js';

const cleanups = useCleanups();
const OWNER = 3;

/** A storage that answers the readiness probe (the hotkey check is what is judged here). */
const answering = { dialect: 'sqlite', getEpoch: () => Promise.resolve(undefined) } as unknown as Storage;

async function ownerChain(options: { runtime: 'legacy' | 'stateful'; specVersion?: number }) {
  const devnet = await startDevnet({ neurons: 4, validators: 2, ownerUid: OWNER, tempo: 1000, weightsSetRateLimit: 0n, blockTime: 100, ...options });
  cleanups.push(() => devnet.stop());
  const chain = await devnetChainPort(devnet, cleanups, { signer: await loadSigner({ kind: 'uri', uri: devHotkeyUri(devnet.options.seed, OWNER) }) });
  const view = await chain.view();
  const self = view.neurons[OWNER]!;
  const readiness = await checkReadiness({
    storage: answering,
    hotkey: chain.hotkey,
    netuid: 1,
    dryRun: false,
    head: () => ({ block: view.block, changedAtMs: 0, lastReadOk: true }),
    self: () => self,
    stakeRule: () => view,
    staleHeadMs: 60_000,
    storageTimeoutMs: 5_000,
    now: () => 0,
  });
  return { chain, view, self, readiness };
}

describe("the validator judges the subnet owner's hotkey by the runtime version (G.33, real devnet)", { timeout: 60_000 }, () => {
  it('legacy spec 393 (finney): the owner without stake is below the threshold, not ready, and its preflight refused', async () => {
    const { chain, view, self, readiness } = await ownerChain({ runtime: 'legacy' });
    expect([self.hotkey, self.stake, self.validatorPermit, view.ownerHotkey]).toEqual([chain.hotkey, 0n, false, chain.hotkey]);
    expect(view.ownerStakeExempt).toBe(false);
    expect(isExemptOwner(view, self)).toBe(false);
    expect(stakeBelowThreshold(view, self)?.sentence).toMatch(/below the subnet's StakeThreshold .*NotEnoughStakeToSetWeights/);
    expect(readiness.checks.hotkey.ok).toBe(false);
    await expect(chain.preflight([0, 1], [1, 1])).rejects.toMatchObject({ code: 'CHAIN_NOT_ENOUGH_STAKE_TO_SET_WEIGHTS' });
  });

  it.each([
    ['legacy', 'spec 400', 400],
    ['stateful', 'spec 425', undefined],
  ] as const)('%s runtime, %s: the owner passes the gate, is ready, and the chain takes its weights', async (runtime, _spec, specVersion) => {
    const { chain, view, self, readiness } = await ownerChain({ runtime, ...(specVersion === undefined ? {} : { specVersion }) });
    expect([self.stake, self.validatorPermit]).toEqual([0n, false]);
    expect(view.ownerStakeExempt).toBe(true);
    expect(stakeBelowThreshold(view, self)).toBeNull();
    expect(readiness.checks.hotkey).toEqual({
      ok: true,
      detail: `hotkey is uid ${OWNER}, the subnet owner's: the chain takes its weights without a validator permit`,
    });
    await chain.preflight([0, 1], [1, 1]);
    // included without ExtrinsicFailed: `setWeights` throws the chain's refusal (NotEnoughStakeToSetWeights, ...)
    const submission = await chain.setWeights([0, 1], [1, 1]);
    expect([submission.call, submission.block > 0n]).toEqual(['SubtensorModule.set_mechanism_weights', true]);
  });
});
