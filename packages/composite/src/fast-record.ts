import { DEFAULT_INPUT_LIMITS } from '@subnet/core';

import type { CompiledPlan } from './parse-workflow.js';
import { isPlainObject, jsonShapeOk, keyOk, textOk } from './json-shape.js';
import { STATUS_FAILURE, STATUS_NONE, STATUS_SUCCESS, STATUS_TIMEOUT } from './score-slots.js';
import { finishScore } from './finish-score.js';
import type { WorkflowTask } from './workflow-schemas.js';

/** Scratch shared by every call (single-threaded): node index per attempt, and attempt-number stamps. */
let nodeOf = new Int32Array(64);
let stamps = new Int32Array(64);
let generation = 0;

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isNonNegative(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value < Number.POSITIVE_INFINITY;
}

function statusCode(value: unknown): number {
  return value === 'success' ? STATUS_SUCCESS : value === 'failure' ? STATUS_FAILURE : value === 'timeout' ? STATUS_TIMEOUT : STATUS_NONE;
}

/**
 * Internal, the fast path: validates a raw execution record against everything `parseExecutionRecord`
 * and the scorer check (shape limits, the schema, one form, attempt numbers 1..k, known node ids,
 * producible counters) in one pass without allocating, and scores it into `compiled.out`.
 *
 * @returns true when the record is valid and scored; false when anything is off (the caller then runs
 *   the zod path, which names the field path of the first problem). A property test holds both paths to
 *   accepting exactly the same records.
 */
export function fastScoreRaw(task: WorkflowTask, compiled: CompiledPlan, raw: unknown): boolean {
  if (!isPlainObject(raw)) return false;
  let quality = -1;
  let actualTao = -1;
  let actualSeconds = -1;
  let attempts: unknown[] | undefined;
  let steps = -1;
  let retries = -1;
  let timeouts = -1;
  let hard = -1;
  let keys = 0;
  for (const key in raw) {
    if (!Object.hasOwn(raw, key)) continue;
    if (++keys > DEFAULT_INPUT_LIMITS.maxObjectKeys) return false;
    const value = raw[key];
    switch (key) {
      case 'output_quality_score':
        if (typeof value !== 'number' || !(value >= 0 && value <= 1)) return false;
        quality = value;
        break;
      case 'actual_tao':
        if (!isNonNegative(value)) return false;
        actualTao = value;
        break;
      case 'actual_seconds':
        if (!isNonNegative(value)) return false;
        actualSeconds = value;
        break;
      case 'attempts':
        if (!Array.isArray(value) || value.length > DEFAULT_INPUT_LIMITS.maxListLength) return false;
        attempts = value;
        break;
      case 'steps_completed':
        if (!isCount(value)) return false;
        steps = value;
        break;
      case 'actual_retries':
        if (!isCount(value)) return false;
        retries = value;
        break;
      case 'timeouts':
        if (!isCount(value)) return false;
        timeouts = value;
        break;
      case 'hard_failures':
        if (!isCount(value)) return false;
        hard = value;
        break;
      default:
        if (!keyOk(key) || !jsonShapeOk(value, 1)) return false;
    }
  }
  if (quality < 0 || actualTao < 0 || actualSeconds < 0) return false;
  const n = compiled.totalSteps;
  if (attempts === undefined) {
    if (steps < 0 || retries < 0 || timeouts < 0 || hard < 0) return false;
    if (steps > n || hard > n - steps || retries < (compiled.minRetriesForHardFailures[hard] as number) || timeouts > retries + n) return false;
    finishScore(task, compiled, quality, actualTao, actualSeconds, steps, retries, timeouts, hard, 0, 0);
    return true;
  }
  if (steps >= 0 || retries >= 0 || timeouts >= 0 || hard >= 0) return false;
  return countAttempts(task, compiled, quality, actualTao, actualSeconds, attempts);
}

function countAttempts(task: WorkflowTask, compiled: CompiledPlan, quality: number, actualTao: number, actualSeconds: number, attempts: readonly unknown[]): boolean {
  const { index, attemptsSeen, lastStatus, nodeTimeouts, offsets, timeoutSeconds, retryCount } = compiled;
  const n = compiled.totalSteps;
  const count = attempts.length;
  if (nodeOf.length < count) nodeOf = new Int32Array(count * 2);
  attemptsSeen.fill(0);
  // Pass 1: the shape of every attempt, its node, attempts per node.
  for (let i = 0; i < count; i++) {
    const attempt = attempts[i];
    if (!isPlainObject(attempt)) return false;
    let nodeId: unknown;
    let number = 0;
    let status = STATUS_NONE;
    let seconds = -1;
    let keys = 0;
    for (const key in attempt) {
      if (!Object.hasOwn(attempt, key)) continue;
      if (++keys > DEFAULT_INPUT_LIMITS.maxObjectKeys) return false;
      const value = attempt[key];
      switch (key) {
        case 'node_id':
          if (typeof value !== 'string' || value.length === 0 || !textOk(value)) return false;
          nodeId = value;
          break;
        case 'attempt':
          if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) return false;
          number = value;
          break;
        case 'status':
          status = statusCode(value);
          if (status === STATUS_NONE) return false;
          break;
        case 'seconds':
          if (!isNonNegative(value)) return false;
          seconds = value;
          break;
        default:
          if (!keyOk(key) || !jsonShapeOk(value, 3)) return false;
      }
    }
    if (nodeId === undefined || number === 0 || status === STATUS_NONE || seconds < 0) return false;
    const node = index.get(nodeId as string);
    if (node === undefined) return false;
    nodeOf[i] = node;
    attemptsSeen[node] = (attemptsSeen[node] as number) + 1;
  }
  // Pass 2: attempt numbers are exactly 1..k per node (a stamp table finds repeats), the last status,
  // timeouts per node.
  let total = 0;
  for (let node = 0; node < n; node++) {
    offsets[node] = total;
    total += attemptsSeen[node] as number;
    lastStatus[node] = STATUS_NONE;
    nodeTimeouts[node] = 0;
  }
  if (stamps.length < total) stamps = new Int32Array(total * 2);
  if (generation >= 0x7ffffffe) {
    stamps.fill(0);
    generation = 0;
  }
  const stamp = ++generation;
  let timeouts = 0;
  for (let i = 0; i < count; i++) {
    const attempt = attempts[i] as { attempt: number; status: string; seconds: number };
    const node = nodeOf[i] as number;
    const number = attempt.attempt;
    const k = attemptsSeen[node] as number;
    if (number > k) return false;
    const slot = (offsets[node] as number) + number - 1;
    if (stamps[slot] === stamp) return false;
    stamps[slot] = stamp;
    const status = statusCode(attempt.status);
    if (number === k) lastStatus[node] = status;
    if (status === STATUS_TIMEOUT || attempt.seconds > (timeoutSeconds[node] as number)) {
      timeouts++;
      nodeTimeouts[node] = (nodeTimeouts[node] as number) + 1;
    }
  }
  let steps = 0;
  let retries = 0;
  let hard = 0;
  for (let node = 0; node < n; node++) {
    const seen = attemptsSeen[node] as number;
    if (seen === 0) continue;
    retries += seen - 1;
    if (lastStatus[node] === STATUS_SUCCESS) steps++;
    else if (seen >= (retryCount[node] as number) + 1) hard++;
  }
  finishScore(task, compiled, quality, actualTao, actualSeconds, steps, retries, timeouts, hard, 1, count);
  return true;
}
