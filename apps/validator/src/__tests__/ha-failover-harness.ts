/**
 * The HA failover run on the devnet (issue 17, item 1), shared by the short run of every test
 * command (`ha-failover-short.devnet.test.ts`) and the long opt-in one (`ha-failover.devnet.test.ts`): three validator
 * processes (the real CLI, `subnet-validator run`) share one fresh PostgreSQL database and one devnet. The
 * run ingests continuously through every live instance (as a load balancer would) and kills the leader
 * with SIGKILL as planned: before a submission (shortly before an epoch boundary), during one (its row
 * `submitting`, the extrinsic held by the devnet, or dropped so it never lands), and after one (its row
 * `submitted`), restarting a replacement after each kill. Then it checks, from the chain's own blocks and
 * the published bundles (not the validators' epoch rows alone):
 * - every closed epoch was submitted exactly once: one successful weight extrinsic per epoch in the devnet's
 *   blocks, carrying that epoch's bundled u16 vector, and no other weight extrinsic by the hotkey;
 * - every record acknowledged with a 2xx is in exactly one bundle, scored or listed as excluded;
 * - after each kill a new holder took the lease within two chain polls;
 * - each bundle's scoring content equals a single instance's close of the same records (see `scoringContent`).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { parseEpochConfig } from '@subnet/bundle';
import type { Bundle } from '@subnet/bundle';
import { connectChain } from '@subnet/chain';
import type { ChainConnection } from '@subnet/chain';
import { digest } from '@subnet/core';
import { devHotkeyUri, startDevnet } from '@subnet/devnet';
import type { Devnet } from '@subnet/devnet';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ChainPort } from '../chain-port.js';
import { closeEpoch } from '../epoch-runner.js';
import { createMetrics } from '../metrics.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import { bountyBody, BUILT_CLI, expectBuiltCli, PG_URL, scoring, silent, tempDir, TOKEN, until } from './helpers.js';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Instance {
  readonly name: string;
  readonly proc: ChildProcess;
  readonly pid: number;
  url: string | undefined;
  following: boolean;
  dead: boolean;
  /** When this instance logged `leader lease taken` (its pino `time`, ms). */
  readonly leaseTakenAt: number[];
  readonly exited: Promise<void>;
}

interface Kill {
  readonly phase: 'before' | 'during' | 'after';
  readonly epoch: number;
  /** From the SIGKILL until the test saw another holder in the lease row. */
  readonly takeoverMs: number;
  /** From the SIGKILL until the new leader logged `leader lease taken` (its own clock; same host). */
  readonly loggedMs: number;
  /** A `during` kill: the extrinsic was in the node's pool (it lands after the kill) or the node dropped it. */
  readonly fault?: 'sent' | 'drop';
}

/** One failover run: its schedule and its chain. */
export interface FailoverPlan {
  /** The suite's name. */
  readonly name: string;
  /** Why the run is skipped, or undefined to run it. */
  readonly skip: string | undefined;
  /** Blocks per validator epoch: longer than the era plus the reconciliation margin (16), so a submission proven not landed can be sent again within its epoch. */
  readonly epoch: number;
  /** The mortal era of the weight extrinsics (blocks). */
  readonly era: number;
  /** The devnet's block time (ms). */
  readonly blockTimeMs: number;
  /** Chain poll (ms); the lease lives its default 1.5 polls, so a standby takes over within two. */
  readonly pollMs: number;
  /**
   * Per cycle (one epoch each), the kills: `before` (12 blocks before the boundary: the new leader closes
   * the epoch), `during` (while the row is `submitting`: on even cycles once the extrinsic is in the node's
   * pool, so it lands after the kill; on odd cycles the node drops it), `after` (once it is `submitted`).
   */
  readonly cycles: readonly (readonly ('before' | 'during' | 'after')[])[];
  /** The test's timeout (ms). */
  readonly timeoutMs: number;
}

/**
 * Registers the failover suite: three validator CLI processes on one fresh PostgreSQL database and a devnet,
 * continuous ingest through every live instance, the planned SIGKILLs of the leader (a replacement started
 * after each), then the checks (listed above).
 *
 * @param plan - schedule, chain and timeout
 */
