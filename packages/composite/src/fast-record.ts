import { DEFAULT_INPUT_LIMITS } from '@subnet/core';

import type { CompiledPlan } from './parse-workflow.js';
import { isPlainObject, jsonShapeOk, keyOk, prototypeIsClean } from './json-shape.js';
import { STATUS_FAILURE, STATUS_NONE, STATUS_SUCCESS, STATUS_TIMEOUT } from './score-slots.js';
import { finishAttempts, finishScore } from './finish-score.js';
import type { WorkflowTask } from './workflow-schemas.js';

/**
 * Scratch shared by every call (single-threaded): per attempt its node index, attempt number, status code
 * and seconds (each field read once: a getter cannot answer differently the second time), and
 * attempt-number stamps.
 */
let nodeOf = new Int32Array(64);
let numberOf = new Float64Array(64);
let statusOf = new Uint8Array(64);
let secondsOf = new Float64Array(64);
let stamps = new Int32Array(64);
let generation = 0;

const ATTEMPTS = 8;
const STEPS = 16;
const RETRIES = 32;
const TIMEOUTS = 64;
const HARD = 128;
/** The bit of a known record field, 0 for any other key. */
function recordFieldBit(key: string): number {
  switch (key) {
    case 'output_quality_score':
      return 1;
    case 'actual_tao':
      return 2;
    case 'actual_seconds':
      return 4;
    case 'attempts':
      return ATTEMPTS;
    case 'steps_completed':
      return STEPS;
    case 'actual_retries':
      return RETRIES;
    case 'timeouts':
      return TIMEOUTS;
    case 'hard_failures':
      return HARD;
    default:
      return 0;
  }
}
const REQUIRED = 7;

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
  if (!isPlainObject(raw) || !prototypeIsClean()) return false;
  // Known fields are read by name; the key walk (own keys: the prototype is clean) proves which are own
  // properties and walks the rest.
  let own = 0;
  let keyCount = 0;
  for (const key in raw) {
    if (++keyCount > DEFAULT_INPUT_LIMITS.maxObjectKeys) return false;
    const bit = recordFieldBit(key);
    if (bit !== 0) own |= bit;
    else if (!keyOk(key) || !jsonShapeOk(raw[key], 1)) return false;
  }
  if ((own & REQUIRED) !== REQUIRED) return false;
  const quality = raw.output_quality_score;
  const actualTao = raw.actual_tao;
  const actualSeconds = raw.actual_seconds;
  if (typeof quality !== 'number' || !(quality >= 0 && quality <= 1) || !isNonNegative(actualTao) || !isNonNegative(actualSeconds)) return false;
  let steps = -1;
  let retries = -1;
  let timeouts = -1;
  let hard = -1;
  let attempts: unknown[] | undefined;
  if ((own & ATTEMPTS) !== 0) {
    const list = raw.attempts;
    if (!Array.isArray(list) || list.length > DEFAULT_INPUT_LIMITS.maxListLength) return false;
    attempts = list;
  }
  if ((own & STEPS) !== 0) {
    if (!isCount(raw.steps_completed)) return false;
    steps = raw.steps_completed;
  }
  if ((own & RETRIES) !== 0) {
    if (!isCount(raw.actual_retries)) return false;
    retries = raw.actual_retries;
  }
  if ((own & TIMEOUTS) !== 0) {
    if (!isCount(raw.timeouts)) return false;
    timeouts = raw.timeouts;
  }
  if ((own & HARD) !== 0) {
    if (!isCount(raw.hard_failures)) return false;
    hard = raw.hard_failures;
  }
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

/** Attempt numbers up to this fit the one-pass bit mask per node; a higher one takes the stamp table. */
const MASK_NUMBERS = 31;

/**
 * The attempts of a record in one pass: each attempt's shape (its four fields read once, by name), its
 * node, and per node the attempts seen, a bit per attempt number (a repeat is refused at once), the
 * highest number and its status, and the timeouts. Numbers 1..k per node then means the node's mask is
 * exactly k low bits. Each attempt's node, number, status and seconds are also kept, so that a record
 * with a number above 31 is checked after the pass by {@link checkStamped}, which allows any number.
 */
