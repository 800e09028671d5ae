import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { base58Encode, blake2AsU8a, cryptoWaitReady, signatureVerify } from '@polkadot/util-crypto';
import pg from 'pg';
import pino from 'pino';
import { sr25519Verifier, verifyBundle } from '@subnet/bundle';
import type { Bundle } from '@subnet/bundle';
import { canonicalJson } from '@subnet/core';
import { expectBuiltCli as expectBuiltCliIn } from '@subnet/vitest-config/built-cli';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

import type { ChainNeuron, ChainPort, ChainSubmission, SetWeightsOptions } from '../chain-port.js';
import type { EpochOutcome } from '../epoch-runner.js';
import { resolveConfig } from '../config.js';
import type { ValidatorConfig } from '../config.js';
import { startValidator } from '../service.js';
import type { StartOptions, ValidatorService } from '../service.js';
import { signRequest } from '../signed-request.js';

/**
 * Test fixtures: keys, a fake in-process chain (unit tests only), configs, validators started on them (per file, per
 * test, on SQLite or a PostgreSQL per-run schema, in a child process), signed requests and bundle checks.
 */

export const TOKEN = 'test-executor-token-0123456789';

const appDir = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `subnet-validator` as an operator runs it: `bin/subnet-validator.js` -> `dist/cli.js`, which loads every workspace
 * package from its `dist` (turbo builds this package and its dependencies before these tests). The CLI tests spawn
 * it with plain `node`: under `tsx` with the source condition each start transpiled the workspace's sources again,
 * 1.5 s more for `run` and 3.5 s more for a usage error (which, built, answers in 0.3 s).
 */
export const BUILT_CLI = join(appDir, 'bin', 'subnet-validator.js');

/** Throws, naming the command to run, when `dist/cli.js` is missing or older than a source file of this package. */
export function expectBuiltCli(): void {
  expectBuiltCliIn(appDir);
}

export interface Keys {
  validator: KeyringPair;
  peer: KeyringPair;
  stranger: KeyringPair;
  miners: KeyringPair[];
}

export async function keys(): Promise<Keys> {
  await cryptoWaitReady();
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  return {
    validator: keyring.addFromUri('//Alice'),
    peer: keyring.addFromUri('//Bob'),
    stranger: keyring.addFromUri('//Eve'),
    miners: ['//m1', '//m2', '//m3', '//m4'].map((u) => keyring.addFromUri(u)),
  };
}

/** The test keys, filled in before the file's tests run (call at file level). */
export function useKeys(): Keys {
  const k = {} as Keys;
  beforeAll(async () => {
    Object.assign(k, await keys());
  });
  return k;
}

/** A list of cleanups run, last first, after each test of the file (call at file level). */
export function useCleanups(): (() => unknown)[] {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return cleanups;
}

export interface FakeChain extends ChainPort {
  headBlock: bigint;
  /** The subnet's tempo the metagraph reads give (a test may change it, as a subnet owner's `set_tempo` does). */
  tempo: number;
  neurons: ChainNeuron[];
  submissions: { uids: readonly number[]; weights: readonly number[] }[];
  /** Head reads that fail before one succeeds (a dropped connection). */
  failHeads: number;
  /** Submissions that fail (a dropped connection while submitting). */
  failSubmits: number;
  /** Simulated reconnects. */
  reconnectCount: number;
  /** The genesis hash it reports (a test may change it to stand for another chain). */
  genesis: string;
  preflightError: Error | undefined;
  closed: boolean;
}

