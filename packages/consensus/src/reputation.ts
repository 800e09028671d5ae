import { compareCodePoints, parseInput, SubnetError, unitIntervalSchema } from '@subnet/core';
import { z } from 'zod';

import { CONSENSUS_ERROR_CODES } from './errors.js';
import { deepFreeze } from './freeze.js';
import { memoHotkeySchema } from './hotkey.js';

/**
 * The reputation settings of docs/spec.md G.3: a hotkey absent from the table for a type starts at
 * `initialReputation` (0.5), a candidate is eligible iff its reputation is >= `minReputation` (0.2), and
 * each observation moves the reputation by `rate` (beta, 0.1).
 *
 * @example updateReputations({ ..., settings: { ...DEFAULT_REPUTATION_SETTINGS, rate: 0.2 } })
 */
export const DEFAULT_REPUTATION_SETTINGS: ReputationSettings = Object.freeze({
  initialReputation: 0.5,
  minReputation: 0.2,
  rate: 0.1,
});

/** Reputation settings (configuration); see {@link DEFAULT_REPUTATION_SETTINGS}. */
export interface ReputationSettings {
  /** Reputation of a hotkey absent from the table for a type, in [0, 1]. */
  readonly initialReputation: number;
  /** Eligibility threshold for a verification group, in [0, 1]. */
  readonly minReputation: number;
  /** beta of `r = (1 - beta) * r + beta * c`, in [0, 1]. */
  readonly rate: number;
}

/** One entry of the per-type reputation table (wire form, snake_case). */
export interface ReputationEntry {
  readonly task_type: string;
  readonly hotkey: string;
  readonly reputation: number;
}

/**
 * The per-type reputation table on the wire: a list of `{ task_type, hotkey, reputation }` sorted by task
 * type then hotkey (code point order), each pair at most once. A list, not an object keyed by type, so a
 * task type such as `__proto__` or `constructor` is plain data.
 */
export const reputationTableSchema = z
  .array(z.strictObject({ task_type: z.string().min(1).max(128), hotkey: memoHotkeySchema, reputation: unitIntervalSchema }))
  .max(10_000_000)
  .superRefine((entries, ctx) => {
    for (let i = 1; i < entries.length; i++) {
      const a = entries[i - 1];
      const b = entries[i];
      if (a === undefined || b === undefined) continue;
      const order = compareCodePoints(a.task_type, b.task_type) || compareCodePoints(a.hotkey, b.hotkey);
      if (order >= 0) ctx.addIssue({ code: 'custom', path: [i], message: 'entries must be sorted by (task_type, hotkey), each pair once' });
    }
  });

const settingsSchema = z.strictObject({
  initialReputation: unitIntervalSchema,
  minReputation: unitIntervalSchema,
  rate: unitIntervalSchema,
});

/** A parsed reputation table with lookups by (task type, hotkey); keys are data (a `Map`). */
export interface ReputationTable {
  /** The entries, sorted by task type then hotkey. */
  readonly entries: readonly ReputationEntry[];
  /** The reputation of `hotkey` for `taskType`, or `undefined` when the table has none. */
  get(taskType: string, hotkey: string): number | undefined;
}

const key = (taskType: string, hotkey: string): string => `${taskType}\u0000${hotkey}`;

/**
 * Parses a reputation table (for example the one carried from the previous epoch).
 *
 * @param input - the wire list, or `null` / `undefined` for the empty table (before the first epoch)
 * @param label - the root of error paths
 * @returns the table with lookups
 * @throws SubnetError `CONSENSUS_INVALID_SELECTION` naming the entry (`reputations[3].reputation`)
 * @example parseReputationTable([{ task_type: 'mcp_server', hotkey, reputation: 0.7 }]).get('mcp_server', hotkey) // 0.7
 */
export function parseReputationTable(input: unknown, label = 'reputations'): ReputationTable {
  const entries = input === null || input === undefined ? [] : parseInput(reputationTableSchema, input, CONSENSUS_ERROR_CODES.invalidSelection, label);
  return tableOf(entries.map((e) => ({ task_type: e.task_type, hotkey: e.hotkey, reputation: e.reputation })));
}

function tableOf(entries: ReputationEntry[]): ReputationTable {
  const index = new Map<string, number>();
  for (const e of entries) index.set(key(e.task_type, e.hotkey), e.reputation);
  deepFreeze(entries);
  return Object.freeze({ entries, get: (taskType: string, hotkey: string) => index.get(key(taskType, hotkey)) });
}

/** One assigned member of a task, as {@link updateReputations} reads it. */
export interface ReputationMemberOutcome {
  readonly hotkey: string;
  /** Whether the member sent a valid SSSA for the task (false: missing or excluded). */
  readonly valid: boolean;
  /** The member's consensus score, or null when the task's consensus was not computed (n < 3). */
  readonly consensus: number | null;
}

/** One task of the epoch, as {@link updateReputations} reads it. */
export interface ReputationTaskOutcome {
  readonly taskId: string;
  readonly taskType: string;
  /** Every member the draw assigned (primaries and auditors). */
  readonly members: readonly ReputationMemberOutcome[];
}

