import { parseInput, SubnetError } from '@subnet/core';
import { z } from 'zod';

import type { DevnetRuntime } from './runtime-context.js';
import { DEVNET_ERROR_CODES } from './errors.js';
import { MAX_TIMER_MS } from './timer-limit.js';

const u16 = z.number().int().min(0).max(65535);
const u64 = z
  .union([z.bigint(), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)])
  .transform((v) => BigInt(v))
  .refine((v) => v >= 0n && v < 1n << 64n, 'must be a u64');

function ipv4(text: string): bigint | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (m === null) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n);
}

const axonOption = z
  .strictObject({
    ip: z.union([z.string(), z.bigint(), z.number().int().min(0)]),
    port: z.number().int().min(0).max(65535),
    protocol: z.number().int().min(0).max(255).default(4),
    version: z.number().int().min(0).max(0xffff_ffff).default(0),
    ipType: z.union([z.literal(4), z.literal(6)]).optional(),
  })
  .transform((a, ctx) => {
    const ip = typeof a.ip === 'string' ? ipv4(a.ip) : BigInt(a.ip);
    if (ip === null || ip < 0n || ip >= 1n << 128n) {
      ctx.addIssue({ code: 'custom', message: 'ip must be dotted IPv4 text or an integer below 2^128', path: ['ip'] });
      return z.NEVER;
    }
    return { ip, port: a.port, protocol: a.protocol, version: a.version, ipType: a.ipType ?? (ip <= 0xffff_ffffn ? 4 : 6) };
  });

/** Options of {@link startDevnet}; every field is optional. */
export const devnetOptionsSchema = z.strictObject({
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port: z.number().int().min(0).max(65535).default(0),
  /** Milliseconds between blocks (at most 2^31 - 1, Node's longest timer); 0 = manual mode (blocks only via `produceBlock`). */
  blockTime: z.number().int().min(0).max(MAX_TIMER_MS).default(0),
  /** Milliseconds added to the timestamp per block (the chain's slot). */
  slotDuration: z.number().int().positive().default(12_000),
  /** Timestamp (ms) of block 0; block n has `genesisTimestamp + n * slotDuration`. */
  genesisTimestamp: u64.default(1_735_689_600_000n),
  /** Blocks between best and finalized head (0 = finalize immediately). */
  finalityLag: z.number().int().min(0).max(64).default(0),
  /** Seed of the dev accounts (and so of the genesis). */
  seed: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . - only')
    .default('devnet'),
  /** Key type of the dev accounts (Subtensor accepts both through MultiSignature). */
  keyType: z.enum(['sr25519', 'ed25519']).default('sr25519'),
  netuid: z.number().int().min(1).max(4095).default(1),
  neurons: z.number().int().min(1).max(4096).default(8),
  validators: z.number().int().min(0).max(4096).default(2),
  /** Uid of the subnet owner's hotkey, or null for an owner without a registered hotkey. */
  ownerUid: z.number().int().min(0).nullable().default(0),
  /** Alpha stake (rao) per uid; defaults: validators `validatorStake`, others 0. */
  stakes: z.array(u64).optional(),
  validatorStake: u64.default(10_000_000_000_000n),
  /**
   * Axon per uid at genesis (null = never served): `ip` as dotted IPv4 text or the chain's integer, `port`,
   * `protocol` (default 4, as the SDK serves), `version` (u32, default 0), `ipType` (default 4 for IPv4 text and
   * integers below 2^32, else 6). Stored in `Axons` as `serve_axon` would (block 0).
   */
  axons: z.array(axonOption.nullable()).optional(),
  /** `ServingRateLimit[netuid]` (finney default 50). */
  servingRateLimit: u64.default(50n),
  /** Root TAO stake (rao) per uid (`TotalHotkeyAlpha[(hotkey, 0)]`); default all 0. */
  rootStakes: z.array(u64).optional(),
  /** `TaoWeight` (u64; the weight of root TAO in the stake weight is `taoWeight / u64::MAX`). */
  taoWeight: u64.default(0n),
  /** Child keys at genesis: the `child` uid inherits `proportion / u64::MAX` of the `parent` uid's stakes. */
  childKeys: z.array(z.strictObject({ parent: z.number().int().min(0), child: z.number().int().min(0), proportion: u64 })).default([]),
  /** Validator permit per uid; default: the first `validators` uids. */
  permits: z.array(z.boolean()).optional(),
  stakeThreshold: u64.default(1_000_000_000_000n),
  tempo: u16.default(360),
  weightsSetRateLimit: u64.default(100n),
  weightsVersionKey: u64.default(0n),
  minAllowedWeights: u16.default(1),
  maxAllowedValidators: u16.default(64),
  commitReveal: z.boolean().default(false),
  revealPeriodEpochs: u64.default(1n),
  mechanismCount: z.number().int().min(1).max(16).default(1),
  commitRevealVersion: u16.default(4),
  /** Most extrinsics per block. */
  maxBlockExtrinsics: z.number().int().min(1).default(4096),
  /** Blocks of state kept for queries at old hashes. */
  stateHistory: z.number().int().min(8).default(1024),
  /**
   * The devnet's own drand beacon (key from the seed): pulses on the block-timestamp schedule, stored in
   * `Drand.Pulses` / `Drand.LastStoredRound`, its key in `Drand.BeaconConfig`. `genesisTime` (unix seconds of
   * round 1) defaults to the timestamp of block 0; `period` (seconds) to 3 like quicknet; `keepRounds` pulses
   * are kept. `enabled: false` = no pulses (timelocked commits are then never revealed, like a node cut off
   * from drand) and `BeaconConfig` stays at its quicknet default.
   */
  beacon: z
    .strictObject({
      enabled: z.boolean().default(true),
      genesisTime: z.number().int().min(0).max(0xffff_ffff).optional(),
      period: z.number().int().min(1).max(0xffff_ffff).default(3),
      keepRounds: z.number().int().min(1).max(1_000_000).default(1024),
    })
    .prefault({}),
  /**
   * The runtime to run: `stateful` (default; Subtensor main: `SubnetEpochIndex` / `LastEpochBlock` /
   * `PendingEpochAt` epochs, v2 commits keyed by epoch, spec 425) or `legacy` (finney spec 393: epochs by
   * `(block + netuid + 1) / (tempo + 1)`, v2 commits keyed by block, spec 393); or a runtime object (metadata,
   * version) to serve instead of the project's own (tests only), run as `stateful` when its metadata has
   * `SubnetEpochIndex`, else as `legacy`.
   */
  runtime: z
    .union([z.enum(['legacy', 'stateful']), z.custom<DevnetRuntime>((v) => typeof v === 'object' && v !== null && 'metadata' in v)])
    .default('stateful'),
  /**
   * The legacy runtime's spec version (393 to 422; default 393), reported by `state_getRuntimeVersion`,
   * `System.Version` and `System.LastRuntimeUpgrade`: a chain of Subtensor's own line between finney's spec 393 and
   * the stateful epochs of spec 423. From 397 the subnet owner's hotkey is exempt from the stake and permit checks
   * (`e7f05a051`, docs/spec.md G.33); every other rule stays spec 393's. Only with `runtime: 'legacy'`.
   */
  specVersion: z.number().int().min(393).max(422).optional(),
});