export function fakeChain(k: Keys, tempo = 10): FakeChain {
  const chain: FakeChain = {
    hotkey: k.validator.address,
    headBlock: 5n,
    tempo,
    neurons: [
      { uid: 0, hotkey: k.validator.address, stake: 3_000_000_000n, validatorPermit: true },
      { uid: 1, hotkey: k.peer.address, stake: 1_000_000_000n, validatorPermit: true },
      ...k.miners.map((m, i) => ({ uid: i + 2, hotkey: m.address, stake: 0n, validatorPermit: false })),
    ],
    submissions: [],
    failHeads: 0,
    failSubmits: 0,
    reconnectCount: 0,
    genesis: `0x${'9e'.repeat(32)}`,
    preflightError: undefined,
    closed: false,
    genesisHash: () => Promise.resolve(chain.genesis),
    head: () => {
      if (chain.failHeads > 0) {
        chain.failHeads--;
        chain.reconnectCount++;
        return Promise.reject(new Error('socket closed'));
      }
      return Promise.resolve(chain.headBlock);
    },
    view: () => Promise.resolve({ block: chain.headBlock, tempo: chain.tempo, neurons: chain.neurons }),
    // A deterministic stand-in: the head block number spelled into 32 bytes.
    finalizedHash: () => Promise.resolve(`0x${chain.headBlock.toString(16).padStart(64, '0')}`),
    preflight: () => (chain.preflightError === undefined ? Promise.resolve() : Promise.reject(chain.preflightError)),
    setWeights: (uids, weights): Promise<ChainSubmission> => {
      if (chain.failSubmits > 0) {
        chain.failSubmits--;
        return Promise.reject(new Error('socket closed while submitting'));
      }
      chain.submissions.push({ uids, weights });
      return Promise.resolve({
        block: chain.headBlock + 1n,
        blockHash: `0x${(chain.headBlock + 1n).toString(16).padStart(64, '0')}`,
        finalized: true,
        extrinsicHash: `0x${'ab'.repeat(32)}`,
        call: 'SubtensorModule.set_weights',
      });
    },
    reconnects: () => chain.reconnectCount,
    close: () => {
      chain.closed = true;
      return Promise.resolve();
    },
  };
  return chain;
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'validator-test-'));
  return {
    dir,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A temporary folder for a whole test file: made before its tests (not when the file is collected, so listing the
 * tests leaves nothing behind) and removed after them. Read `dir` inside tests and hooks only.
 */
export function useTempDir(): { readonly dir: string } {
  let folder: { dir: string; cleanup: () => void } | undefined;
  beforeAll(() => {
    folder = tempDir();
  });
  afterAll(() => folder?.cleanup());
  return {
    get dir(): string {
      if (folder === undefined) throw new Error('useTempDir: the folder is made in beforeAll; read dir inside a test or hook');
      return folder.dir;
    },
  };
}

export const scoring = {
  pipeline: { min_validators: 1, min_stake_fraction: 0 },
  challenges: [
    { id: 'workflow', kind: 'workflow', alpha: 0.4, weight_cap: 1 },
    { id: 'sssa', kind: 'sssa', alpha: 0.2, weight_cap: 1 },
    { id: 'term', kind: 'term_pass_rate', alpha: 0.2, weight_cap: 1, total_tasks: 4 },
    { id: 'bounty', kind: 'bounty', alpha: 0.2, weight_cap: 1 },
  ],
};

/** {@link scoring} with SSSA groups of one primary and one auditor: among four miners, two are outside each group. */
export const smallGroups = {
  ...scoring,
  challenges: scoring.challenges.map((c) => (c.kind === 'sssa' ? { ...c, assignment: { primaries: 1, auditors: 1 } } : c)),
};

export function testConfig(dir: string, overrides: Record<string, unknown> = {}): ValidatorConfig {
  return resolveConfig({
    object: {
      netuid: 1,
      validator: { hotkey_uri: '//Alice' },
      server: { port: 0, executor_token: TOKEN, body_limit_bytes: 64 * 1024 },
      database: { path: join(dir, 'validator.sqlite') },
      chain: { epoch_length: 10, poll_ms: 20, commit_store: join(dir, 'commits.json') },
      bundles: { dir: join(dir, 'bundles') },
      log: { level: 'silent' },
      scoring,
      ...overrides,
    },
  });
}

export const silent = pino({ level: 'silent' });

/**
 * A logger at `level` that keeps every line it writes, parsed: tests read the codes and numbers a warning carries.
 *
 * @example const { logger, lines } = captureLog('warn'); … expect(lines.find((l) => l.code === 'TEMPO_CHANGED')).toBeDefined();
 */
export function captureLog(level: pino.Level): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

/** The validator of `fixtures/child-validator.ts` running in a child process. */
export interface ChildValidator {
  readonly proc: ChildProcess;
  readonly url: string;
  /** Resolves with the exit code (`null` when a signal ended it). */
  readonly exited: Promise<number | null>;
}

const childValidatorPath = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures', 'child-validator.ts');

/**
 * Starts the validator of `fixtures/child-validator.ts` (SQLite file in `dir`, fake chain) in a child process and
 * resolves once it prints its URL.
 *
 * @param timeoutMs - how long the child may take to start; then the promise rejects
 * @param stderr - `'pipe'` collects the child's stderr into that rejection; `'inherit'` shows it as it comes
 */
export function startChildValidator(dir: string, timeoutMs: number, stderr: 'pipe' | 'inherit'): Promise<ChildValidator> {
  const proc = spawn(process.execPath, ['--import', 'tsx', '--conditions=@subnet/source', childValidatorPath, dir], { stdio: ['ignore', 'pipe', stderr] });
  const exited = new Promise<number | null>((resolve) =>
    proc.on('exit', (code) => {
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      reject(new Error(`the child validator did not start within ${timeoutMs} ms${err === '' ? '' : `: ${err}`}`));
    }, timeoutMs);
    proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+)/.exec(out);
      if (m?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ proc, url: m[1], exited });
      }
    });
  });
}

