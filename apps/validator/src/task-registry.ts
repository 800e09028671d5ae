import { createHash } from 'node:crypto';

import type { EpochConfig } from '@subnet/bundle';
import { assignTask, parseReputationTable } from '@subnet/consensus';
import type { ReputationEntry, TaskAssignment } from '@subnet/consensus';
import { canonicalJson } from '@subnet/core';

import type { ChainPort } from './chain-port.js';
import type { Storage } from './storage.js';
import type { WriteQueue } from './write-queue.js';

/**
 * What an epoch's task draws read (docs/spec.md G.3, G.6): the candidates (miners of the metagraph when the
 * epoch's snapshot was taken: a uid, no validator permit, not this validator) and the per-type reputation
 * table that stood after the previous epoch's close. Stored durably once per epoch, so a restart mid-epoch
 * draws from the same snapshot, and recorded in the epoch's bundle.
 */
export interface TaskSnapshot {
  readonly epoch: number;
  readonly candidates: readonly { readonly hotkey: string; readonly uid: number }[];
  readonly reputations: readonly ReputationEntry[] | null;
}

/** A registered task: its epoch, its stored registration and its drawn group. */
export interface RegisteredTask {
  readonly epoch: number;
  readonly seq: number;
  readonly assignment: TaskAssignment;
}

/** What {@link TaskRegistry.register} did. */
export type RegisterOutcome =
  { readonly status: 'registered' | 'duplicate'; readonly task: RegisteredTask } | { readonly status: 'conflict' } | { readonly status: 'not_ready' };

/** Tasks registered with this validator and the snapshots their groups are drawn from. */
export interface TaskRegistry {
  /** Takes (or loads, when one was stored before a restart) the snapshot of `epoch`. */
  prepare(epoch: number): Promise<TaskSnapshot>;
  /** The stored snapshot of `epoch`, if one was taken. */
  snapshot(epoch: number): Promise<TaskSnapshot | undefined>;
  /** Registers a task in `epoch`: records the newest finalized block hash and draws its group. */
  register(epoch: number, taskId: string, taskType: string): Promise<RegisterOutcome>;
  /** A registered task by id (any epoch), with its group. */
  lookup(taskId: string): Promise<RegisteredTask | undefined>;
}

/** The parts the registry uses. */
export interface TaskRegistryDeps {
  readonly storage: Storage;
  readonly queue: WriteQueue;
  readonly chain: ChainPort;
  readonly scoring: EpochConfig;
}

const snapshotId = (epoch: number): string => `snapshot-${epoch}`;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Creates the task registry: the executor's `POST /v1/tasks` registers through it, `POST /v1/sssa` checks
 * assignments with it, and the epoch close reads the snapshot and tasks it stored.
 *
 * @param deps - storage, write queue, chain and scoring configuration
 * @returns the registry
 * @example const tasks = createTaskRegistry({ storage, queue, chain, scoring }); await tasks.prepare(epoch)
 */
export function createTaskRegistry(deps: TaskRegistryDeps): TaskRegistry {
  const snapshots = new Map<number, TaskSnapshot>();
  const tasks = new Map<string, RegisteredTask>();
  // Only the current and previous epochs are kept in memory; older ones are read back from storage.
  const forget = (epoch: number): void => {
    for (const [id, task] of tasks) if (task.epoch < epoch - 1) tasks.delete(id);
    for (const e of snapshots.keys()) if (e < epoch - 1) snapshots.delete(e);
  };
  const registry: TaskRegistry = {
    prepare: (epoch) => {
      forget(epoch);
      return prepareSnapshot(deps, snapshots, epoch);
    },
    snapshot: (epoch) => loadSnapshot(deps, snapshots, epoch),
    register: (epoch, taskId, taskType) => registerTask(deps, registry, tasks, epoch, taskId, taskType),
    lookup: (taskId) => lookupTask(deps, registry, tasks, taskId),
  };
  return registry;
}

/**
 * The group draw settings of the configured SSSA challenge (defaults when it is not configured).
 *
 * @param scoring - the scoring configuration
 * @returns the settings `assignTask` takes
 */
export function assignmentSettings(scoring: EpochConfig): {
  primaries: number;
  auditors: number;
  settings: { initialReputation: number; minReputation: number };
} {
  const sssa = scoring.challenges.find((c) => c.kind === 'sssa');
  const a = sssa?.kind === 'sssa' ? sssa.assignment : { primaries: 3, auditors: 2, initial_reputation: 0.5, min_reputation: 0.2 };
  return { primaries: a.primaries, auditors: a.auditors, settings: { initialReputation: a.initial_reputation, minReputation: a.min_reputation } };
}

