import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

import type { ChainView } from '../chain-port.js';
import { defaultConfigYaml, resolveConfig } from '../config.js';
import { startValidator } from '../service.js';
import { startupWarnings } from '../startup-warnings.js';
import { MIGRATIONS } from '../storage.js';
import { captureLog, fakeChain, tempDir, testConfig, useKeys } from './helpers.js';

const k = useKeys();

/** A subnet with `validators` permit holders (uid 0 is this validator) and `miners` miners after them. */
function view(validators: number, miners: number, tempo = 360): ChainView {
  return {
    block: 100n,
    tempo,
    neurons: Array.from({ length: validators + miners }, (_, uid) => ({
      uid,
      hotkey: uid === 0 ? k.validator.address : `hotkey-${uid}`,
      stake: uid < validators ? 1_000_000_000n : 0n,
      validatorPermit: uid < validators,
    })),
  };
}

const defaults = () => resolveConfig({ text: defaultConfigYaml() });

describe('start-up warnings: the configuration checked against the chain, with numbers', () => {
  it('the default configuration on a two-validator subnet: min_validators 3 burns the evaluation challenges (90 % of the weight)', () => {
    const warnings = startupWarnings(defaults(), view(2, 20), k.validator.address);
    expect(warnings.map((w) => w.code)).toEqual(['MIN_VALIDATORS_ABOVE_VALIDATOR_COUNT']);
    // The α of the three evaluation challenges (0.4, 0.3, 0.2), summed in challenge id order.
    expect(warnings[0]?.numbers).toEqual({ min_validators: 3, validators: 2, burned_share: 0.9 });
    expect(warnings[0]?.message).toContain('90 % of the weight');
  });

  it('three validators and enough miners: no warning', () => {
    expect(startupWarnings(defaults(), view(3, 20), k.validator.address)).toEqual([]);
  });

  it('this validator counts with stake before its permit; a staked neuron without a permit does not', () => {
    const base = view(3, 20);
    const neurons = base.neurons.map((n) => (n.uid === 0 ? { ...n, validatorPermit: false } : n.uid === 7 ? { ...n, stake: 5_000_000_000n } : n));
    // Its own missing permit is a warning of its own; min_validators counts it (3 validators with stake).
    expect(startupWarnings(defaults(), { ...base, neurons }, k.validator.address).map((w) => w.code)).toEqual(['HOTKEY_NO_VALIDATOR_PERMIT']);
    const others = neurons.map((n) => (n.uid === 2 ? { ...n, validatorPermit: false } : n));
    const burn = startupWarnings(defaults(), { ...base, neurons: others }, k.validator.address).find((w) => w.code === 'MIN_VALIDATORS_ABOVE_VALIDATOR_COUNT');
    expect(burn?.numbers).toMatchObject({ min_validators: 3, validators: 2 });
  });

  it('α summing below 1 says how much burns', () => {
    const config = resolveConfig({
      object: { netuid: 1, scoring: { pipeline: { min_validators: 1 }, challenges: [{ id: 'b', kind: 'bounty', alpha: 0.25 }] } },
    });
    const warnings = startupWarnings(config, view(1, 10), k.validator.address);
    expect(warnings.map((w) => [w.code, w.numbers.burned_share])).toEqual([['ALPHA_SUM_BELOW_ONE', 0.75]]);
    expect(warnings[0]?.message).toContain('75 % of the weight burns');
  });

  it('the numbers give the shares configured, without binary noise (α 0.7: 0.3 burns)', () => {
    const config = resolveConfig({
      object: { netuid: 1, scoring: { pipeline: { min_validators: 1 }, challenges: [{ id: 'b', kind: 'bounty', alpha: 0.7 }] } },
    });
    const warnings = startupWarnings(config, view(1, 10), k.validator.address);
    // In binary 1 - 0.7 is 0.30000000000000004.
    expect(warnings.map((w) => [w.code, w.numbers])).toEqual([['ALPHA_SUM_BELOW_ONE', { alpha_sum: 0.7, burned_share: 0.3 }]]);
  });

  it('a cap that cannot hold (n·cap < 1) names the challenge, the cap, the miners and the share that burns', () => {
    // workflow cap 0.15 with 4 miners: at most 60 % of its share is allocated; 0.4 · 0.4 = 16 % of the weight burns.
    const warnings = startupWarnings(defaults(), view(3, 4), k.validator.address);
    const workflow = warnings.find((w) => w.code === 'CAP_CANNOT_HOLD' && w.numbers.challenge === 'workflow');
    expect(workflow?.numbers).toMatchObject({ cap: 0.15, miners: 4 });
    // 0.4 · (1 − 4 · 0.15) is 0.15999999999999998 in binary; the log gives the share configured.
    expect(workflow?.numbers.burned_share).toBe(0.16);
    expect(warnings.filter((w) => w.code === 'CAP_CANNOT_HOLD').map((w) => w.numbers.challenge)).toEqual(['workflow']);
  });

  it('a subnet of tempo 0 runs no epoch on chain: TEMPO_ZERO says so and what the epochs here are (not EPOCH_LENGTH_NOT_TEMPO)', () => {
    const unset = startupWarnings(resolveConfig({ text: defaultConfigYaml() }), view(3, 20, 0), k.validator.address);
    expect(unset.map((w) => [w.code, w.numbers])).toEqual([['TEMPO_ZERO', { tempo: 0, epoch_length: 1 }]]);
    expect(unset[0]?.message).toContain('the chain runs no epoch');
    expect(unset[0]?.message).toContain('a submission every block');
    const set = startupWarnings(
      resolveConfig({ text: defaultConfigYaml(), env: { SUBNET_VALIDATOR_CHAIN__EPOCH_LENGTH: '360' } }),
      view(3, 20, 0),
      k.validator.address,
    );
    expect(set.map((w) => [w.code, w.numbers])).toEqual([['TEMPO_ZERO', { tempo: 0, epoch_length: 360 }]]);
    // Unset, on a database that numbers its epochs by 360 blocks: those are the epochs here, not 1-block ones.
    const recorded = startupWarnings(resolveConfig({ text: defaultConfigYaml() }), view(3, 20, 0), k.validator.address, 360);
    expect(recorded.map((w) => [w.code, w.numbers])).toEqual([['TEMPO_ZERO', { tempo: 0, epoch_length: 360 }]]);
    expect(recorded[0]?.message).toContain('the epochs here are 360 blocks, the length this database numbers its epochs by');
  });

  it('an epoch length other than the tempo is reported', () => {
    const config = resolveConfig({ text: defaultConfigYaml(), env: { SUBNET_VALIDATOR_CHAIN__EPOCH_LENGTH: '100' } });
    const warnings = startupWarnings(config, view(3, 20, 360), k.validator.address);
    expect(warnings.map((w) => [w.code, w.numbers])).toEqual([['EPOCH_LENGTH_NOT_TEMPO', { epoch_length: 100, tempo: 360 }]]);
  });

  it("an epoch length of tempo + 1 (the chain's own cycle) is not reported; tempo + 2 is", () => {
    const at = (length: number) =>
      startupWarnings(
        resolveConfig({ text: defaultConfigYaml(), env: { SUBNET_VALIDATOR_CHAIN__EPOCH_LENGTH: String(length) } }),
        view(3, 20, 360),
        k.validator.address,
      );
    expect(at(361).map((w) => w.code)).toEqual([]);
    expect(at(362).map((w) => [w.code, w.numbers])).toEqual([['EPOCH_LENGTH_NOT_TEMPO', { epoch_length: 362, tempo: 360 }]]);
    expect(at(362)[0]?.message).toContain('the chain runs its epoch every 361 blocks');
  });
});