/** A TCP port free right now on 127.0.0.1: for a test that must know a validator's URL before `startValidator` returns. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

/** PostgreSQL for storage tests: the URL, or the reason tests are skipped. */
export const PG_URL = process.env.SUBNET_TEST_DATABASE_URL;
export const PG_SKIP_REASON = 'skipped: SUBNET_TEST_DATABASE_URL is not set (no PostgreSQL)';

/** Registers a failing test when PostgreSQL is missing in CI (where it must be there). */
export function requirePostgresInCi(): void {
  if (PG_URL === undefined && process.env.CI !== undefined) {
    it('PostgreSQL is available in CI (SUBNET_TEST_DATABASE_URL)', () => {
      throw new Error('CI is set but SUBNET_TEST_DATABASE_URL is not: the PostgreSQL storage tests cannot run');
    });
  }
}

let schemaCounter = 0;
/** A fresh schema name for one test run; dropped by the returned cleanup. */
export function freshSchema(): Promise<{ schema: string; drop: () => Promise<void> }> {
  schemaCounter++;
  const schema = `vt_${process.pid}_${Date.now().toString(36)}_${schemaCounter}`;
  return Promise.resolve({
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  });
}

export function sssaDoc(verdict = 'ALLOW') {
  return { verdict, risk_score: 0.2, findings: [], capabilities: ['fs.read'], dependencies: [], policy: { rules: [] } };
}

let nonceCounter = 0;
export function nonce(): string {
  nonceCounter++;
  return `nonce-${process.pid}-${Date.now()}-${nonceCounter}`.padEnd(16, 'x');
}

export async function postSigned(
  url: string,
  path: string,
  pair: KeyringPair,
  body: unknown,
  opts: { timestamp?: number; nonce?: string; claim?: string } = {},
): Promise<Response> {
  const text = JSON.stringify(body);
  const headers = signRequest(pair, { method: 'POST', path, body: text, timestamp: opts.timestamp ?? Date.now(), nonce: opts.nonce ?? nonce() });
  if (opts.claim !== undefined) headers['x-subnet-hotkey'] = opts.claim;
  return fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text });
}

export async function postExecutor(url: string, path: string, body: unknown, token: string | null = TOKEN): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
}

export const workflowBody = (recordId: string, miner: string, taskId = recordId) => ({
  record_id: recordId,
  miner_hotkey: miner,
  task: { task_id: taskId, constraints: { max_budget_tao: 1, max_latency_seconds: 60 } },
  plan: { nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] },
  record: { output_quality_score: 1, actual_tao: 0.5, actual_seconds: 30, steps_completed: 2, actual_retries: 0, timeouts: 0, hard_failures: 0 },
});

export const bountyBody = (recordId: string, miner: string, valid = 10) => ({
  record_id: recordId,
  miner_hotkey: miner,
  valid_issues: valid,
  invalid_issues: 0,
  starred_repos: 0,
});

/**
 * A validator on the folder `dir` (its `testConfig`: a restart finds what an earlier process there stored) and `chain`,
 * epochs closed only on `tick()`; stopped by `cleanups`.
 */