async function loadSnapshot(deps: TaskRegistryDeps, cache: Map<number, TaskSnapshot>, epoch: number): Promise<TaskSnapshot | undefined> {
  const cached = cache.get(epoch);
  if (cached !== undefined) return cached;
  const stored = await deps.storage.findRecord('task_snapshot', snapshotId(epoch));
  if (stored === undefined) return undefined;
  const body = JSON.parse(stored.body) as { candidates: TaskSnapshot['candidates']; reputations: ReputationEntry[] | null };
  const snapshot: TaskSnapshot = { epoch, candidates: body.candidates, reputations: body.reputations };
  cache.set(epoch, snapshot);
  return snapshot;
}

async function prepareSnapshot(deps: TaskRegistryDeps, cache: Map<number, TaskSnapshot>, epoch: number): Promise<TaskSnapshot> {
  const existing = await loadSnapshot(deps, cache, epoch);
  if (existing !== undefined) return existing;
  const view = await deps.chain.view();
  const candidates = view.neurons
    .filter((n) => !n.validatorPermit && n.hotkey !== deps.chain.hotkey)
    .map((n) => ({ hotkey: n.hotkey, uid: n.uid }))
    .sort((a, b) => (a.hotkey < b.hotkey ? -1 : a.hotkey > b.hotkey ? 1 : 0));
  const carry = await deps.storage.latestCarry(epoch);
  const carried = carry === null ? null : ((JSON.parse(carry) as { reputations?: unknown }).reputations ?? null);
  // Checked here so that a broken carry fails the preparation, not every later draw.
  const reputations = carried === null ? null : parseReputationTable(carried).entries;
  const body = canonicalJson({ candidates, reputations });
  const outcome = await deps.queue.submit({ kind: 'task_snapshot', recordId: snapshotId(epoch), epoch, body, digest: sha256(body) });
  if (outcome.status === 'conflict') {
    // Another snapshot of this epoch was stored first (a restart): that one stands.
    const stored = await loadSnapshot(deps, cache, epoch);
    if (stored !== undefined) return stored;
  }
  const snapshot: TaskSnapshot = { epoch, candidates, reputations };
  cache.set(epoch, snapshot);
  return snapshot;
}

function draw(scoring: EpochConfig, snapshot: TaskSnapshot, taskId: string, taskType: string, blockHash: string): TaskAssignment {
  const s = assignmentSettings(scoring);
  return assignTask({
    taskId,
    taskType,
    blockHash,
    candidates: snapshot.candidates,
    reputations: snapshot.reputations,
    settings: s.settings,
    primaries: s.primaries,
    auditors: s.auditors,
  });
}

async function registerTask(
  deps: TaskRegistryDeps,
  registry: TaskRegistry,
  cache: Map<string, RegisteredTask>,
  epoch: number,
  taskId: string,
  taskType: string,
): Promise<RegisterOutcome> {
  const snapshot = await registry.snapshot(epoch);
  if (snapshot === undefined) return { status: 'not_ready' };
  const blockHash = await deps.chain.finalizedHash();
  const assignment = draw(deps.scoring, snapshot, taskId, taskType, blockHash);
  const body = canonicalJson({ task_id: taskId, task_type: taskType, block_hash: blockHash });
  const outcome = await deps.queue.submit({ kind: 'task', recordId: taskId, epoch, body, digest: sha256(body) });
  if (outcome.status === 'conflict') return { status: 'conflict' };
  if (outcome.status === 'duplicate') {
    const existing = await registry.lookup(taskId);
    if (existing !== undefined) return { status: 'duplicate', task: existing };
  }
  const task: RegisteredTask = { epoch, seq: outcome.seq, assignment };
  cache.set(taskId, task);
  return { status: 'registered', task };
}

async function lookupTask(
  deps: TaskRegistryDeps,
  registry: TaskRegistry,
  cache: Map<string, RegisteredTask>,
  taskId: string,
): Promise<RegisteredTask | undefined> {
  const cached = cache.get(taskId);
  if (cached !== undefined) return cached;
  const stored = await deps.storage.findRecord('task', taskId);
  if (stored === undefined) return undefined;
  const snapshot = await registry.snapshot(stored.epoch);
  if (snapshot === undefined) return undefined;
  const body = JSON.parse(stored.body) as { task_id: string; task_type: string; block_hash: string };
  const task: RegisteredTask = {
    epoch: stored.epoch,
    seq: stored.seq,
    assignment: draw(deps.scoring, snapshot, body.task_id, body.task_type, body.block_hash),
  };
  cache.set(taskId, task);
  return task;
}