describe('start-up warnings: the burn uid against the metagraph (SPEC 0 "Burn uid", G.4)', () => {
  /** `view(3, 20)` with owner hotkey `owner` and coldkeys: uid u is owned by `coldkey-<u>` unless `coldkeys` says otherwise. */
  function owned(owner: string | null, coldkeys: Record<number, string> = {}): ChainView {
    const base = view(3, 20);
    return { ...base, ownerHotkey: owner, neurons: base.neurons.map((n) => ({ ...n, coldkey: coldkeys[n.uid] ?? `coldkey-${n.uid}` })) };
  }
  const withBurnUid = (burnUid: number) => resolveConfig({ text: defaultConfigYaml(), env: { SUBNET_VALIDATOR_SCORING__PIPELINE__BURN_UID: String(burnUid) } });

  it('a burn uid no neuron holds makes every vector with a burn share invalid on chain: reported with the number of neurons', () => {
    const warnings = startupWarnings(withBurnUid(30), view(3, 20), k.validator.address);
    expect(warnings.map((w) => [w.code, w.numbers])).toEqual([['BURN_UID_NOT_IN_METAGRAPH', { burn_uid: 30, neurons: 23 }]]);
    expect(warnings[0]?.message).toContain('UidVecContainInvalidOne');
  });

  it("a burn uid held by a hotkey the chain pays (not the owner's, nor of its coldkey) is reported: the burn would be that neuron's incentive", () => {
    // the owner hotkey is uid 5's; the burn uid 7 is a miner of another coldkey
    const warnings = startupWarnings(withBurnUid(7), owned('hotkey-5'), k.validator.address);
    expect(warnings.map((w) => [w.code, w.numbers])).toEqual([['BURN_UID_NOT_OWNER', { burn_uid: 7, owner_uid: 5 }]]);
    expect(warnings[0]?.message).toContain('hotkey-7');
  });

  it("no warning when the burn uid holds the owner hotkey or a hotkey of the owner hotkey's coldkey, or when the owner cannot be told", () => {
    expect(startupWarnings(withBurnUid(5), owned('hotkey-5'), k.validator.address)).toEqual([]);
    expect(startupWarnings(withBurnUid(7), owned('hotkey-5', { 5: 'owner-coldkey', 7: 'owner-coldkey' }), k.validator.address)).toEqual([]);
    // no owner hotkey on chain, one that holds no uid, or a chain access that does not read it
    expect(startupWarnings(withBurnUid(7), owned(null), k.validator.address)).toEqual([]);
    expect(startupWarnings(withBurnUid(7), owned('5DAAnrj7VHTznn2AWBemMuyBwZWs6FNFjdyVXUeYum3PTXFy'), k.validator.address)).toEqual([]);
    expect(startupWarnings(withBurnUid(7), view(3, 20), k.validator.address)).toEqual([]);
  });
});

