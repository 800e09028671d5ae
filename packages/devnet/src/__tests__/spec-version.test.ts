/**
 * The legacy runtime at a spec version between finney's 393 and the stateful epochs of 423 (option `specVersion`,
 * docs/spec.md G.33): it reports that version where a node does (`state_getRuntimeVersion`, the `System.Version`
 * constant, `System.LastRuntimeUpgrade`) and, from spec 397 (opentensor/subtensor e7f05a051: `lib.rs:2520-2531`,
 * `subnets/weights.rs:1165-1170`), takes weights from the subnet owner's hotkey without stake or permit. Read over
 * a real WebSocket with an unmodified ApiPromise.
 */
import { describe, expect, it } from 'vitest';

import { DEVNET_ERROR_CODES } from '../errors.js';
import { parseDevnetOptions } from '../devnet-options.js';
import type { Harness } from './harness.js';
import { harness, include, refusal, rejection } from './harness.js';

type Versioned = { specVersion: { toNumber(): number }; specName: { toString(): string } };

async function reported(h: Harness): Promise<{ rpc: number; constant: number; lastUpgrade: unknown }> {
  const rpc = (await h.api.rpc.state.getRuntimeVersion()) as unknown as Versioned;
  const constant = h.api.consts['system']!['version'] as unknown as Versioned;
  const lastUpgrade = ((await h.api.query['system']!['lastRuntimeUpgrade']!()) as unknown as { toJSON(): unknown }).toJSON();
  return { rpc: rpc.specVersion.toNumber(), constant: constant.specVersion.toNumber(), lastUpgrade };
}

/** uid 3 (no stake, no permit) is the subnet owner; StakeThreshold is above its stake. */
const ownerWithout = { neurons: 4, validators: 2, ownerUid: 3, tempo: 1000, weightsSetRateLimit: 0n, stakeThreshold: 1n } as const;

describe('the devnet reports its spec version (docs/spec.md G.33)', { timeout: 30_000 }, () => {
  it.each([
    [{ runtime: 'legacy' }, 393],
    [{ runtime: 'legacy', specVersion: 400 }, 400],
    [{ runtime: 'stateful' }, 425],
  ] as const)('%o: state_getRuntimeVersion, System.Version and System.LastRuntimeUpgrade say spec %i', async (options, spec) => {
    const h = await harness(options);
    try {
      expect(await reported(h)).toEqual({ rpc: spec, constant: spec, lastUpgrade: { specVersion: spec, specName: 'node-subtensor' } });
    } finally {
      await h.close();
    }
  });

  it('specVersion is 393 to 422 and for the legacy runtime only: DEVNET_INVALID_OPTIONS at options.specVersion', () => {
    expect(refusal(() => parseDevnetOptions({ runtime: 'legacy', specVersion: 392 }))).toMatchObject({
      code: DEVNET_ERROR_CODES.invalidOptions,
      path: 'options.specVersion',
    });
    expect(refusal(() => parseDevnetOptions({ runtime: 'legacy', specVersion: 423 }))).toMatchObject({
      code: DEVNET_ERROR_CODES.invalidOptions,
      path: 'options.specVersion',
    });
    expect(refusal(() => parseDevnetOptions({ runtime: 'stateful', specVersion: 400 }))).toEqual({
      code: DEVNET_ERROR_CODES.invalidOptions,
      path: 'options.specVersion',
      value: 400,
    });
    expect(parseDevnetOptions({ runtime: 'legacy', specVersion: 422 }).specVersion).toBe(422);
  });
});

describe("the subnet owner's hotkey without stake or permit sets weights from spec 397 on, legacy epochs or not (G.33)", { timeout: 30_000 }, () => {
  it.each([393, 396])('legacy spec %i: the pool refuses it for its stake (Custom error: 1, StakeAmountTooLow)', async (specVersion) => {
    const h = await harness({ runtime: 'legacy', specVersion, ...ownerWithout });
    try {
      const owner = h.devnet.accounts[3]!.hotkey;
      expect(await rejection(h.api.tx.subtensorModule!.setWeights!(1, [0, 1], [1, 1], 0), owner)).toBe('1010: Invalid Transaction: Custom error: 1');
    } finally {
      await h.close();
    }
  });

  it.each([
    ['legacy', 397],
    ['legacy', 400],
    ['stateful', undefined],
  ] as const)('%s spec %s: the chain takes it and writes Weights', async (runtime, specVersion) => {
    const h = await harness({ runtime, ...(specVersion === undefined ? {} : { specVersion }), ...ownerWithout });
    try {
      const owner = h.devnet.accounts[3]!.hotkey;
      const done = await include(h, h.api.tx.subtensorModule!.setWeights!(1, [0, 1], [1, 1], 0), owner);
      expect(done.failed).toBeNull();
      const weights = (await h.api.query['subtensorModule']!['weights']!(1, 3)) as unknown as { toJSON(): unknown };
      expect(weights.toJSON()).toEqual([
        [0, 65535],
        [1, 65535],
      ]);
    } finally {
      await h.close();
    }
  });

  it('legacy spec 400: the exemption is the owner’s alone; uid 2 without stake is refused in the pool', async () => {
    const h = await harness({ runtime: 'legacy', specVersion: 400, ...ownerWithout });
    try {
      expect(await rejection(h.api.tx.subtensorModule!.setWeights!(1, [0, 1], [1, 1], 0), h.devnet.accounts[2]!.hotkey)).toBe(
        '1010: Invalid Transaction: Custom error: 1',
      );
    } finally {
      await h.close();
    }
  });
});
