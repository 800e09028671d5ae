import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { KeyringPair } from '@polkadot/keyring/types';
import { devHotkeyUri, startDevnet } from '@subnet/devnet';
import pino from 'pino';
import type { Logger } from 'pino';

import { resolveConfig } from './config.js';
import type { EpochOutcome } from './epoch-runner.js';
import { startValidator } from './service.js';
import { signRequest } from './signed-request.js';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Epochs to close (default 3). */
  readonly epochs: number;
  /** Where the table goes. */
  readonly out: NodeJS.WritableStream;
  /** Blocks per epoch (default 100, also the devnet's tempo) and block time in ms (default 100). */
  readonly epochLength?: number;
  readonly blockTimeMs?: number;
  /** Folder for the database and bundles (default: a new temporary folder, kept so the bundles can be read). */
  readonly dir?: string;
  /** Called with each epoch's outcome (tests). */
  readonly onEpoch?: (outcome: EpochOutcome) => void;
  /** The validator's logger (default: warnings and errors as JSON lines on standard error). */
  readonly logger?: Logger;
  /**
   * Stops the demo early (the CLI aborts it on SIGINT and SIGTERM): the validator and the devnet are stopped and the
   * run rejects with the signal's reason. A demo stopped or failed before its table leaves no temporary folder.
   */
  readonly signal?: AbortSignal;
}

/** What {@link runDemo} did. */
export interface DemoResult {
  readonly dir: string;
  readonly outcomes: readonly EpochOutcome[];
}

/** The burn uid of the demo's scoring (the default of `scoring.pipeline.burn_uid`). */
const DEMO_BURN_UID = 0;

/** The demo's scoring: the challenges' α sum to 1 and every cap can hand out its share, so nothing burns and start-up has nothing to warn about. */
const DEMO_SCORING = {
  pipeline: { min_validators: 1, min_stake_fraction: 0.3, weight_cap: 0.5, burn_uid: DEMO_BURN_UID },
  challenges: [
    // Six miners: the workflow's default cap (0.15) could hand out only 90 % of its share.
    { id: 'workflow', kind: 'workflow', alpha: 0.4, weight_cap: 0.2 },
    { id: 'sssa', kind: 'sssa', alpha: 0.2, weight_cap: 0.6, emission: { base_weights: { mcp_server: 1 } } },
    { id: 'term', kind: 'term_pass_rate', alpha: 0.2, total_tasks: 8 },
    { id: 'bounty', kind: 'bounty', alpha: 0.2, weight_cap: 1 },
  ],
};

function sssa(verdict: string, capability: string) {
  return {
    verdict,
    risk_score: verdict === 'ALLOW' ? 0.1 : 0.7,
    findings: [],
    capabilities: ['fs.read', capability],
    dependencies: [{ package: 'requests', version: '2.31.0', cves: [] }],
    policy: { rules: [{ resource: 'filesystem', action: 'read', pattern: './workspace/**' }] },
  };
}

async function post(url: string, path: string, body: unknown, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<number> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  });
  const text = await res.text();
  if (process.env.DEMO_DEBUG !== undefined && res.status >= 300) process.stderr.write(`${path} ${res.status} ${text}\n`);
  return res.status;
}

/**
 * Registers an SSSA task with the validator (`POST /v1/tasks`) and returns its group's hotkeys; retries
 * while the epoch's candidate snapshot is being taken (503 `TASKS_NOT_READY`).
 */
async function registerTask(url: string, bearer: Record<string, string>, taskId: string, signal: AbortSignal | undefined): Promise<Set<string>> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = await fetch(`${url}/v1/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer },
      body: JSON.stringify({ task_id: taskId, task_type: 'mcp_server' }),
      ...(signal === undefined ? {} : { signal }),
    });
    const answer = (await res.json()) as { group?: { hotkey: string }[] };
    if (res.status === 201 || res.status === 200) return new Set((answer.group ?? []).map((m) => m.hotkey));
    if (res.status !== 503) throw new Error(`task registration refused with HTTP ${res.status}: ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the validator did not take the task registration in 5 s');
}

