import { cryptoWaitReady } from '@polkadot/util-crypto';
import { beforeAll, describe, expect, it } from 'vitest';

import type { ServeAxonCall } from '../axon-rules.js';
import { serveAxon, serveAxonPoolGuard } from '../axon-rules.js';
import { deriveDevAccounts } from '../dev-accounts.js';
import { parseDevnetOptions } from '../devnet-options.js';
import { buildGenesisState } from '../genesis.js';

/**
 * `serve_axon` as the chain checks it (opentensor/subtensor `subnets/serving.rs` `validate_serve_axon`,
 * `is_valid_ip_address`, `axon_passes_rate_limit`; pool codes of `common/src/transaction_error.rs`), in its order:
 * registration, ip type, ip address, rate limit, port.
 */

beforeAll(async () => {
  await cryptoWaitReady();
});

function genesis(runtime: 'stateful' | 'legacy' = 'stateful', overrides: Record<string, unknown> = {}) {
  const options = parseDevnetOptions({ neurons: 4, validators: 2, tempo: 5, ...overrides });
  const accounts = deriveDevAccounts(options.seed, 4);
  return { state: buildGenesisState(options, accounts, runtime), who: accounts[2]!.hotkeyHex };
}

const call = (over: Partial<ServeAxonCall> = {}): ServeAxonCall => ({
  kind: 'serve_axon',
  netuid: 1,
  version: 1,
  ip: 0x0a00_0001n, // 10.0.0.1
  port: 8091,
  ipType: 4,
  protocol: 4,
  placeholder1: 0,
  placeholder2: 0,
  ...over,
});

const U32_MAX = 0xffff_ffffn;
const U128_MAX = (1n << 128n) - 1n;

describe('serve_axon', () => {
  it('serves an IPv4 and an IPv6 axon, storing it with the block and emitting AxonServed', () => {
    const { state, who } = genesis();
    expect(serveAxon(state, 10n, who, call())).toEqual({ ok: true, events: [{ pallet: 'SubtensorModule', name: 'AxonServed', fields: [1, who] }] });
    expect(state.subnets.get(1)!.neurons[2]!.axon).toMatchObject({ block: 10n, ip: 0x0a00_0001n, port: 8091, ipType: 4 });
    const v6 = genesis();
    expect(serveAxon(v6.state, 10n, v6.who, call({ ipType: 6, ip: 0x2001_0db8n << 96n })).ok).toBe(true);
  });

  it('refuses an ip_type other than 4 and 6 (InvalidIpType, BadRequest 255 in the pool), before the port', () => {
    const { state, who } = genesis();
    for (const ipType of [0, 5, 255]) {
      expect(serveAxon(state, 10n, who, call({ ipType, port: 0 }))).toMatchObject({ ok: false, error: 'InvalidIpType' });
      expect(serveAxonPoolGuard(state, 10n, who, call({ ipType }))).toBe(255);
    }
  });

  it('refuses IPv4 u32::MAX and 127.0.0.1, IPv6 u128::MAX and ::1 (InvalidIpAddress, 11); 0 is allowed', () => {
    const { state, who } = genesis();
    for (const [ipType, ip] of [
      [4, U32_MAX],
      [4, U32_MAX + 1n],
      [4, 0x7f00_0001n],
      [6, U128_MAX],
      [6, 1n],
    ] as const) {
      expect(serveAxon(state, 10n, who, call({ ipType, ip }))).toMatchObject({ ok: false, error: 'InvalidIpAddress' });
      expect(serveAxonPoolGuard(state, 10n, who, call({ ipType, ip }))).toBe(11);
    }
    expect(serveAxonPoolGuard(state, 10n, who, call({ ip: U32_MAX - 1n }))).toBeNull();
    expect(serveAxonPoolGuard(state, 10n, who, call({ ip: 1n }))).toBeNull();
    expect(serveAxonPoolGuard(state, 10n, who, call({ ipType: 6, ip: 0x7f00_0001n }))).toBeNull();
    expect(serveAxon(state, 10n, who, call({ ip: 0n })).ok).toBe(true);
  });

  it('holds ServingRateLimit blocks between serves (ServingRateLimitExceeded, 12); 0 disables it', () => {
    const { state, who } = genesis('stateful', { servingRateLimit: 5n });
    expect(serveAxon(state, 10n, who, call()).ok).toBe(true);
    expect(serveAxon(state, 14n, who, call())).toMatchObject({ ok: false, error: 'ServingRateLimitExceeded' });
    expect(serveAxonPoolGuard(state, 14n, who, call())).toBe(12);
    expect(serveAxon(state, 15n, who, call()).ok).toBe(true);
    const off = genesis('stateful', { servingRateLimit: 0n });
    expect(serveAxon(off.state, 10n, off.who, call()).ok).toBe(true);
    expect(serveAxon(off.state, 10n, off.who, call()).ok).toBe(true);
  });

  it('refuses port 0 (InvalidPort, 13), after the rate limit', () => {
    const { state, who } = genesis('stateful', { servingRateLimit: 5n });
    expect(serveAxonPoolGuard(state, 10n, who, call({ port: 0 }))).toBe(13);
    expect(serveAxon(state, 10n, who, call()).ok).toBe(true);
    expect(serveAxonPoolGuard(state, 11n, who, call({ port: 0 }))).toBe(12);
  });

  it('stateful (Subtensor main): a hotkey not registered on the netuid it serves is HotKeyNotRegisteredInNetwork (10)', () => {
    const { state, who } = genesis();
    expect(serveAxon(state, 10n, who, call({ netuid: 2 }))).toMatchObject({ ok: false, error: 'HotKeyNotRegisteredInNetwork' });
    expect(serveAxonPoolGuard(state, 10n, who, call({ netuid: 2 }))).toBe(10);
    expect(serveAxonPoolGuard(state, 10n, `0x${'42'.repeat(32)}`, call())).toBe(10);
  });

  it('legacy (finney spec 393): a hotkey registered on any subnet may serve on another netuid', () => {
    const { state, who } = genesis('legacy');
    expect(serveAxonPoolGuard(state, 10n, who, call({ netuid: 2 }))).toBeNull();
    expect(serveAxon(state, 10n, who, call({ netuid: 2 }))).toEqual({
      ok: true,
      events: [{ pallet: 'SubtensorModule', name: 'AxonServed', fields: [2, who] }],
    });
    expect(serveAxonPoolGuard(state, 10n, `0x${'42'.repeat(32)}`, call())).toBe(10);
  });
});
