import type { SynapseDefinition } from '@subnet/axon';
import { createSynapse } from '@subnet/axon';
import { assignTask } from '@subnet/consensus';
import { isSubnetError } from '@subnet/core';
import type { Logger } from 'pino';

import type { ChainPort } from '../chain-port.js';
import type { ValidatorMetrics } from '../metrics.js';
import type { Storage } from '../storage.js';
import type { TaskRegistry } from '../task-registry.js';
import type { WriteQueue } from '../write-queue.js';
import type { DispatchChallengeConfig } from './dispatch-config.js';
import { dispatchTaskId, newRecord } from './dispatch-records.js';
import type { MemberQuery, MemberQueryDeps } from './query-member.js';
import { queryMember } from './query-member.js';
import type { DispatchTask, TaskSource } from './task-source.js';

/** Everything one challenge's rounds use. */
export interface RoundDeps extends MemberQueryDeps {
  readonly challenge: DispatchChallengeConfig;
  readonly kind: 'sssa' | 'workflow';
  readonly definition: SynapseDefinition;
  /** Miners per task (`workflow`; an `sssa` group is the registry's draw). */
  readonly groupSize: number;
  readonly source: TaskSource;
  readonly registry: TaskRegistry;
  readonly chain: Pick<ChainPort, 'finalizedHash'>;
  readonly storage: Storage;
  readonly queue: WriteQueue;
  readonly metrics: ValidatorMetrics;
  readonly logger: Logger;
  /** Logs a problem of the task source once (sources are read again every round). */
  report(problem: string): void;
}

/** A task's drawn group and the block hash it was drawn from. */
interface Drawn {
  readonly blockHash: string;
  readonly taskType: string;
  readonly members: readonly { readonly uid: number; readonly hotkey: string; readonly role: 'primary' | 'auditor' }[];
}

/**
 * One dispatch round of a challenge in `epoch`: takes up to `tasks_per_round` new tasks from the source;
 * for each, draws its group (an `sssa` task is registered with the task registry, which records the finalized
 * block hash and draws with `selectVerificationGroup` from the epoch's snapshot and per-type reputation; a
 * `workflow` task draws `group_size` miners from the same snapshot, seeded by sha256(block_hash|task_id)),
 * stores the dispatch, and queries every member's axon concurrently (bounded by the limiter). A member that
 * times out, answers garbage or cannot be reached is recorded and never holds up the others.
 *
 * @param deps - the challenge's wiring
 * @param epoch - the epoch the tasks belong to
 * @returns how many tasks were dispatched and queries made
 * @example await runDispatchRound(deps, service.currentEpoch())
 */
export async function runDispatchRound(deps: RoundDeps, epoch: number): Promise<{ tasks: number; queries: number }> {
  const c = deps.challenge;
  const snapshot = await deps.registry.snapshot(epoch);
  if (snapshot === undefined) return { tasks: 0, queries: 0 };
  let batch;
  try {
    batch = await deps.source.next({
      epoch,
      limit: c.tasks_per_round,
      dispatched: async (taskId) => (await deps.storage.findRecord('dispatch_task', dispatchTaskId(c.challenge_id, taskId))) !== undefined,
    });
  } catch (error) {
    deps.metrics.dispatchTasks.inc({ challenge: c.challenge_id, outcome: 'source_error' });
    deps.logger.warn(
      { challenge: c.challenge_id, source: deps.source.description, error: (error as Error).message },
      'task source failed; retrying next round',
    );
    return { tasks: 0, queries: 0 };
  }
  for (const problem of batch.problems) deps.report(`${c.challenge_id}: ${problem}`);

  const queries: Promise<unknown>[] = [];
  let dispatched = 0;
  for (const task of batch.tasks) {
    const reject = (why: string): void => {
      deps.metrics.dispatchTasks.inc({ challenge: c.challenge_id, outcome: 'rejected' });
      deps.report(`${c.challenge_id}: task ${task.task_id}: ${why}`);
    };
    let synapse;
    try {
      synapse = createSynapse(deps.definition, task.input);
    } catch (error) {
      if (!isSubnetError(error)) throw error;
      reject(`its input does not fit the synapse ${deps.definition.name}: ${error.message}`);
      continue;
    }
    const drawn = await draw(deps, epoch, task, snapshot.candidates, reject);
    if (drawn === 'stop') break;
    if (drawn === undefined) continue;
    const record = newRecord('dispatch_task', dispatchTaskId(c.challenge_id, task.task_id), epoch, {
      challenge_id: c.challenge_id,
      task_id: task.task_id,
      task_type: drawn.taskType,
      block_hash: drawn.blockHash,
      synapse: deps.definition.name,
      input: task.input,
      group: drawn.members.map((m) => ({ hotkey: m.hotkey, uid: m.uid, role: m.role })),
    });
    // Another instance (HA) or an earlier run dispatched it: it is not sent twice.
    if ((await deps.queue.submit(record)).status !== 'inserted') continue;
    dispatched += 1;
    deps.metrics.dispatchTasks.inc({ challenge: c.challenge_id, outcome: 'dispatched' });
    for (const member of drawn.members) {
      const q: MemberQuery = {
        challengeId: c.challenge_id,
        kind: deps.kind,
        epoch,
        taskId: task.task_id,
        taskType: drawn.taskType,
        taskInput: task.input,
        blockHash: drawn.blockHash,
        member,
        definition: deps.definition,
        synapse,
        answerField: c.synapse.answer_field,
        timeoutSeconds: c.timeout_seconds,
      };
      queries.push(
        queryMember(deps, q).then(
          (done) => {
            deps.metrics.dispatchQueries.inc({ challenge: c.challenge_id, outcome: done.outcome });
          },
          (error: unknown) => {
            deps.logger.error(
              { challenge: c.challenge_id, task: task.task_id, miner: member.hotkey, error: (error as Error).message },
              'storing a query failed',
            );
          },
        ),
      );
    }
  }
  await Promise.all(queries);
  return { tasks: dispatched, queries: queries.length };
}

async function draw(
  deps: RoundDeps,
  epoch: number,
  task: DispatchTask,
  candidates: readonly { readonly hotkey: string; readonly uid: number }[],
  reject: (why: string) => void,
): Promise<Drawn | undefined | 'stop'> {
  if (deps.kind === 'sssa') {
    if (task.task_type === undefined) {
      reject('an sssa task needs a task_type (it selects the per-type reputation of the draw)');
      return undefined;
    }
    const outcome = await deps.registry.register(epoch, task.task_id, task.task_type);
    // The epoch's snapshot is being replaced (the epoch is closing): the task waits for the next round.
    if (outcome.status === 'not_ready') return 'stop';
    if (outcome.status === 'conflict') {
      reject('a task with this id was registered before with another type or block hash');
      return undefined;
    }
    if (outcome.task.epoch !== epoch) {
      reject(`the task was registered in epoch ${outcome.task.epoch}, which is over`);
      return undefined;
    }
    const a = outcome.task.assignment;
    return { blockHash: a.blockHash, taskType: a.taskType, members: a.members };
  }
  const taskType = task.task_type ?? 'workflow';
  const blockHash = await deps.chain.finalizedHash();
  const a = assignTask({
    taskId: task.task_id,
    taskType,
    blockHash,
    candidates,
    reputations: null,
    // No reputation ranks workflow miners: every member is drawn by the seeded PRNG (the "auditor" draw).
    primaries: 0,
    auditors: deps.groupSize,
    settings: { initialReputation: 0.5, minReputation: 0 },
  });
  return { blockHash: a.blockHash, taskType: a.taskType, members: a.members };
}
