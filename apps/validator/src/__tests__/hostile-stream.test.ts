import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { KeyringPair } from '@polkadot/keyring/types';
import { canonicalJson } from '@subnet/core';
import { computeEpoch, recomputeBundle } from '@subnet/bundle';
import type { Bundle } from '@subnet/bundle';
import { devHotkeyUri, startDevnet } from '@subnet/devnet';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { EpochOutcome } from '../epoch-runner.js';
import { startValidator } from '../service.js';
import { postExecutor, postSigned, silent, sssaDoc, tempDir, testConfig, workflowBody } from './helpers.js';

/**
 * Issue 14 item 9: random hostile record streams through the validator's HTTP ingest and epoch close on
 * the devnet. Each stream is run twice, by two validators with fresh databases against two devnets
 * started the same way (same seed and options, manual block production). The devnet's blocks are
 * deterministic: block n carries the timestamp genesis + n x slot and only the extrinsics sent to it (a
 * dry-run validator sends none), so both devnets have the same block hashes at every height as long as
 * both produce the same number of blocks, which the test does: the head does not move while a stream is
 * posted, and each epoch is closed by producing exactly the blocks up to the next epoch boundary. Checks:
 * the epoch closes as `dry_run` (never failed, never missed), every acknowledged record is in the bundle
 * and ends scored or excluded with a code and a sentence, recomputing the bundle from its inputs gives the
 * same result, and the second run's bundle has the same digest as the first's.
 */

type Devnet = Awaited<ReturnType<typeof startDevnet>>;
let devnets: [Devnet, Devnet];
let miners: KeyringPair[];
let self: KeyringPair;
let peer: KeyringPair;
const devnetOptions = { neurons: 7, validators: 2, tempo: 360, weightsSetRateLimit: 0n, blockTime: 0 } as const;
beforeAll(async () => {
  devnets = [await startDevnet(devnetOptions), await startDevnet(devnetOptions)];
  for (const d of devnets) await d.produceBlocks(3);
  // The same accounts on both (derived from the same seed).
  const [a] = devnets;
  self = a.accounts[0]?.hotkey as KeyringPair;
  peer = a.accounts[1]?.hotkey as KeyringPair;
  miners = [2, 3, 4, 5, 6].map((uid) => a.accounts[uid]?.hotkey as KeyringPair);
}, 120_000);
afterAll(async () => {
  for (const d of devnets) await d.stop();
});

const nested = (depth: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { x: v };
  return v;
};

/** One step of a hostile stream. */
type Step =
  | { kind: 'workflow'; id: number; miner: number; task: number; mutate: unknown }
  | { kind: 'term'; id: number; miner: number; passed: number; total: number }
  | { kind: 'bounty'; id: number; miner: number; valid: number; invalid: number }
  | { kind: 'task'; task: number; type: string }
  | { kind: 'sssa'; task: number; miner: number; verdict: string; extra: boolean }
  | { kind: 'peer'; signer: 'peer' | 'self'; miner: number; score: number }
  | { kind: 'deep'; depth: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('workflow' as const),
    id: fc.nat(6),
    miner: fc.nat(4),
    task: fc.nat(2),
    mutate: fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('term' as const),
    id: fc.nat(3),
    miner: fc.nat(4),
    passed: fc.integer({ min: -1, max: 4 }),
    total: fc.integer({ min: 0, max: 3 }),
  }),
  fc.record({ kind: fc.constant('bounty' as const), id: fc.nat(3), miner: fc.nat(4), valid: fc.integer({ min: -1, max: 30 }), invalid: fc.nat(5) }),
  fc.record({ kind: fc.constant('task' as const), task: fc.nat(2), type: fc.constantFrom('mcp_server', 'constructor', '__proto__', 'toString') }),
  fc.record({
    kind: fc.constant('sssa' as const),
    task: fc.nat(3),
    miner: fc.nat(4),
    verdict: fc.constantFrom('ALLOW', 'BLOCK', 'REVIEW', 'MAYBE'),
    extra: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('peer' as const),
    signer: fc.constantFrom('peer' as const, 'self' as const),
    miner: fc.nat(4),
    score: fc.double({ min: -0.5, max: 1.5, noNaN: true }),
  }),
  fc.record({ kind: fc.constant('deep' as const), depth: fc.constantFrom(70, 500, 4000) }),
);

interface Acknowledged {
  readonly list: string;
  readonly id: string;
}