/** One observation applied to the table. */
export interface ReputationObservation {
  readonly task_id: string;
  readonly task_type: string;
  readonly hotkey: string;
  /** The observation c (consensus, or 0 for a missing or excluded SSSA). */
  readonly observation: number;
  readonly before: number;
  readonly after: number;
}

/** The result of {@link updateReputations} (frozen). */
export interface ReputationUpdate {
  /** The table after the epoch, entries sorted by task type then hotkey. */
  readonly table: readonly ReputationEntry[];
  /** Every observation in the order it was applied. */
  readonly observations: readonly ReputationObservation[];
  /** Entries dropped because their hotkey is not in the epoch's metagraph, sorted. */
  readonly dropped: readonly ReputationEntry[];
}

/** Input of {@link updateReputations}. */
export interface ReputationUpdateInput {
  /** The table before the epoch (wire list or a parsed table; null for the empty table). */
  readonly before: unknown;
  /** The epoch's tasks with their assigned members. */
  readonly tasks: readonly ReputationTaskOutcome[];
  /** Hotkeys of the epoch's metagraph: entries of other hotkeys are dropped after the update. */
  readonly keepHotkeys: ReadonlySet<string>;
  /** Settings; missing fields take {@link DEFAULT_REPUTATION_SETTINGS}. */
  readonly settings?: Partial<ReputationSettings>;
}

/**
 * Applies one epoch's observations to the per-type reputation table (docs/spec.md G.3): tasks in task id
 * order (code point), then each assigned member in hotkey order; the observation is the member's consensus
 * when the task's consensus was computed, 0 when the member sent no valid SSSA (whatever n), and none when
 * it sent a valid SSSA to a task whose consensus is null. Each observation updates
 * `r = (1 - beta) * r + beta * c`, left to right in doubles, starting from the table's value or the
 * initial reputation. Entries of hotkeys not in `keepHotkeys` are dropped afterwards.
 *
 * @param input - the table before, the tasks, the metagraph's hotkeys and the settings
 * @returns the table after, the observations and the dropped entries
 * @throws SubnetError `CONSENSUS_INVALID_SELECTION` for a malformed table, setting, consensus value or a
 *   task id listed twice
 * @example
 * updateReputations({ before: null, tasks: [{ taskId: 't1', taskType: 'mcp', members: [{ hotkey, valid: true, consensus: 1 }] }], keepHotkeys: new Set([hotkey]) })
 *   .table // [{ task_type: 'mcp', hotkey, reputation: 0.55 }]
 */
export function updateReputations(input: ReputationUpdateInput): ReputationUpdate {
  const before = parseReputationTable(input.before, 'before');
  const settings = parseInput(settingsSchema, { ...DEFAULT_REPUTATION_SETTINGS, ...input.settings }, CONSENSUS_ERROR_CODES.invalidSelection, 'settings');
  const beta = settings.rate;
  const values = new Map<string, ReputationEntry>();
  for (const e of before.entries) values.set(key(e.task_type, e.hotkey), e);
  const tasks = [...input.tasks].sort((a, b) => compareCodePoints(a.taskId, b.taskId));
  const observations: ReputationObservation[] = [];
  for (let t = 0; t < tasks.length; t++) {
    const task = tasks[t] as ReputationTaskOutcome;
    if (t > 0 && tasks[t - 1]?.taskId === task.taskId) {
      throw new SubnetError(CONSENSUS_ERROR_CODES.invalidSelection, 'a task id is listed twice', {
        context: { path: `tasks[task_id=${JSON.stringify(task.taskId)}]`, value: task.taskId },
      });
    }
    const members = [...task.members].sort((a, b) => compareCodePoints(a.hotkey, b.hotkey));
    for (const member of members) {
      let c: number;
      if (!member.valid) c = 0;
      else if (member.consensus === null) continue;
      else
        c = parseInput(
          unitIntervalSchema,
          member.consensus,
          CONSENSUS_ERROR_CODES.invalidSelection,
          `tasks[task_id=${task.taskId}].members[${member.hotkey}].consensus`,
        );
      const k = key(task.taskType, member.hotkey);
      const r = values.get(k)?.reputation ?? settings.initialReputation;
      const next = (1 - beta) * r + beta * c;
      values.set(k, { task_type: task.taskType, hotkey: member.hotkey, reputation: next });
      observations.push({ task_id: task.taskId, task_type: task.taskType, hotkey: member.hotkey, observation: c, before: r, after: next });
    }
  }
  const sorted = [...values.values()].sort((a, b) => compareCodePoints(a.task_type, b.task_type) || compareCodePoints(a.hotkey, b.hotkey));
  const table = sorted.filter((e) => input.keepHotkeys.has(e.hotkey));
  const dropped = sorted.filter((e) => !input.keepHotkeys.has(e.hotkey));
  return deepFreeze({ table, observations, dropped });
}
