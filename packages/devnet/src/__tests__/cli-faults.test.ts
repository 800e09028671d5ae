/**
 * The devnet CLI as a separate process, its faults injected over the admin RPC (`devnet_fault*`) and through
 * `subnet-devnet fault ...`, their effects seen by an unmodified @polkadot/api client.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import type { ApiPromise } from '@polkadot/api';
import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { u8aToHex } from '@polkadot/util';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseFaultArgs, sendFaultRequest } from '../cli-fault.js';
import { connect } from './harness.js';
import { expectBuiltCli } from '@subnet/vitest-config/built-cli';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
// The built CLI (`bin/subnet-devnet.js` over `dist/cli.js`; turbo builds before these tests), as a user runs it: under
// tsx each start transpiled the workspace's sources again, seconds more for every one of these commands.
const cliArgs = [fileURLToPath(new URL('../../bin/subnet-devnet.js', import.meta.url))];

let child: ChildProcessWithoutNullStreams;
let url: string;
let api: ApiPromise;
let signer: KeyringPair;

const admin = (method: string, ...params: unknown[]) => sendFaultRequest({ url, method, params });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const head = async () => (await api.rpc.chain.getHeader()).number.toNumber();
async function until(pred: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const start = Date.now();
  while (!(await pred())) {
    if (Date.now() - start > ms) throw new Error('condition not met in time');
    await sleep(50);
  }
}
const runCli = (...args: string[]) => spawnSync(process.execPath, [...cliArgs, ...args], { cwd: packageDir, encoding: 'utf8', timeout: 60_000 });

beforeAll(async () => {
  expectBuiltCli(packageDir);
  await cryptoWaitReady();
  child = spawn(process.execPath, [...cliArgs, '--port', '0', '--block-time', '300', '--neurons', '3', '--validators', '2', '--json'], {
    cwd: packageDir,
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', resolve);
    child.once('exit', (code) => {
      reject(new Error(`the devnet CLI exited with ${String(code)}`));
    });
  });
  const banner = JSON.parse(firstLine) as { url: string; accounts: { hotkey_uri: string }[] };
  url = banner.url;
  signer = new Keyring({ type: 'sr25519' }).addFromUri(banner.accounts[1]!.hotkey_uri);
  api = await connect(url);
}, 120_000);

afterAll(async () => {
  await api.disconnect();
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
});

describe('subnet-devnet as a separate process: faults over the admin RPC', () => {
  it('--help says the commit-reveal it runs is v4 (timelocked drand commits) and names the fault command', () => {
    const help = runCli('--help').stdout;
    expect(help).toMatch(/--commit-reveal\s+enable commit-reveal v4: timelocked drand/);
    expect(help).not.toMatch(/commit-reveal v2/);
    expect(help).toContain('subnet-devnet fault <status|freeze|thaw|stall|resume|drop-connections|delay-next <ms>|drop-next|reject-next <error>|reset>');
  });

  it('stall stops new blocks while the RPC keeps answering; resume restarts production', async () => {
    await until(async () => (await head()) >= 2);
    expect(await admin('devnet_faultStallBlockProduction')).toBe(true);
    const stalledAt = await head();
    await sleep(1500); // five block times
    expect(await head()).toBe(stalledAt);
    expect(await admin('devnet_faultStatus')).toEqual({ frozen: false, stalled: true, held: 0 });
    expect(await admin('devnet_faultResumeBlockProduction')).toBe(true);
    await until(async () => (await head()) > stalledAt);
  });

  it('freeze leaves the socket open but answers nothing until thaw; the admin RPC still answers', async () => {
    expect(await admin('devnet_faultFreeze')).toBe(true);
    let answered = false;
    const pending = api.rpc.chain.getHeader().then((h) => {
      answered = true;
      return h.number.toNumber();
    });
    await sleep(1000);
    expect(answered).toBe(false);
    expect(api.isConnected).toBe(true);
    expect(await admin('devnet_faultStatus')).toEqual({ frozen: true, stalled: false, held: 0 });
    expect(await admin('devnet_faultThaw')).toBe(true);
    const frozenAt = await pending;
    await until(async () => (await head()) > frozenAt);
  });

  it('drop-connections closes the client sockets; @polkadot/api reconnects', async () => {
    let disconnected = 0;
    const onDisconnect = (): void => {
      disconnected += 1;
    };
    api.on('disconnected', onDisconnect);
    expect(await admin('devnet_faultDropConnections')).toBeGreaterThanOrEqual(1);
    await until(() => Promise.resolve(disconnected >= 1));
    await until(() => Promise.resolve(api.isConnected));
    expect(await head()).toBeGreaterThan(0);
    api.off('disconnected', onDisconnect);
  });

  it('delay-next holds the next submission before the node answers it; status counts it as held meanwhile', async () => {
    expect(await admin('devnet_faultDelayNextExtrinsic', 800)).toBe(true);
    const signed = await api.tx.system!.remark!('0x01').signAsync(signer);
    const t0 = Date.now();
    const submitted = api.rpc.author.submitExtrinsic(signed);
    await until(async () => ((await admin('devnet_faultStatus')) as { held: number }).held === 1);
    await submitted;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(780);
    expect(await admin('devnet_faultStatus')).toEqual({ frozen: false, stalled: false, held: 0 });
  });

  it('drop-next answers the next submission with its hash but never includes it; the nonce stays free', async () => {
    await until(async () => (await api.rpc.author.pendingExtrinsics()).length === 0);
    const nonce = (await api.rpc.system.accountNextIndex(signer.address)).toNumber();
    expect(await admin('devnet_faultDropNextExtrinsic')).toBe(true);
    const lost = await api.tx.system!.remark!('0x02').signAsync(signer, { nonce });
    expect((await api.rpc.author.submitExtrinsic(lost)).toHex()).toBe(lost.hash.toHex());
    const from = await head();
    await until(async () => (await head()) >= from + 3);
    expect((await api.rpc.system.accountNextIndex(signer.address)).toNumber()).toBe(nonce);
  });

  it('reject-next (through `subnet-devnet fault`) answers the next submission with the chosen pool error, once', async () => {
    const cli = runCli('fault', 'reject-next', '6', '--url', url);
    expect(cli.status).toBe(0);
    expect(cli.stdout.trim()).toBe('true');
    const signed = await api.tx.system!.remark!('0x03').signAsync(signer);
    await expect(api.rpc.author.submitExtrinsic(signed)).rejects.toThrow('1010: Invalid Transaction: Custom error: 6');
    expect(await admin('devnet_faultRejectNextSubmission', 'stale')).toBe(true);
    await expect(api.rpc.author.submitExtrinsic(signed)).rejects.toThrow('1010: Invalid Transaction: Transaction is outdated');
    await expect(api.rpc.author.submitExtrinsic(signed)).resolves.toBeDefined();
  });

  it('a bad fault parameter is a -32602 naming the value; reset clears pending faults', async () => {
    await expect(admin('devnet_faultDelayNextExtrinsic', -5)).rejects.toThrow(
      '-32602: Invalid params: [DEVNET_INVALID_FAULT] delay must be an integer of milliseconds from 0 to 2147483647 at ms (got -5)',
    );
    // Past Node's longest timer the delay would be 1 ms.
    await expect(admin('devnet_faultDelayNextExtrinsic', 2_147_483_648)).rejects.toThrow(
      '[DEVNET_INVALID_FAULT] delay must be an integer of milliseconds from 0 to 2147483647 at ms (got 2147483648)',
    );
    await expect(admin('devnet_faultRejectNextSubmission', 'nope')).rejects.toThrow(/unknown pool error name "nope"/);
    const status = runCli('fault', 'status', '--url', url);
    expect(JSON.parse(status.stdout)).toEqual({ frozen: false, stalled: false, held: 0 });
    expect(await admin('devnet_faultDropNextExtrinsic')).toBe(true);
    expect(await admin('devnet_faultReset')).toBe(true);
    const signed = await api.tx.system!.remark!('0x04').signAsync(signer);
    await api.rpc.author.submitExtrinsic(signed);
    await until(
      async () =>
        (await api.rpc.system.accountNextIndex(signer.address)).toNumber() > signed.nonce.toNumber() && (await api.rpc.author.pendingExtrinsics()).length === 0,
    );
  });

  it('reorganize (through `subnet-devnet fault`) calls devnet_reorganize; on a devnet whose every block is final it is refused, exit 1, naming DEVNET_REORG_FINALIZED', () => {
    expect(parseFaultArgs(['reorganize', '2', '[{"pulses":false},{},{}]', '--url', url])).toEqual({
      url,
      method: 'devnet_reorganize',
      params: [2, [{ pulses: false }, {}, {}]],
    });
    expect(parseFaultArgs(['reorganize', '1'])).toMatchObject({ method: 'devnet_reorganize', params: [1] });
    expect(parseFaultArgs(['reorganize', '1', '--drop-retracted'])).toMatchObject({ method: 'devnet_reorganize', params: [1, null, { retracted: 'drop' }] });
    const cli = runCli('fault', 'reorganize', '1', '--url', url);
    expect(cli.status).toBe(1);
    expect(cli.stderr).toMatch(
      /^error: \[DEVNET_FAULT_FAILED\] devnet_reorganize failed at ws:\/\/127\.0\.0\.1:\d+: -32602: Invalid params: DEVNET_REORG_FINALIZED: /,
    );
  });

  it('replace-neuron (through `subnet-devnet fault`) calls devnet_replaceNeuron: the next block gives the uid to the new hotkey; a bad hotkey is refused, exit 1, naming DEVNET_INVALID_REPLACEMENT', async () => {
    const newcomer = new Keyring({ type: 'sr25519' }).addFromUri('//cli-replace-neuron');
    expect(parseFaultArgs(['replace-neuron', '2', newcomer.address, '--url', url])).toEqual({
      url,
      method: 'devnet_replaceNeuron',
      params: [2, newcomer.address],
    });
    expect(parseFaultArgs(['replace-neuron', '2', newcomer.address, signer.address])).toMatchObject({ params: [2, newcomer.address, signer.address] });
    expect(parseFaultArgs(['replace-neuron', '2', newcomer.address, '--after-extrinsics'])).toMatchObject({
      params: [2, newcomer.address, null, { afterExtrinsics: true }],
    });
    expect(parseFaultArgs(['replace-neuron', '2', newcomer.address, signer.address, '--after-extrinsics'])).toMatchObject({
      params: [2, newcomer.address, signer.address, { afterExtrinsics: true }],
    });
    const bad = runCli('fault', 'replace-neuron', '2', 'not-a-key', '--url', url);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(
      /^error: \[DEVNET_FAULT_FAILED\] devnet_replaceNeuron failed at ws:\/\/127\.0\.0\.1:\d+: -32602: Invalid params: DEVNET_INVALID_REPLACEMENT: .*"not-a-key"/,
    );
    const from = await head();
    const cli = runCli('fault', 'replace-neuron', '2', newcomer.address, '--url', url);
    expect(cli.status).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ uid: 2, hotkey: u8aToHex(newcomer.publicKey) });
    // applied with the next block the devnet produces after the request
    const chainQuery = api.query.subtensorModule!;
    await until(async () => (await chainQuery.keys!(1, 2)).toString() === newcomer.address);
    const registered = Number((await chainQuery.blockAtRegistration!(1, 2)).toString());
    expect(registered).toBeGreaterThan(from);
  });
  it('swap-hotkey (through `subnet-devnet fault`) calls devnet_swapHotkey: the next block moves the neuron, uid and all, to the new hotkey; a new hotkey equal to the old one is refused, exit 1, naming DEVNET_INVALID_SWAP, the path and the value', async () => {
    const newKey = new Keyring({ type: 'sr25519' }).addFromUri('//cli-swap-hotkey');
    expect(parseFaultArgs(['swap-hotkey', signer.address, newKey.address, '--url', url])).toEqual({
      url,
      method: 'devnet_swapHotkey',
      params: [signer.address, newKey.address],
    });
    expect(parseFaultArgs(['swap-hotkey', signer.address, newKey.address, '--after-extrinsics'])).toMatchObject({
      params: [signer.address, newKey.address, { afterExtrinsics: true }],
    });
    expect(() => parseFaultArgs(['swap-hotkey', signer.address])).toThrow(/missing required argument 'new-hotkey'/);
    const same = runCli('fault', 'swap-hotkey', signer.address, signer.address, '--url', url);
    expect(same.status).toBe(1);
    expect(same.stderr).toMatch(
      new RegExp(
        `^error: \\[DEVNET_FAULT_FAILED\\] devnet_swapHotkey failed at ws://127\\.0\\.0\\.1:\\d+: -32602: Invalid params: DEVNET_INVALID_SWAP: .*at newHotkey .*"${signer.address}"`,
      ),
    );
    const chainQuery = api.query.subtensorModule!;
    const uid = Number((await chainQuery.uids!(1, signer.address)).toString());
    const registered = (await chainQuery.blockAtRegistration!(1, uid)).toString();
    const cli = runCli('fault', 'swap-hotkey', signer.address, newKey.address, '--url', url);
    expect(cli.status).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual({ uid, hotkey: u8aToHex(signer.publicKey), newHotkey: u8aToHex(newKey.publicKey) });
    // applied with the next block the devnet produces after the request: the uid is the new hotkey's, its registration block unchanged
    await until(async () => (await chainQuery.keys!(1, uid)).toString() === newKey.address);
    expect((await chainQuery.uids!(1, newKey.address)).toJSON()).toBe(uid);
    expect((await chainQuery.uids!(1, signer.address)).toJSON()).toBeNull();
    expect((await chainQuery.blockAtRegistration!(1, uid)).toString()).toBe(registered);
    const help = runCli('fault', 'swap-hotkey', '--help');
    expect(help.stdout).toMatch(/swap_hotkey/);
    expect(help.stdout).toMatch(/--after-extrinsics/);
  });
});