/** Feeds one epoch of sample records from miners uids 2..7 (and peer scores from validator uid 1). */
async function feed(
  url: string,
  token: string,
  round: number,
  epoch: number,
  miners: readonly { uid: number; pair: KeyringPair }[],
  peer: KeyringPair,
  receiver: string,
  signal: AbortSignal | undefined,
): Promise<number> {
  const bearer = { authorization: `Bearer ${token}` };
  // SSSA: the executor registers the task first; the validator draws its group; only members attest (SPEC B).
  const taskId = `audit-${epoch}-${round}`;
  const group = await registerTask(url, bearer, taskId, signal);
  const statuses: Promise<number>[] = [];
  for (const { uid, pair } of miners) {
    const k = (uid - 2 + round) % 6;
    statuses.push(
      post(
        url,
        '/v1/workflow-runs',
        {
          record_id: `wf-${round}-${uid}`,
          miner_hotkey: pair.address,
          task: { task_id: `wf-task-${round}-${uid}`, constraints: { max_budget_tao: 1, max_latency_seconds: 60 } },
          plan: {
            nodes: [{ id: 'fetch' }, { id: 'plan' }, { id: 'act' }],
            edges: [
              { from: 'fetch', to: 'plan' },
              { from: 'plan', to: 'act' },
            ],
            error_handling: { act: { retry_count: 1, timeout_seconds: 30 } },
          },
          record: {
            output_quality_score: 0.55 + 0.08 * k,
            actual_tao: 0.2 + 0.1 * (k % 3),
            actual_seconds: 10 + 5 * k,
            attempts: [
              { node_id: 'fetch', attempt: 1, status: 'success', seconds: 2 },
              { node_id: 'plan', attempt: 1, status: 'success', seconds: 3 },
              { node_id: 'act', attempt: 1, status: k % 2 === 0 ? 'failure' : 'success', seconds: 4 },
              ...(k % 2 === 0 ? [{ node_id: 'act', attempt: 2, status: 'success', seconds: 5 }] : []),
            ],
          },
        },
        bearer,
        signal,
      ),
      post(
        url,
        '/v1/term-results',
        {
          record_id: `term-${round}-${uid}`,
          miner_hotkey: pair.address,
          results: Array.from({ length: 8 }, (_, t) => ({ task_id: `term-task-${t}`, tests_passed: t < k + 2 ? 3 : 1, tests_total: 3, timed_out: false })),
        },
        bearer,
        signal,
      ),
    );
    if (k >= 3)
      statuses.push(
        post(
          url,
          '/v1/bounty-records',
          { record_id: `bounty-${round}-${uid}`, miner_hotkey: pair.address, valid_issues: 4 * k, invalid_issues: 1, starred_repos: k - 2 },
          bearer,
          signal,
        ),
      );
  }
  for (const { uid, pair } of miners) {
    if (!group.has(pair.address)) continue;
    const k = (uid - 2 + round) % 6;
    const body = { task_id: taskId, sssa: sssa(k === 5 ? 'BLOCK' : 'ALLOW', k === 4 ? 'net.http' : 'fs.write') };
    statuses.push(
      post(
        url,
        '/v1/sssa',
        body,
        // Bound to this validator (x-subnet-receiver): it cannot be replayed to another one.
        signRequest(pair, {
          method: 'POST',
          path: '/v1/sssa',
          body: JSON.stringify(body),
          timestamp: Date.now(),
          nonce: randomBytes(16).toString('hex'),
          receiver,
        }),
        signal,
      ),
    );
  }
  // A peer sends the scores of the epoch it has just closed; they count in this epoch's close (docs/spec.md G.4).
  const scores = {
    epoch: Math.max(0, epoch - 1),
    challenge_id: 'term',
    scores: miners.map(({ uid, pair }) => ({ miner_hotkey: pair.address, score: Math.min(1, 0.2 + 0.1 * ((uid - 2 + round) % 6)) })),
  };
  statuses.push(
    post(
      url,
      '/v1/peer-scores',
      scores,
      signRequest(peer, {
        method: 'POST',
        path: '/v1/peer-scores',
        body: JSON.stringify(scores),
        timestamp: Date.now(),
        nonce: randomBytes(16).toString('hex'),
        receiver,
      }),
      signal,
    ),
  );
  const done = await Promise.all(statuses);
  return done.filter((s) => s >= 200 && s < 300).length;
}