export async function startInDir(dir: string, chain: FakeChain, cleanups: (() => unknown)[]): Promise<ValidatorService> {
  const service = await startValidator({ config: testConfig(dir), chain, logger: silent, autoTick: false });
  cleanups.push(() => service.stop());
  return service;
}

/**
 * A first process "dies" in the middle of its submission of epoch 0: a validator on a fresh folder whose chain never
 * answers `setWeights` takes a record and ticks past the epoch, so its row stays `submitting`. The hung
 * submission is failed, the process stopped and the folder removed by the cleanups it pushes. `beforeHang` runs with
 * the epoch loop's `setWeights` options first (what a chain access does before signing), and is waited for.
 *
 * @returns the folder, for the validator that restarts there
 */
export async function crashMidSubmission(
  k: Keys,
  cleanups: (() => unknown)[],
  beforeHang?: (options: SetWeightsOptions | undefined) => Promise<void>,
): Promise<string> {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const stuck = fakeChain(k);
  let release: () => void = () => undefined;
  let hung = false;
  stuck.setWeights = async (_uids, _weights, options) => {
    await beforeHang?.(options);
    hung = true;
    return new Promise((_resolve, reject) => {
      release = () => {
        reject(new Error('process died'));
      };
    });
  };
  const first = await startValidator({ config: testConfig(dir), chain: stuck, logger: silent, autoTick: false });
  expect((await postExecutor(first.url, '/v1/bounty-records', bountyBody('b1', k.miners[1]!.address))).status).toBe(201);
  stuck.headBlock = 11n;
  const hanging = first.tick().catch(() => undefined);
  await expect.poll(async () => (await first.storage.getEpoch(0))?.status, { timeout: 20_000 }).toBe('submitting');
  await expect.poll(() => hung, { timeout: 20_000 }).toBe(true);
  cleanups.push(async () => {
    release();
    await hanging;
    await first.stop();
  });
  return dir;
}

/** The bundle a validator on `dir` wrote for `epoch` (`bundles/epoch-<epoch>.json`), its signature checked. */
export function readBundle(dir: string, epoch: number): Bundle {
  return verifyBundle(JSON.parse(readFileSync(join(dir, 'bundles', `epoch-${epoch}.json`), 'utf8')), (m, s, a) => signatureVerify(m, s, a).isValid);
}

/**
 * Checks a served bundle of a commit-reveal v4 epoch whose outcome is recorded: the document signed at the close
 * (bundle, digest and signature byte for byte) with the validator's reveal attestation inserted, canonical JSON, and
 * the whole document verifying with `@subnet/bundle`'s `verifyBundle` (attestation signature included).
 *
 * @param served - the served text (HTTP body, or the file without its newline)
 * @param closeText - the text stored at the close (the epoch row's `bundle`)
 * @param attestation - fields the attestation must hold
 */
export async function expectAttestedBundle(served: string, closeText: string, attestation: Record<string, unknown>): Promise<void> {
  const doc = JSON.parse(served) as Record<string, unknown>;
  const close = JSON.parse(closeText) as { bundle: { epoch: number; netuid: number; validator_hotkey: string }; digest: string; signature: string };
  expect(Object.keys(doc)).toEqual(['bundle', 'digest', 'reveal', 'reveal_signature', 'signature']);
  expect(served).toBe(canonicalJson(doc));
  expect(canonicalJson(doc['bundle'])).toBe(canonicalJson(close.bundle));
  expect(served.startsWith(closeText.slice(0, closeText.indexOf(',"signature":')))).toBe(true);
  expect(doc['digest']).toBe(close.digest);
  expect(doc['signature']).toBe(close.signature);
  expect(doc['reveal']).toMatchObject({
    kind: 'reveal_attestation',
    bundle_digest: close.digest,
    epoch: close.bundle.epoch,
    netuid: close.bundle.netuid,
    validator_hotkey: close.bundle.validator_hotkey,
    ...attestation,
  });
  expect(verifyBundle(doc, await sr25519Verifier())).toEqual(close.bundle);
}

/**
 * A peer validator that receives score documents: it runs as //Bob (uid 1 of the fake metagraph) on its own
 * fake chain, ticked by the test, with `config` overrides; stopped and its folder removed by `cleanups`.
 */
