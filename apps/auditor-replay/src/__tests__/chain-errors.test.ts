import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ApiPromise, WsProvider } from '@polkadot/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildBundle, signBundle } from '@subnet/bundle';
import { SubnetError } from '@subnet/core';
import type { Devnet } from '@subnet/devnet';
import { DEVNET_SIGNED_EXTENSIONS, startDevnet } from '@subnet/devnet';

import type { AuditReport } from '../index.js';
import { AUDITOR_ERROR_CODES, chainReadError, runCli } from '../index.js';
import { epochInput, keys } from './fixtures.js';
import { captureIo } from './capture-io.js';

let devnet: Devnet;
let api: ApiPromise;
let dir: string;
let file: (name: string, block: string) => Promise<string>;
let submittedBlock: number;

beforeAll(async () => {
  const k = await keys();
  // A node that keeps the state of its last 8 blocks only, like a pruned (non-archive) Subtensor node.
  devnet = await startDevnet({ neurons: 6, validators: 2, weightsSetRateLimit: 0n, tempo: 1000, stateHistory: 8 });
  api = await ApiPromise.create({
    provider: new WsProvider(devnet.url, 100),
    noInitWarn: true,
    throwOnConnect: true,
    signedExtensions: DEVNET_SIGNED_EXTENSIONS,
  });
  dir = await mkdtemp(join(tmpdir(), 'auditor-chain-errors-'));
  const accounts = devnet.accounts;
  const validator = accounts[1]!.hotkey;
  const miners = accounts.slice(2).map((a) => a.hotkeyAddress);
  const base = epochInput(
    { ...k, validator },
    { miners: miners.length, epoch: 3, minerHotkeys: miners, metagraph: accounts.map((a) => ({ hotkey: a.hotkeyAddress, uid: a.uid })) },
  );
  const honest = buildBundle({ ...base, submission: { status: 'dry_run', block: null, extrinsic_hash: null, call: null, error: null } });
  const tx = api.tx.subtensorModule!.setWeights!(1, [...honest.result.u16.uids], [...honest.result.u16.weights], 0);
  const inBlock = new Promise<void>((resolve, reject) => {
    tx.signAndSend(validator, (r) => {
      if (r.status.isInBlock) resolve();
      if (r.status.isInvalid || r.status.isDropped) reject(new Error(r.status.type));
    }).catch(reject);
  });
  while (devnet.poolSize() === 0) await new Promise((r) => setTimeout(r, 5));
  submittedBlock = (await devnet.produceBlock())!.number;
  await inBlock;
  file = async (name, block) => {
    const bundle = buildBundle({
      ...base,
      result: honest.result,
      submission: { status: 'submitted', block, extrinsic_hash: tx.hash.toHex(), call: 'set_weights', error: null },
    });
    const path = join(dir, name);
    await writeFile(path, JSON.stringify(signBundle(bundle, validator)));
    return path;
  };
}, 60_000);

afterAll(async () => {
  await api.disconnect();
  await devnet.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('verify --chain: every chain failure is coded, none is a stack trace (issue 19, item 3)', () => {
  it('the state of the submission block is still there: the weights are read and match', async () => {
    expect(await runCli(['verify', await file('fresh.json', String(submittedBlock)), '--chain', devnet.url, '--netuid', '1'], captureIo())).toBe(0);
  });

  it('a node that pruned the submission block state: AUDITOR_CHAIN_STATE_PRUNED says an archive endpoint is needed, exit 2', async () => {
    await devnet.produceBlocks(12);
    const path = await file('pruned.json', String(submittedBlock));
    const t = captureIo();
    expect(await runCli(['verify', path, '--chain', devnet.url, '--netuid', '1', '--json'], t)).toBe(2);
    const audit = (JSON.parse(t.out()) as AuditReport).bundles[0]!;
    expect(audit.status).toBe('invalid');
    expect(audit.checks.chain).toBeNull();
    expect(audit.error?.code).toBe(AUDITOR_ERROR_CODES.chainStatePruned);
    expect(audit.error?.message).toContain(`pruned the state of block ${submittedBlock}`);
    expect(audit.error?.message).toContain('State already discarded');
    expect(audit.error?.message).toContain('archive endpoint');
    const text = captureIo();
    expect(await runCli(['verify', path, '--chain', devnet.url, '--netuid', '1'], text)).toBe(2);
    expect(text.out()).toContain('[AUDITOR_CHAIN_STATE_PRUNED]');
    expect(`${text.out()}${text.err()}`).not.toMatch(/\n\s+at /);
  });

  it('a submission block the node does not have: AUDITOR_CHAIN_UNKNOWN_BLOCK, exit 2', async () => {
    const t = captureIo();
    expect(await runCli(['verify', await file('future.json', '999999'), '--chain', devnet.url, '--netuid', '1', '--json'], t)).toBe(2);
    expect((JSON.parse(t.out()) as AuditReport).bundles[0]?.error?.code).toBe(AUDITOR_ERROR_CODES.chainUnknownBlock);
  });

  it('the chain client’s own failures map to typed auditor codes, and the node’s other answers keep their text', () => {
    const target = { block: '12', endpoint: 'ws://127.0.0.1:9944' };
    expect(chainReadError(new SubnetError('CHAIN_REQUEST_TIMEOUT', 'weights got no answer within 5 ms'), target).code).toBe(AUDITOR_ERROR_CODES.chainTimeout);
    expect(chainReadError(new SubnetError('CHAIN_CONNECTION_LOST', 'socket dropped'), target).code).toBe(AUDITOR_ERROR_CODES.chainUnreachable);
    expect(chainReadError(new Error('4001: Unknown block 0xabc'), target).code).toBe(AUDITOR_ERROR_CODES.chainUnknownBlock);
    const other = chainReadError(new Error('-32603: Internal error: out of memory'), target);
    expect(other.code).toBe(AUDITOR_ERROR_CODES.chainRpcError);
    expect(other.message).toContain('out of memory');
    expect(chainReadError(new Error('failed at ws://user:secret@node.example/rpc'), target).message).not.toContain('secret');
  });
});
