import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { ApiPromise, WsProvider } from '@polkadot/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildBundle, signBundle } from '@subnet/bundle';
import type { Bundle } from '@subnet/bundle';
import type { Devnet } from '@subnet/devnet';
import { DEVNET_SIGNED_EXTENSIONS, startDevnet } from '@subnet/devnet';

import type { AuditReport } from '../index.js';
import { runCli } from '../index.js';
import { epochInput, keys } from './fixtures.js';
import type { Keys, Pair } from './fixtures.js';
import { tempDir } from '@subnet/vitest-config/temp-dir';
import { captureIo } from './capture-io.js';

let devnet: Devnet;
let api: ApiPromise;
let k: Keys;
let dir: string;
let validator: Pair;
let base: ReturnType<typeof epochInput>;
let honest: Bundle;

/**
 * Signs and sends `set_weights` (or `set_mechanism_weights` on mechanism 0) with the validator hotkey (or `signer`),
 * produces a block, returns its number and the extrinsic hash.
 */
async function setWeights(
  uids: readonly number[],
  weights: readonly number[],
  signer: Pair = validator,
  call: 'setWeights' | 'setMechanismWeights' = 'setWeights',
): Promise<{ block: number; hash: string }> {
  const m = api.tx.subtensorModule!;
  const tx = call === 'setWeights' ? m.setWeights!(1, [...uids], [...weights], 0) : m.setMechanismWeights!(1, 0, [...uids], [...weights], 0);
  const inBlock = new Promise<string>((resolve, reject) => {
    tx.signAndSend(signer, (r) => {
      if (r.status.isInBlock) {
        if (r.dispatchError !== undefined) reject(new Error(`set_weights failed: ${r.dispatchError.toString()}`));
        else resolve(r.status.asInBlock.toHex());
      }
      if (r.status.isInvalid || r.status.isDropped) reject(new Error(r.status.type));
    }).catch(reject);
  });
  const start = Date.now();
  while (devnet.poolSize() === 0) {
    if (Date.now() - start > 10_000) throw new Error('set_weights never reached the pool');
    await new Promise((r) => setTimeout(r, 5));
  }
  const produced = await devnet.produceBlock();
  await inBlock;
  if (produced === null) throw new Error('no block produced');
  return { block: produced.number, hash: tx.hash.toHex() };
}

async function bundleFile(name: string, submitted: { block: number; hash: string }): Promise<string> {
  const bundle = buildBundle({
    ...base,
    result: honest.result,
    submission: { status: 'submitted', block: String(submitted.block), extrinsic_hash: submitted.hash, call: 'set_weights', error: null },
  });
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(signBundle(bundle, validator)));
  return file;
}

beforeAll(async () => {
  k = await keys();
  devnet = await startDevnet({ neurons: 8, validators: 2, weightsSetRateLimit: 0n, tempo: 1000 });
  api = await ApiPromise.create({
    provider: new WsProvider(devnet.url, 100),
    noInitWarn: true,
    throwOnConnect: true,
    signedExtensions: DEVNET_SIGNED_EXTENSIONS,
  });
  dir = tempDir('auditor-chain-', 'file');
  const accounts = devnet.accounts;
  validator = accounts[1]!.hotkey;
  const miners = accounts.slice(2).map((a) => a.hotkeyAddress);
  base = epochInput(
    { ...k, validator },
    {
      miners: miners.length,
      epoch: 4,
      minerHotkeys: miners,
      metagraph: accounts.map((a) => ({ hotkey: a.hotkeyAddress, uid: a.uid })),
    },
  );
  honest = buildBundle({ ...base, submission: { status: 'dry_run', block: null, extrinsic_hash: null, call: null, error: null } });
}, 60_000);

afterAll(async () => {
  await api.disconnect();
  await devnet.stop();
});