export function haFailoverSuite(plan: FailoverPlan): void {
  const EPOCH = plan.epoch;
  const POLL_MS = plan.pollMs;
  const INSTANCES = 3;
  describe.skipIf(plan.skip !== undefined)(`${plan.name}${plan.skip === undefined ? '' : ` (${plan.skip})`}`, () => {
    // Made when the suite runs, not while it is collected: a skipped suite runs no hook, so a folder made here stayed in /tmp.
    let t: ReturnType<typeof tempDir> | undefined;
    const folder = (): string => {
      if (t === undefined) throw new Error('the failover suite has not started');
      return t.dir;
    };
    const database = `vha_${process.pid}_${Date.now().toString(36)}`;
    const adminUrl = PG_URL ?? 'postgresql://127.0.0.1/unused';
    const dbUrl = (() => {
      const u = new URL(adminUrl);
      u.pathname = `/${database}`;
      return u.toString();
    })();
    let devnet: Devnet;
    let db: pg.Client;
    let reader: ChainConnection;
    const instances: Instance[] = [];
    const logs = new Map<string, string[]>();
    let spawned = 0;

    const cleanups: (() => Promise<unknown>)[] = [];
    beforeAll(async () => {
      expectBuiltCli();
      t = tempDir();
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.end();
      cleanups.push(async () => {
        const dropper = new pg.Client({ connectionString: adminUrl });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await dropper.end();
      });
      devnet = await startDevnet({ neurons: 6, validators: 2, tempo: 360, weightsSetRateLimit: 0n, blockTime: plan.blockTimeMs });
      cleanups.push(() => devnet.stop());
      writeFileSync(
        join(folder(), 'validator.yaml'),
        JSON.stringify({
          netuid: devnet.netuid,
          chain: { endpoint: devnet.url, epoch_length: EPOCH, poll_ms: POLL_MS, era_period: plan.era },
          database: { url: dbUrl },
          // The default lease TTL (1.5 polls): a standby tries again right after the expiry it saw.
          log: { level: 'info' },
          scoring,
        }),
      );
      db = new pg.Client({ connectionString: dbUrl });
      await db.connect();
      cleanups.push(() => db.end());
      reader = await connectChain({ network: devnet.url });
      cleanups.push(() => reader.close());
    }, 120_000);

    afterAll(async () => {
      for (const i of instances) if (!i.dead) i.proc.kill('SIGKILL');
      await Promise.all(instances.map((i) => i.exited));
      if (process.env.HA_TEST_LOGS !== undefined) {
        for (const [name, log] of logs) writeFileSync(join(process.env.HA_TEST_LOGS, `${name}.log`), log.join(''));
        const rows = (await db.query('SELECT epoch, status, submission FROM epochs ORDER BY epoch')).rows;
        writeFileSync(join(process.env.HA_TEST_LOGS, 'epochs.json'), JSON.stringify(rows, null, 1));
      }
      for (const c of cleanups.reverse()) await c();
      t?.cleanup();
    }, 120_000);

    function spawnInstance(): Instance {
      spawned++;
      const name = `v${spawned}`;
      const dir = join(folder(), name);
      mkdirSync(dir, { recursive: true });
      const proc = spawn(
        process.execPath,
        [BUILT_CLI, 'run', '--config', join(folder(), 'validator.yaml'), '--port', '0', '--bundles-dir', join(dir, 'bundles')],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: {
            ...process.env,
            SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN: TOKEN,
            SUBNET_VALIDATOR_VALIDATOR__HOTKEY_URI: devHotkeyUri(devnet.options.seed, 0),
            SUBNET_VALIDATOR_CHAIN__COMMIT_STORE: join(dir, 'commits.json'),
          },
        },
      );
      const instance: Instance = {
        name,
        proc,
        pid: proc.pid ?? -1,
        url: undefined,
        following: false,
        dead: false,
        leaseTakenAt: [],
        exited: new Promise((resolve) => {
          proc.on('exit', () => {
            resolve();
          });
        }),
      };
      void instance.exited.then(() => {
        instance.dead = true;
      });
      let buffer = '';
      proc.stdout.on('data', (d: Buffer) => {
        buffer += d.toString();
        let nl = buffer.indexOf('\n');
        while (nl >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.includes('"msg":"listening"')) instance.url = (JSON.parse(line) as { url: string }).url;
          if (line.includes('"msg":"following the chain head"')) instance.following = true;
          if (line.includes('"msg":"leader lease taken')) instance.leaseTakenAt.push((JSON.parse(line) as { time: number }).time);
          nl = buffer.indexOf('\n');
        }
      });
      proc.stderr.on('data', () => undefined);
      // Each instance's log, for a failure's message (the last lines of every instance are attached).
      const log: string[] = [];
      logs.set(name, log);
      proc.stdout.on('data', (d: Buffer) => {
        log.push(d.toString());
        if (log.length > 400) log.splice(0, log.length - 400);
      });
      instances.push(instance);
      return instance;
    }

    const live = () => instances.filter((i) => !i.dead && i.following && i.url !== undefined);
    const head = () => reader.request('head', async (api) => (await api.rpc.chain.getHeader()).number.toBigInt());
    const lease = async () => (await db.query<{ holder: string; token: string }>("SELECT holder, token FROM leader_lease WHERE name = 'leader'")).rows[0];
    const epochRow = async (epoch: number) =>
      (await db.query<{ status: string; bundle: string | null }>('SELECT status, bundle FROM epochs WHERE epoch = $1', [epoch])).rows[0];
    const leader = async (): Promise<Instance | undefined> => {
      const row = await lease();
      return row === undefined ? undefined : live().find((i) => row.holder.includes(`-${i.pid}-`));
    };

    /** Continuous ingest through every live instance, round robin; a record not acknowledged is sent again to the next one. */
    function ingest(): { stop: () => Promise<void>; acked: Set<string> } {
      const acked = new Set<string>();
      const miners = devnet.accounts.slice(2).map((a) => a.hotkeyAddress);
      const state = { running: true };
      const running = (): boolean => state.running;
      let next = 0;
      let turn = 0;
      const loop = async (): Promise<void> => {
        while (running()) {
          const id = `rec-${next++}`;
          const body = bountyBody(id, miners[next % miners.length] ?? '', 1 + (next % 37));
          for (let attempt = 0; running() && attempt < 200; attempt++) {
            const targets = live();
            const target = targets[turn++ % Math.max(1, targets.length)];
            if (target?.url === undefined) {
              await sleep(100);
              continue;
            }
            try {
              const res = await fetch(`${target.url}/v1/bounty-records`, {
                method: 'POST',
                signal: AbortSignal.timeout(10_000),
                headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
                body: JSON.stringify(body),
              });
              await res.arrayBuffer();
              if (res.status === 200 || res.status === 201) {
                acked.add(id);
                break;
              }
            } catch {
              /* the instance died or timed out: not acknowledged, send again elsewhere */
            }
            await sleep(100);
          }
          await sleep(60);
        }
      };
      const done = Promise.all([loop(), loop()]);
      return {
        acked,
        stop: async () => {
          state.running = false;
          await done;
        },
      };
    }

    /** Kills the leader now; resolves with the time until another instance holds the lease. */
    async function killLeader(): Promise<{ takeoverMs: number; loggedMs: number }> {
      const victim = await until('a leader among the live instances', leader);
      const before = await lease();
      victim.proc.kill('SIGKILL');
      const killedAt = Date.now();
      spawnInstance();
      await victim.exited;
      expect(victim.proc.signalCode).toBe('SIGKILL');
      const taken = await until(
        'a new lease holder',
        async () => {
          const row = await lease();
          return row !== undefined && row.holder !== before?.holder ? row : undefined;
        },
        30_000,
        10,
      );
      const takeoverMs = Date.now() - killedAt;
      const heir = instances.find((i) => taken.holder.includes(`-${i.pid}-`));
      const logged = await until('the new leader to log its takeover', () => heir?.leaseTakenAt.find((at) => at >= killedAt), 30_000, 10);
      return { takeoverMs, loggedMs: logged - killedAt };
    }

    it(
      'every epoch is submitted exactly once on chain, no acknowledged record is lost, takeover within two polls, bundles equal a single instance',
      async () => {
        // Where the time goes (printed at the end): start-up, the kills, the last close, the checks.
        const marks: [string, number][] = [['begin', Date.now()]];
        for (let i = 0; i < INSTANCES; i++) spawnInstance();
        await until('every instance following the head', () => (live().length === INSTANCES ? true : undefined), 240_000, 100);
        marks.push(['start-up', Date.now()]);
        const load = ingest();
        const kills: Kill[] = [];
        const standby = () => until('a standby to take over', () => (live().length >= 2 ? true : undefined), 240_000, 100);

        for (const [cycle, phases] of plan.cycles.entries()) {
          // Before: a few blocks before the next boundary (the new leader closes the epoch).
          await standby();
          const h = await head();
          let boundary = (h / BigInt(EPOCH) + 1n) * BigInt(EPOCH);
          if (boundary - h < 12n) boundary += BigInt(EPOCH);
          await until('12 blocks before the boundary', async () => ((await head()) >= boundary - 12n ? true : undefined), 300_000, 200);
          const epoch = Number(boundary / BigInt(EPOCH)) - 1;
          if (phases.includes('before')) kills.push({ phase: 'before', epoch, ...(await killLeader()) });
          if (phases.includes('during')) {
            // During: kill while the row is `submitting`. On even cycles the extrinsic has reached the node when
            // the leader dies (block production is stalled until it is in the pool, and resumes after the kill):
            // it lands afterwards and the next leader must find it, not send it again. On odd cycles the node
            // drops it: it never lands and the next leader sends it again once its era proves that.
            await standby();
            const fault = cycle % 2 === 0 ? 'sent' : 'drop';
            if (fault === 'drop') devnet.faults.dropNextExtrinsic();
            let seen = await until(`epoch ${epoch} claimed`, async () => (await epochRow(epoch))?.status, 300_000, 25);
            if (fault === 'sent' && seen === 'submitting') {
              devnet.faults.stallBlockProduction();
              seen = await until(
                `epoch ${epoch}'s extrinsic in the pool`,
                async () => {
                  const status = (await epochRow(epoch))?.status;
                  if (status !== 'submitting') return status;
                  return (await pendingWeights(reader, devnet.accounts[0]?.hotkeyAddress ?? '')) > 0 ? status : undefined;
                },
                60_000,
                25,
              );
            }
            kills.push(seen === 'submitting' ? { phase: 'during', epoch, fault, ...(await killLeader()) } : { phase: 'after', epoch, ...(await killLeader()) });
            devnet.faults.reset();
          }
          // After: once it is submitted (reconciled, or sent again once the era proved it never landed).
          await until(`epoch ${epoch} submitted`, async () => ((await epochRow(epoch))?.status === 'submitted' ? true : undefined), 300_000, 200);
          if (phases.includes('after')) {
            await standby();
            kills.push({ phase: 'after', epoch, ...(await killLeader()) });
          }
        }
        marks.push(['kills', Date.now()]);
        await load.stop();
        // Every acknowledged record's epoch closes: wait for the next boundary to pass and every row to be final.
        const lastRecordEpoch = Number(
          (await db.query<{ e: string }>("SELECT COALESCE(MAX(epoch), 0) AS e FROM records WHERE kind <> 'epoch_seal'")).rows[0]?.e ?? 0,
        );
        await until(
          `epoch ${lastRecordEpoch} closed and nothing left submitting`,
          async () => {
            const row = await epochRow(lastRecordEpoch);
            const open = (await db.query("SELECT 1 FROM epochs WHERE status = 'submitting' OR bundle IS NULL")).rowCount;
            return row !== undefined && open === 0 ? true : undefined;
          },
          240_000,
          200,
        );
        marks.push(['last close', Date.now()]);
        for (const i of instances) if (!i.dead) i.proc.kill('SIGTERM');
        await Promise.all(instances.map((i) => i.exited));

        // The kills as planned (one during a submission at least), each followed by a takeover within two polls.
        const planned = plan.cycles.flat();
        const loadAverage = loadavg()[0]?.toFixed(1) ?? '?';
        process.stdout.write(
          `HA takeovers (poll ${POLL_MS} ms, load ${loadAverage}): ${kills.map((k) => `${k.phase} ${k.epoch}: ${k.takeoverMs} ms seen, ${k.loggedMs} ms logged`).join('; ')}\n`,
        );
        expect(kills.length).toBe(planned.length);
        expect(kills.filter((k) => k.phase === 'during').length).toBeGreaterThanOrEqual(1);
        expect(kills.filter((k) => k.phase === 'before').length).toBe(planned.filter((p) => p === 'before').length);
        for (const k of kills) expect.soft(k.loggedMs, `takeover after the ${k.phase} kill of epoch ${k.epoch}`).toBeLessThanOrEqual(2 * POLL_MS);

        // Exactly once, counted on the chain.
        const rows = (
          await db.query<{ epoch: string; status: string; bundle: string; submission: string }>(
            'SELECT epoch, status, bundle, submission FROM epochs ORDER BY epoch',
          )
        ).rows;
        // A kill during a submission leaves it to the next leader: an extrinsic in the pool lands after the kill
        // and is found on chain (reconciled, not sent again); a dropped one is sent again once its era is over.
        const finished = kills
          .filter((k) => k.phase === 'during')
          .map((k) => {
            const submission = JSON.parse(rows.find((r) => Number(r.epoch) === k.epoch)?.submission ?? '{}') as { reconciled?: unknown; resubmitted?: unknown };
            const how = submission.resubmitted === true ? 'resubmitted' : submission.reconciled !== undefined ? 'reconciled' : 'by the killed leader';
            return { epoch: k.epoch, fault: k.fault, how };
          });
        process.stdout.write(`HA submissions interrupted by a kill: ${finished.map((f) => `${f.epoch} (${f.fault}): ${f.how}`).join('; ')}\n`);
        expect(finished.map((f) => [f.epoch, f.fault, f.how])).toEqual(
          finished.map((f) => [f.epoch, f.fault, f.fault === 'sent' ? 'reconciled' : 'resubmitted']),
        );
        const bundles = new Map(rows.map((r) => [Number(r.epoch), (JSON.parse(r.bundle) as { bundle: Bundle }).bundle]));
        const first = Number(rows[0]?.epoch);
        const last = Number(rows.at(-1)?.epoch);
        expect(rows.map((r) => Number(r.epoch))).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
        expect(rows.filter((r) => r.status !== 'submitted').map((r) => `${r.epoch}: ${r.status}`)).toEqual([]);
        const onChain = await weightExtrinsics(reader, devnet.accounts[0]?.hotkeyAddress ?? '', await head());
        expect(onChain.length).toBe(rows.length);
        const byHash = new Map(onChain.map((x) => [x.hash, x]));
        expect(byHash.size).toBe(onChain.length);
        for (const [epoch, bundle] of bundles) {
          expect(bundle.submission.status).toBe('submitted');
          const landed = byHash.get(bundle.submission.extrinsic_hash ?? '');
          expect(landed, `epoch ${epoch}'s extrinsic is on chain`).toBeDefined();
          expect(String(landed?.block)).toBe(bundle.submission.block);
          const sent = bundle.result.u16.uids.map((u, i) => [u, bundle.result.u16.weights[i]] as const).filter(([, w]) => (w ?? 0) > 0);
          expect(landed?.pairs, `epoch ${epoch}'s extrinsic carries its u16 vector`).toEqual(sent);
        }

        // No acknowledged record lost: each is in exactly one bundle, scored (latest of its miner) or excluded.
        const where = new Map<string, number[]>();
        for (const [epoch, bundle] of bundles) {
          const inputs = bundle.inputs as { bounty_records: { record_id: string }[] };
          const excluded = new Set((bundle.result.excluded as readonly { readonly record_id: string }[]).map((x) => x.record_id));
          const latest = new Map<string, { record_id: string; seq: number }>();
          for (const r of inputs.bounty_records as { record_id: string; seq: number; miner_hotkey: string }[]) {
            const seen = latest.get(r.miner_hotkey);
            if (seen === undefined || seen.seq < r.seq) latest.set(r.miner_hotkey, r);
          }
          const scored = new Set([...latest.values()].map((r) => r.record_id));
          for (const r of inputs.bounty_records) {
            expect(scored.has(r.record_id) || excluded.has(r.record_id), `${r.record_id} scored or excluded`).toBe(true);
            where.set(r.record_id, [...(where.get(r.record_id) ?? []), epoch]);
          }
        }
        expect(load.acked.size).toBeGreaterThan(50);
        expect([...load.acked].filter((id) => where.get(id)?.length !== 1)).toEqual([]);

        // Identical to a single instance's close of the same records, epoch after epoch (carried state included).
        const single = await singleInstanceRun(db, bundles, join(folder(), 'single'), EPOCH);
        if (process.env.HA_TEST_LOGS !== undefined) {
          for (const [epoch, bundle] of bundles) {
            writeFileSync(join(process.env.HA_TEST_LOGS, `ha-${epoch}.json`), JSON.stringify(bundle, null, 1));
            writeFileSync(join(process.env.HA_TEST_LOGS, `single-${epoch}.json`), JSON.stringify(single.get(epoch) ?? null, null, 1));
          }
        }
        for (const [epoch, bundle] of bundles) {
          expect(digest(scoringContent(single.get(epoch))), `epoch ${epoch}`).toBe(digest(scoringContent(bundle)));
        }
        marks.push(['checks', Date.now()]);
        process.stdout.write(
          `HA run phases: ${marks
            .slice(1)
            .map(([name, at], n) => `${name} ${((at - (marks[n]?.[1] ?? at)) / 1000).toFixed(1)} s`)
            .join(', ')}\n`,
        );
      },
      plan.timeoutMs,
    );
  });
}