/** Input accepted by {@link startDevnet}. */
export type DevnetOptionsInput = z.input<typeof devnetOptionsSchema>;
/** Options after defaults. */
export type DevnetOptions = z.output<typeof devnetOptionsSchema>;

/**
 * Parses devnet options, applying defaults.
 *
 * @param input - the options
 * @returns parsed options
 * @throws `DEVNET_INVALID_OPTIONS` naming the first bad field
 * @example
 * parseDevnetOptions({ neurons: 4 });
 */
export function parseDevnetOptions(input: unknown): DevnetOptions {
  const options = parseInput(devnetOptionsSchema, input ?? {}, DEVNET_ERROR_CODES.invalidOptions, 'options');
  if (options.validators > options.neurons) {
    throw new SubnetError(DEVNET_ERROR_CODES.invalidOptions, 'invalid options: validators must be <= neurons', {
      context: { path: 'options.validators', value: options.validators },
    });
  }
  for (const [i, link] of options.childKeys.entries()) {
    if (link.parent >= options.neurons || link.child >= options.neurons || link.parent === link.child) {
      throw new SubnetError(DEVNET_ERROR_CODES.invalidOptions, 'invalid options: a child key links two different registered uids', {
        context: { path: `options.childKeys[${i}]`, value: `${link.parent}->${link.child}` },
      });
    }
  }
  for (const [name, list] of [
    ['stakes', options.stakes],
    ['permits', options.permits],
    ['rootStakes', options.rootStakes],
    ['axons', options.axons],
  ] as const) {
    if (list !== undefined && list.length !== options.neurons) {
      throw new SubnetError(DEVNET_ERROR_CODES.invalidOptions, `invalid options: ${name} must have one entry per neuron`, {
        context: { path: `options.${name}`, value: list.length },
      });
    }
  }
  if (options.specVersion !== undefined && options.runtime !== 'legacy') {
    throw new SubnetError(DEVNET_ERROR_CODES.invalidOptions, "invalid options: specVersion is for runtime 'legacy' (393 to 422), not this runtime", {
      context: { path: 'options.specVersion', value: options.specVersion },
    });
  }
  if (options.ownerUid !== null && options.ownerUid >= options.neurons) {
    throw new SubnetError(DEVNET_ERROR_CODES.invalidOptions, 'invalid options: ownerUid must be a registered uid', {
      context: { path: 'options.ownerUid', value: options.ownerUid },
    });
  }
  const genesisSeconds = options.genesisTimestamp / 1000n;
  if (options.beacon.genesisTime === undefined && genesisSeconds > 0xffff_ffffn) {
    throw new SubnetError(
      DEVNET_ERROR_CODES.invalidOptions,
      'invalid options: the beacon genesis (block 0 time) must fit a u32 of seconds; set beacon.genesisTime',
      {
        context: { path: 'options.beacon.genesisTime', value: genesisSeconds },
      },
    );
  }
  return options;
}