async function post(url: string, s: Step, epoch: number, token: string): Promise<Acknowledged | undefined> {
  const ack = async (res: Response, list: string, idOf: (body: Record<string, unknown>) => string): Promise<Acknowledged | undefined> => {
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    return res.status === 201 || res.status === 200 ? { list, id: idOf(body) } : undefined;
  };
  const byRecord = (b: Record<string, unknown>) => String(b.record_id);
  switch (s.kind) {
    case 'workflow': {
      const body: Record<string, unknown> = workflowBody(`wf-${s.id}`, miners[s.miner]!.address, `task-${s.task}`);
      if (s.mutate !== undefined) body.record = { ...(body.record as object), actual_tao: s.mutate };
      return ack(await postExecutor(url, '/v1/workflow-runs', body, token), 'workflow_runs', byRecord);
    }
    case 'term':
      return ack(
        await postExecutor(
          url,
          '/v1/term-results',
          { record_id: `term-${s.id}`, miner_hotkey: miners[s.miner]!.address, results: [{ task_id: 'a', tests_passed: s.passed, tests_total: s.total }] },
          token,
        ),
        'term_results',
        byRecord,
      );
    case 'bounty':
      return ack(
        await postExecutor(
          url,
          '/v1/bounty-records',
          { record_id: `bounty-${s.id}`, miner_hotkey: miners[s.miner]!.address, valid_issues: s.valid, invalid_issues: s.invalid, starred_repos: 1 },
          token,
        ),
        'bounty_records',
        byRecord,
      );
    case 'task':
      return ack(await postExecutor(url, '/v1/tasks', { task_id: `t-${s.task}`, task_type: s.type }, token), 'tasks', (b) => String(b.task_id));
    case 'sssa': {
      const body: Record<string, unknown> = { task_id: `t-${s.task}`, sssa: sssaDoc(s.verdict) };
      if (s.extra) body.sssa = { ...(body.sssa as object), unknown: nested(30) };
      return ack(await postSigned(url, '/v1/sssa', miners[s.miner]!, body), 'sssa_submissions', byRecord);
    }
    case 'peer': {
      // Scores of the epoch before count in this epoch's close (docs/spec.md G.4); in epoch 0 they are refused (400).
      const doc = { epoch: epoch - 1, challenge_id: 'term', scores: [{ miner_hotkey: miners[s.miner]!.address, score: s.score }] };
      return ack(await postSigned(url, '/v1/peer-scores', s.signer === 'self' ? self : peer, doc), 'peer_scores', byRecord);
    }
    case 'deep':
      return ack(
        await postExecutor(
          url,
          '/v1/bounty-records',
          { record_id: 'deep', miner_hotkey: miners[0]!.address, valid_issues: 1, invalid_issues: 0, starred_repos: 0, extra: nested(s.depth) },
          token,
        ),
        'bounty_records',
        byRecord,
      );
  }
}

/** Record ids each list's result says were scored. */
function scoredIds(bundle: Bundle): Map<string, Set<string>> {
  const result = bundle.result as unknown as {
    challenges: { kind: string; details: Record<string, unknown> }[];
    tasks: { task_id: string }[];
  };
  const scored = new Map<string, Set<string>>(
    ['workflow_runs', 'term_results', 'bounty_records', 'tasks', 'sssa_submissions', 'peer_scores'].map((l) => [l, new Set<string>()]),
  );
  for (const c of result.challenges) {
    const d = c.details;
    if (c.kind === 'workflow') for (const t of d.task_scores as { record_id: string }[]) scored.get('workflow_runs')?.add(t.record_id);
    if (c.kind === 'term_pass_rate') for (const r of d.pass_rates as { record_id: string }[]) scored.get('term_results')?.add(r.record_id);
    if (c.kind === 'bounty') for (const id of d.records_used as string[]) scored.get('bounty_records')?.add(id);
  }
  for (const t of result.tasks) scored.get('tasks')?.add(t.task_id);
  const inputs = bundle.inputs as { sssa_submissions: { record_id: string; task_id: string; miner_hotkey: string }[]; peer_scores: { record_id: string }[] };
  const groups = (result.challenges.find((c) => c.kind === 'sssa')?.details.groups ?? []) as {
    task_id: string;
    consensus: { members: { hotkey: string }[] } | null;
  }[];
  for (const s of inputs.sssa_submissions) {
    const group = groups.find((g) => g.task_id === s.task_id);
    if (group?.consensus?.members.some((m) => m.hotkey === s.miner_hotkey) === true) scored.get('sssa_submissions')?.add(s.record_id);
  }
  // A peer score that is not excluded is one of the aggregation's evaluations.
  const excludedPeers = new Set(bundle.result.excluded.filter((e) => e.list === 'peer_scores').map((e) => e.record_id));
  for (const p of inputs.peer_scores) if (!excludedPeers.has(p.record_id)) scored.get('peer_scores')?.add(p.record_id);
  return scored;
}

