import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

import { taskIdSchema, taskTypeSchema } from '@subnet/consensus';
import { formatPath, redactUrl } from '@subnet/core';
import { z } from 'zod';

import { readBodyUpTo } from '../http-body.js';
import { readTaskFile } from './read-task-file.js';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One task from a task source: its id (unique per validator), its type (required for `sssa` challenges: it
 * selects the per-type reputation of the draw) and `input`, the values of the synapse's fields by name
 * (JSON; a field of the synapse absent here takes its declared default).
 */
export const dispatchTaskSchema = z.strictObject({
  task_id: taskIdSchema,
  task_type: taskTypeSchema.optional(),
  input: z.custom<Record<string, unknown>>(isPlainObject, 'input is a JSON object of synapse field values').default(() => ({})),
});
/** A task to dispatch. */
export type DispatchTask = z.output<typeof dispatchTaskSchema>;

/** The most bytes read from one task file or one task endpoint answer. */
export const MAX_TASK_SOURCE_BYTES = 16 * 1024 * 1024;

/** What a source gave: new tasks (not yet dispatched, at most `limit`) and a sentence per unusable entry. */
export interface TaskBatch {
  readonly tasks: readonly DispatchTask[];
  readonly problems: readonly string[];
}

/** Where a challenge's tasks come from. */
export interface TaskSource {
  /** A human description (URLs redacted) for logs. */
  readonly description: string;
  /**
   * Up to `limit` tasks not yet dispatched.
   *
   * @param request - the epoch, the limit and the check that says a task id was dispatched before
   * @throws Error when the source cannot be read at all (the round is retried later)
   */
  next(request: { readonly epoch: number; readonly limit: number; readonly dispatched: (taskId: string) => Promise<boolean> }): Promise<TaskBatch>;
}

/** Reads tasks out of one parsed document: a task, or `{ "tasks": [task, ...] }`. */
function tasksOf(document: unknown, where: string, problems: string[]): DispatchTask[] {
  const list: unknown[] = isPlainObject(document) && Object.hasOwn(document, 'tasks') && Array.isArray(document.tasks) ? document.tasks : [document];
  const prefix = list.length === 1 && list[0] === document ? [] : ['tasks'];
  const out: DispatchTask[] = [];
  list.forEach((item, i) => {
    const parsed = dispatchTaskSchema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
    else {
      const issue = parsed.error.issues[0];
      const path = formatPath([...prefix, ...(prefix.length > 0 ? [i] : []), ...(issue?.path ?? [])], 'task');
      problems.push(`${where}: ${issue?.message ?? 'invalid task'} at ${path}`);
    }
  });
  return out;
}

async function pick(candidates: readonly DispatchTask[], limit: number, dispatched: (id: string) => Promise<boolean>, problems: string[], where: string) {
  const seen = new Set<string>();
  const tasks: DispatchTask[] = [];
  for (const task of candidates) {
    if (tasks.length >= limit) break;
    if (seen.has(task.task_id)) {
      problems.push(`${where}: task ${task.task_id} is listed twice; the first is used`);
      continue;
    }
    seen.add(task.task_id);
    if (!(await dispatched(task.task_id))) tasks.push(task);
  }
  return tasks;
}

/**
 * A folder of task files: every `*.json` file (by name, code point order) holds one task or
 * `{ "tasks": [...] }`. Files are read again each round, so tasks can be dropped in while the validator runs;
 * a task whose id was dispatched before is skipped. Unusable files and tasks are reported, never fatal; a file
 * larger than the limit (checked on the descriptor it is read through, and again by the read) is one of them,
 * and what is not a regular file is skipped.
 *
 * @param folder - the folder
 * @param options - `maxFileBytes`, the largest task file read (default {@link MAX_TASK_SOURCE_BYTES})
 * @returns the source
 * @example folderTaskSource('./tasks/sssa')
 */
export function folderTaskSource(folder: string, options: { readonly maxFileBytes?: number } = {}): TaskSource {
  const maxFileBytes = options.maxFileBytes ?? MAX_TASK_SOURCE_BYTES;
  return {
    description: `folder ${folder}`,
    next: async ({ limit, dispatched }) => {
      const problems: string[] = [];
      const names = (await readdir(folder)).filter((n) => n.endsWith('.json')).sort();
      const all: DispatchTask[] = [];
      for (const name of names) {
        try {
          // One descriptor for the size check and the read: a file replaced or grown between them is not read past the limit.
          const bytes = await readTaskFile(join(folder, name), maxFileBytes);
          if (bytes === undefined) continue;
          all.push(...tasksOf(JSON.parse(bytes.toString('utf8')) as unknown, name, problems));
        } catch (error) {
          problems.push(`${name}: ${(error as Error).message.split('\n')[0] ?? 'unreadable'}`);
        }
      }
      return { tasks: await pick(all, limit, dispatched, problems, folder), problems };
    },
  };
}

/**
 * An HTTP endpoint of the subnet's own: `GET <url>?challenge_id=<id>&epoch=<n>&limit=<k>` answers 200 with
 * `{ "tasks": [...] }` (or 204 when there is none); an optional bearer token. The endpoint may return tasks it
 * returned before: those already dispatched are skipped.
 *
 * @param options - URL, challenge id, bearer token, timeout
 * @returns the source
 * @example httpTaskSource({ url: 'https://tasks.example/next', challengeId: 'sssa', timeoutMs: 10_000 })
 */
export function httpTaskSource(options: {
  readonly url: string;
  readonly challengeId: string;
  readonly token?: string;
  readonly timeoutMs: number;
}): TaskSource {
  const where = redactUrl(options.url);
  return {
    description: `endpoint ${where}`,
    next: async ({ epoch, limit, dispatched }) => {
      const url = new URL(options.url);
      url.searchParams.set('challenge_id', options.challengeId);
      url.searchParams.set('epoch', String(epoch));
      url.searchParams.set('limit', String(limit));
      const response = await fetch(url, {
        headers: { accept: 'application/json', ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }) },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (response.status === 204) return { tasks: [], problems: [] };
      if (response.status !== 200) throw new Error(`the task endpoint ${where} answered ${response.status}`);
      const declared = Number(response.headers.get('content-length') ?? '0');
      if (declared > MAX_TASK_SOURCE_BYTES) throw new Error(`the task endpoint ${where} answered ${declared} bytes, more than ${MAX_TASK_SOURCE_BYTES}`);
      const { bytes, more } = await readBodyUpTo(response, MAX_TASK_SOURCE_BYTES);
      if (more) throw new Error(`the task endpoint ${where} answered more than ${MAX_TASK_SOURCE_BYTES} bytes`);
      const document = JSON.parse(bytes.toString('utf8')) as unknown;
      if (!isPlainObject(document) || !Array.isArray(document.tasks)) throw new Error(`the task endpoint ${where} did not answer { "tasks": [...] }`);
      const problems: string[] = [];
      const all = tasksOf(document, where, problems);
      return { tasks: await pick(all, limit, dispatched, problems, where), problems };
    },
  };
}