export async function startPeerReceiver(
  k: Keys,
  cleanups: (() => unknown)[],
  config: Record<string, unknown> = {},
): Promise<{ receiver: ValidatorService; chain: FakeChain }> {
  const chain = Object.assign(fakeChain(k), { hotkey: k.peer.address });
  const r = tempDir();
  cleanups.push(r.cleanup);
  const receiver = await startValidator({
    config: testConfig(r.dir, { validator: { hotkey_uri: '//Bob' }, ...config }),
    chain,
    logger: silent,
    autoTick: false,
  });
  cleanups.push(() => receiver.stop());
  return { receiver, chain };
}

/** A validator a whole test file shares: filled in before the file's tests run. */
export interface FileService {
  readonly service: ValidatorService;
  /** The service's base URL on 127.0.0.1 (`service.url`). */
  readonly url: string;
  readonly chain: FakeChain;
  /** Its folder (SQLite file, commit store, bundles). */
  readonly dir: string;
}

/**
 * Starts one validator before the file's tests (its own folder, `testConfig`, a fake chain of the keys `k`, the
 * silent logger, epochs closed only on `tick()`) and stops it and removes its folder after them (call at file level,
 * after `useKeys`).
 *
 * @param k - the keys from `useKeys()` (filled in by the time the service starts)
 * @param options - `config` builds the configuration for the folder (default `testConfig`), `chain` the chain
 *   (default `fakeChain(k)`); `logger` replaces the silent one
 * @returns the service, its URL, chain and folder, filled in before the file's tests run
 */
export function useService(
  k: Keys,
  options: { config?: (dir: string) => ValidatorConfig; chain?: (k: Keys) => FakeChain; logger?: StartOptions['logger'] } = {},
): FileService {
  const running = {} as FileService;
  let cleanup: () => void = () => undefined;
  beforeAll(async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const chain = options.chain === undefined ? fakeChain(k) : options.chain(k);
    const service = await startValidator({ config: (options.config ?? testConfig)(t.dir), chain, logger: options.logger ?? silent, autoTick: false });
    Object.assign(running, { service, url: service.url, chain, dir: t.dir });
  });
  afterAll(async () => {
    await running.service.stop();
    cleanup();
  });
  return running;
}

/**
 * Calls `probe` every `everyMs` until it returns something other than `undefined`, and returns that; throws
 * naming `what` after `timeoutMs`.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 120_000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** A validator's folder and configuration, and a start for validators on them: {@link setupValidator}. */
export interface ValidatorSetup {
  readonly config: ValidatorConfig;
  readonly dir: string;
  /** Starts a validator on the configuration with `chain` (ticked by the test; `extra` adds or replaces options). */
  readonly start: (chain: FakeChain, extra?: Partial<StartOptions>) => Promise<ValidatorService>;
}

/**
 * A fresh folder and a `testConfig` on it, stored in the folder's SQLite file or, with `postgres`, in a fresh
 * PostgreSQL schema (`PG_URL`); the folder, the schema and every validator `start` ran are removed, dropped and
 * stopped by `cleanups`.
 *
 * @param cleanups - the test's cleanup list (`useCleanups()`)
 * @param postgres - store in a fresh PostgreSQL schema instead of SQLite
 * @param overrides - configuration overrides (merged by `testConfig`)
 */
export async function setupValidator(cleanups: (() => unknown)[], postgres: boolean, overrides: Record<string, unknown> = {}): Promise<ValidatorSetup> {
  const t = tempDir();
  cleanups.push(t.cleanup);
  let schema: string | undefined;
  if (postgres) {
    const fresh = await freshSchema();
    schema = fresh.schema;
    cleanups.push(fresh.drop);
  }
  const config = testConfig(t.dir, schema === undefined ? overrides : { ...overrides, database: { url: PG_URL } });
  const running: ValidatorService[] = [];
  cleanups.push(async () => {
    for (const s of running) await s.stop();
  });
  return {
    config,
    dir: t.dir,
    start: async (chain, extra = {}) => {
      const s = await startValidator({
        config,
        chain,
        logger: silent,
        autoTick: false,
        ...(schema === undefined ? {} : { postgresSchema: schema }),
        ...extra,
      });
      running.push(s);
      return s;
    },
  };
}