/**
 * The scoring content of a bundle: everything but what legitimately differs between an HA run and a
 * single instance fed the same records in the same order:
 * - `submission`: the block and extrinsic (and the status a dry-run replay writes) are the chain's, not the
 *   scoring's;
 * - every `seq`: arrival numbers are assigned by the storage. PostgreSQL's sequence has gaps that SQLite's
 *   1, 2, 3 replay has not: every epoch seal row (epoch-seal.ts) takes a number, and so does every insert
 *   that `ON CONFLICT DO NOTHING` drops (a record sent again after a kill, a leader's task snapshot
 *   offered again after a restart); the last HA run's bundles differed from the replay's in nothing else. The replay keeps their
 *   order, which is all that scoring reads from them (latest record wins, window order);
 * - the seq a superseded record's `reason` quotes (`a later record of this miner (rec-68, seq 72) is the
 *   one used`): the same storage number in a sentence. It is not simply dropped: first it must be the seq
 *   that the named record carries in the same bundle's inputs (see `quotedSeqs`), then it is blanked; the
 *   record id it names is kept, so the kept record is still compared.
 * Lease metadata and the signer never enter a bundle (the same hotkey signs on every instance).
 */
function scoringContent(bundle: Bundle | undefined): unknown {
  if (bundle === undefined) return null;
  const quoted = quotedSeqs(bundle);
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([k]) => k !== 'seq')
          .map(([k, v]) => [k, strip(v)]),
      );
    }
    if (typeof value === 'string') {
      return value.replace(QUOTED_SEQ, (_m, id: string, seq: string) => {
        expect(quoted.get(id), `the seq quoted for ${id} is its seq in the bundle's inputs`).toBe(Number(seq));
        return `(${id}, seq ·)`;
      });
    }
    return value;
  };
  const { submission: _submission, ...rest } = bundle;
  return strip(rest);
}