describe('start-up warnings: a subnet that refuses short weight vectors (SPEC G.5 "No padding to MinAllowedWeights")', () => {
  it('MinAllowedWeights above 1 is reported with the number of uids a vector needs (capped by the neuron count); 1 is not', () => {
    const warnings = startupWarnings(defaults(), { ...view(3, 20), minAllowedWeights: 8 }, k.validator.address);
    expect(warnings.map((w) => [w.code, w.numbers])).toEqual([['MIN_ALLOWED_WEIGHTS_ABOVE_ONE', { min_allowed_weights: 8, required: 8 }]]);
    expect(warnings[0]?.message).toContain('WeightVecLengthIsLow');
    // the chain's minimum is min(n, MinAllowedWeights): the storage default 1024 on a 23-neuron subnet needs 23
    expect(startupWarnings(defaults(), { ...view(3, 20), minAllowedWeights: 1024 }, k.validator.address)[0]?.numbers).toEqual({
      min_allowed_weights: 1024,
      required: 23,
    });
    expect(startupWarnings(defaults(), { ...view(3, 20), minAllowedWeights: 1 }, k.validator.address)).toEqual([]);
  });
});

describe('start-up logs each warning once', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it("this validator's hotkey unregistered or without a permit is reported first, as /readyz judges it; never in a dry run", () => {
    const three = view(3, 20);
    const config = defaults();
    const codes = (c: typeof config, self: string, v = three) => startupWarnings(c, v, self).map((w) => w.code);
    expect(codes(config, 'unregistered-hotkey')).toEqual(['HOTKEY_NOT_REGISTERED']);
    expect(codes(config, 'hotkey-5')).toEqual(['HOTKEY_NO_VALIDATOR_PERMIT']);
    expect(startupWarnings(config, three, 'hotkey-5')[0]?.numbers).toEqual({ hotkey: 'hotkey-5', netuid: 1, uid: 5 });
    expect(codes(config, k.validator.address)).toEqual([]);
    const dryRun = { ...config, chain: { ...config.chain, dry_run: true } };
    expect(codes(dryRun, 'unregistered-hotkey')).toEqual([]);
    expect(codes(dryRun, 'hotkey-5')).toEqual([]);
    // the subnet owner's hotkey needs no permit where the runtime exempts it (Subtensor main), and does on spec 393
    const hotkeyCodes = (v: typeof three) => codes(config, 'hotkey-5', v).filter((c) => c.startsWith('HOTKEY_'));
    expect(hotkeyCodes({ ...three, ownerHotkey: 'hotkey-5', ownerStakeExempt: true })).toEqual([]);
    expect(hotkeyCodes({ ...three, ownerHotkey: 'hotkey-5', ownerStakeExempt: false })).toEqual(['HOTKEY_NO_VALIDATOR_PERMIT']);
  });

  it('a validator started with min_validators 3 on the two-validator fake chain logs the burn warning', async () => {
    const t = tempDir();
    const { logger, lines } = captureLog('info');
    const base = testConfig(t.dir);
    const config = { ...base, scoring: { ...base.scoring, pipeline: { ...base.scoring.pipeline, min_validators: 3 } } };
    const service = await startValidator({ config, chain: fakeChain(k, 10), logger, autoTick: false });
    cleanup = async () => {
      await service.stop();
      t.cleanup();
    };
    await service.tick();
    const burn = lines.filter((l) => l.code === 'MIN_VALIDATORS_ABOVE_VALIDATOR_COUNT');
    expect(burn).toHaveLength(1);
    expect(burn[0]).toMatchObject({ level: 40, min_validators: 3, validators: 2 });
  });

  it('a start that migrates its database says so first, with what the migration costs; a start with nothing to migrate says nothing of it', async () => {
    const t = tempDir();
    const config = testConfig(t.dir);
    // A database of the build before migration 7 (it stops at version 6).
    const old = new Database(config.database.path);
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    for (const m of MIGRATIONS.filter((m) => m.version < 7)) {
      for (const sql of m.sqlite) old.exec(sql);
      old.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)').run(m.version, m.name);
    }
    old.close();
    const first = captureLog('info');
    let service = await startValidator({ config, chain: fakeChain(k, 10), logger: first.logger, autoTick: false });
    cleanup = async () => {
      await service.stop();
      t.cleanup();
    };
    const said = first.lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('applying storage migration'));
    expect(said.map((l) => [l.version, l.msg])).toEqual([
      [
        7,
        expect.stringMatching(
          /^applying storage migration 7 \(epoch columns by size, unsettled epoch indexes\): copies the epochs table once \(about 8 s a GB/,
        ) as unknown,
      ],
    ]);
    // The copy's need in bytes, and the free disk beside the file (docs/spec.md G.23): this file holds no epoch.
    expect(said[0]?.msg).toMatch(
      /; it copies the epochs table \(about 0 KB\) and needs about 0 KB of free disk beside the file \(the copy is written to the WAL, then into the file\); [0-9.]+ [KMG]B is free there now$/,
    );
    expect(said[0]?.copies).toEqual({ table: 'epochs', bytes: 0, neededBytes: 0, freeBytes: expect.any(Number) as unknown });
    await service.stop();
    const second = captureLog('info');
    service = await startValidator({ config, chain: fakeChain(k, 10), logger: second.logger, autoTick: false });
    expect(second.lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('applying storage migration'))).toEqual([]);
  });
});