/** 1 when `service` holds the leader lease, 0 when it stands by (its `leaseHolder` gauge). */
export async function holdsLease(service: ValidatorService): Promise<number | undefined> {
  return (await service.metrics.leaseHolder.get()).values[0]?.value;
}

/**
 * Two validator services on one fresh PostgreSQL schema (`schema`) and one fake chain, started in turn: the first takes
 * the lease, the second finds it held and stands by (checked). Both stopped and their folders and the schema
 * removed by `cleanups`.
 */
export async function startHaPair(
  k: Keys,
  cleanups: (() => unknown)[],
  overrides: { leaseTtlMs: number; scoring?: Record<string, unknown> },
): Promise<{ leader: ValidatorService; standby: ValidatorService; chain: FakeChain; schema: string }> {
  const fresh = await freshSchema();
  cleanups.push(fresh.drop);
  const chain = fakeChain(k);
  const start = async (): Promise<ValidatorService> => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const config = testConfig(t.dir, {
      ...(overrides.scoring === undefined ? {} : { scoring: overrides.scoring }),
      database: { url: PG_URL },
      ha: { lease_ttl_ms: overrides.leaseTtlMs },
    });
    const service = await startValidator({ config, chain, logger: silent, autoTick: false, postgresSchema: fresh.schema });
    cleanups.push(() => service.stop());
    return service;
  };
  const leader = await start();
  const standby = await start();
  expect([await holdsLease(leader), await holdsLease(standby)]).toEqual([1, 0]);
  return { leader, standby, chain, schema: fresh.schema };
}

/** A validator that takes peer scores: its fake chain's metagraph has a second peer validator with a permit. */
export interface PeerScoresReceiver {
  readonly k: Keys;
  readonly chain: FakeChain;
  readonly service: ValidatorService;
  /** Each epoch's outcome, in order. */
  readonly outcomes: EpochOutcome[];
  readonly stop: () => Promise<void>;
}

/**
 * Starts a validator on a fake chain whose metagraph also holds Eve (`k.stranger`, uid 6) as a validator with a
 * permit, so two peers can send it scores; epochs close only on `tick()`.
 *
 * @param config - configuration overrides (merged by `testConfig`)
 * @returns the keys, chain, service, the outcomes seen and a stop that also removes its folder
 */
export async function startWithSecondPeer(config: Record<string, unknown> = {}): Promise<PeerScoresReceiver> {
  const k = await keys();
  const chain = fakeChain(k);
  chain.neurons.push({ uid: 6, hotkey: k.stranger.address, stake: 1_000_000_000n, validatorPermit: true });
  const t = tempDir();
  const service = await startValidator({ config: testConfig(t.dir, config), chain, logger: silent, autoTick: false });
  const outcomes: EpochOutcome[] = [];
  service.onEpoch((o) => outcomes.push(o));
  return {
    k,
    chain,
    service,
    outcomes,
    stop: async () => {
      await service.stop();
      t.cleanup();
    },
  };
}

/**
 * {@link startWithSecondPeer} for a file or a describe block: started before its tests, stopped (its folder removed)
 * after them.
 *
 * @param config - configuration overrides (merged by `testConfig`)
 * @returns the keys, chain, service and outcomes seen, filled in before the tests run
 */
export function useSecondPeerReceiver(config: Record<string, unknown> = {}): PeerScoresReceiver {
  const receiver = {} as PeerScoresReceiver;
  beforeAll(async () => {
    Object.assign(receiver, await startWithSecondPeer(config));
  });
  afterAll(() => receiver.stop());
  return receiver;
}

/** Prefix 42 in SS58's two-byte form (valid, checksummed, decodes to 42), built by hand from the SS58 rules. */
export function twoBytePrefix42(publicKey: Uint8Array): string {
  const body = new Uint8Array([0b0100_0000 | (42 >> 2), (42 & 0b11) << 6, ...publicKey]);
  const sum = blake2AsU8a(new Uint8Array([...new TextEncoder().encode('SS58PRE'), ...body]), 512).subarray(0, 2);
  return base58Encode(new Uint8Array([...body, ...sum]));
}