/**
 * The default run: a local devnet, a validator on a SQLite file in a temporary folder, sample miners'
 * records fed over HTTP for a few epochs; weights land on the devnet; prints the weights per epoch and
 * where the bundles are, then stops.
 *
 * @param options - epochs and where to print
 * @returns the folder and each epoch's outcome
 * @throws the devnet's, chain's and service's errors
 * @example await runDemo({ epochs: 3, out: process.stdout })
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const out = (line: string): void => {
    options.out.write(`${line}\n`);
  };
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'subnet-validator-demo-'));
  const epochLength = options.epochLength ?? 100;
  const outcomes: EpochOutcome[] = [];
  const unfed: EpochOutcome[] = [];
  let devnet: Awaited<ReturnType<typeof startDevnet>> | undefined;
  let service: Awaited<ReturnType<typeof startValidator>> | undefined;
  let completed = false;
  try {
    options.signal?.throwIfAborted();
    // The subnet's tempo is the epoch length, so the validator's epochs line up with the chain's.
    devnet = await startDevnet({ neurons: 8, validators: 2, tempo: epochLength, weightsSetRateLimit: 0n, blockTime: options.blockTimeMs ?? 100 });
    out(`devnet: ${devnet.url} (netuid ${devnet.netuid}, 8 neurons, validators uid 0 and 1)`);
    options.signal?.throwIfAborted();
    const token = randomBytes(24).toString('hex');
    const config = resolveConfig({
      object: {
        netuid: devnet.netuid,
        validator: { hotkey_uri: devHotkeyUri(devnet.options.seed, 0) },
        server: { port: 0, executor_token: token, require_receiver: true },
        database: { path: join(dir, 'validator.sqlite') },
        chain: { endpoint: devnet.url, epoch_length: epochLength, poll_ms: 100, commit_store: join(dir, 'commits.json') },
        bundles: { dir: join(dir, 'bundles') },
        log: { level: 'warn' },
        scoring: DEMO_SCORING,
      },
    });
    const running = await startValidator({ config, logger: options.logger ?? pino({ level: 'warn' }, pino.destination(2)) });
    service = running;
    out(`validator: ${running.url} (hotkey ${running.hotkey}, SQLite ${join(dir, 'validator.sqlite')})`);
    const miners = [2, 3, 4, 5, 6, 7].map((uid) => ({ uid, pair: devnet?.accounts[uid]?.hotkey as KeyringPair }));
    const peer = devnet.accounts[1]?.hotkey as KeyringPair;
    let round = 0;
    // Feed each epoch at its start (from the first one that begins after start-up), so that an epoch's
    // tasks and their SSSAs land in the same epoch even on a busy machine; report the fed epochs.
    const fed = new Set<number>();
    let lastSeen: number | undefined;
    const closed = new Promise<void>((resolve) => {
      running.onEpoch((outcome) => {
        // The epoch the run started in (nothing fed) is closed at its boundary too, and its bundle is in the folder.
        if (!fed.has(outcome.epoch)) {
          unfed.push(outcome);
          return;
        }
        outcomes.push(outcome);
        options.onEpoch?.(outcome);
        if (outcomes.length >= options.epochs) resolve();
      });
    });
    const deadline = Date.now() + 180_000;
    while (outcomes.length < options.epochs && Date.now() < deadline) {
      options.signal?.throwIfAborted();
      const epoch = running.currentEpoch();
      // The epoch current at start-up began before we did: wait for the next one.
      if (lastSeen === undefined) lastSeen = epoch;
      else if (epoch !== undefined && epoch !== lastSeen && fed.size < options.epochs) {
        lastSeen = epoch;
        fed.add(epoch);
        // The requests stop with the signal, and a feed the signal interrupted is not reported as fed.
        const accepted = await feed(running.url, token, round, epoch, miners, peer, running.hotkey, options.signal);
        options.signal?.throwIfAborted();
        out(`epoch ${epoch}: fed ${accepted} records from 6 miners and 1 peer validator over HTTP`);
        round++;
      }
      await Promise.race([closed, new Promise((r) => setTimeout(r, 50))]);
    }
    options.signal?.throwIfAborted();
    if (outcomes.length < options.epochs) throw new Error(`only ${outcomes.length} of ${options.epochs} epochs closed in 180 s`);
    completed = true;
  } finally {
    await service?.stop();
    await devnet?.stop();
    // A demo that did not finish has no bundles to check: its half-written database and bundles are removed.
    if (!completed && ownDir) rmSync(dir, { recursive: true, force: true });
  }
  const hotkey = service.hotkey;
  out('');
  out('| epoch | status | block | extrinsic | weights (uid: u16) | bundle |');
  out('| ---: | --- | ---: | --- | --- | --- |');
  for (const o of outcomes) {
    const weights = weightsText(o);
    const submission = o.submission;
    out(
      `| ${o.epoch} | ${o.status} | ${submission?.block ?? '-'} | ${submission?.extrinsic_hash === undefined || submission.extrinsic_hash === null ? '-' : `${submission.extrinsic_hash.slice(0, 12)}…`} | ${weights} | ${o.bundlePath ?? '-'} |`,
    );
  }
  for (const o of unfed) {
    if (o.bundlePath === null) continue;
    const block = o.submission?.block ?? null;
    // With no records every weight goes to the burn uid, which on this devnet is the validator's own uid 0.
    const burnOnly = o.u16 !== null && o.u16.uids.length === 1 && o.u16.uids[0] === DEMO_BURN_UID;
    out(
      `epoch ${o.epoch} was closed too, with no records fed to it: ${o.status}${block === null ? '' : ` at block ${block}`}, weights ${weightsText(o)}` +
        `${burnOnly ? ` (no miner scored: all weight to the burn uid, scoring.pipeline.burn_uid ${DEMO_BURN_UID})` : ''}, bundle ${o.bundlePath}`,
    );
  }
  out('');
  out(`bundles: ${join(dir, 'bundles')} (signed by ${hotkey})`);
  out(`check them: auditor-replay verify ${join(dir, 'bundles')}`);
  out(`  (from this repository's root: node apps/auditor-replay/bin/auditor-replay.js verify ${join(dir, 'bundles')})`);
  out(`the devnet and the validator have stopped; ${dir} stays until you remove it (rm -rf ${dir})`);
  return { dir, outcomes };
}

/** An outcome's u16 weights as `uid: weight` pairs, `-` when none were computed. */
function weightsText(o: EpochOutcome): string {
  return o.u16 === null ? '-' : o.u16.uids.map((uid, i) => `${uid}: ${o.u16?.weights[i] ?? 0}`).join(', ');
}
