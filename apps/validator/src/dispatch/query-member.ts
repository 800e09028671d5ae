import type { Dendrite, Synapse, SynapseDefinition } from '@subnet/axon';
import { synapseValues } from '@subnet/axon';
import type { QueryOutcome, QueryRecord } from '@subnet/bundle';

import type { WriteQueue } from '../write-queue.js';
import { axonAddressScope } from './axon-address.js';
import type { PlanBody } from './dispatch-records.js';
import { newRecord, planRecordId, queryRecordId, sssaRecordId } from './dispatch-records.js';
import type { Limiter } from './limiter.js';
import { answerProblem, failedCall } from './query-outcome.js';

/** An axon as the metagraph has it. */
export interface AxonAddress {
  readonly ip: string;
  readonly port: number;
}

/** One query to make: a member of a dispatched task's group. */
export interface MemberQuery {
  readonly challengeId: string;
  readonly kind: 'sssa' | 'workflow';
  readonly epoch: number;
  readonly taskId: string;
  readonly taskType: string;
  readonly taskInput: Record<string, unknown>;
  readonly blockHash: string;
  readonly member: { readonly uid: number; readonly hotkey: string; readonly role: 'primary' | 'auditor' };
  readonly definition: SynapseDefinition;
  readonly synapse: Synapse;
  readonly answerField: string;
  readonly timeoutSeconds: number;
}

/** What a query needs from the dispatcher. */
export interface MemberQueryDeps {
  readonly dendrite: Dendrite;
  readonly limiter: Limiter;
  readonly queue: WriteQueue;
  /** The miner's axon from the metagraph (null or undefined: none served). */
  axonOf(hotkey: string): AxonAddress | null | undefined;
  /** Called with each stored workflow plan (delivery to the executor). */
  onPlan?(plan: PlanBody, epoch: number): void;
  /** Query axons whose address is loopback, private, link-local, ... (`dispatch.allow_private_axons`; default false). */
  readonly allowPrivateAxons?: boolean;
}

/** A query record as stored (the bundle adds `seq`); hotkeys are plain strings here. */
export type QueryBody = Omit<QueryRecord, 'seq' | 'miner_hotkey' | 'miner_uid'> & { readonly miner_hotkey: string; readonly miner_uid: number };

/** True when the metagraph's axon can be queried (the SDK's `is_serving`: ip not 0.0.0.0; a port). */
function serving(axon: AxonAddress | null | undefined): axon is AxonAddress {
  return axon !== null && axon !== undefined && axon.ip !== '0.0.0.0' && axon.ip !== '::' && axon.port > 0;
}

/**
 * Queries one member's axon with the dendrite (inside the concurrency limit), checks the answer, stores it
 * (an SSSA as the `sssa` record `POST /v1/sssa` would store; a workflow plan as a `workflow_plan` record,
 * then handed to `onPlan`), and stores the query's outcome as a `query` record of the task's epoch. Never
 * throws for what the axon does; throws only when storage fails.
 *
 * @param deps - dendrite, limiter, write queue, metagraph axons, plan hand-off
 * @param q - the query
 * @returns the query record (without seq)
 * @example await queryMember(deps, { challengeId: 'sssa', kind: 'sssa', epoch, taskId, ... })
 */
export async function queryMember(deps: MemberQueryDeps, q: MemberQuery): Promise<QueryBody> {
  const base = {
    challenge_id: q.challengeId,
    task_id: q.taskId,
    block_hash: q.blockHash,
    miner_hotkey: q.member.hotkey,
    miner_uid: q.member.uid,
    role: q.member.role,
    synapse: q.definition.name,
  };
  let outcome: QueryOutcome;
  let reason: string | null = null;
  let statusCode: number | null = null;
  let recordId: string | null = null;
  let elapsedMs = 0;
  const axon = deps.axonOf(q.member.hotkey);
  const scope = serving(axon) && deps.allowPrivateAxons !== true ? axonAddressScope(axon.ip) : undefined;
  if (!serving(axon)) {
    outcome = 'no_axon';
    const served = axon as AxonAddress | null | undefined;
    reason = served === null || served === undefined ? 'the miner has no axon on chain' : `the miner's axon is not serving (${served.ip}:${served.port})`;
  } else if (scope !== undefined) {
    // Nothing is sent: the address would reach the validator's own host or network (docs/spec.md G.6).
    outcome = 'no_axon';
    reason = `the miner's axon address ${axon.ip}:${axon.port} is not public (${scope}); dispatch.allow_private_axons is off`;
  } else {
    const answer = await deps.limiter.run(async () => {
      const started = performance.now();
      const result = await deps.dendrite.query({ ip: axon.ip, port: axon.port, hotkey: q.member.hotkey }, q.definition, q.synapse, q.timeoutSeconds);
      elapsedMs = Math.max(0, Math.round(performance.now() - started));
      return result;
    });
    statusCode = answer.dendrite.statusCode;
    if (statusCode !== 200) ({ outcome, reason } = failedCall(statusCode, answer.dendrite.statusMessage));
    else {
      const value = synapseValues(answer)[q.answerField];
      const problem = answerProblem(q.kind, value, q.answerField);
      if (problem !== undefined) {
        outcome = 'invalid_answer';
        reason = problem;
      } else {
        ({ outcome, reason, recordId } = await storeAnswer(deps, q, value));
      }
    }
  }
  const body = { ...base, status_code: statusCode, outcome, reason, record_id: recordId, elapsed_ms: elapsedMs };
  await deps.queue.submit(newRecord('query', queryRecordId(q.challengeId, q.taskId, q.member.hotkey), q.epoch, body));
  return body;
}

async function storeAnswer(
  deps: MemberQueryDeps,
  q: MemberQuery,
  value: unknown,
): Promise<{ outcome: QueryOutcome; reason: string | null; recordId: string | null }> {
  const hotkey = q.member.hotkey;
  if (q.kind === 'sssa') {
    const id = sssaRecordId(q.taskId, hotkey);
    // The same record a signed POST /v1/sssa stores, so consensus reads it alike.
    const stored = await deps.queue.submit(
      newRecord('sssa', id, q.epoch, { record_id: id, task_id: q.taskId, sssa: value, miner_uid: q.member.uid, miner_hotkey: hotkey }),
    );
    if (stored.status === 'conflict')
      return { outcome: 'conflict', reason: 'the miner already sent a different SSSA for this task; the first stands', recordId: null };
    return { outcome: 'answered', reason: null, recordId: id };
  }
  const id = planRecordId(q.taskId, hotkey);
  const plan: PlanBody = {
    record_id: id,
    challenge_id: q.challengeId,
    task_id: q.taskId,
    task_type: q.taskType,
    miner_hotkey: hotkey,
    miner_uid: q.member.uid,
    input: q.taskInput,
    plan: value,
  };
  const stored = await deps.queue.submit(newRecord('workflow_plan', id, q.epoch, plan));
  if (stored.status === 'conflict')
    return { outcome: 'conflict', reason: 'a different plan of this miner for this task was stored before; the first stands', recordId: null };
  deps.onPlan?.(plan, q.epoch);
  return { outcome: 'answered', reason: null, recordId: id };
}