describe('verify --chain against the devnet (SPEC D, SPEC E)', () => {
  it('weights set exactly as the bundle says match what the chain stores (max-upscaled) after the submission block', async () => {
    const submitted = await setWeights(honest.result.u16.uids, honest.result.u16.weights);
    const file = await bundleFile('honest.json', submitted);
    const t = captureIo();
    expect(await runCli(['verify', file, '--chain', devnet.url, '--netuid', '1', '--json'], t)).toBe(0);
    const report = JSON.parse(t.out()) as AuditReport;
    expect(report.bundles[0]?.checks).toEqual({ schema: true, digest: true, signature: true, recompute: true, chain: true });
  });

  it('a validator that set other weights than its bundle says is caught at chain.weights, per uid', async () => {
    const uids = honest.result.u16.uids;
    const weights = [...honest.result.u16.weights];
    const i = weights.findIndex((w) => w > 0);
    const j = weights.findIndex((w, x) => x !== i && w > 0 && w !== weights[i]);
    [weights[i], weights[j]] = [weights[j]!, weights[i]!];
    const submitted = await setWeights(uids, weights);
    // Read what the chain stored, independently of the auditor, to name the expected mismatch.
    const stored = new Map((await api.query.subtensorModule!.weights!(1, 1)).toJSON() as [number, number][]);
    const file = await bundleFile('liar.json', submitted);
    const t = captureIo();
    expect(await runCli(['verify', file, '--chain', devnet.url, '--netuid', '1', '--json'], t)).toBe(1);
    const report = JSON.parse(t.out()) as AuditReport;
    expect(report.bundles[0]?.checks).toMatchObject({ recompute: true, chain: false });
    const found = report.bundles[0]!.mismatches.filter((m) => m.stage === 'chain.weights');
    expect(found.map((m) => m.miner?.uid).sort()).toEqual([uids[i], uids[j]].sort());
    for (const m of found) expect(m.claimed).toBe(stored.get(m.miner!.uid!));
    // The honest bundle of the earlier block still matches: weights are read at the submission block, not the head.
    expect(await runCli(['verify', join(dir, 'honest.json'), '--chain', devnet.url, '--netuid', '1'], captureIo())).toBe(0);
  });

  it('a dry-run bundle has nothing on chain to compare: the chain check is skipped (null), not failed', async () => {
    const file = join(dir, 'dry.json');
    await writeFile(file, JSON.stringify(signBundle(honest, validator)));
    const t = captureIo();
    expect(await runCli(['verify', file, '--chain', devnet.url, '--netuid', '1', '--json'], t)).toBe(0);
    expect((JSON.parse(t.out()) as AuditReport).bundles[0]?.checks.chain).toBeNull();
  });

  it('an unreachable chain endpoint is a clear error, exit 2', async () => {
    const t = captureIo();
    let err = '';
    const code = await runCli(['verify', join(dir, 'dry.json'), '--chain', 'ws://127.0.0.1:9', '--netuid', '1', '--chain-timeout', '1500'], {
      ...t,
      stderr: { isTTY: false, write: (s: string) => (err += s) },
    });
    expect(code).toBe(2);
    expect(err).toContain('AUDITOR_CHAIN_FAILED');
    expect(err).toContain('ws://127.0.0.1:9');
    // The node's reason leads, as the validator's start-up says it, and how long it was tried.
    expect(err).toContain('cannot connect to the chain at ws://127.0.0.1:9 (connect ECONNREFUSED 127.0.0.1:9; tried for 1.5 s)');
  });

  // These replace uids (the validator's uid 1 and uid 2 among them): they run last.
  it('a set_weights that landed and then lost its uid to a registration later in the same block: the state lost the weights, so they are taken from the call in the block body and compared (docs/spec.md G.6), not a chain.validator mismatch', async () => {
    const newcomer = `0x${'55'.repeat(32)}`;
    devnet.replaceNeuron(1, newcomer, undefined, { afterExtrinsics: true });
    const submitted = await setWeights(honest.result.u16.uids, honest.result.u16.weights);
    // What the chain shows, read by the test: the hotkey's uid 1 at the block before, a WeightsSet of uid 1 in its
    // extrinsic, and at the block uid 1 registered to the newcomer, without weights, the hotkey without a uid.
    const at = await api.at(await api.rpc.chain.getBlockHash(submitted.block));
    const before = await api.at(await api.rpc.chain.getBlockHash(submitted.block - 1));
    expect((await before.query.subtensorModule!.uids!(1, validator.address)).toJSON()).toBe(1);
    const events = (await at.query.system!.events!()) as unknown as { event: { method: string; data: { toJSON(): unknown } } }[];
    expect(events.filter((r) => r.event.method === 'WeightsSet').map((r) => r.event.data.toJSON())).toEqual([[1, 1]]);
    expect((await at.query.subtensorModule!.uids!(1, validator.address)).toJSON()).toBeNull();
    const holder = (await at.query.subtensorModule!.keys!(1, 1)).toString();
    expect(holder).toBe(api.createType('AccountId', newcomer).toString());
    expect((await at.query.subtensorModule!.blockAtRegistration!(1, 1)).toJSON()).toBe(submitted.block);
    expect((await at.query.subtensorModule!.weights!(1, 1)).toJSON()).toEqual([]);

    const file = await bundleFile('replaced.json', submitted);
    const json = captureIo();
    expect(await runCli(['verify', file, '--chain', devnet.url, '--netuid', '1', '--json'], json)).toBe(0);
    const audit = (JSON.parse(json.out()) as AuditReport).bundles[0]!;
    expect(audit).toMatchObject({ status: 'ok', checks: { recompute: true, chain: true }, mismatches: [] });
    expect(audit.chain_unknown).toBeUndefined();
    const text = captureIo();
    expect(await runCli(['verify', file, '--chain', devnet.url, '--netuid', '1'], text)).toBe(0);
    expect(text.out()).not.toMatch(/CHAIN UNKNOWN|MISMATCH/);
  });

  it('a set_mechanism_weights (mechanism 0) with other weights than the bundle says, whose uid a registration took later in its block, is caught from the call in the block body', async () => {
    // Uid 2 made a validator (stake and permit) signs its own bundle; its call swaps two of the bundle's weights.
    const other = devnet.accounts[2]!;
    devnet.setStake(2, 10n ** 15n);
    devnet.setValidatorPermit(2, true);
    await devnet.produceBlock();
    const base0 = epochInput(
      { ...k, validator: other.hotkey },
      {
        miners: devnet.accounts.length - 2,
        epoch: 4,
        minerHotkeys: devnet.accounts.slice(2).map((a) => a.hotkeyAddress),
        metagraph: devnet.accounts.map((a) => ({ hotkey: a.hotkeyAddress, uid: a.uid })),
      },
    );
    const own = buildBundle({ ...base0, submission: { status: 'dry_run', block: null, extrinsic_hash: null, call: null, error: null } }).result;
    const uids = own.u16.uids;
    const weights = [...own.u16.weights];
    const i = weights.findIndex((w) => w > 0);
    const j = weights.findIndex((w, x) => x !== i && w > 0 && w !== weights[i]);
    [weights[i], weights[j]] = [weights[j]!, weights[i]!];
    // What the chain stores for these values, read by the test from a block where nothing removes them.
    await setWeights(uids, weights, other.hotkey, 'setMechanismWeights');
    const stored = new Map((await api.query.subtensorModule!.weights!(1, 2)).toJSON() as [number, number][]);
    expect(stored.size).toBeGreaterThan(0);
    devnet.replaceNeuron(2, `0x${'44'.repeat(32)}`, undefined, { afterExtrinsics: true });
    const submitted = await setWeights(uids, weights, other.hotkey, 'setMechanismWeights');
    const at = await api.at(await api.rpc.chain.getBlockHash(submitted.block));
    expect((await at.query.subtensorModule!.uids!(1, other.hotkeyAddress)).toJSON()).toBeNull();
    expect((await at.query.subtensorModule!.weights!(1, 2)).toJSON()).toEqual([]);
    const bundle = buildBundle({
      ...base0,
      result: own,
      submission: { status: 'submitted', block: String(submitted.block), extrinsic_hash: submitted.hash, call: 'set_mechanism_weights', error: null },
    });
    const file = join(dir, 'replaced-liar.json');
    await writeFile(file, JSON.stringify(signBundle(bundle, other.hotkey)));
    const json = captureIo();
    expect(await runCli(['verify', file, '--chain', devnet.url, '--netuid', '1', '--json'], json)).toBe(1);
    const audit = (JSON.parse(json.out()) as AuditReport).bundles[0]!;
    expect(audit).toMatchObject({ status: 'mismatch', checks: { recompute: true, chain: false } });
    expect(audit.chain_unknown).toBeUndefined();
    expect(audit.mismatches.map((m) => [m.stage, m.field, m.miner?.uid, m.claimed]).sort()).toEqual(
      [uids[i]!, uids[j]!].sort().map((u) => ['chain.weights', 'Weights[1][2] from the set_weights call', u, stored.get(u)]),
    );
  });

  it('a bundle naming the block its uid changed hands in, where its hotkey set no weights (none sent, or sent after the registration and refused): no uid there, a chain.validator mismatch', async () => {
    // The validator's hotkey registered into uid 7, then uid 7 given to another hotkey in a block where the validator sent nothing.
    devnet.replaceNeuron(7, validator.address);
    await devnet.produceBlock();
    devnet.replaceNeuron(7, `0x${'66'.repeat(32)}`);
    const block = (await devnet.produceBlock())!.number;
    const at = await api.at(await api.rpc.chain.getBlockHash(block));
    expect((await (await api.at(await api.rpc.chain.getBlockHash(block - 1))).query.subtensorModule!.uids!(1, validator.address)).toJSON()).toBe(7);
    expect((await at.query.subtensorModule!.blockAtRegistration!(1, 7)).toJSON()).toBe(block);
    const file = await bundleFile('lost.json', { block, hash: `0x${'ab'.repeat(32)}` });
    const json = captureIo();
    expect(await runCli(['verify', file, '--chain', devnet.url, '--netuid', '1', '--json'], json)).toBe(1);
    const audit = (JSON.parse(json.out()) as AuditReport).bundles[0]!;
    expect(audit.checks.chain).toBe(false);
    expect(audit.chain_unknown).toBeUndefined();
    expect(audit.mismatches).toEqual([expect.objectContaining({ stage: 'chain.validator', claimed: validator.address })]);
  });
});
