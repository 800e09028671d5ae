/** The kinds of input file the command-line apps take, each recognised by its distinctive top-level keys. */
export type DocumentKindId =
  | 'signed-bundle'
  | 'workflow-task'
  | 'workflow-plan'
  | 'execution-record'
  | 'sssa'
  | 'sssa-member'
  | 'sssa-group'
  | 'candidates'
  | 'term-results'
  | 'miner-scores';

/** One kind of input file: what it is, in words, and the command and flag that take it. */
export interface DocumentKind {
  readonly id: DocumentKindId;
  /** What the file is (`a workflow execution record (output_quality_score, actual_tao, ...)`). */
  readonly what: string;
  /** The command and flag that take it (`miner-check workflow --run`). */
  readonly takenBy: string;
}

const KINDS: Readonly<Record<DocumentKindId, DocumentKind>> = Object.freeze({
  'signed-bundle': {
    id: 'signed-bundle',
    what: 'a signed audit bundle (bundle, digest, signature)',
    takenBy: 'auditor-replay verify (its folder: miner-check explain --bundles)',
  },
  'workflow-task': { id: 'workflow-task', what: 'a benchmark task (task_id, constraints)', takenBy: 'miner-check workflow --task' },
  'workflow-plan': { id: 'workflow-plan', what: 'a workflow plan (nodes, edges)', takenBy: 'miner-check workflow --plan' },
  'execution-record': {
    id: 'execution-record',
    what: 'a workflow execution record (output_quality_score, actual_tao, actual_seconds)',
    takenBy: 'miner-check workflow --run',
  },
  sssa: { id: 'sssa', what: 'an SSSA document (findings, verdict)', takenBy: 'miner-check sssa --sssa (yours) or --peers (the others)' },
  'sssa-member': {
    id: 'sssa-member',
    what: 'an SSSA group member ({ uid, hotkey, role, sssa })',
    takenBy: 'miner-check sssa --sssa (yours) or --peers (the others)',
  },
  'sssa-group': { id: 'sssa-group', what: 'a peers file (a list of SSSA documents or group members)', takenBy: 'miner-check sssa --peers' },
  candidates: { id: 'candidates', what: 'a candidates file (a list of { uid, hotkey, reputation })', takenBy: 'miner-check sssa --candidates' },
  'term-results': {
    id: 'term-results',
    what: 'term results (a list of { task_id, tests_passed, tests_total, timed_out })',
    takenBy: 'miner-check term --results',
  },
  'miner-scores': { id: 'miner-scores', what: 'miner scores (a list of { uid, hotkey, score })', takenBy: 'miner-check weights --scores' },
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The kind of one object by its own keys (keys are data: `__proto__` is an ordinary key). */
function objectKind(value: Record<string, unknown>): DocumentKindId | undefined {
  const has = (key: string) => Object.hasOwn(value, key);
  if (has('bundle') && has('signature')) return 'signed-bundle';
  if (has('sssa') && (has('uid') || has('hotkey'))) return 'sssa-member';
  if (has('findings') && has('verdict')) return 'sssa';
  if (has('nodes') && has('edges')) return 'workflow-plan';
  if (has('output_quality_score') || (has('actual_tao') && has('actual_seconds'))) return 'execution-record';
  if (has('task_id') && has('constraints')) return 'workflow-task';
  return undefined;
}

/** The kind of a list by its elements: every one an object of the same element kind. */
function elementKind(value: Record<string, unknown>): DocumentKindId | undefined {
  const has = (key: string) => Object.hasOwn(value, key);
  const own = objectKind(value);
  if (own === 'sssa' || own === 'sssa-member') return 'sssa-group';
  if (own !== undefined) return undefined;
  if (has('reputation') && (has('uid') || has('hotkey'))) return 'candidates';
  if (has('tests_passed') || has('tests_total')) return 'term-results';
  if (has('score') && (has('uid') || has('hotkey'))) return 'miner-scores';
  return undefined;
}

/**
 * What kind of input file a parsed document looks like, by its distinctive top-level keys (of its elements, for a
 * list): a signed audit bundle, a workflow task, plan or execution record, an SSSA document or group member, a peers
 * file, candidates, term results or miner scores. A heuristic for error messages, never a validation.
 *
 * @param value - the parsed document
 * @returns the kind, or undefined when it looks like none (an empty list, a scalar, other keys)
 * @example documentKind([{ uid: 1, hotkey: '5F…', role: 'primary', sssa: {} }])?.takenBy // 'miner-check sssa --peers'
 */
export function documentKind(value: unknown): DocumentKind | undefined {
  if (isRecord(value)) {
    const id = objectKind(value);
    return id === undefined ? undefined : KINDS[id];
  }
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const [first] = value as unknown[];
  const id = isRecord(first) ? elementKind(first) : undefined;
  if (id === undefined || !value.every((element) => isRecord(element) && elementKind(element) === id)) return undefined;
  return KINDS[id];
}

/**
 * The sentence to lead an error with when an input looks like another kind of file than the ones its flag takes:
 * `looks like a peers file (a list of SSSA documents or group members): give it to miner-check sssa --peers`.
 *
 * @param value - the parsed document
 * @param accepted - the kinds the flag (or command) takes
 * @returns the sentence, or undefined when the document looks like an accepted kind or like none
 * @example wrongKindSentence(peers, ['sssa', 'sssa-member']) // 'looks like a peers file (...): give it to miner-check sssa --peers'
 */
export function wrongKindSentence(value: unknown, accepted: readonly DocumentKindId[]): string | undefined {
  const kind = documentKind(value);
  if (kind === undefined || accepted.includes(kind.id)) return undefined;
  return `looks like ${kind.what}: give it to ${kind.takenBy}`;
}
