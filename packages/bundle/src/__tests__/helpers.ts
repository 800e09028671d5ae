import { Keyring } from '@polkadot/keyring';
import { cryptoWaitReady, signatureVerify } from '@polkadot/util-crypto';
import { expect } from 'vitest';

import { isSubnetError } from '@subnet/core';

import type { buildBundle } from '../index.js';

/** Fixtures for the bundle tests (not a test file). */

export async function keys() {
  await cryptoWaitReady();
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  return {
    validator: keyring.addFromUri('//Alice'),
    peer: keyring.addFromUri('//Bob'),
    other: keyring.addFromUri('//Charlie'),
    miners: ['//m1', '//m2', '//m3', '//m4'].map((uri) => keyring.addFromUri(uri)),
  };
}

export const verifier = (message: Uint8Array, signature: string, address: string): boolean => signatureVerify(message, signature, address).isValid;

export const task = (taskId: string) => ({ task_id: taskId, constraints: { max_budget_tao: 1, max_latency_seconds: 60 } });
export const plan = { nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] };
/** Pre-counted record: quality 1, all steps done, half the budget and half the latency: S = 0.8. */
export const record = (tao = 0.5, seconds = 30) => ({
  output_quality_score: 1,
  actual_tao: tao,
  actual_seconds: seconds,
  steps_completed: 2,
  actual_retries: 0,
  timeouts: 0,
  hard_failures: 0,
});

export const sssa = (verdict: 'ALLOW' | 'BLOCK' | 'REVIEW' = 'ALLOW') => ({
  verdict,
  risk_score: 0.2,
  findings: [],
  capabilities: ['fs.read'],
  dependencies: [],
  policy: { rules: [] },
});

/** A two-miner bounty epoch signed by `k.validator`: the bundle input the bundle and signing tests share. */
export function bountyBundleInput(k: Awaited<ReturnType<typeof keys>>): Omit<Parameters<typeof buildBundle>[0], 'submission'> {
  const [A, B] = k.miners.map((m) => m.address) as [string, string];
  return {
    netuid: 7,
    config: { pipeline: { min_validators: 1, min_stake_fraction: 0 }, challenges: [{ id: 'bounty', kind: 'bounty', alpha: 0.8 }] },
    epoch: 12,
    validatorHotkey: k.validator.address,
    inputs: {
      bounty_records: [
        { record_id: 'b1', seq: 1, miner_hotkey: A, valid_issues: 4, invalid_issues: 1, starred_repos: 2 },
        { record_id: 'b2', seq: 2, miner_hotkey: B, valid_issues: 9, invalid_issues: 0, starred_repos: 0 },
      ],
    },
    stakes: [{ validator_hotkey: k.validator.address, stake: '1000000000' }],
    metagraph: [
      { hotkey: k.validator.address, uid: 0 },
      { hotkey: A, uid: 1 },
      { hotkey: B, uid: 2 },
    ],
  };
}

export const dryRun = { status: 'dry_run' as const, block: null, extrinsic_hash: null, call: null, error: null };

export function expectCode(fn: () => unknown, code: string, path?: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(isSubnetError(caught, code), `expected ${code}, got ${String(caught)}`).toBe(true);
  if (path !== undefined) expect((caught as { context: { path: string } }).context.path).toBe(path);
}

/** The code and path of the SubnetError `run` throws, or undefined when it returns (any other error is rethrown). */
export function thrownCode(run: () => unknown): { code: string; path: unknown } | undefined {
  try {
    run();
  } catch (error) {
    if (isSubnetError(error)) return { code: error.code, path: error.context.path };
    throw error;
  }
  return undefined;
}