const EPOCH_LENGTH = 10;

/** One validator run of a stream against one devnet: post it, close the epoch, return the bundle. */
async function runStream(
  devnet: Devnet,
  steps: readonly Step[],
): Promise<{ outcome: EpochOutcome | undefined; stored: { bundle: Bundle; digest: string }; acked: Acknowledged[] }> {
  const t = tempDir();
  const token = 'hostile-stream-token-0123456789';
  const config = testConfig(t.dir, {
    validator: { hotkey_uri: devHotkeyUri(devnet.options.seed, 0) },
    server: { port: 0, executor_token: token, body_limit_bytes: 1024 * 1024 },
    chain: { endpoint: devnet.url, epoch_length: EPOCH_LENGTH, poll_ms: 100, dry_run: true, commit_store: join(t.dir, 'commits.json') },
  });
  const service = await startValidator({ config, logger: silent, autoTick: false });
  try {
    const outcomes: EpochOutcome[] = [];
    service.onEpoch((o) => outcomes.push(o));
    const epoch = service.currentEpoch() as number;
    const acked: Acknowledged[] = [];
    for (const s of steps) {
      const a = await post(service.url, s, epoch, token);
      if (a !== undefined) acked.push(a);
    }
    // Close the epoch: produce exactly the blocks up to the next boundary (the head did not move while
    // the stream was posted), then tick until the validator has closed it.
    const head = (await devnet.produceBlock())?.number ?? 0;
    const boundary = (epoch + 1) * EPOCH_LENGTH;
    if (head < boundary) await devnet.produceBlocks(boundary - head);
    while (service.currentEpoch() === epoch || !outcomes.some((o) => o.epoch === epoch)) {
      await service.tick();
      await new Promise((r) => setTimeout(r, 100));
    }
    const outcome = outcomes.find((o) => o.epoch === epoch);
    const stored = JSON.parse(readFileSync(outcome?.bundlePath ?? '', 'utf8')) as { bundle: Bundle; digest: string };
    return { outcome, stored, acked };
  } finally {
    await service.stop();
    t.cleanup();
  }
}

describe('hostile record streams through HTTP ingest and the epoch close on the devnet (issue 14 item 9)', () => {
  it('no epoch fails; every acknowledged record ends scored or excluded with a reason; a second run on the same input gives the same bundle digest', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 8, maxLength: 24 }), async (steps) => {
        const first = await runStream(devnets[0], steps);
        // The head never moves while a stream is posted, so the close is on time: only `dry_run` passes
        // (a failed epoch, or one published as missed, does not).
        expect(first.outcome?.status, JSON.stringify(first.outcome)).toBe('dry_run');
        const bundle = first.stored.bundle;
        const excluded = bundle.result.excluded;
        for (const e of excluded) {
          expect(e.code).toMatch(/^[A-Z][A-Z0-9_]+$/);
          expect(e.reason.length).toBeGreaterThan(0);
        }
        const scored = scoredIds(bundle);
        for (const a of first.acked) {
          const isScored = scored.get(a.list)?.has(a.id) === true;
          const isExcluded = excluded.some((e) => e.list === a.list && e.record_id === a.id);
          expect(isScored || isExcluded, `${a.list} ${a.id} is neither scored nor excluded`).toBe(true);
        }
        expect(recomputeBundle(bundle).identical).toBe(true);
        const again = computeEpoch({
          config: bundle.config,
          epoch: bundle.epoch,
          validatorHotkey: bundle.validator_hotkey,
          inputs: bundle.inputs,
          stakes: bundle.stakes,
          metagraph: bundle.metagraph,
        });
        expect(canonicalJson(again)).toBe(canonicalJson(bundle.result));

        // The same stream again: another validator, fresh database, the twin devnet at the same height.
        const second = await runStream(devnets[1], steps);
        expect(second.outcome?.status).toBe('dry_run');
        expect(second.acked).toEqual(first.acked);
        expect(canonicalJson(second.stored.bundle)).toBe(canonicalJson(bundle));
        expect(second.stored.digest).toBe(first.stored.digest);
      }),
      { numRuns: 4, endOnFailure: true },
    );
  }, 480_000);
});