/** `(<record id>, seq <n>)` as a superseded record's reason quotes the kept one (packages/bundle select-latest.ts). */
const QUOTED_SEQ = /\(([^\s,()]+), seq (\d+)\)/g;

/** The seq of every record id in a bundle's input lists. */
function quotedSeqs(bundle: Bundle): Map<string, number> {
  const seqs = new Map<string, number>();
  for (const list of Object.values(bundle.inputs as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    for (const r of list as { record_id?: unknown; seq?: unknown }[]) {
      if (typeof r.record_id === 'string' && typeof r.seq === 'number') seqs.set(r.record_id, r.seq);
    }
  }
  return seqs;
}

/**
 * A single instance (SQLite, no lease) closes the same epochs from the same records, inserted in the HA
 * run's arrival order, with the chain view each HA bundle recorded (dry run: nothing is sent).
 */
async function singleInstanceRun(db: pg.Client, bundles: ReadonlyMap<number, Bundle>, dir: string, epochLength: number): Promise<Map<number, Bundle>> {
  const storage = openSqliteStorage(join(dir, 'single.sqlite'));
  try {
    const records = (
      await db.query<{ kind: string; record_id: string; epoch: string; body: string; digest: string }>(
        "SELECT kind, record_id, epoch, body, digest FROM records WHERE kind <> 'epoch_seal' ORDER BY seq",
      )
    ).rows;
    for (const r of records) {
      await storage.insertRecords([{ kind: r.kind as 'bounty', recordId: r.record_id, epoch: Number(r.epoch), body: r.body, digest: r.digest }]);
    }
    const out = new Map<number, Bundle>();
    for (const [epoch, bundle] of [...bundles].sort((a, b) => a[0] - b[0])) {
      const stakes = bundle.stakes as { validator_hotkey: string; stake: string }[];
      const neurons = (bundle.metagraph as { hotkey: string; uid: number }[]).map((n) => {
        const stake = stakes.find((s) => s.validator_hotkey === n.hotkey);
        return { uid: n.uid, hotkey: n.hotkey, stake: BigInt(stake?.stake ?? '0'), validatorPermit: stake !== undefined };
      });
      const view: ChainPort = {
        hotkey: bundle.validator_hotkey,
        head: () => Promise.resolve(0n),
        view: () => Promise.resolve({ block: 0n, tempo: epochLength, neurons }),
        finalizedHash: () => Promise.resolve(`0x${'00'.repeat(32)}`),
        preflight: () => Promise.resolve(),
        setWeights: () => Promise.reject(new Error('a dry run sends nothing')),
        reconnects: () => 0,
        close: () => Promise.resolve(),
      };
      const outcome = await closeEpoch(
        {
          netuid: bundle.netuid,
          scoring: parseEpochConfig(scoring),
          storage,
          chain: view,
          signer: undefined,
          dryRun: true,
          bundlesDir: join(dir, 'bundles'),
          metrics: createMetrics(),
          logger: silent,
        },
        epoch,
      );
      expect(outcome.status).toBe('dry_run');
      const row = await storage.getEpoch(epoch);
      out.set(epoch, (JSON.parse(row?.bundle ?? '{}') as { bundle: Bundle }).bundle);
    }
    return out;
  } finally {
    await storage.close();
  }
}

/** How many weight extrinsics signed by `hotkey` wait in the node's pool. */
async function pendingWeights(reader: ChainConnection, hotkey: string): Promise<number> {
  return reader.request('pending', async (api) => {
    const pending = (await api.rpc.author.pendingExtrinsics()) as unknown as readonly ExtrinsicLike[];
    return pending.filter((ex) => ex.isSigned && ex.signer.toString() === hotkey && /weights$/i.test(ex.method.method)).length;
  });
}

interface ExtrinsicLike {
  readonly isSigned: boolean;
  readonly signer: { toString(): string };
  readonly method: { readonly section: string; readonly method: string; toJSON(): unknown };
  readonly hash: { toHex(): string };
}
interface EventLike {
  readonly phase: { readonly isApplyExtrinsic: boolean; readonly asApplyExtrinsic: { toNumber(): number } };
  readonly event: { readonly section: string; readonly method: string };
}

/** Every successful SubtensorModule weight extrinsic signed by `hotkey` in blocks 1..head, read from the devnet's blocks. */
async function weightExtrinsics(
  reader: ChainConnection,
  hotkey: string,
  head: bigint,
): Promise<{ block: bigint; hash: string; pairs: (readonly [number, number])[] }[]> {
  const found: { block: bigint; hash: string; pairs: (readonly [number, number])[] }[] = [];
  const scan = (n: bigint) =>
    reader.request('scan', async (api) => {
      const hash = await api.rpc.chain.getBlockHash(n);
      const block = await api.rpc.chain.getBlock(hash);
      const extrinsics = block.block.extrinsics as unknown as readonly ExtrinsicLike[];
      const ours = extrinsics
        .map((ex, index) => ({ ex, index }))
        .filter(({ ex }) => ex.isSigned && ex.signer.toString() === hotkey && ex.method.section === 'subtensorModule' && /weights$/i.test(ex.method.method));
      if (ours.length === 0) return;
      const events = (await (await api.at(hash)).query.system?.events?.()) as unknown as readonly EventLike[];
      for (const { ex, index } of ours) {
        const ok = events.some(
          (e) =>
            e.phase.isApplyExtrinsic && e.phase.asApplyExtrinsic.toNumber() === index && e.event.section === 'system' && e.event.method === 'ExtrinsicSuccess',
        );
        if (!ok) continue;
        const args = (ex.method.toJSON() as { args: { dests: number[]; weights: number[] } }).args;
        found.push({ block: n, hash: ex.hash.toHex(), pairs: args.dests.map((d, i) => [d, args.weights[i] ?? 0] as const) });
      }
    });
  // Sixteen blocks at a time (every block is read; the order of `found` is restored below).
  for (let from = 1n; from <= head; from += 16n) {
    const batch: Promise<void>[] = [];
    for (let n = from; n < from + 16n && n <= head; n++) batch.push(scan(n));
    await Promise.all(batch);
  }
  found.sort((a, b) => (a.block < b.block ? -1 : a.block > b.block ? 1 : 0));
  return found;
}