function countAttempts(
  task: WorkflowTask,
  compiled: CompiledPlan,
  quality: number,
  actualTao: number,
  actualSeconds: number,
  attempts: readonly unknown[],
): boolean {
  const { index, nodeIds, attemptsSeen, numberMask, lastAttempt, lastStatus, nodeTimeouts, timeoutSeconds } = compiled;
  const n = compiled.totalSteps;
  for (let node = 0; node < n; node++) {
    attemptsSeen[node] = 0;
    numberMask[node] = 0;
    lastAttempt[node] = 0;
    lastStatus[node] = STATUS_NONE;
    nodeTimeouts[node] = 0;
  }
  const count = attempts.length;
  if (nodeOf.length < count) {
    nodeOf = new Int32Array(count * 2);
    numberOf = new Float64Array(count * 2);
    statusOf = new Uint8Array(count * 2);
    secondsOf = new Float64Array(count * 2);
  }
  let guess = -1;
  let timeouts = 0;
  let wide = false;
  for (let i = 0; i < count; i++) {
    const attempt = attempts[i];
    if (typeof attempt !== 'object' || attempt === null || Array.isArray(attempt)) return false;
    // The four fields are read by name first (monomorphic loads that also pin the object's map, so the
    // prototype check below costs nothing), each once: a getter cannot answer differently the second time.
    const nodeId = (attempt as Record<string, unknown>).node_id;
    const number = (attempt as Record<string, unknown>).attempt;
    const statusValue = (attempt as Record<string, unknown>).status;
    const seconds = (attempt as Record<string, unknown>).seconds;
    const proto: unknown = Object.getPrototypeOf(attempt);
    if (proto !== Object.prototype && proto !== null) return false;
    // The key walk only proves that all four are own properties and walks any unknown field.
    let known = 0;
    let keyCount = 0;
    for (const key in attempt) {
      if (++keyCount > DEFAULT_INPUT_LIMITS.maxObjectKeys) return false;
      if (key === 'node_id' || key === 'attempt' || key === 'status' || key === 'seconds') known++;
      else if (!keyOk(key) || !jsonShapeOk((attempt as Record<string, unknown>)[key], 3)) return false;
    }
    if (known !== 4 || typeof nodeId !== 'string') return false;
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1) return false;
    const status = statusCode(statusValue);
    if (status === STATUS_NONE || !isNonNegative(seconds)) return false;
    // Attempts usually follow the plan: try the node after the previous attempt's (a first attempt), then
    // the same node (a retry) before the map. A node id equal to a plan node id passed the plan's text
    // checks (length, well-formed UTF-16); any other is not a node, and the zod path names it.
    const node = guess + 1 < n && nodeIds[guess + 1] === nodeId ? guess + 1 : guess >= 0 && nodeIds[guess] === nodeId ? guess : (index.get(nodeId) ?? -1);
    if (node < 0) return false;
    guess = node;
    nodeOf[i] = node;
    numberOf[i] = number;
    statusOf[i] = status;
    secondsOf[i] = seconds;
    attemptsSeen[node] = (attemptsSeen[node] as number) + 1;
    if (number > MASK_NUMBERS) wide = true;
    if (wide) continue;
    const bit = 1 << (number - 1);
    const mask = numberMask[node] as number;
    if ((mask & bit) !== 0) return false;
    numberMask[node] = mask | bit;
    if (number > (lastAttempt[node] as number)) {
      lastAttempt[node] = number;
      lastStatus[node] = status;
    }
    if (status === STATUS_TIMEOUT || seconds > (timeoutSeconds[node] as number)) {
      timeouts++;
      nodeTimeouts[node] = (nodeTimeouts[node] as number) + 1;
    }
  }
  if (wide) {
    timeouts = checkStamped(compiled, count);
    if (timeouts < 0) return false;
  } else {
    // Distinct numbers in 1..31, `seen` of them: 1..seen exactly when the mask is the low `seen` bits.
    for (let node = 0; node < n; node++) {
      const seen = attemptsSeen[node] as number;
      if ((numberMask[node] as number) !== (seen === 31 ? 0x7fffffff : (1 << seen) - 1)) return false;
    }
  }
  finishAttempts(task, compiled, quality, actualTao, actualSeconds, timeouts, count);
  return true;
}

/**
 * For a record with an attempt number above 31, from the attempts kept by the pass: the numbers are
 * exactly 1..k per node (a stamp table finds repeats, any k), the status of each node's last attempt,
 * and the timeouts per node.
 *
 * @returns the timeouts, or -1 when a number skips or repeats
 */
function checkStamped(compiled: CompiledPlan, count: number): number {
  const { attemptsSeen, lastStatus, nodeTimeouts, offsets, timeoutSeconds } = compiled;
  let total = 0;
  for (let node = 0; node < compiled.totalSteps; node++) {
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
    const node = nodeOf[i] as number;
    const number = numberOf[i] as number;
    const k = attemptsSeen[node] as number;
    if (number > k) return -1;
    const slot = (offsets[node] as number) + number - 1;
    if (stamps[slot] === stamp) return -1;
    stamps[slot] = stamp;
    const status = statusOf[i] as number;
    if (number === k) lastStatus[node] = status;
    if (status === STATUS_TIMEOUT || (secondsOf[i] as number) > (timeoutSeconds[node] as number)) {
      timeouts++;
      nodeTimeouts[node] = (nodeTimeouts[node] as number) + 1;
    }
  }
  return timeouts;
}
