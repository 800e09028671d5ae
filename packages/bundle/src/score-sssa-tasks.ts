import { compareCodePoints } from '@subnet/core';
import { assignTask, computeConsensus, emission, parseSssa, updateReputations } from '@subnet/consensus';
import type { ConsensusResult, ReputationTable, Sssa, TaskAssignment } from '@subnet/consensus';

import type { ChallengeSettings } from './epoch-config.js';
import type { SssaSubmissionRecord, TaskRecord } from './epoch-inputs.js';
import { BUNDLE_ERROR_CODES } from './errors.js';
import type { Exclusions } from './exclusion.js';
import type { OwnScore } from './own-score.js';
import { noteSeq } from './submission-order.js';
import { ownValue, toWire } from './wire.js';

type SssaSettings = Extract<ChallengeSettings, { kind: 'sssa' }>;

/** What {@link scoreSssaTasks} returns. */
export interface SssaOutcome {
  readonly own: OwnScore[];
  readonly details: unknown;
  /** Each usable task with its drawn group (wire form), by task id. */
  readonly tasks: unknown[];
  /** Per task type used this epoch, every candidate's reputation and eligibility (wire form), by type. */
  readonly eligibility: unknown[];
  /** The per-type reputation table after this epoch, and the observations that made it. */
  readonly reputations: unknown;
  readonly observations: unknown;
  /** Per miner hotkey, the smallest seq of its SSSAs that earned an emission: its submission (docs/spec.md G.4). */
  readonly submissions: ReadonlyMap<string, number>;
}

/** Input of {@link scoreSssaTasks}. */
export interface SssaTasksInput {
  readonly tasks: readonly TaskRecord[];
  readonly submissions: readonly SssaSubmissionRecord[];
  readonly candidates: readonly { readonly hotkey: string; readonly uid: number }[];
  readonly reputations: ReputationTable;
  /** Hotkeys of the epoch's metagraph (other hotkeys get no own score, and their reputation entries are dropped). */
  readonly metagraphHotkeys: ReadonlySet<string>;
  readonly settings: SssaSettings;
}

interface Member {
  readonly record: SssaSubmissionRecord;
  /** The record's document as `parseSssa` returned it. */
  readonly sssa: Sssa;
  readonly uid: number;
  readonly hotkey: string;
  readonly role: 'primary' | 'auditor';
}

/**
 * The SSSA challenge of one epoch (SPEC B, docs/spec.md G.3 and G.6). Each registered task's group is
 * drawn with `assignTask` from its block hash, the epoch's candidates and the reputation table before the
 * epoch; an SSSA is excluded with a reason when its task is unknown, its miner is outside the group, the
 * miner already sent one for the task, or the document is invalid. Task type and role come from the
 * assignment. Consensus per task over the valid SSSAs, emission per member (own score = emission total /
 * the largest total of a hotkey in the epoch's metagraph; a hotkey the metagraph does not list keeps its
 * emission total in the details and gets no own score), and the reputation table updated from the outcome.
 * A miner's submission (for `winner_takes_all` ties, docs/spec.md G.4) is the smallest seq among its SSSAs
 * that earned an emission.
 *
 * @param input - tasks, submissions, candidates, reputations before, metagraph hotkeys and settings
 * @returns own scores, details, groups, eligibility and the reputation table after
 */
export function scoreSssaTasks(input: SssaTasksInput, excluded: Exclusions): SssaOutcome {
  const { settings } = input;
  const a = settings.assignment;
  const assignments = new Map<string, TaskAssignment>();
  for (const task of input.tasks) {
    try {
      assignments.set(
        task.task_id,
        assignTask({
          taskId: task.task_id,
          taskType: task.task_type,
          blockHash: task.block_hash,
          candidates: input.candidates,
          reputations: input.reputations,
          settings: { initialReputation: a.initial_reputation, minReputation: a.min_reputation },
          primaries: a.primaries,
          auditors: a.auditors,
        }),
      );
    } catch (error) {
      excluded.addError('tasks', task, error);
    }
  }

  const byTask = new Map<string, Member[]>();
  const sent = new Set<string>();
  for (const record of input.submissions) {
    const assignment = assignments.get(record.task_id);
    if (assignment === undefined) {
      excluded.add(
        'sssa_submissions',
        record,
        BUNDLE_ERROR_CODES.unknownTask,
        `task ${JSON.stringify(record.task_id)} was not registered with this validator this epoch`,
      );
      continue;
    }
    const member = assignment.members.find((m) => m.hotkey === record.miner_hotkey);
    if (member === undefined) {
      excluded.add(
        'sssa_submissions',
        record,
        BUNDLE_ERROR_CODES.notInGroup,
        `the miner is not in the verification group drawn for task ${JSON.stringify(record.task_id)}`,
      );
      continue;
    }
    const pair = `${record.task_id}\u0000${record.miner_hotkey}`;
    if (sent.has(pair)) {
      excluded.add(
        'sssa_submissions',
        record,
        BUNDLE_ERROR_CODES.duplicateSssa,
        `the miner already sent an SSSA for task ${JSON.stringify(record.task_id)}; the first one counts`,
      );
      continue;
    }
    sent.add(pair);
    // Validated once: the parsed document keeps what consensus scores, so computeConsensus does not read it again,
    // and gives what the raw document gives (consensus's fresh-group-parity.test.ts).
    let sssa: Sssa;
    try {
      sssa = parseSssa(record.sssa);
    } catch (error) {
      excluded.addError('sssa_submissions', record, error);
      continue;
    }
    const list = byTask.get(record.task_id) ?? [];
    list.push({ record, sssa, uid: member.uid, hotkey: member.hotkey, role: member.role });
    byTask.set(record.task_id, list);
  }

  const tables = settings.emission;
  const totals = new Map<string, number>();
  const submissions = new Map<string, number>();
  const groups: unknown[] = [];
  const outcomes: { taskId: string; taskType: string; members: { hotkey: string; valid: boolean; consensus: number | null }[] }[] = [];
  for (const taskId of [...assignments.keys()].sort(compareCodePoints)) {
    const assignment = assignments.get(taskId) as TaskAssignment;
    const members = byTask.get(taskId) ?? [];
    let consensus: ConsensusResult | undefined;
    try {
      consensus = computeConsensus({ taskId, members: members.map((m) => ({ uid: m.uid, hotkey: m.hotkey, role: m.role, sssa: m.sssa })) });
    } catch (error) {
      for (const m of members) excluded.addError('sssa_submissions', m.record, error);
    }
    const result = consensus;
    const emissions: unknown[] = [];
    for (const member of result?.members ?? []) {
      const record = members.find((m) => m.hotkey === member.hotkey)?.record;
      try {
        const e = emission(
          {
            compositeQ: tables.composite_q,
            baseWeight: ownValue(tables.base_weights, assignment.taskType) ?? tables.default_base_weight,
            tierMultiplier: ownValue(tables.tier_multipliers, member.hotkey) ?? tables.default_tier_multiplier,
            earlyBonus: tables.early_bonus,
            role: member.role,
            consensus: member.consensus,
            bootstrap: tables.bootstrap,
          },
          { role: tables.role },
        );
        totals.set(member.hotkey, (totals.get(member.hotkey) ?? 0) + e.emission);
        if (record !== undefined) noteSeq(submissions, member.hotkey, record.seq);
        emissions.push({ hotkey: member.hotkey, ...e });
      } catch (error) {
        excluded.addError('sssa_submissions', record, error);
      }
    }
    const consensusOf = new Map((result?.members ?? []).map((m) => [m.hotkey as string, m.consensus]));
    outcomes.push({
      taskId,
      taskType: assignment.taskType,
      members: assignment.members.map((m) => ({ hotkey: m.hotkey, valid: consensusOf.has(m.hotkey), consensus: consensusOf.get(m.hotkey) ?? null })),
    });
    groups.push({ task_id: taskId, task_type: assignment.taskType, consensus: result ?? null, emissions });
  }

  const update = updateReputations({
    before: input.reputations.entries,
    tasks: outcomes,
    keepHotkeys: input.metagraphHotkeys,
    settings: { initialReputation: a.initial_reputation, minReputation: a.min_reputation, rate: a.reputation_rate },
  });

  const hotkeys = [...totals.keys()].sort(compareCodePoints);
  // Own scores are scaled over the hotkeys of the epoch's metagraph (docs/spec.md G.6): a member that left it
  // during the epoch takes no share of the challenge (G.4), so its emission must not set the others' scale
  // either; it keeps its emission total in the details and gets no own score (as workflow windows are dropped).
  // No field is added to the details, so a bundle without such a member replays byte for byte as before.
  const registered = hotkeys.filter((h) => input.metagraphHotkeys.has(h));
  let max = 0;
  for (const h of registered) max = Math.max(max, totals.get(h) ?? 0);
  const own = registered.map((h) => ({ miner_hotkey: h, score: max > 0 ? (totals.get(h) ?? 0) / max : 0 }));

  const sortedAssignments = [...assignments.values()].sort((x, y) => compareCodePoints(x.taskId, y.taskId));
  const eligibility = new Map<string, unknown>();
  for (const t of sortedAssignments) if (!eligibility.has(t.taskType)) eligibility.set(t.taskType, { task_type: t.taskType, candidates: t.candidates });
  return {
    own,
    details: {
      groups,
      emission_totals: hotkeys.map((h) => ({ miner_hotkey: h, emission: totals.get(h) ?? 0 })),
      max_emission: max,
    },
    tasks: sortedAssignments.map((t) =>
      toWire({ taskId: t.taskId, taskType: t.taskType, blockHash: t.blockHash, seed: t.seed, members: t.members, shortfall: t.shortfall }),
    ),
    eligibility: [...eligibility.keys()].sort(compareCodePoints).map((type) => toWire(eligibility.get(type))),
    reputations: update.table,
    observations: update.observations,
    submissions,
  };
}
